"""Write real-format .vlog files from a short script, shaped as VASSAL 3.7.26 writes them.

Fixtures for the auditor must look like the engine's own logs, so each step is built the way
the engine's player code builds it (`PieceMover.movePieces`, `KeyBuffer.keyCommand`,
`DiceButton.DR`, `TurnTracker.save`, `BasicLogger.undo`): `Command` trees with Java's `append`
rules, `LOG\\tnull` for the persistent-property changes that have no encoder, undo trees from
`getUndoCommand`.  A mirror of the game (the replay `Board`, persistent properties, draw-pile
contents, turn state, dice properties) knows every piece's id, position and stack.

Checked against the engine (a local harness, not in the tests): 3.7.26 playing the same script
through that code wrote the same log, step for step and in its beginning state, but for the ids
of new stacks and of the draw pile (a counter here, the clock there).
"""
from __future__ import annotations

import io
import zipfile
from collections import Counter
from itertools import product
from pathlib import Path

from lxml import etree

from builder.geometry import javagrid
from builder.vassal.archive import write_atomic, zip_bytes_entries
from builder.vassal.pieces import Trait, chain, unchain
from builder.vassal.savefile import ESC, decode_tree, deobfuscate, leaves, obfuscate, savedata_xml
from builder.vassal.sequence import join, split
from validators.replay.board import Board
from validators.vlog import commands as vc
from validators.vlog.modulegrid import HexGridSpec, read_module_grids

ENGINE_VERSION = "3.7.26"
FIRST_NEW_ID = 1800000000000  # ids of stacks and piles created here (VASSAL: the clock in ms)
OLD_KEYS = ("OldX", "OldY", "OldMap", "OldBoard", "OldZone", "OldLocationName", "OldDeckName")
DICE_START = {"_result": "1", "_total": "0", "_keep": "0", "_summary": ""}  # DiceButton.addTo
KEY_PROPS = ("UnitId", "ChitId", "MarkerId", "LeaderId")
M = "VASSAL.build.module."
DECK_DEFAULTS = {"draw": "true", "color": "0,0,0", "width": "0", "height": "0", "faceDown": "Never",
                 "shuffle": "Always", "allowMultiple": "false", "allowSelect": "false", "reversible": "false",
                 "drawFaceUp": "false", "canSave": "false", "maxStack": "10", "expressionCounting": "false",
                 "hotkeyOnEmpty": "false"}
DECK_TYPE = ("deck;{draw};{color};{width};{height};{faceDown};{shuffle};{allowMultiple};{allowSelect};{reversible};"
             ";;;{name};;;;{drawFaceUp};{canSave};;;{maxStack};;{expressionCounting};;{hotkeyOnEmpty};;$BasicName$;;"
             "false;;Shuffle;Reverse;;Draw multiple cards;Draw specific cards;Face up;Face down;;;;;Save Deck;;"
             "Deck Saved;Load Deck;;Deck Loaded;false;")  # Deck.getType, reshuffle unset, English texts


class Cmd:
    """A VASSAL Command: its encoding (None: no encoder, logged as `LOG\\tnull`), its inverse, subs.
    Compared by identity (a plain slotted class, not a dataclass: see builder/record.py)."""

    __slots__ = ("text", "inv", "prop", "null", "subs")

    def __init__(self, text: str | None = None, inv: str | None = None,
                 prop: tuple[str, str, str | None, str | None] | None = None, null: bool = False,
                 subs: list[Cmd] | None = None):
        self.text = text
        self.inv = inv  # encoding of myUndoCommand
        self.prop = prop  # persistent property (piece, key, old, new)
        self.null = null  # NullCommand, or a ChangePiece whose states are equal
        self.subs = [] if subs is None else subs

    def __repr__(self) -> str:
        return f"Cmd({', '.join(f'{f}={getattr(self, f)!r}' for f in self.__slots__)})"

    def is_null(self) -> bool:
        return self.null and all(s.is_null() for s in self.subs)

    def append(self, c: Cmd | None) -> Cmd:
        """`Command.append`: a null command hands the root over to the first real one appended."""
        if c is None or c.is_null():
            return self
        was_null = self.is_null()
        self.subs.append(c)
        return c if was_null else self

    def inverse(self) -> Cmd | None:
        if self.prop:
            pid, key, old, new = self.prop
            return Cmd(prop=(pid, key, new, old))
        if self.inv is None:
            return None
        return chat_cmd(self.inv[4:]) if self.inv.startswith("CHAT") else Cmd(self.inv, self.text, null=self.null)

    def undo(self) -> Cmd:
        """`Command.getUndoCommand`: the subs' undos in reverse order, then this command's own."""
        u = Cmd("", null=True)
        for s in reversed(self.subs):
            u = u.append(s.undo())
        return u.append(self.inverse())

    def log_text(self) -> str:
        """`BasicLogger.LogCommand`: every node is `LOG\\t` + its own encoding, subs nested."""
        head = "LOG\t" + ("null" if self.text is None else self.text)
        return join([head] + [s.log_text() for s in self.subs], ESC) if self.subs else head


