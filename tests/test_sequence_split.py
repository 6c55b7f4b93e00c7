"""The fast `split` (str.split, then escaped delimiters rejoined) decodes every text exactly as
the character walk of VASSAL's `SequenceEncoder.Decoder` does, which this test keeps as the
reference."""
from __future__ import annotations

import random

import pytest

from builder.vassal.sequence import join, split


def walk(value, delim):
    """SequenceEncoder.Decoder, one delimiter at a time (the reference)."""
    if value is None:
        return []
    out, n, start = [], len(value), 0
    while True:
        if start == n:
            out.append("")
            return out
        parts = []
        seg, i = start, value.find(delim, start)
        while i > 0 and value[i - 1] == "\\":
            parts.append(value[seg:i - 1])
            seg, i = i, value.find(delim, i + 1)
        last = i == -1
        tok = "".join(parts) + (value[seg:] if last else value[seg:i])
        if not last:
            start = i + 1
        if len(tok) > 1 and tok[0] == "'" and tok[-1] == "'":
            tok = tok[1:-1]
        out.append(tok)
        if last:
            return out


DELIMS = ["/", "\t", ";", ",", "\x1b", "\\"]
ALPHABET = ["a", "b", "\\", "'", "/", "\t", ";", ",", "\x1b"]


@pytest.mark.parametrize("delim", DELIMS)
def test_split_matches_the_reference_walk_on_random_text(delim):
    rng = random.Random(15)
    for _ in range(20000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 12)))
        assert split(text, delim) == walk(text, delim), repr(text)


@pytest.mark.parametrize("text,delim,tokens", [
    ("a\\/b/c", "/", ["a/b", "c"]),
    ("a/", "/", ["a", ""]),
    ("", "/", [""]),
    ("\\/a", "/", ["/a"]),
    ("'x'/'y", "/", ["x", "'y"]),
    ("a\\/\\/b", "/", ["a//b"]),
    ("a\\/", "/", ["a/"]),
])
def test_split_examples(text, delim, tokens):
    assert split(text, delim) == tokens == walk(text, delim)


def test_split_of_none_is_empty():
    assert split(None, "/") == []


def test_nested_join_split_round_trip():
    rng = random.Random(7)
    for _ in range(2000):
        inner = ["".join(rng.choice(ALPHABET[:4] + [";"]) for _ in range(rng.randrange(0, 6))) for _ in range(3)]
        outer = [join(inner, ";"), "x/y", "'q'"]
        text = join(outer, "/")
        assert split(text, "/") == walk(text, "/")


@pytest.mark.parametrize("delim", DELIMS)
def test_split_with_every_stand_in_character_in_the_text(delim):
    """The fast split marks escaped delimiters with a character the text lacks; a text that
    holds all of them falls back to the regex, with the same tokens."""
    from builder.vassal.sequence import _MARKS

    rng = random.Random(16)
    alphabet = ALPHABET + list(_MARKS)
    for _ in range(5000):
        text = _MARKS + "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        assert split(text, delim) == walk(text, delim), repr(text)
        some = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        assert split(some, delim) == walk(some, delim), repr(some)
