"""The benchmark report's CPU rows: the whole machine, the service alone and each part."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from report import cpu_rows  # noqa: E402

TERMINAL = {"machine": 4.258, "api": 2.262, "database": 1.031, "load generator": 0.759, "settlement": 0.085}
FLOOR = {"machine": 2.135, "api": 1.118, "database": 0.311, "load generator": 0.669}


def test_the_service_alone_is_the_machine_less_the_load_generator():
    rows = {row["measure"].strip(): row for row in cpu_rows(TERMINAL, FLOOR)}
    alone = rows["CPU per request at peak, service alone (less load generator)"]
    assert (alone["figure"], alone["floor"]) == (3.499, 1.466)
    assert alone["ratio"] == round(3.499 / 1.466, 3)


def test_parts_are_listed_where_either_side_spent_on_them():
    measures = [row["measure"].strip() for row in cpu_rows(TERMINAL, FLOOR)]
    assert measures[2:] == ["api", "database", "settlement", "load generator"]


def test_without_a_load_generator_figure_there_is_no_service_alone_row():
    machine_only = {"machine": 4.0, "api": 3.0}
    measures = [row["measure"].strip() for row in cpu_rows(machine_only, {"machine": 2.0, "api": 1.5})]
    assert measures == ["CPU per request at peak, whole machine", "api"]


def test_no_figures_no_rows():
    assert cpu_rows({}, FLOOR) == []
