"""The rounds' figures are handle, game win and game win % of handle wherever the table report gives
them (its schemas in openapi.yaml, its JSON, its CSV) and the metrics name no drop, win or hold:
those words are the table games statement's, a table's figures from its drop box and chips."""
from __future__ import annotations

import csv
import io
import re

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import ROOT
from tests.support.api_client import ok

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
ROUNDS_FIGURES = {"handle", "game_win", "game_win_percent"}
# A field or column named for the books' figures: drop, drop_cash, win, hold, hold_percent, ...
BOOKS_WORD = re.compile(r"^(drop|win|hold)(_|$)")


def schemas_of(operation: dict) -> dict[str, dict]:
    """Every named schema an operation's answers reach, by name."""
    found: dict[str, dict] = {}

    def walk(node) -> None:
        if isinstance(node, dict):
            if "$ref" in node and node["$ref"].startswith("#/components/schemas/"):
                name = node["$ref"].rsplit("/", 1)[-1]
                if name not in found:
                    found[name] = SPEC["components"]["schemas"][name]
                    walk(found[name])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(operation["responses"])
    return found


def fields_of(schemas: dict[str, dict]) -> dict[str, set[str]]:
    return {name: set(schema.get("properties", {})) for name, schema in schemas.items()}


def test_the_reports_schemas_carry_handle_and_game_win_and_no_drop_win_or_hold():
    report = fields_of(schemas_of(SPEC["paths"]["/v1/reports/tables"]["get"]))
    assert ROUNDS_FIGURES <= report["ReportFigures"] and ROUNDS_FIGURES <= report["ReportRow"]
    named_for_the_books = {name: sorted(field for field in fields if BOOKS_WORD.match(field))
                           for name, fields in report.items()}
    assert not any(named_for_the_books.values()), named_for_the_books
    # The statement keeps the trade's words for the books beside the rounds' figures.
    statement = fields_of(schemas_of(SPEC["paths"]["/v1/reports/table-games-statement"]["get"]))
    assert any(({"drop", "win", "hold_percent"} | ROUNDS_FIGURES) <= fields for fields in statement.values())


def test_the_document_says_which_version_renamed_them():
    assert int(SPEC["info"]["version"]) >= 4 and "docs/changes.md" in SPEC["info"]["description"]
    figures = SPEC["components"]["schemas"]["ReportFigures"]["properties"]
    renamed = {"handle": "drop", "game_win": "win", "game_win_percent": "hold_percent"}
    assert all(f"until version 4 `{old}`" in figures[new]["description"] for new, old in renamed.items())


@pytest.fixture
def compliance(as_key, make_key):
    return as_key(make_key("compliance"))


def test_the_reports_json_and_csv_name_the_rounds_figures(new_table, compliance):
    table_id, _ = new_table()
    report = ok(compliance.get(f"/v1/reports/tables?table={table_id}"), 200)
    (row,) = report["rows"]
    for figures in (row, report["totals"]):
        assert ROUNDS_FIGURES <= set(figures) and not [key for key in figures if BOOKS_WORD.match(key)]
    reply = compliance.get(f"/v1/reports/tables?table={table_id}&format=csv")
    header = next(csv.reader(io.StringIO(reply.data.decode())))
    assert ROUNDS_FIGURES <= set(header) and not [column for column in header if BOOKS_WORD.match(column)]


def test_no_metric_names_drop_win_or_hold(client):
    client.get("/healthz")
    families = list(text_string_to_metric_families(client.get("/metrics").get_data(as_text=True)))
    names = {family.name for family in families}
    assert "pontoon_money_staked_cents" in names and "pontoon_money_returned_cents" in names
    words = {(family.name, word) for family in families
             for word in re.findall(r"[a-z]+", f"{family.name.replace('_', ' ')} {family.documentation}".lower())
             if word in {"drop", "win", "hold"}}
    assert not words, words
