"""Saved games (.vsav): the command tree, the obfuscation and the zip entries (§4).

Used for the module's predefined setups; the log reader decodes the same format.
"""
from __future__ import annotations

import binascii
from functools import lru_cache

from builder.vassal.sequence import join

ESC = "\x1b"
SAVE_KEY = 0x5A  # any byte works; a fixed one keeps builds reproducible


def obfuscate(text: str, key: int = SAVE_KEY) -> bytes:
    """`!VCSK` + key + each UTF-8 byte XOR key, as lower-case hex."""
    body = text.encode("utf-8").translate(_xor(key)).hex()
    return b"!VCSK" + b"%02x" % key + body.encode("ascii")


def deobfuscate(raw: bytes) -> str:
    """The inverse of `obfuscate`, and of VASSAL's binary `VOBS`; plain text is passed through,
    as VASSAL does.  Raises ObfuscationError (a ValueError) or UnicodeDecodeError."""
    d = Deobfuscator()
    return (d.feed(raw) + d.close()).decode("utf-8")


VCSK = b"!VCSK"  # VASSAL <= 3.8.0-beta1: key and bytes as hex pairs
VOBS = b"VOBS"  # VASSAL's main line after 3.8.0-beta1 (PR #15060): one raw key byte, raw XORed bytes
_HEADER = len(VCSK) + 2  # the longest header: !VCSK and two hex digits


class ObfuscationError(ValueError):
    """The savedGame bytes announce an obfuscation but break it; the message says how, in one line."""


class Deobfuscator:
    """savedGame bytes in, plain UTF-8 bytes out, chunk by chunk (vassal-formats.md §4.1, "VOBS").

    The header decides, as `DeobfuscatingInputStream` does: `!VCSK` is the hex reader, `VOBS` the
    binary one, anything else (input shorter than a header too) passes through.  Each chunk is
    translated once and nothing is re-copied, so a reader can inflate, check and decode a large
    entry in one pass.  Choice: a `VOBS` key byte of 0 (the engine picks 1-255 and never writes
    0) or a header cut before its key is refused rather than guessed.
    """

    def __init__(self) -> None:
        self.kind: str | None = None  # "VOBS", "!VCSK" or "plain", once the header is known
        self.key: int | None = None
        self._head = b""  # bytes held until the header is known
        self._odd = b""  # a hex digit waiting for its pair (!VCSK)
        self._skip = 0  # header bytes to drop from the first chunk

    def feed(self, chunk: bytes) -> bytes:
        if self.kind is None:
            self._head += chunk
            if len(self._head) < _HEADER and (VCSK.startswith(self._head[:5]) or VOBS.startswith(self._head[:4])):
                return b""  # could still be a header: wait for more
            chunk, self._head = self._head, b""
            self._start(chunk, final=False)
            chunk = chunk[self._skip:]
        if self.kind == "plain":
            return chunk
        if self.kind == "VOBS":
            return chunk.translate(_xor(self.key))
        return self._unhex(chunk)

    def close(self) -> bytes:
        """The rest; raises ObfuscationError when the input ends inside a header or a hex pair."""
        out = b""
        if self.kind is None:
            chunk, self._head = self._head, b""
            self._start(chunk, final=True)
            out = self.feed(chunk[self._skip:])
        if self._odd:
            raise ObfuscationError("broken !VCSK obfuscation (odd number of hex digits: truncated?)")
        return out

    def _start(self, head: bytes, final: bool) -> None:
        self._skip = 0
        if head.startswith(VOBS):
            if len(head) == len(VOBS):
                raise ObfuscationError("VOBS header with no key byte (truncated)")
            self.kind, self.key, self._skip = "VOBS", head[4], 5
            if self.key == 0:
                raise ObfuscationError("VOBS key byte is 0 (VASSAL never writes it): refused")
            if final and len(head) == 5:
                raise ObfuscationError("VOBS header with no data after it (truncated)")
        elif head.startswith(VCSK):
            pair = head[5:7]
            if len(pair) < 2 or not all(c in b"0123456789abcdefABCDEF" for c in pair):
                raise ObfuscationError("broken !VCSK header (no two hex digits of key)")
            self.kind, self.key, self._skip = "!VCSK", int(pair, 16), 7
        else:
            self.kind = "plain"

    def _unhex(self, chunk: bytes) -> bytes:
        if self._odd:
            chunk = self._odd + chunk
        cut = len(chunk) & ~1
        self._odd = chunk[cut:]
        try:
            return binascii.unhexlify(chunk[:cut] if self._odd else chunk).translate(_xor(self.key))
        except binascii.Error:
            raise ObfuscationError("broken !VCSK obfuscation (not hex pairs)") from None


@lru_cache(maxsize=None)
def _xor(key: int) -> bytes:
    """The translation table of one key, made when first needed (all 256 took 3 ms at import)."""
    return bytes(b ^ key for b in range(256))


def command_tree(head: str, subs: list) -> str:
    """Encode a command with sub-commands: ESC-joined, nested levels escaped (§4.3)."""
    return join([head] + [command_tree(s[0], s[1]) if isinstance(s, tuple) else s for s in subs], ESC)


def stack_command(stack_id: str, map_id: str, x: int, y: int, piece_ids: list[str], layer: int = -1) -> str:
    """AddPiece of a Stack; `layer` is the Game Piece Layer index it is bound to (`@@`, -1: unset)."""
    return "+/" + join([stack_id, "stack", join([map_id, x, y, *piece_ids, f"@@{layer}"], ";")], "/")


def board_picker_command(map_id: str, board: str, *more: tuple[str, int, int]) -> str:
    """The boards a map uses: its board at column 0, row 0, and each further one (name, column, row)."""
    return join([map_id + "BoardPicker", board, 0, 0, *(v for b in more for v in b)], "\t")


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


def moduledata_xml(name: str, module_version: str, vassal_version: str, date_ms: int, description: str,
                   extra1: str = "") -> bytes:
    first = f"<extra1>{_xml(extra1)}</extra1>" if extra1 else "<extra1/>"
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{_xml(module_version)}</version>\n  {first}\n  <extra2/>\n"
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
