"""Every schema problem in the words of the file: the value as the file writes it, under the
key the author sees, and the fix, never a pydantic path or a regex."""
from __future__ import annotations

import re
from typing import Literal, get_args, get_origin

from builder.model import schema as s
from builder.model.problems import did_you_mean


def pattern_of(kind) -> str:
    """The regex a constrained string type of the schema (Colour, HexId, Version...) is checked with."""
    return next(m.pattern for m in kind.__metadata__ if getattr(m, "pattern", None))


# What a value constrained by a regex must look like, said as an author would (not the regex).
PATTERN_WORDS = {
    pattern_of(s.Colour): ("is not a colour", "colours are #rrggbb: '#' and six hex digits, quoted ('#ead9ae')"),
    pattern_of(s.HexId): ("is not a hex id", "hex ids are 2 to 8 letters, digits or '-', quoted ('0605')"),
    pattern_of(s.Ident): ("is not an id", "ids start with a letter or digit, then letters, digits, spaces, '.', '_' or '-'"),
    pattern_of(s.Length): ("is not a length", "write a length with its unit: 10mm, 0.5in, 1/16in, 12pt (or 0)"),
    pattern_of(s.RuleNumber): ("is not a rule number", "rule numbers are like 7, 7.2 or 7.2.1, quoted ('7.2')"),
    pattern_of(s.TestId): ("is not a test id", "write tests/<file>.py::test_name"),
    pattern_of(s.Version): ("is not a version", "versions are letters, digits, '.', '_' or '-', quoted ('1.2')"),
    r"^[0-9a-f]{16}$": ("is not a geometry fingerprint", "`hexforge release` writes it: 16 hex digits"),
    pattern_of(s.ImageFile): ("is not an image file name",
                              "name a .png, .jpg or .gif file in the game's folder, without folders ('board.png')"),
    pattern_of(s.ArtPath): ("is not a picture file name",
                            "name a .png or .svg file in the game's folder or a folder of it (art/tank.svg), no '..'"),
    pattern_of(s.MPText): ("is not an MP cost", "write a number of MP: 1, 0.5, or a fraction in quotes ('1/3')"),
    r"^[a-z0-9][a-z0-9-]{0,39}$": ("is not a unit or leader id",
                                   "these ids are lower-case letters, digits and '-', up to 40 ('15pz-8pz-1')"),
    r"^[A-Z0-9][A-Z0-9. ]{0,11}$": ("is not a formation id",
                                    "formation ids are up to 12 capital letters, digits, '.' or spaces ('15PZ')"),
    r"^[A-Z]$": ("is not one capital letter", "write one capital letter ('E')"),
    r"^[A-Z]{1,2}$": ("is not a section prefix", "write one or two capital letters ('C')"),
    r"^[0-9A-Za-z-]{2,8}/[0-9A-Za-z-]{2,8}$": ("is not a hexside",
                                                "a hexside is two neighbouring hex ids joined by '/', quoted ('0605/0705')"),
    r"^(AXC|ALC)-[0-9]{1,2}$": ("is not an event card", "cards are AXC-<number> or ALC-<number> ('AXC-3')"),
    r"^[IVX]{1,5}$": ("is not a phase", "phases are Roman numerals ('IV')"),
    r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$": (
        "is not a Python package name", "name the rules package with dots ('validators.games.my_game')"),
}

_HINTS = {
    "int_parsing": "write a whole number",
    "int_from_float": "write a whole number",
    "float_parsing": "write a number",
    "bool_parsing": "write true or false",
    "list_type": "write a YAML list ('- item' lines or [a, b])",
    "dict_type": "write a YAML mapping ('key: value' lines)",
    "model_type": "write a YAML mapping ('key: value' lines)",
    "model_attributes_type": "write a YAML mapping ('key: value' lines)",
    "tuple_type": "write a YAML list of numbers ([a, b])",
}

_WANTED = {  # what the model wanted, for a value of the wrong kind
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "bool_type": "true or false",
    "bool_parsing": "true or false", "string_type": "text", "list_type": "a list",
    "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "tuple_type": "a list of numbers",
}


