"""The built .vmod: a build file VASSAL can read, pieces that decode, the setup in place."""
from __future__ import annotations

import io
import zipfile

import pytest
from lxml import etree

from builder.build import build_game
from builder.model import load_game
from builder.vassal.pieces import unchain
from builder.vassal.savefile import decode_tree, deobfuscate, leaves
from builder.vassal.sequence import split
from tests.conftest import ROOT, SLUG, copy_sources

V = "VASSAL.build."


def _xml(z: zipfile.ZipFile):
    return etree.fromstring(z.read("buildFile.xml"))


def _piece(text: str):
    """AddPiece text -> (id, traits)."""
    assert text.startswith("+/")
    piece_id, typ, state = split(text[2:], "/")
    return piece_id, unchain(typ, state)


def _by_prefix(traits, prefix):
    return [t for t in traits if t.prefix == prefix]


def _props(traits) -> dict[str, str]:
    (mark,) = _by_prefix(traits, "mark;")
    return dict(zip(split(mark.type[5:], ","), split(mark.state, ",")))


def _images(traits) -> list[str]:
    out = []
    for t in traits:
        if t.prefix == "piece;":
            out.append(t.fields[2])
        elif t.prefix == "emb2;":
            out += [x for x in split(t.fields[15], ",") if x]
        elif t.prefix == "markmoved;":
            out.append(t.fields[0])
    return [x for x in out if x]


def test_archive_entries_and_metadata(built):
    _, _, z = built
    names = z.namelist()
    assert names[:2] == ["moduledata", "buildFile.xml"]
    assert "savedGame" not in names  # would make VASSAL take the module for a save
    meta = etree.fromstring(z.read("moduledata"))
    root = _xml(z)
    assert meta.findtext("name") == root.get("name") == "Bravery in the Sand"
    assert meta.findtext("VassalVersion").startswith("3.7.")
    assert root.get("VassalVersion").startswith("3.7.")


def test_every_image_the_build_file_names_is_in_the_archive(built):
    _, _, z = built
    names = set(z.namelist())
    root = _xml(z)
    named = [e.get("image") for e in root.iter(V + "module.map.boardPicker.Board")]
    named += [e.get("fileName") for e in root.iter(V + "module.documentation.AboutScreen")]
    for e in list(root.iter(V + "widget.PieceSlot")) + list(root.iter(V + "module.PrototypeDefinition")):
        named += _images(_piece(e.text)[1])
    assert len(named) > 2 * 61
    for image in named:
        assert image.startswith("/") or f"images/{image}" in names, image
    for e in root.iter(V + "module.documentation.HelpFile"):
        assert e.get("fileName") in names
    for e in root.iter(V + "module.PredefinedSetup"):
        assert e.get("file") in names


def test_every_unit_slot_decodes_to_its_name_properties_and_two_faces(built, game):
    _, _, z = built
    root = _xml(z)
    slots = {}
    for e in root.iter(V + "widget.PieceSlot"):
        piece_id, traits = _piece(e.text)
        assert piece_id == "null"
        basic = traits[-1]
        assert basic.prefix == "piece;" and split(basic.state, ";")[3] == e.get("gpid")
        slots[basic.fields[3]] = traits
    gpids = [int(e.get("gpid")) for e in root.iter(V + "widget.PieceSlot")]
    assert len(set(gpids)) == len(gpids) and max(gpids) < int(root.get("nextPieceSlotId"))
    protos = {e.get("name") for e in root.iter(V + "module.PrototypeDefinition")}
    for unit in game.units:
        traits = slots[f"{unit.name} ({unit.formation})"]
        props = _props(traits)
        assert props == {"Kind": "unit", "UnitId": unit.id, "Side": game.side_of_unit(unit).name,
                         "Nationality": game.nationality_of_unit(unit).name, "Formation": unit.formation,
                         "UnitType": unit.type, "StrengthLevel": unit.level, "MA": str(unit.ma),
                         "Steps": str(unit.steps), **({"Size": unit.size} if unit.size else {})}
        (layer,) = _by_prefix(traits, "emb2;")
        assert split(layer.fields[15], ",") == [f"unit-{unit.id}-full.png", f"unit-{unit.id}-reduced.png"]
        assert split(layer.fields[16], ",") == ["", "+ (reduced)"]
        assert layer.fields[24] == "1" and layer.fields[25] == "true"  # version 1, always active
        assert layer.fields[27] == "70,130"  # Ctrl+F steps full -> reduced
        assert layer.fields[3] == "Flip"  # ... and the menu says so
        (proto,) = _by_prefix(traits, "prototype;")
        assert proto.type[len("prototype;"):] == f"{game.side_of_unit(unit).name} Unit" in protos
    control = slots["Control"]
    assert split(_by_prefix(control, "emb2;")[0].fields[16], ",") == ["+ (Axis)", "+ (Commonwealth)"]


