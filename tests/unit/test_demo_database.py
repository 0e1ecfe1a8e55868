"""`make demo` plays on a database of its own: a `make run` after it still finds no console account
and makes the first admin, printing its password."""
from __future__ import annotations

import re

from tests.conftest import ROOT


def default_database(script: str) -> str:
    """The database a launcher uses when DATABASE_URL is not set."""
    text = (ROOT / "ops" / script).read_text()
    found = re.search(r'DATABASE_URL="\$\{DATABASE_URL:-postgresql://[^/]+/([A-Za-z0-9_]+)\}"', text)
    assert found, f"{script} sets a default DATABASE_URL"
    return found.group(1)


def test_the_demo_and_the_stack_use_different_databases():
    assert default_database("demo.sh") != default_database("stack.sh")
    assert default_database("stack.sh") == "pontoon"
