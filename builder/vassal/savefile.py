"""Saved games (.vsav): the command tree, the obfuscation and the zip entries (§4).

Used for the module's predefined setups; the log reader decodes the same format.
"""
from __future__ import annotations

from builder.vassal.sequence import join

ESC = "\x1b"
SAVE_KEY = 0x5A  # any byte works; a fixed one keeps builds reproducible


def obfuscate(text: str, key: int = SAVE_KEY) -> bytes:
    """`!VCSK` + key + each UTF-8 byte XOR key, as lower-case hex."""
    body = text.encode("utf-8").translate(_XOR[key]).hex()
    return b"!VCSK" + b"%02x" % key + body.encode("ascii")


def deobfuscate(raw: bytes) -> str:
    """The inverse of `obfuscate`; plain text is passed through, as VASSAL does."""
    if raw[:5] != b"!VCSK":
        return raw.decode("utf-8")
    key = int(raw[5:7], 16)
    body = bytes.fromhex(raw[7:].decode("ascii"))
    return body.translate(_XOR[key]).decode("utf-8")


_XOR = [bytes(b ^ key for b in range(256)) for key in range(256)]  # one translation table per key


def command_tree(head: str, subs: list) -> str:
    """Encode a command with sub-commands: ESC-joined, nested levels escaped (§4.3)."""
    return join([head] + [command_tree(s[0], s[1]) if isinstance(s, tuple) else s for s in subs], ESC)


def stack_command(stack_id: str, map_id: str, x: int, y: int, piece_ids: list[str], layer: int = -1) -> str:
    """AddPiece of a Stack; `layer` is the Game Piece Layer index it is bound to (`@@`, -1: unset)."""
    return "+/" + join([stack_id, "stack", join([map_id, x, y, *piece_ids, f"@@{layer}"], ";")], "/")


def board_picker_command(map_id: str, board: str) -> str:
    return join([map_id + "BoardPicker", board, 0, 0], "\t")


def save_text(piece_commands: list[str], components: list[str]) -> str:
    """A whole save: begin_save, version check, pieces, component states, end_save (§4.4).

    No `SETUP_STACK` marker is written, so the module's draw piles start as in a new game.
    """
    pieces = ("", piece_commands) if piece_commands else ""
    return command_tree("begin_save", ["", pieces, *components, "end_save"])


def savedata_xml(module_version: str, vassal_version: str, date_ms: int, description: str = "") -> bytes:
    desc = f"  <description>{_xml(description)}</description>\n" if description else ""
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{_xml(module_version)}</version>\n  <extra1/>\n  <extra2/>\n"
            f"  <VassalVersion>{vassal_version}</VassalVersion>\n  <dateSaved>{date_ms}</dateSaved>\n"
            f"{desc}</data>\n").encode("utf-8")


def moduledata_xml(name: str, module_version: str, vassal_version: str, date_ms: int, description: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{_xml(module_version)}</version>\n  <extra1/>\n  <extra2/>\n"
            f"  <VassalVersion>{vassal_version}</VassalVersion>\n  <dateSaved>{date_ms}</dateSaved>\n"
            f"  <description>{_xml(description)}</description>\n  <name>{_xml(name)}</name>\n</data>\n").encode("utf-8")


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


MAX_DEPTH = 32  # nesting levels of a command tree; real saves and logs use 3


class CommandTreeError(ValueError):
    """The command text nests deeper than MAX_DEPTH levels: a hostile or corrupt file (each level
    costs a pass over the text, and unbounded nesting would exhaust the stack)."""


def decode_tree(cmd: str, _depth: int = 0):
    """Split an encoded command into its tree: a leaf string, or [head, *subs] (§4.3).

    Raises CommandTreeError past MAX_DEPTH levels."""
    from builder.vassal.sequence import split

    toks = split(cmd, ESC)
    if len(toks) == 1 and toks[0] == cmd:
        return cmd
    if _depth >= MAX_DEPTH:
        raise CommandTreeError(f"command text nested deeper than {MAX_DEPTH} levels")
    return [decode_tree(t, _depth + 1) for t in toks]


def leaves(tree) -> list[str]:
    """Every leaf command of a tree, depth first."""
    if isinstance(tree, str):
        return [tree]
    return [leaf for sub in tree for leaf in leaves(sub)]