def chat_cmd(msg: str) -> Cmd:
    """`Chatter.DisplayText`; its undo is the chat line `* UNDO: <msg>`."""
    return Cmd("CHAT" + msg, "CHAT* UNDO: " + msg)


def java_hash_order(keys: list[str], extra: int = 0) -> list[str]:
    """Iteration order of a java.util.HashMap filled with `keys` (plus `extra` others), in this order."""
    cap = 16
    while len(keys) + extra > cap * 0.75:
        cap *= 2

    def bucket(k: str) -> int:
        h = 0
        for i in range(0, len(b := k.encode("utf-16-be")), 2):
            h = (31 * h + int.from_bytes(b[i:i + 2], "big")) & 0xFFFFFFFF  # String.hashCode
        return (h ^ (h >> 16)) & (cap - 1)
    return sorted(keys, key=bucket)


def _fmt(fmt: str, **values: str) -> str:
    for k, v in values.items():
        fmt = fmt.replace(f"${k}$", v)
    return fmt


class LogWriter:
    """A log being written: each public step method is one logged user action."""

    def __init__(self, vmod: Path, setup: str = "campaign.vsav",
                 players: dict[str, tuple[str, str]] | None = None, *, tracker_from_setup: bool = True) -> None:
        with zipfile.ZipFile(vmod) as z:
            names = z.namelist()
            build = z.read("buildFile.xml" if "buildFile.xml" in names else "buildFile")
            self.moduledata = z.read("moduledata") if "moduledata" in names else b""
            raw = z.read(setup)
            images = {n: z.read(n) for n in names if n.startswith("images/") and n.lower().endswith(".png")}
        if raw[:2] == b"PK":
            raw = zipfile.ZipFile(io.BytesIO(raw)).read("savedGame")
        self.root = etree.fromstring(build, etree.XMLParser(resolve_entities=False, no_network=True))
        self.maps = read_module_grids(build, images)
        self.places = {m: self._places(m) for m in self.maps}
        self.players = players or {"Axis": ("axis-user", "Alice"), "Commonwealth": ("cw-user", "Bob")}
        self.board, self.steps = Board(), []
        self.board.layers = self._layers()
        self.props: dict[str, dict[str, str]] = {}  # BasicPiece persistent properties, in insertion order
        self.decks: dict[str, list[str]] = {}  # draw pile name -> piece ids, bottom first
        self.dice: dict[str, str] = {}
        self._undo_at, self._next_id = -1, FIRST_NEW_ID
        self.tracker = next(self.root.iter(M + "turn.TurnTracker"), None)
        self.turn_state = self._turn_encode(None, None)
        self.tracker_from_setup = tracker_from_setup  # False: the tracker at its start, whatever the setup saved
        self._begin = self._beginning(deobfuscate(raw))

    def _layers(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """Each map's Game Piece Layers (LayeredPieceCollection): property and order."""
        return {name: spec.layers for name, spec in self.maps.items() if spec.layers}

    def _layer(self, pid: str) -> int:
        """`getLayerForPiece`: with layers, the index of the piece's layer; else DefaultPieceCollection's
        1 for a stacking piece (the `@@` a Stack made for it carries)."""
        p = self.board.pieces[pid]
        return self.board.layer_of(p) if p.map in self.board.layers else (0 if Board.no_stack(p) else 1)

    # ---- the beginning state ---------------------------------------------------------------
    def _beginning(self, text: str) -> list[str]:
        """begin_save … end_save as `GameState.getRestoreCommand` writes it after loading the setup."""
        tree = decode_tree(text)
        setup = [leaf for leaf in leaves(tree) if leaf.startswith("+/")]
        for leaf in setup:
            self._apply(Cmd(leaf))
        pickers = [leaf for leaf in leaves(tree) if "BoardPicker\t" in leaf.split("/", 1)[0]]
        saved_turn = [leaf.split("\t", 1)[1] for leaf in leaves(tree) if leaf.startswith("TURNTurnTracker0\t")]
        if saved_turn and self.tracker_from_setup:
            self.turn_state = saved_turn[-1]  # a setup saved with the tracker elsewhere than its start
        tokens = ["begin_save", "", join(["", *self._restore_pieces(setup)], ESC)]
        roster = [join(["PLAYER", uid, name, side], "\t") for side, (uid, name) in self.players.items()]
        for el in self.root:  # game components in registration order
            if el.tag == M + "PlayerRoster" and roster:
                tokens += [join(roster, ESC)] * 2  # registered by addTo and by AbstractToolbarItem
            elif el.tag == M + "Map":
                tokens += [p for p in pickers if p.startswith(el.get("mapName", "") + "BoardPicker\t")]
                if el.find(M + "map.DrawPile") is not None and "SETUP_STACK\t" not in tokens:
                    tokens.append("SETUP_STACK\t")  # NewGameIndicator: the piles exist
            elif el is self.tracker:
                tokens.append(join(["TURNTurnTracker0", self.turn_state], "\t"))
            elif el.tag == M + "NotesWindow":
                tokens += [join(["NOTES\t", "PNOTES\t"], ESC)] * 2
        return tokens + ["end_save"]

    def _restore_pieces(self, setup: list[str]) -> list[str]:
        """`getRestorePiecesCommand`: stack members (HashMap order of ids), draw piles, stacks."""
        ids = [vc.parse(leaf).id for leaf in setup]
        piles = [(m, e) for m in self.root.iter(M + "Map") for e in m.iter(M + "map.DrawPile")]
        members = java_hash_order([i for i in ids if i in self.board.pieces], len(self.board.stacks) + len(piles))
        out = [self._add_text(i) for i in members if self.board.pieces[i].stack]
        out += [self._add_text(i) for i in ids if i in self.board.pieces and not self.board.pieces[i].stack]
        out += [self._deck_text(m.get("mapName"), e) for m, e in piles]
        return out + [leaf for leaf in setup if vc.parse(leaf).id in self.board.stacks]

    def _deck_text(self, map_id: str, e) -> str:
        """The empty `Deck` a DrawPile places when the game starts."""
        attrs = DECK_DEFAULTS | {k: e.get(k) for k in DECK_DEFAULTS if e.get(k) is not None}
        typ = DECK_TYPE.format(**attrs, name=e.get("name").replace(";", "\\;"))
        face_down = attrs["faceDown"] not in ("Never", "Via right-click Menu")  # Deck.setFaceDownOption
        return "+/" + join([self._new_id(), typ, join([map_id, *self.point(map_id, e.get("name")), face_down], ";")], "/")

    def _add_text(self, pid: str) -> str:
        return "+/" + join([pid, self.board.pieces[pid].type, self.state(pid)], "/")

    # ---- references and places ------------------------------------------------------------
    def piece(self, ref: str) -> str:
        """A piece id from a reference: raw id, "15pz-8pz-1", "chit-dak#2", "control#5", "control@0605"."""
        if ref in self.board.pieces:
            return ref
        key, _, where = ref.partition("@")
        key, _, nth = key.partition("#")
        found = [p for p in sorted(self.board.pieces.values(), key=lambda p: (len(p.id), p.id))
                 if key in [p.properties().get(k) for k in KEY_PROPS]
                 and (not where or p.map and self.location(p.map, p.x, p.y) == where)]
        i = int(nth) - 1 if nth else 0
        if not 0 <= i < len(found):
            raise KeyError(f"no piece {ref!r}")
        return found[i].id

    def _places(self, map_id: str) -> dict[str, tuple[int, int]]:
        """Name -> drop point on one map: draw piles, zones (box centre: zones do not snap), hexes."""
        spec, out = self.maps[map_id], {}
        for name, board, x, y in spec.decks:
            ox, oy = spec.origin(board) if board in spec.boards else spec.edge
            out[name] = (ox + x, oy + y)
        for bname, b in spec.boards.items():
            (ox, oy), g = spec.origin(bname), b.grid
            for z in b.zones:
                x0, y0 = min(p[0] for p in z.polygon), min(p[1] for p in z.polygon)
                out.setdefault(z.name, (ox + x0 + z.size[0] // 2, oy + y0 + z.size[1] // 2))
            if isinstance(g, HexGridSpec) and g.numbering is not None:
                w, h = b.size[::-1] if g.params.sideways else b.size
                for nx, ny in product(range(-1, int(w / g.params.dx) + 2), range(-1, int(h / g.params.dy) + 2)):
                    x, y = javagrid.raw_centre(g.params, nx, ny)
                    if 0 <= x < b.size[0] and 0 <= y < b.size[1]:
                        out.setdefault(g.name(x, y, b.size), (ox + x, oy + y))
        return out

    def point(self, map_id: str, to: str) -> tuple[int, int]:
        """Drop point of a hex label, a zone name or a draw pile name (the pixel VASSAL uses)."""
        if to not in self.places[map_id]:
            raise KeyError(f"no hex, zone or deck {to!r} on {map_id}")
        return self.places[map_id][to]

    def location(self, map_id: str, x: int, y: int) -> str:
        return self.maps[map_id].location(x, y)

    def _deck_at(self, map_id: str | None, x: int, y: int) -> str | None:
        spec = self.maps.get(map_id or "")
        return next((d[0] for d in spec.decks if self.places[map_id][d[0]] == (x, y)), None) if spec else None

    def _old_values(self, pid: str) -> list[str]:
        """`Decorator.putOldProperties`: OldX, OldY, OldMap, OldBoard, OldZone, OldLocationName, OldDeckName."""
        p, board, zone = self.board.pieces[pid], "", ""
        spec = self.maps[p.map]
        for bname, b in spec.boards.items():
            ox, oy = spec.origin(bname)
            if ox <= p.x < ox + b.size[0] and oy <= p.y < oy + b.size[1]:
                board = bname
                zone = next((z.name for z in b.zones if javagrid.polygon_contains(z.polygon, p.x - ox, p.y - oy)), "")
                break
        deck = next((d for d, ids in self.decks.items() if p.id in ids), "")
        return [str(p.x), str(p.y), p.map, board, zone, self.location(p.map, p.x, p.y), deck]

    def _user(self, side: str | None, pid: str | None = None) -> tuple[str, str]:
        """(user id, player name) of the side's player; a piece's own Side by default."""
        side = side or (self.board.pieces[pid].properties().get("Side") if pid else None)
        return self.players.get(side or "", next(iter(self.players.values())))

    # ---- the mirror --------------------------------------------------------------------------
    def state(self, pid: str) -> str:
        """The piece's full current state, BasicPiece part as `BasicPiece.getState` writes it."""
        p = self.board.pieces[pid]
        traits = unchain(p.type, p.state)
        gpid = (split(traits[-1].state, ";") + [""] * 4)[3]
        props = self.props[pid]
        pairs = [x for k in java_hash_order(list(props)) for x in (k, props[k])]
        traits[-1] = Trait(traits[-1].type, join([p.map or "null", p.x, p.y, gpid, len(props), *pairs], ";"))
        return chain(traits)[1]

    def _apply(self, c: Cmd) -> Cmd:
        """Execute one command (not its subs) on the mirror, as its `executeCommand` does."""
        if c.prop:
            pid, key, _, new = c.prop
            self.props[pid].pop(key, None) if new is None else self.props[pid].__setitem__(key, new)
            return c
        cmd = vc.parse(c.text or "")
        if isinstance(cmd, vc.MovePiece):
            self._deck_move(cmd)
        self.board.apply(cmd)
        if isinstance(cmd, (vc.AddPiece, vc.ChangePiece)) and cmd.id in self.board.pieces:
            # BasicPiece.setState: properties from the state, UniqueID (set by setId) kept
            f = split(self.board.pieces[cmd.id].traits[-1].state, ";")
            props = {"UniqueID": self.props.get(cmd.id, {}).get("UniqueID", cmd.id)}
            n = int(f[4]) if len(f) > 4 and f[4].isdigit() else 0
            self.props[cmd.id] = props | {f[5 + 2 * i]: f[6 + 2 * i] for i in range(n) if 6 + 2 * i < len(f)}
        elif isinstance(cmd, vc.Turn):
            self.turn_state = cmd.state
        elif isinstance(cmd, vc.PropertyChange):
            self.dice[cmd.name] = cmd.new
        return c

    def _execute(self, c: Cmd) -> None:
        self._apply(c)
        for s in c.subs:
            self._execute(s)

    def _deck_move(self, m: vc.MovePiece) -> None:
        for ids in self.decks.values():
            if m.id in ids:
                ids.remove(m.id)
        if deck := self._deck_at(m.new_map, m.new_x, m.new_y):
            ids = self.decks.setdefault(deck, [])
            ids.insert(ids.index(m.new_under) + 1 if m.new_under in ids else len(ids), m.id)

    def _pieces_at(self, map_id: str, x: int, y: int, layer: int | None = None) -> list[str]:
        """What a drop at (x, y) merges with, bottom first: a draw pile, a stack, or lone pieces.

        Only pieces of the mover's Game Piece Layer (`layer`) count: `canMerge` never puts two
        layers in one stack (`StandardDropTargetSelector.visitStack`)."""
        if deck := self._deck_at(map_id, x, y):
            return list(self.decks.get(deck, []))
        for s in self.board.stacks.values():
            if (s.map, s.x, s.y) == (map_id, x, y) and s.children and (
                    layer is None or self._layer(s.children[0]) == layer):
                return list(s.children)
        return [p.id for p in self.board.pieces.values() if (p.map, p.x, p.y, p.stack) == (map_id, x, y, None)
                and not Board.no_stack(p) and (layer is None or self._layer(p.id) == layer)]

    def _under(self, pid: str) -> str | None:
        """The piece below `pid` in its stack or pile (`MoveTracker.getUnderneathId`)."""
        p = self.board.pieces[pid]
        for ids in [*self.decks.values(), self.board.stacks[p.stack].children if p.stack else []]:
            if pid in ids and ids.index(pid) > 0:
                return ids[ids.index(pid) - 1]
        return None

    def _new_id(self) -> str:
        self._next_id += 1
        return str(self._next_id)

    # ---- command builders -------------------------------------------------------------------
    def _set_prop(self, pid: str, key: str, value: str) -> Cmd | None:
        """`setPersistentProperty`: a command (no encoder) only when the value changes."""
        old = self.props[pid].get(key)
        return None if old == value else self._apply(Cmd(prop=(pid, key, old, value)))

    def _change(self, pid: str, new_state: str) -> Cmd:
        old = self.state(pid)
        return self._apply(Cmd("D/" + join([pid, new_state, old], "/"), "D/" + join([pid, old, new_state], "/"),
                               null=new_state == old))

    def _put_old(self, pid: str) -> Cmd:
        c = Cmd("", null=True)
        for key, value in zip(OLD_KEYS, self._old_values(pid)):
            c = c.append(self._set_prop(pid, key, value))
        return c

    def _moved_piece(self, pid: str, dest: tuple[int, int]) -> Cmd:
        """`PieceMover.movedPiece`: old-location properties, mark moved if it changes place, then
        `Deck.pieceRemoved` when it leaves a draw pile."""
        c = self._put_old(pid)
        p = self.board.pieces[pid]
        traits = unchain(p.type, self.state(pid))
        i = next((i for i, t in enumerate(traits) if t.prefix == "markmoved;"), None)
        if i is not None and dest != (p.x, p.y):
            traits[i] = Trait(traits[i].type, "true")
            c = c.append(self._change(pid, chain(traits)[1]))
        return c.append(self._left_deck(pid))

    def _left_deck(self, pid: str) -> Cmd | None:
        """`Deck.pieceRemoved`: ObscuredToOthers set to faceDown && !drawFaceUp, so a Mask
        (`Obscurable.setProperty`) now names the drawer's side, or nobody: the piece is shown."""
        deck = next((d for d, ids in self.decks.items() if pid in ids), None)
        if deck is None:
            return None
        e = next(e for e in self.root.iter(M + "map.DrawPile") if e.get("name") == deck)
        attrs = DECK_DEFAULTS | {k: e.get(k) for k in DECK_DEFAULTS if e.get(k) is not None}
        hidden = attrs["faceDown"] not in ("Never", "Via right-click Menu") and attrs["drawFaceUp"] != "true"
        p = self.board.pieces[pid]
        traits = unchain(p.type, self.state(pid))
        i = next((i for i, t in enumerate(traits) if t.prefix == "obs;"), None)
        if i is None:
            return None
        side = p.properties().get("Side") or next(iter(self.players))
        traits[i] = Trait(traits[i].type, join([side, "false|0"], ";") if hidden else "null;")
        return self._change(pid, chain(traits)[1])

    def reported_name(self, pid: str) -> str:
        """The name a move report gives (`MovementReporter` reports under `GlobalAccess.hideAll`):
        a masked piece by its mask name, the others by their own."""
        p = self.board.pieces[pid]
        for t in p.traits:
            if t.prefix == "obs;" and not t.state.startswith("null"):
                return (t.fields[4] if len(t.fields) > 4 else "") or "?"
        return p.name

    def _move_cmd(self, pid: str, map_id: str, dest: tuple[int, int], under: str | None, user: str) -> Cmd:
        p = self.board.pieces[pid]
        old = [p.map or "null", p.x, p.y, self._under(pid) or "null"]
        new = [map_id, *dest, under or "null"]
        return self._apply(Cmd("M/" + join([pid, *new, *old, user], "/"), "M/" + join([pid, *old, *new, user], "/")))

    def _click(self, pid: str) -> Cmd:
        """`KeyBuffer.keyCommand`: ClickedX/ClickedY (the piece's centre) before the key."""
        p = self.board.pieces[pid]
        return Cmd("", null=True).append(self._set_prop(pid, "ClickedX", str(p.x))).append(
            self._set_prop(pid, "ClickedY", str(p.y)))

    def _log(self, c: Cmd, undoable: bool = True) -> Cmd:
        """`BasicLogger.log`; undo takes back the newest step, then the one before it, and so on."""
        self.steps.append(c)
        self._undo_at = len(self.steps) - 1 if undoable else self._undo_at
        return c

    # ---- steps --------------------------------------------------------------------------------
    def move(self, ref: str, to: str, *, stack: bool = False, side: str | None = None) -> Cmd:
        """A drag and drop of one piece (or, with stack=True, of its whole stack) onto `to`.

        Each piece moves on its own (the engine drags a stack's pieces, not the Stack): the first
        starts a new stack on an empty point, the others go on top of the one before.
        """
        pid = self.piece(ref)
        p = self.board.pieces[pid]
        map_id = p.map or next(iter(self.maps))
        dest = self.point(map_id, to)
        if (p.map, p.x, p.y) == (map_id, *dest):
            raise ValueError(f"{ref} is already at {to}")
        movers = list(self.board.stacks[p.stack].children) if stack and p.stack else [pid]
        user, from_loc = self._user(side, pid)[0], self.location(p.map, p.x, p.y)
        below = [i for i in self._pieces_at(map_id, *dest, self._layer(pid)) if i not in movers]
        under, comm = below[-1] if below else None, Cmd("", null=True)
        for mid in movers:
            comm = comm.append(self._moved_piece(mid, dest)).append(self._move_cmd(mid, map_id, dest, under, user))
            if under is None and not self._deck_at(map_id, *dest) and not Board.no_stack(self.board.pieces[mid]):
                sid = self._new_id()  # `createStack`: the new Stack is bound to its first piece's layer
                stack_state = join([map_id, *dest, mid, f"@@{self._layer(mid)}"], ";")
                comm = comm.append(self._apply(Cmd("+/" + join([sid, "stack", stack_state], "/"), "-/" + sid)))
            under = mid
        names = ", ".join(self.reported_name(m) for m in movers)
        fmt = self._map(map_id).get("moveWithinFormat" if p.map == map_id else "moveToFormat", "")
        text = _fmt(fmt, pieceName=names, previousLocation=from_loc, location=self.location(map_id, *dest),
                    mapName=map_id, oldMapName=p.map)
        return self._log(comm.append(self._apply(chat_cmd("* " + text))) if text else comm)

    def move_units(self, refs: list[str], to: str, *, whole_stacks: bool = True) -> None:
        """The units (or leaders) to `to`, as a player moves them: where they are the whole of a
        stack's units, one drag of the stack (markers of another layer stay); else one by one."""
        groups: dict[str, list[str]] = {}
        for ref in refs:
            p = self.board.pieces[self.piece(ref)]
            groups.setdefault(p.stack if whole_stacks and p.stack else ref, []).append(ref)
        for key, group in groups.items():
            stack = self.board.stacks.get(key)
            members = {i for i in stack.children if self.board.pieces[i].properties().keys() & {"UnitId", "LeaderId"}} \
                if stack else set()
            if len(group) > 1 and members == {self.piece(r) for r in group}:
                self.move(group[0], to, stack=True)
            else:
                for ref in group:
                    self.move(ref, to)

    def send(self, ref: str, command: str, *, side: str | None = None) -> Cmd:
        """A Send To Location menu command or key (`SendToLocation.myKeyEvent`): the trait keeps
        where the piece came from (a full ChangePiece), old-location properties, then
        `Map.placeOrMerge` at the zone's centre (a move, and a new Stack on an empty point), and
        the command's Report chat."""
        pid = self.piece(ref)
        p = self.board.pieces[pid]
        i = next((i for i, t in enumerate(p.traits) if t.prefix == "sendto;" and t.fields[0] == command), None)
        if i is None:
            raise ValueError(f"{p.name} has no command {command!r}")
        f = p.traits[i].fields
        map_id, key = f[2] or p.map, f[1]
        dest = self.point(map_id, f[14])
        if (p.map, p.x, p.y) == (map_id, *dest):
            raise ValueError(f"{ref} is already at {f[14]}")
        user, old_name, from_loc = self._user(side, pid)[0], p.name, self.location(p.map, p.x, p.y)
        comm = self._click(pid)  # before the state is read: the ChangePiece carries ClickedX/Y
        traits = unchain(p.type, self.state(pid))
        traits[i] = Trait(traits[i].type, join([p.map, p.x, p.y], ";"))  # BACK_MAP, BACK_POINT
        change = self._change(pid, chain(traits)[1])  # the engine nests the rest of the step under it
        change.append(self._put_old(pid))
        below = [j for j in self._pieces_at(map_id, *dest, self._layer(pid)) if j != pid]
        under = below[-1] if below else None
        move = self._move_cmd(pid, map_id, dest, under, user)
        change.append(move)
        if under is None and not self._deck_at(map_id, *dest) and not Board.no_stack(p):
            stack_state = join([map_id, *dest, pid, f"@@{self._layer(pid)}"], ";")
            sid = self._new_id()  # `placeOrMerge`: the new Stack's placement is appended to the move
            move.append(self._apply(Cmd("+/" + join([sid, "stack", stack_state], "/"), "-/" + sid)))
        for t in traits:
            if t.prefix == "report;" and key in split(t.fields[0], ","):
                text = _fmt(t.fields[1], PieceName=old_name, oldPieceName=old_name, newPieceName=p.name,
                            location=self.location(map_id, *dest), oldLocation=from_loc)
                text = _fmt(self._map(map_id).get("changeFormat", "$message$"), message=text)
                change.append(self._apply(chat_cmd("* " + text)))
        return self._log(comm.append(change))

    def flip(self, ref: str, *, side: str | None = None) -> Cmd:
        """The first Layer's increase key (Ctrl+F): level stepped, full ChangePiece, Report chat."""
        pid = self.piece(ref)
        p = self.board.pieces[pid]
        comm = self._click(pid)
        traits = unchain(p.type, self.state(pid))
        i = next(i for i, t in enumerate(traits) if t.prefix == "emb2;")
        f, old_name = traits[i].fields, p.name
        traits[i] = Trait(traits[i].type, str(int(traits[i].state) % len(split(f[15], ",")) + 1))
        change = self._change(pid, chain(traits)[1])
        for t in traits:
            if t.prefix == "report;" and f[27] in split(t.fields[0], ","):
                text = _fmt(t.fields[1], location=self.location(p.map, p.x, p.y), oldPieceName=old_name,
                            newPieceName=p.name)
                text = _fmt(self._map(p.map).get("changeFormat", "$message$"), message=text)
                change.append(self._apply(chat_cmd("* " + text)))
        return self._log(comm.append(change))

    def mask(self, ref: str, *, side: str | None = None) -> Cmd:
        """The Mask key (`Obscurable.myKeyEvent`): a masked piece is shown, a shown one masked by
        the player's side (access `side:`); one full-state ChangePiece, no report."""
        pid = self.piece(ref)
        p = self.board.pieces[pid]
        traits = unchain(p.type, self.state(pid))
        i = next((i for i, t in enumerate(traits) if t.prefix == "obs;"), None)
        if i is None:
            raise ValueError(f"{p.name} has no mask")
        owner = side or p.properties().get("Side") or next(iter(self.players))
        shown = traits[i].state.startswith("null")
        traits[i] = Trait(traits[i].type, join([owner, "false|0"], ";") if shown else "null;")
        return self._log(self._click(pid).append(self._change(pid, chain(traits)[1])))

    def declare(self, ref: str, name: str, *, side: str | None = None) -> Cmd:
        """A declaration menu command (Trigger Action) on a piece: only its Report chat."""
        pid = self.piece(ref)
        p = self.board.pieces[pid]
        traits = unchain(p.type, self.state(pid))
        key = next((t.fields[2] for t in traits if t.prefix == "macro;" and t.fields[0] == name), None)
        if key is None:
            raise ValueError(f"{p.name} has no command {name!r}")
        comm = self._click(pid)
        for t in traits:
            if t.prefix == "report;" and key in split(t.fields[0], ","):
                text = _fmt(t.fields[1], location=self.location(p.map, p.x, p.y), PieceName=p.name,
                            oldPieceName=p.name, newPieceName=p.name)
                text = _fmt(self._map(p.map).get("changeFormat", "$message$"), message=text)
                comm = comm.append(self._apply(chat_cmd("* " + text)))  # the chat heads an otherwise empty step
        return comm if comm.is_null() else self._log(comm)  # `sendAndLog` logs nothing for an empty command

    def remove(self, ref: str) -> Cmd:
        """A Delete-trait key: old-location properties, then RemovePiece (its undo re-adds it)."""
        pid = self.piece(ref)
        comm, add = self._click(pid), self._add_text(pid)
        return self._log(comm.append(self._put_old(pid).append(self._apply(Cmd("-/" + pid, add)))))

    def chat(self, side: str, text: str) -> Cmd:
        """Typed chat (`Chatter.formatChat` with playerIdFormat $PlayerName$)."""
        return self._log(self._apply(chat_cmd(f"&lt;{self._user(side)[1]}&gt; - {text}")))

    def roll(self, button: str, dice: list[int], side: str) -> Cmd:
        """A DiceButton roll with these results: chat report, then its four module properties."""
        b = next(e for e in self.root.iter(M + "DiceButton") if e.get("name") == button)
        plus, n_sides = int(b.get("plus", "0")), int(b.get("nSides", "6"))
        if b.get("prompt") != "true" and len(dice) != int(b.get("nDice", "1")):
            raise ValueError(f"{button} rolls {b.get('nDice')} dice, not {len(dice)}")
        if not dice or any(not 1 <= d <= n_sides for d in dice):
            raise ValueError(f"dice {dice} out of 1..{n_sides}")
        kept = [d + plus for d in (sorted(dice) if b.get("sortDice") == "true" else dice)]
        total = sum(kept) + int(b.get("addToTotal", "0"))
        result = str(total) if b.get("reportTotal") == "true" else ",".join(map(str, kept))
        summary = ", ".join(f"{v} x{k}" for v, k in sorted(Counter(kept).items()))
        text = _fmt(b.get("reportFormat", ""), name=button, result=result, PlayerName=self._user(side)[1],
                    nDice=str(len(dice)), nSides=str(n_sides), numericTotal=str(total), summary=summary)
        c = self._apply(chat_cmd(("*" if text.startswith("*") else "* ") + text))
        for suffix, value in zip(DICE_START, (result, str(total), str(len(kept)), summary)):
            name = button + suffix
            old = self.dice.get(name, DICE_START[suffix])
            c.append(self._apply(Cmd(join(["MutableProperty", name, old, value, "Module"], "\t"),
                                     join(["MutableProperty", name, value, old, "Module"], "\t"))))
        return self._log(c)

    def turn(self, turn: int, phase: str, *, side: str | None = None) -> Cmd:
        """The turn tracker set to (turn, phase): the tracker's chat report, then TURN<id>."""
        old, new = self.turn_state, self._turn_encode(turn, phase)
        if old == new:
            raise ValueError("the turn tracker is already there")
        report = _fmt(self.tracker.get("reportFormat", ""), PlayerId=self._user(side)[1],
                      oldTurn=self._turn_string(old), newTurn=self._turn_string(new))
        c = self._apply(chat_cmd("* " + report.replace("\\n", " - ").replace("\\t", " ")))
        c.append(self._apply(Cmd(join(["TURNTurnTracker0", new], "\t"), join(["TURNTurnTracker0", old], "\t"))))
        return self._log(c)

    def undo(self) -> Cmd:
        """`BasicLogger.undo` (3.6.7+): UNDO true, the last step's undo tree, UNDO false."""
        if self._undo_at < 0:
            raise ValueError("nothing to undo")
        inverse = self.steps[self._undo_at].undo()
        self._undo_at -= 1
        self._execute(inverse)
        return self._log(Cmd("UNDO\ttrue").append(inverse).append(Cmd("UNDO\tfalse")), undoable=False)

    # ---- module details -------------------------------------------------------------------------
    def _map(self, map_id: str | None):
        return next((m for m in self.root.iter(M + "Map") if m.get("mapName") == map_id), {})

    def _levels(self):
        """The tracker's CounterTurnLevel, its ListTurnLevel (or None) and the list's values."""
        counter = self.tracker.find(M + "turn.CounterTurnLevel")
        lst = counter.find(M + "turn.ListTurnLevel")
        return counter, lst, split(lst.get("list", ""), ",") if lst is not None else []

    def _turn_encode(self, turn: int | None, phase: str | None) -> str:
        """`TurnTracker.getState` of a CounterTurnLevel with an optional ListTurnLevel."""
        if self.tracker is None:
            return ""
        counter, lst, phases = self._levels()
        active = ",".join(["true"] * len(phases))
        subs = [] if lst is None else [join([phases.index(phase) if phase else 0, 0, 0, active], ";")]
        start = turn if turn is not None else counter.get("start", "1")
        level = join([start, 0, counter.get("loop", "false"), counter.get("loopLimit", "-1"), *subs], ";")
        return join([0, level], "|")

    def _turn_string(self, state: str) -> str:
        counter, lst, phases = self._levels()
        f = split(split(state, "|")[1], ";")
        values = [_fmt(counter.get("turnFormat", "$value$"), value=f[0])]
        if lst is not None:
            values.append(_fmt(lst.get("turnFormat", "$value$"), value=phases[int(split(f[4], ";")[0])]))
        levels = {f"level{i}": "" for i in range(1, 16)} | {f"level{i + 1}": v for i, v in enumerate(values)}
        return _fmt(self.tracker.get("turnFormat", "$level1$ $level2$ $level3$ $level4$"), **levels)

    # ---- output -----------------------------------------------------------------------------------
    def text(self) -> str:
        """The savedGame text: the beginning state, then one top-level token per step."""
        return join(self._begin + [s.log_text() for s in self.steps], ESC)

    def write(self, path: Path, description: str = "") -> None:
        """The .vlog zip (savedGame obfuscated, savedata, the module's moduledata), atomically."""
        meta = etree.fromstring(self.moduledata) if self.moduledata else etree.Element("data")
        date = int(meta.findtext("dateSaved") or 0)  # no clock: same script, same bytes
        entries = [("savedGame", obfuscate(self.text())),
                   ("savedata", savedata_xml(meta.findtext("version") or "", ENGINE_VERSION, date, description)),
                   ("moduledata", self.moduledata)]
        write_atomic(Path(path), zip_bytes_entries(entries))
