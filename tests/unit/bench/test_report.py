"""The benchmark report's CPU rows: the whole machine, the service alone and each part."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from report import cpu_rows, replay_rows  # noqa: E402

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


def test_the_replays_ratios_are_the_medians_of_the_runs_own_ratios_not_of_the_medians():
    replay = {"rounds": 200000, "engine_rounds_per_s": 16457, "engine_one_process_rounds_per_s": 9682,
              "floor_naive_rounds_per_s": 9579, "ratio_engine_to_floor": 1.609, "ratio_two_workers_to_one": 1.7}
    two_workers, _, against_one = replay_rows(replay)
    assert two_workers["ratio"] == 1.609 and against_one["ratio"] == 1.7