def test_palette_is_organised_by_side_and_division(built, game):
    _, _, z = built
    root = _xml(z)
    (tabs,) = list(root.iter(V + "widget.TabWidget"))
    lists = [e.get("entryName") for e in tabs if e.tag == V + "widget.ListWidget"]
    assert lists == ["Axis", "Commonwealth", "Markers"]
    cw = next(e for e in tabs if e.get("entryName") == "Commonwealth")
    panels = [p.get("entryName").split(" - ")[0] for p in cw]
    assert panels == [f.id for f in game.units_file.formations if game.nationalities[f.nationality].side == "commonwealth"]


def test_module_components_players_expect(built):
    _, _, z = built
    root = _xml(z)
    assert [e.text for e in root.find(V + "module.PlayerRoster")] == ["Axis", "Commonwealth"]
    dice = {e.get("name"): e for e in root.iter(V + "module.DiceButton")}
    assert dice["Axis 1d6"].get("nDice") == "1" and dice["Axis dice"].get("prompt") == "true"
    assert dice["Commonwealth 1d6"].get("nDice") == "1" and dice["Commonwealth dice"].get("prompt") == "true"
    assert all("$result$" in d.get("reportFormat") for d in dice.values())  # every die is reported
    (deck,) = list(root.iter(V + "module.map.DrawPile"))
    assert deck.get("shuffle") == "Always" and deck.get("name") == "Mug"
    (counter,) = list(root.iter(V + "module.turn.CounterTurnLevel"))
    assert counter.get("start") == "1" and counter.get("loop") == "false"  # 1-7 and extensions
    phases = list(counter.iter(V + "module.turn.ListTurnLevel"))[0].get("list").split(",")
    assert phases[0] == "Replacements" and "Activations" in phases
    (grid,) = list(root.iter(V + "module.map.boardPicker.board.HexGrid"))
    assert grid.get("sideways") == "true" and grid.getparent().tag.endswith("ZonedGrid")
    for tag in ("PieceMover", "KeyBufferer", "MenuDisplayer", "StackExpander"):
        assert root.find(f".//{V}module.map.{tag}") is not None
    helps = [e.get("title") for e in root.iter(V + "module.documentation.HelpFile")]
    assert "Combat Summary" in helps
    assert b"Strength Level two greater than enemy" in z.read("help/combat.html")


def _setup_pieces(z: zipfile.ZipFile):
    save = zipfile.ZipFile(io.BytesIO(z.read("campaign.vsav")))
    assert set(save.namelist()) == {"savedGame", "savedata", "moduledata"}
    text = deobfuscate(save.read("savedGame"))
    tree = decode_tree(text)
    assert tree[0] == "begin_save" and tree[-1] == "end_save"
    cmds = leaves(tree)
    pieces, stacks = {}, []
    for c in cmds:
        if c.startswith("+/"):
            piece_id, typ, state = split(c[2:], "/")
            if typ == "stack":
                stacks.append(split(state, ";"))
            else:
                pieces[piece_id] = unchain(typ, state)
    return cmds, pieces, stacks


