"""The metadata of a save (`savedata`, `moduledata`) is read with Python's expat: the same
fields lxml's tree gives, on the engine's own files and on odd ones, and nothing from a file
that declares a DOCTYPE (no entity can expand or reach outside)."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from validators.vlog.container import top_fields

ENGINE = Path(__file__).parent / "fixtures" / "engine"


def by_lxml(data: bytes) -> list[tuple[str, str]]:
    """What the reader took from lxml before (the reference)."""
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return []
    return [(c.tag, c.text) for c in root if isinstance(c.tag, str) and c.text and not c.get("lang")]


def engine_files() -> list[bytes]:
    out = []
    for log in sorted(ENGINE.glob("*.vlog")):
        with zipfile.ZipFile(log) as z:
            out += [z.read(e) for e in ("savedata", "moduledata") if e in z.namelist()]
    return out


ODD = [
    b"<data/>",
    b"<data><name>A &amp; B &lt;3&gt;</name></data>",
    b"<data><name><![CDATA[x < y]]></name><version>1</version></data>",
    "<data><description lang='de'>Wüste</description><description>Desert</description></data>".encode(),
    b"<data><name>before<b>bold</b>after</name></data>",
    b"<data><name>one<!-- note -->two</name><x>  </x><y></y></data>",
    b"<data><a><b>deep</b></a><c>t</c></data>",
    "<?xml version='1.0' encoding='UTF-8'?><data><name>Tobrouk 41–42</name></data>".encode(),
    b"<data><name>unclosed</data>",
    b"not xml at all",
    b"",
]


@pytest.mark.parametrize("data", engine_files() + ODD)
def test_the_fields_are_those_lxml_gives(data):
    assert top_fields(data) == by_lxml(data)


def test_a_real_file_gives_the_module_name():
    fields = dict(top_fields(next(d for d in engine_files() if b"<name>" in d)))
    assert fields["name"] and fields["VassalVersion"].startswith("3.")


@pytest.mark.parametrize("data", [
    b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
    b"<data><name>&b;</name></data>",
    b'<?xml version="1.0"?><!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]><data><name>&x;</name></data>',
    b'<!DOCTYPE data SYSTEM "http://example.com/x.dtd"><data><name>n</name></data>',
])
def test_a_doctype_gives_nothing(data):
    assert top_fields(data) == []
