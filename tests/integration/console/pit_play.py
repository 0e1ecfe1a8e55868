"""Play for the pit pages' tests: keys and tables through the REST API in-process (rounds are
`tests.support.scripted_rounds`), settlement run in-process, and a page's table row or section
picked out of its HTML."""
from __future__ import annotations

import re
import uuid

import pytest

from service.settlement.connection import connect
from service.settlement.settle import settle_rounds
from tests.support.api_client import Api, flask_sender, ok


@pytest.fixture
def api(client, make_key):
    """api(role, table=None) -> an Api calling in-process with a new key of that role."""
    return lambda role, table=None: Api(flask_sender(client), make_key(role, table))


@pytest.fixture
def new_table(api):
    """new_table(rules="canberra", shoe="physical") -> (table_id, terminal Api), a shoe open."""
    def make(rules: str = "canberra", shoe: str | None = "physical", prefix: str = "PIT") -> tuple[str, Api]:
        table_id = f"{prefix}-{uuid.uuid4().hex[:8]}"
        body = {"table_id": table_id, "rules": rules}
        if rules == "canberra":
            body["paytable"] = "canberra-standard"
        ok(api("admin").post("/v1/tables", body), 201)
        terminal = api("terminal", table_id)
        if shoe:
            ok(terminal.post(f"/v1/tables/{table_id}/shoes", {"mode": shoe}), 201)
        return table_id, terminal
    return make


@pytest.fixture
def settle(database_url):
    """settle(*round_ids): what the settlement worker does, now, in-process."""
    def run(*round_ids: str) -> None:
        with connect(database_url) as conn:
            outcome = settle_rounds(conn, list(round_ids))
        assert not outcome.refused, outcome.refused
    return run


def row_of(html: str, table_id: str) -> str:
    """The floor's row for one table."""
    found = re.search(rf'<tr id="floor-{re.escape(table_id)}".*?</tr>', html, re.S)
    assert found, f"no floor row for {table_id}"
    return found.group(0)


def section(html: str, element_id: str) -> str:
    found = re.search(rf'<section id="{re.escape(element_id)}".*?</section>', html, re.S)
    assert found, f"no section {element_id}"
    return found.group(0)


def text_of(html: str) -> str:
    """The page's text with its tags dropped and its spaces squeezed (none before punctuation), as
    a reader sees it."""
    squeezed = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()
    return re.sub(r" ([,.:;)])", r"\1", squeezed)