def _shown(value) -> str:
    """A value as the file shows it (a mapping or list by its kind, not its Python repr)."""
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _choices(declared: list, ctx: dict) -> list[str]:
    found = [str(a) for k in declared if get_origin(k) is Literal for a in get_args(k)]
    if found:
        return found
    return [a.strip(" '") for a in re.split(r",| or ", str(ctx.get("expected", ""))) if a.strip(" '")]


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def schema_words(err: dict, name: str, written: str | None, declared: list, keys: list[str]) -> tuple[str, str]:
    """A pydantic error as the author reads it: (message, hint).

    `name` is the key the value sits under, `written` the value as the file writes it when YAML
    read it as a number, `declared` what the models declare there, `keys` the keys allowed in
    the mapping around it."""
    kind, value, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    loc = tuple(err["loc"])
    at = f"{name}: " if name else ""
    if kind == "extra_forbidden":
        return f"unknown key {loc[-1]!r}", (did_you_mean(loc[-1], keys, "remove it")
                                            or "remove it; `hexforge schema` lists the keys allowed here")
    if kind == "missing":
        if isinstance(loc[-1], int):  # a short tuple: area: [x, y] for [x, y, w, h]
            return f"{at}{_count(len(value) if isinstance(value, list) else 0, 'value')}, more are needed", \
                "give every value of the list"
        return f"missing key {loc[-1]!r}", f"add '{loc[-1]}:' here"
    if kind == "literal_error":
        choices = _choices(declared, ctx)
        return f"{at}{_shown(value)} is not allowed", did_you_mean(value, choices, "remove it")
    if kind == "string_type" and written is not None:  # YAML read an unquoted id as a number
        what = "hex ids" if s.HexId.__metadata__[0] in declared else "text values"
        return f"{at}{written} is read as a number, text is expected", f"quote {what}: '{written}'"
    if kind == "string_type" and value is None and s.Colour.__metadata__[0] in declared:
        return f"{at}no colour (an unquoted '#' starts a YAML comment)", "colours are #rrggbb, quoted: '#ead9ae'"
    if kind == "string_pattern_mismatch":
        words = PATTERN_WORDS.get(ctx.get("pattern"))
        if words:
            return f"{at}{value!r} {words[0]}", words[1]
        return f"{at}{value!r} is not written as this key expects", "check the spelling and format of this value"
    if kind == "string_too_long":
        most = ctx.get("max_length")
        return (f"{at}{value!r} has {len(value)} characters, at most {most} fit",
                f"shorten it to {most} characters or fewer")
    if kind == "string_too_short":
        return f"{at}empty text", f"write at least {_count(ctx.get('min_length', 1), 'character')}"
    if kind in ("too_short", "too_long"):
        n, actual = ctx.get("min_length" if kind == "too_short" else "max_length"), ctx.get("actual_length")
        if kind == "too_short":
            return f"{at}{_count(actual or 0, 'entry')}, at least {n} needed", f"add {_count(n - (actual or 0), 'entry')}"
        return f"{at}{_count(actual or 0, 'entry')}, at most {n} allowed", f"keep {n} or fewer"
    bounds = {"greater_than": ("must be more than", "gt"), "greater_than_equal": ("is less than", "ge"),
              "less_than": ("must be less than", "lt"), "less_than_equal": ("is more than", "le")}
    if kind in bounds:
        words, key = bounds[kind]
        low = [c for k in declared for c in [getattr(k, "ge", None), getattr(k, "gt", None)] if c is not None]
        high = [c for k in declared for c in [getattr(k, "le", None), getattr(k, "lt", None)] if c is not None]
        span = (f"from {low[0]} to {high[0]}" if low and high else f"at least {low[0]}" if low
                else f"up to {high[0]}" if high else "")
        return f"{at}{_shown(value)} {words} {ctx.get(key)}", f"write a number {span}".rstrip()
    if kind in ("value_error", "assertion_error"):  # a model's own check: about the entry, not one key
        text = str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
        return (f"{at}{text}" if loc and loc[-1] == name else text), ""
    if kind in _WANTED:
        wanted = ("a hex id" if s.HexId.__metadata__[0] in declared else "a colour" if s.Colour.__metadata__[0] in declared
                  else _WANTED[kind])
        if value is None:  # `name:` with nothing after it
            return f"{at}no value, {wanted} is expected", (f"write {wanted} after '{name}:'" if loc and loc[-1] == name
                                                           else f"write {wanted} here")
        return f"{at}{_shown(value)} is not {wanted}", _HINTS.get(kind, f"write {wanted}")
    return f"{at}{err['msg']}", ""
