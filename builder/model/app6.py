"""A unit type's `symbol:` read as an APP-6(D) symbol identification code (SIDC), issue 35.

The symbols are drawn by `military-symbol` (PyPI, MIT licence; builder/render/unitsymbol.py):
every APP-6 land unit icon with its modifiers.  A source names one in words, parts joined by
"+": the icon first ("infantry", "armor", "cavalry", "engineer", "air defense", "supply",
"naval"...), then any modifiers ("headquarters", "airborne", "mountain", "wheeled", "battalion",
"support"...), each an exact name from the library's own vocabulary (case aside); a type with no
icon is the empty frame ("headquarters" alone: the staff of an HQ).  A 20-digit SIDC is taken as it
is, for any symbol set the library draws.  A word the library does not know is refused with the
nearest names it does know.

The library is imported only when a symbol is first read (it pulls in svgpathtools and scipy,
a second and more): an audit, which reads the cached model, never imports it.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import re
import threading
from functools import lru_cache

LAND = "10"  # APP-6 symbol set: land unit
FRIEND = "3"  # standard identity: friend (the counters' plain rectangle frame)
_SIDC = re.compile(r"^\d{20}$")
_EMPTY_FRAME = re.compile(r'Entity "000000" does not exist in symbol set "\d\d"; defaulting to 000000\n?')
HELP = ("write an APP-6 land unit icon (infantry, armor, cavalry, engineer, air defense, supply, naval ...) "
        "and its modifiers after '+' (e.g. 'infantry + airborne', 'armor + headquarters', 'infantry + mountain'), "
        "or a 20-digit SIDC")


# The library prints its complaints; they are caught by swapping sys.stdout, which is one for all
# threads (the counter sheets draw faces in a pool): one library call at a time.
_LOCK = threading.RLock()


class SymbolError(ValueError):
    """A symbol the library cannot draw; the message says what to write instead."""


@lru_cache(maxsize=1)
def _library():
    with _LOCK, contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        from military_symbol import command_line
    return command_line


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, dict[str, str]]:
    """Each part of a symbol by its lower-case name: entity, hqtfd, amplifier, mod1, mod2 -> code."""
    lib = _library()
    schema = lib.sym_schema
    land = schema.symbol_sets[LAND]
    out: dict[str, dict[str, str]] = {"entity": {}, "hqtfd": {}, "amplifier": {}, "mod1": {}, "mod2": {}}

    def walk(entities):
        for e in entities.values():
            for name in e.names:  # a category (xx0000, no icon) yields its name to the entity that has one
                if out["entity"].get(name.lower(), "0000").endswith("0000"):
                    out["entity"][name.lower()] = e.id_code
            if getattr(e, "children", None):
                walk(e.children)

    walk(land.entities)
    for code, h in schema.hqtfd_codes.items():
        if h.applies_to_symbol_set(land):
            for name in h.names:
                out["hqtfd"].setdefault(name.lower(), code)
    for code, a in schema.amplifiers.items():
        if a.applies_to(LAND):
            for name in a.names:
                out["amplifier"].setdefault(name.lower(), code)
    for index in (1, 2):
        for code, m in land.modifiers[index].items():
            for name in m.names:
                out[f"mod{index}"].setdefault(name.lower(), code)
    return out


def _refuse(spec: str, part: str) -> SymbolError:
    names = sorted({n for kind in _vocabulary().values() for n in kind})
    near = difflib.get_close_matches(part.lower(), names, n=4, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""
    within = f" (in {spec!r})" if part.strip() != spec.strip() else ""
    return SymbolError(f"{part!r}{within} is not an APP-6 land unit icon or modifier{hint}; {HELP}")


@lru_cache(maxsize=None)
def sidc(spec: str) -> str:
    """The 20-digit SIDC a `symbol:` names; SymbolError (with the fix) for one the library cannot draw."""
    text = spec.strip()
    if _SIDC.match(text):
        code = text
    else:
        parts = [p.strip() for p in text.split("+")]
        if not parts or any(not p for p in parts):
            raise SymbolError(f"{spec!r} has an empty part; {HELP}")
        voc = _vocabulary()
        got: dict[str, str] = {}
        for i, part in enumerate(parts):
            key = part.lower()
            kinds = ("entity", "hqtfd", "amplifier", "mod1", "mod2") if i == 0 else \
                ("hqtfd", "amplifier", "mod1", "mod2", "entity")
            kind = next((k for k in kinds if key in voc[k] and k not in got), None)
            if kind is None:
                if any(key in voc[k] for k in kinds):
                    raise SymbolError(f"{spec!r}: {part!r} gives a second {next(k for k in kinds if key in voc[k])}"
                                      f" (one icon, one of each modifier); {HELP}")
                raise _refuse(spec, part)
            got[kind] = voc[kind][key]
        code = ("10" + "0" + FRIEND + LAND + "0" + got.get("hqtfd", "0") + got.get("amplifier", "00")
                + got.get("entity", "000000") + got.get("mod1", "00") + got.get("mod2", "00"))
    svg(code, spec)
    return code


@lru_cache(maxsize=None)
def svg(code: str, spec: str = "") -> str:
    """The library's SVG of a SIDC, uncropped (its frame where every frame of its kind is);
    SymbolError when the library reports a problem or cannot draw it."""
    lib = _library()
    said = io.StringIO()
    try:
        with _LOCK, contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            symbol = lib.get_symbol_class_from_sidc(code)
            text = lib.get_symbol_svg_string_from_sidc(code, bounding_padding=-1, style="light") if symbol else ""
    except Exception as exc:  # the library lacks the drawing (e.g. a missing icon file)
        raise SymbolError(f"{spec or code!r} ({code}): the library cannot draw it ({type(exc).__name__}: {exc}); "
                          f"{HELP}") from None
    problem = " ".join(_EMPTY_FRAME.sub("", said.getvalue()).split())  # no icon: the empty frame, as asked
    if not text or problem:
        raise SymbolError(f"{spec or code!r} ({code}): {problem or 'not a symbol the library draws'}; {HELP}")
    return text