def test_the_setup_inside_the_module_decodes_to_rule_3(built, game):
    _, _, z = built
    cmds, pieces, stacks = _setup_pieces(z)
    assert "Main MapBoardPicker\tCrusader\t0\t0" in cmds
    geo = game.geometry
    sc = game.scenarios["campaign"]
    hex_of_formation = {f.formation: f.hex for f in sc.formations}
    units_at, control_at = {}, {}
    for traits in pieces.values():
        assert not _by_prefix(traits, "prototype;")  # expanded, as VASSAL saves them
        map_id, x, y, *_ = split(traits[-1].state, ";")
        assert map_id == "Main Map"
        props = _props(traits)
        if props["Kind"] == "unit":
            units_at[props["UnitId"]] = geo.label_at(int(x), int(y))
            assert _by_prefix(traits, "emb2;")[0].state == "1"  # full strength
        elif props.get("MarkerId") == "control":
            side = {"1": "Axis", "2": "Commonwealth"}[_by_prefix(traits, "emb2;")[0].state]
            control_at[geo.label_at(int(x), int(y))] = side
    assert units_at == {u.id: hex_of_formation[u.formation] for u in game.units}
    assert control_at == {"0308": "Commonwealth", "0111": "Commonwealth", "0211": "Commonwealth",
                          "0412": "Commonwealth", "0511": "Commonwealth", "0904": "Commonwealth",
                          "0403": "Axis", "0604": "Axis", "0605": "Axis", "0608": "Axis", "0612": "Axis",
                          "0313": "Axis", "0413": "Axis"}
    # every piece is in exactly one stack, at the stack's own position, bound to its piece layer
    in_stacks = [i for s in stacks for i in s[3:-1]]
    assert sorted(in_stacks) == sorted(pieces)
    for s in stacks:
        layers = {_props(pieces[i]).get("Layer") for i in s[3:-1]}
        assert len(layers) == 1 and s[-1] == ("@@0" if layers == {"Hex status"} else "@@1")
    for s in stacks:
        for piece_id in s[3:-1]:
            assert split(pieces[piece_id][-1].state, ";")[1:3] == s[1:3]


def test_turn_marker_and_chits(built, game):
    _, _, z = built
    _, pieces, _ = _setup_pieces(z)
    turn = [t for t in pieces.values() if _props(t).get("MarkerId") == "game-turn"]
    (turn,) = turn
    assert tuple(map(int, split(turn[-1].state, ";")[1:3])) == game.track_box_centre("turn", "1")
    chits = [_props(t) for t in pieces.values() if _props(t)["Kind"] == "chit"]
    by_side = {s: sum(c["Side"] == s for c in chits) for s in ("Axis", "Commonwealth")}
    assert by_side == {"Axis": 5 + 2 + 2, "Commonwealth": 9}  # 2.1.3: 5 German, 2 Italian, 2 DAK; 9 CW


def test_two_builds_are_byte_identical(built, tmp_path):
    _, first, _ = built
    copy_sources(tmp_path)
    again = build_game(SLUG, root=tmp_path)
    for path in again.outputs:
        twin = built[0] / "generated" / SLUG / path.name
        assert path.read_bytes() == twin.read_bytes(), path.name
    assert next(p for p in again.outputs if p.suffix == ".vmod").read_bytes() == first


def test_hex_status_markers_lie_under_the_units_in_their_own_stack(built, game):
    """Control markers (markers.yaml `layer`) are a Game Piece Layer below the units: never in a
    unit stack, so a stack stays readable and dragging it leaves the marker (issue 20)."""
    _, _, z = built
    root = _xml(z)
    (lpc,) = list(root.iter(V + "module.map.LayeredPieceCollection"))
    assert lpc.get("property") == "Layer" and lpc.get("layerOrder") == "Hex status"
    assert lpc.find(V + "module.map.LayerControl").get("layers") == "Hex status"
    control = next(e for e in root.iter(V + "widget.PieceSlot") if e.get("entryName") == "Control")
    assert _props(_piece(control.text)[1])["Layer"] == "Hex status"
    unit = next(e for e in root.iter(V + "widget.PieceSlot") if "15PZ" in e.get("entryName"))
    assert "Layer" not in _props(_piece(unit.text)[1])
    _, pieces, stacks = _setup_pieces(z)
    at_0608 = [s for s in stacks if game.geometry.label_at(int(s[1]), int(s[2])) == "0608"]
    kinds = sorted(tuple(sorted({_props(pieces[i]).get("MarkerId") or "unit" for i in s[3:-1]})) for s in at_0608)
    assert kinds == [("control",), ("unit",)]


