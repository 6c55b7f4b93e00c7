"""Every key the module answers to, read back from its own build file: the "Keys and mouse" help
page lists them, and a test checks that no two commands share one.

Reading the written XML (not a second list kept by hand) means the page cannot drift from the
module: a toolbar button's hotkey, a piece's menu keys (Layer, Trigger, Mark Moved, Mask) and
the stack keys of StackMetrics.
"""
from __future__ import annotations

from html import escape

from lxml import etree

from builder.vassal.pieces import unchain
from builder.vassal.sequence import split

KEYS_PAGE = "help/keys.html"
V = "VASSAL.build."
_TOOLBAR_KEYS = ("hotkey", "buttonHotkey", "nexthotkey", "prevhotkey", "buttonKeyStroke")
_NAMES = {8: "Backspace", 9: "Tab", 10: "Enter", 27: "Esc", 32: "Space", 33: "Page Up", 34: "Page Down",
          35: "End", 36: "Home", 37: "Left", 38: "Up", 39: "Right", 40: "Down", 127: "Delete"}
_STACK = {"top": "selected piece to the top of its stack", "bottom": "selected piece to the bottom of its stack",
          "up": "selected piece one place up its stack", "down": "selected piece one place down its stack"}


def key_name(stroke: str) -> str:
    """`code,modifiers` as a person reads it: "67,195" -> "Ctrl+Shift+C"."""
    f = split(stroke, ",")
    if len(f) > 2 and f[2]:
        return f[2]  # a named key
    code, mods = int(f[0] or 0), int(f[1] or 0) if len(f) > 1 else 0
    parts = [n for bit, n in ((2, "Ctrl"), (8, "Alt"), (4, "Meta"), (1, "Shift")) if mods & bit]
    key = _NAMES.get(code) or (chr(code) if 48 <= code <= 90 else f"key {code}")
    return "+".join(parts + [key])


def _label(e) -> str:
    for attr in ("text", "buttonText", "label", "name", "threadName", "tooltip"):
        if e.get(attr):
            return e.get(attr)
    return e.tag.rsplit(".", 1)[-1]


def toolbar_keys(root) -> list[tuple[str, str]]:
    """(key stroke, what it does) of every toolbar button and tracker key."""
    out = []
    for e in root.iter():
        if not isinstance(e.tag, str):
            continue
        for attr in _TOOLBAR_KEYS:
            k = e.get(attr)
            if not k or (attr == "hotkey" and e.tag.endswith("map.MassKeyCommand")):
                continue  # a MassKeyCommand's `hotkey` is the key it sends to pieces, not a button's
            what = _label(e)
            if attr == "nexthotkey":
                what += ": next phase"
            elif attr == "prevhotkey":
                what += ": previous phase"
            tip = e.get("tooltip")
            out.append((k, f"{what} ({tip})" if tip and tip != what else what))
    return out


def piece_keys(root) -> list[tuple[str, str]]:
    """(key stroke, menu command) of the piece traits of the palette and the prototypes."""
    found: dict[tuple[str, str], None] = {}
    for e in (list(root.iter(V + "widget.PieceSlot")) + list(root.iter(V + "widget.CardSlot"))
              + list(root.iter(V + "module.PrototypeDefinition"))):
        typ, state = split((e.text or "")[2:], "/")[1:3]
        for t in unchain(typ, state):
            f = t.fields
            if t.prefix == "emb2;" and len(f) > 28:
                for k, menu in ((f[26], f[0]), (f[27], f[3]), (f[28], f[6])):
                    if k and menu:
                        found[(k, menu)] = None
            elif t.prefix == "macro;" and len(f) > 2 and f[2] and f[1]:  # no menu item: a key traits send
                found[(f[2], f[0])] = None
            elif t.prefix == "markmoved;" and len(f) > 4 and f[4]:
                found[(f[4], f[3])] = None
            elif t.prefix == "obs;" and len(f) > 2 and f[0]:
                found[(f[0], f[2])] = None
            elif t.prefix == "delete;" and len(f) > 1 and f[0] and f[1]:
                found[(f[1], f[0])] = None
            elif t.prefix == "sendto;" and len(f) > 1 and f[0] and f[1]:  # a menu item (a played card's send has none)
                found[(f[1], f[0])] = None
    return list(found)


def stack_keys(root) -> list[tuple[str, str]]:
    sm = root.find(f".//{V}module.map.StackMetrics")
    return [(sm.get(a), _STACK[a]) for a in _STACK if sm is not None and sm.get(a)]


def keys_page(xml: bytes) -> str:
    """The HTML body of the help page."""
    root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True))

    def table(rows):
        body = "".join(f"<tr><td><b>{escape(key_name(k))}</b></td><td>{escape(w)}</td></tr>" for k, w in rows)
        return f"<table border=\"1\" cellpadding=\"3\">{body}</table>"
    mouse = [("Drag", "move a piece, or a whole stack when it is not expanded (hex markers stay: they lie "
                      "under the units in their own layer)"),
             ("Double-click a stack", "expand it, to drag or select one piece"),
             ("Right-click a piece", "its menu: flip, declarations, hide a chit"),
             ("Shift+click", "add a piece to the selection"),
             ("Hover over a stack", "shows every piece in it")]
    rows = "".join(f"<tr><td><b>{escape(a)}</b></td><td>{escape(b)}</td></tr>" for a, b in mouse)
    return ("<h2>Windows and buttons</h2>" + table(toolbar_keys(root))
            + "<h2>Selected pieces</h2>" + table(piece_keys(root))
            + "<h2>Stacks</h2>" + table(stack_keys(root))
            + f"<h2>Mouse</h2><table border=\"1\" cellpadding=\"3\">{rows}</table>")
