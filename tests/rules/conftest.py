"""The rules tests run on the model an audit runs on: the plain copy (builder/model/plain.py)."""
from __future__ import annotations

import pytest

from builder.model import load_game
from builder.paths import REPO as ROOT
from tests.conftest import SLUG


@pytest.fixture(scope="session")
def game():
    """Bravery in the Sand as `hexforge audit` loads it."""
    return load_game(ROOT / "sources" / SLUG, plain=True)