def test_chits_are_hidden_in_the_mug_and_from_the_opponent(built, game):
    """5.1.2: the Mug is face down (its chits show one back) and is drawn face up; each chit
    carries a Mask any player of its side sets, and starts masked by its owner in his pool."""
    _, _, z = built
    root = _xml(z)
    (deck,) = list(root.iter(V + "module.map.DrawPile"))
    assert deck.get("faceDown") == "Always" and deck.get("drawFaceUp") == "true"
    _, pieces, _ = _setup_pieces(z)
    chits = [t for t in pieces.values() if _props(t)["Kind"] == "chit"]
    assert len(chits) == 18
    for traits in chits:
        (mask,) = _by_prefix(traits, "obs;")
        assert traits[0] is mask  # outermost: it hides every trait below it
        key, image, command, style, name, access = mask.fields[:6]
        assert (image, name, access) == ("chit-back.png", "Activation chit", "side:") and key and command
        assert f"images/{image}" in z.namelist()
        assert mask.state == _props(traits)["Side"] + ";false|0"  # masked by its own side
    units = [t for t in pieces.values() if _props(t)["Kind"] == "unit"]
    assert not any(_by_prefix(t, "obs;") for t in units)


def test_what_players_expect_overview_inventories_zoom_and_a_keys_page(built):
    _, _, z = built
    root = _xml(z)
    (overview,) = list(root.iter(V + "module.map.GlobalMap"))
    assert overview.get("hotkey") and 0 < float(overview.get("scale")) < 0.5
    forces = {e.get("name"): e for e in root.iter(V + "module.Inventory")}
    assert {"Axis forces", "Commonwealth forces"} <= set(forces)
    assert 'Side=="Axis"' in forces["Axis forces"].get("include")
    assert all(e.get("text") for e in forces.values())  # a button label, not element text
    zoom = next(root.iter(V + "module.map.Zoomer"))
    levels = [float(x) for x in zoom.get("zoomLevels").split(",")]
    assert min(levels) >= 0.7  # 10 px hex ids stay 7 px or more
    assert sorted(levels, reverse=True)[int(zoom.get("zoomStart")) - 1] == 1.0
    assert not list(root.iter(V + "module.map.LOS_Thread"))  # Bravery has no ranges
    page = z.read("help/keys.html").decode()
    assert "Keys and mouse" in [e.get("title") for e in root.iter(V + "module.documentation.HelpFile")]
    for needle in ("Ctrl+Shift+O", "Ctrl+Shift+C", "Ctrl+F", "Ctrl+H", "Ctrl+Shift+H", "Axis forces"):
        assert needle in page, needle


@pytest.mark.parametrize("slug", ["tobrouk-41-42", "slouch-hats-and-eggshells", "desert-fox-deluxe"])
def test_no_key_does_two_things_in_any_game(slug):
    """A declaration key equal to a toolbar key (Ctrl+Shift+O: overview and 'Coordinated fire') fires
    both: every toolbar, menu and Send To key of a module is distinct and on its keys page."""
    from builder.vassal.keys import key_name, piece_keys, toolbar_keys
    from builder.vassal.module import build_vmod
    z = zipfile.ZipFile(io.BytesIO(build_vmod(load_game(ROOT / "sources" / slug))[0]))
    keys = toolbar_keys(_xml(z)) + piece_keys(_xml(z))
    strokes = [k for k, _ in keys]
    assert len(strokes) == len(set(strokes)), sorted(keys)
    page = z.read("help/keys.html").decode()
    assert all(key_name(k) in page for k in strokes)


