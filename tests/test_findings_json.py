"""`Finding.to_json` is written out field by field: it must give the same keys, in the same
order, with the same values as the `asdict` form the reports were built from (when Finding was
a dataclass: its fields in order, as `_fields` lists them now)."""
from __future__ import annotations

from validators.findings import Finding


def reference(f: Finding) -> dict:
    d = {name: getattr(f, name) for name in Finding._fields}
    d["from"], d["to"] = d.pop("from_hex"), d.pop("to_hex")
    d["path"] = list(f.path)
    return d


def test_to_json_matches_the_asdict_form_key_for_key_and_in_order():
    full = Finding(3, 1, "Axis", "8th Panzer", "0607", "0608", "6.2", "cost 3.5 MP", "event",
                   ("0607", "0608"), "Activations", "A unit without enough MP...")
    bare = Finding(0, None, None, None, None, None, "13.1", "")
    for f in (full, bare):
        assert list(f.to_json().items()) == list(reference(f).items())
    assert full.to_json()["path"] == ["0607", "0608"] and isinstance(full.to_json()["path"], list)


def test_every_field_is_in_the_json():
    """A field added to Finding must be added to to_json too (asdict took it on its own)."""
    f = Finding(1, 2, "s", "p", "a", "b", "r", "m")
    renamed = {"from_hex": "from", "to_hex": "to"}
    assert set(f.to_json()) == {renamed.get(x, x) for x in Finding._fields}


def test_report_dumps_is_json_dumps_byte_for_byte():
    import json
    import random

    from validators.report import dumps

    rng = random.Random(15)
    texts = ["", "a", "é ü — 日本", "quote \" back \\ slash", "ctrl \x00\x1b\t\n", "\ud800", "&lt;Alice&gt;"]

    def value(depth):
        kind = rng.randrange(9 if depth < 4 else 6)
        return [lambda: rng.choice(texts), lambda: None, lambda: rng.random() < 0.5, lambda: rng.randrange(-5, 10**12),
                lambda: rng.choice([0.5, -1e300, 3.0, float("nan"), float("inf"), -float("inf")]),
                lambda: rng.choice(texts),
                lambda: [value(depth + 1) for _ in range(rng.randrange(3))],
                lambda: tuple(value(depth + 1) for _ in range(rng.randrange(3))),
                lambda: {rng.choice(texts) + str(i): value(depth + 1) for i in range(rng.randrange(3))}][kind]()

    for _ in range(3000):
        doc = value(0)
        assert dumps(doc) == json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    odd = {1: "a", None: [True], 2.5: {}}  # keys json.dumps converts: left to json.dumps
    assert dumps(odd) == json.dumps(odd, indent=2, ensure_ascii=False) + "\n"