def test_no_key_does_two_things(built, wdf_module):
    """Every toolbar key and piece menu key of both modules is distinct and on the keys page."""
    from builder.vassal.keys import key_name, piece_keys, toolbar_keys
    _, _, z = built
    with zipfile.ZipFile(wdf_module[1]) as wz:
        modules = [z, wz]
        for m in modules:
            root = _xml(m)
            keys = toolbar_keys(root) + piece_keys(root)
            strokes = [k for k, _ in keys]
            assert len(strokes) == len(set(strokes)), sorted(strokes)
            page = m.read("help/keys.html").decode()
            assert all(key_name(k) in page for k in strokes)
        wroot = _xml(wz)
        (los,) = list(wroot.iter(V + "module.map.LOS_Thread"))  # leader ranges (13.5)
        assert los.get("drawRange") == "true" and los.get("snapStart") == "true"
        depot = next(e for e in wroot.iter(V + "widget.PieceSlot") if e.get("entryName") == "Axis Depot")
        assert _props(_piece(depot.text)[1])["Layer"] == "Hex status"


def test_the_opponent_uses_only_the_declarations_the_rules_give_him():
    """Desert Fox 14.1: the attacker names the defenders, so 'Declare target' sits above the unit's
    Restricted Access (open to both sides); flip, Eliminate, Destroy and every other declaration stay
    below it, the owner's alone."""
    from builder.vassal.counters import OPEN_PROTOTYPE
    from builder.vassal.module import build_vmod
    from tests.conftest import loaded_game
    g = loaded_game("desert-fox-deluxe")
    z = zipfile.ZipFile(io.BytesIO(build_vmod(g)[0]))
    root = _xml(z)
    protos = {e.get("name"): e.text or "" for e in root.iter(V + "module.PrototypeDefinition")}
    opened = [d.name for d in g.info.declarations if d.opponent]
    assert opened == ["Declare target"]
    assert all(name in protos[OPEN_PROTOTYPE] for name in opened)
    closed = [d.name for d in g.info.declarations if not d.opponent] + [t.name for t in g.info.send_to]
    assert not any(name in protos[OPEN_PROTOTYPE] for name in closed)
    for side in g.info.sides:
        proto = protos[f"{side.name} Unit"]
        assert all(name in proto for name in closed) and not any(name in proto for name in opened)
    units = 0
    for e in root.iter(V + "widget.PieceSlot"):
        _, traits = _piece(e.text)
        if _props(traits).get("Kind") != "unit":
            continue
        units += 1
        assert [t.prefix for t in traits[:2]] == ["prototype;", "restrict;"], e.get("entryName")
        assert traits[0].type == f"prototype;{OPEN_PROTOTYPE}"
    assert units == len(g.units)


def test_hovering_a_stack_shows_the_markers_under_it(built):
    _, _, z = built
    (cdv,) = list(_xml(z).iter(V + "module.map.CounterDetailViewer"))
    assert cdv.get("display") == "from all layers"


def test_only_the_owning_side_uses_a_units_commands(built, game):
    """VASSAL's Restricted trait blocks the commands of the traits inside it (Restricted.keyEvent,
    getKeyCommands), not those outside: it is every unit's and leader's outermost trait, so the
    opponent can neither flip, eliminate nor declare with it (nor move it)."""
    _, _, z = built
    root = _xml(z)
    sides = {s.name for s in game.info.sides}
    owned = 0
    for e in root.iter(V + "widget.PieceSlot"):
        _, traits = _piece(e.text)
        props = _props(traits)
        if props.get("Kind") not in ("unit", "leader"):
            continue
        first = traits[0] if traits[0].prefix == "restrict;" else traits[1]  # below what the rules open to all
        assert first.prefix == "restrict;" and first.fields[0] == props["Side"] in sides, e.get("entryName")
        assert first.fields[2] == "true"  # nor moves it
        owned += 1
    assert owned == len(game.units) + len(game.units_file.leaders)
    for proto in root.iter(V + "module.PrototypeDefinition"):  # nothing restricted inside a prototype
        assert "restrict;" not in (proto.text or ""), proto.get("name")
