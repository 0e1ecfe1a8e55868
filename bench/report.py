"""One table of every benchmark figure beside its floor, from the JSON the benchmarks wrote under
bench/results/; also written as bench/results/bench.json."""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


def _load(results: Path, name: str, since: float) -> dict | None:
    """A benchmark's JSON, if it was written by this run (at or after `since`, epoch seconds)."""
    path = results / name
    if not path.exists() or path.stat().st_mtime < since:
        return None
    return json.loads(path.read_text())


def _row(measure: str, figure, floor=None, unit: str = "", floor_name: str = "", ratio: float | None = None) -> dict:
    """One line of the table; the ratio is figure over floor unless given (a median of ratios is
    not the ratio of the medians)."""
    if ratio is None and isinstance(figure, (int, float)) and isinstance(floor, (int, float)) and floor:
        ratio = round(figure / floor, 3)
    return {"measure": measure, "figure": figure, "unit": unit, "floor": floor, "floor_name": floor_name,
            "ratio": ratio}


def terminal_rows(terminal: dict) -> list[dict]:
    peak, floor = terminal["peak"], terminal["floor_peak"]
    rows = [
        _row(f"terminal load, peak ({peak['concurrency']} terminals)", peak["requests_per_s"], floor["requests_per_s"],
             "requests/s", f"floor endpoint, peak ({floor['concurrency']} clients)"),
        _row("  rounds at peak", peak["rounds_per_s"], unit="rounds/s"),
        _row("  decisions at peak", peak["decisions_per_s"], unit="decisions/s"),
    ]
    rows += paired_rows(terminal.get("paired"))
    rows += cpu_rows(peak.get("cpu_ms_per_request") or {}, floor.get("cpu_ms_per_request") or {})
    half, floor_half = terminal["half_load"], terminal["floor_half_load"]
    rows.append(_row(f"half of peak ({half['concurrency']} terminals, {half['target_requests_per_s']} req/s asked; "
                     f"median of {half['windows']} windows)", half["requests_per_s"], floor_half["requests_per_s"],
                     "requests/s",
                     f"floor at half its peak ({floor_half['target_requests_per_s']} req/s asked)"))
    floor_latency: dict = next(iter(floor_half["latency"].values()), {})
    for endpoint, figures in half["latency"].items():
        if figures["count"] < 20:
            continue     # shoes opened and tables read a handful of times: no percentile worth printing
        for pct in ("p50_ms", "p95_ms", "p99_ms"):
            rows.append(_row(f"  {endpoint} {pct[:3]} (client)", figures[pct], floor_latency.get(pct), "ms",
                             f"floor {pct[:3]} (client)"))
    floor_server = floor_half.get("server_latency", {}).get("POST /ops/floor", {})
    for endpoint, figures in half.get("server_latency", {}).items():
        if endpoint == "POST /ops/floor" or figures.get("count", 0) < 20:
            continue
        for pct in ("p50_ms", "p95_ms", "p99_ms"):
            if pct in figures:
                rows.append(_row(f"  {endpoint} {pct[:3]} (server)", figures[pct], floor_server.get(pct), "ms",
                                 f"floor {pct[:3]} (server)"))
    return rows


def paired_rows(paired: dict | None) -> list[dict]:
    """The terminal and the floor at their peaks in windows taken in turn: the medians of each
    side, and the median of the pairs' ratios with their spread."""
    if not paired or paired.get("median_ratio") is None:
        return []
    return [_row(f"  at the peaks, in turn ({paired['pairs']} pairs, median)", paired["terminal_median_requests_per_s"],
                 paired["floor_median_requests_per_s"], "requests/s",
                 f"floor; ratio: the pairs' median ({paired['least_ratio']:.3f} to {paired['greatest_ratio']:.3f})",
                 ratio=paired["median_ratio"])]


# The parts of the stack a request's CPU is counted against, in the order they are printed.
CPU_PARTS = ("api", "database", "settlement", "broker", "load generator", "other")


def cpu_rows(terminal: dict, floor: dict) -> list[dict]:
    """CPU per request at each peak, by part: on a machine the load saturates, the throughputs
    stand in the inverse ratio of what a request costs the whole machine."""
    if not terminal or not floor:
        return []
    rows = [_row("  CPU per request at peak, whole machine", terminal["machine"], floor["machine"], "ms",
                 "floor's, at its peak")]
    if "load generator" in terminal and "load generator" in floor:
        # The load generator shares the machine here; a terminal would not in a casino. What the
        # service alone spends per request is the comparison a deployment sees.
        rows.append(_row("  CPU per request at peak, service alone (less load generator)",
                         round(terminal["machine"] - terminal["load generator"], 3),
                         round(floor["machine"] - floor["load generator"], 3), "ms", "floor's, at its peak"))
    for part in CPU_PARTS:
        if terminal.get(part, 0) or floor.get(part, 0):
            rows.append(_row(f"    {part}", terminal.get(part, 0.0), floor.get(part, 0.0), "ms", "floor's"))
    return rows


def settlement_rows(settlement: dict) -> list[dict]:
    return [_row(f"settlement backlog drain ({settlement['rounds']} rounds, {settlement['workers']} worker)",
                 settlement["settlement_rounds_per_second"], settlement["copy_floor_rounds_per_second"], "rounds/s",
                 "plain COPY of the same ledger rows")]


def replay_rows(replay: dict) -> list[dict]:
    """The replay's bars are the medians of the runs' own ratios, as replay_bench.py gives them."""
    return [_row(f"batch replay ({replay['rounds']} rounds)", replay["engine_rounds_per_s"],
                 replay["floor_naive_rounds_per_s"], "rounds/s", "naive single-pass replayer",
                 ratio=replay.get("ratio_engine_to_floor")),
            _row("  batch replay, one process", replay["engine_one_process_rounds_per_s"],
                 replay["floor_naive_rounds_per_s"], "rounds/s", "naive single-pass replayer"),
            _row("  batch replay, two workers against one", replay["engine_rounds_per_s"],
                 replay["engine_one_process_rounds_per_s"], "rounds/s", "itself on one worker",
                 ratio=replay.get("ratio_two_workers_to_one"))] \
        + instruction_rows(replay.get("instructions"))


def instruction_rows(counted: dict | None) -> list[dict]:
    """The one-process engine's instructions beside the naive replayer's (fewer is less work)."""
    if not counted:
        return []
    millions, thousands = (lambda n: round(n / 1e6, 1)), (lambda n: round(n / 1e3, 1))
    return [_row("  one process, instructions executed (callgrind)", millions(counted["engine_one_process"]),
                 millions(counted["floor_naive"]), "M instr.", "naive replayer's"),
            _row("    per round", thousands(counted["engine_per_round"]), thousands(counted["floor_per_round"]),
                 "K instr.", "naive replayer's"),
            _row("    start-up (an empty file)", millions(counted["engine_start_up"]),
                 millions(counted["floor_start_up"]), "M instr.", "naive replayer's")]


def house_edge_rows(house_edge: dict) -> list[dict]:
    rows = []
    for result in house_edge.get("results", []):
        rows.append(_row(f"house-edge simulation, {result['rules']}", result["fast_rounds_per_s"],
                         result["reference_rounds_per_s"], "rounds/s", "reference engine, same shoes"))
    return rows


def render(rows: list[dict]) -> str:
    def fmt(value) -> str:
        if value is None:
            return "-"
        if isinstance(value, float) and value < 10:
            return f"{value:.2f}"      # CPU per request in ms: a tenth is too coarse
        return f"{value:,.1f}" if isinstance(value, float) and value < 1000 else f"{value:,.0f}"

    lines = [f"{'measure':<62}{'figure':>12}  {'unit':<12}{'floor':>12}{'ratio':>8}  floor is"]
    for row in rows:
        lines.append(f"{row['measure']:<62}{fmt(row['figure']):>12}  {row['unit']:<12}{fmt(row['floor']):>12}"
                     f"{'-' if row['ratio'] is None else format(row['ratio'], '.3f'):>8}  {row['floor_name']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--since", type=float, default=0.0,
                        help="ignore results written before this time (epoch seconds): figures from one run only")
    parser.add_argument("--results", type=Path, default=RESULTS,
                        help="where the benchmarks wrote their JSON, and bench.json goes (default bench/results)")
    args = parser.parse_args(argv)
    sources = {"terminal": ("terminal.json", terminal_rows), "settlement": ("settlement.json", settlement_rows),
               "replay": ("replay.json", replay_rows), "house_edge": ("house_edge.json", house_edge_rows)}
    rows: list[dict] = []
    raw: dict = {}
    for name, (file_name, to_rows) in sources.items():
        data = _load(args.results, file_name, args.since)
        if data is None:
            print(f"({file_name}: not measured in this run)", file=sys.stderr)
            continue
        raw[name] = data
        rows.extend(to_rows(data))
    if not rows:
        print(f"no benchmark results under {args.results}", file=sys.stderr)
        return 1
    table = render(rows)
    print(table)
    (args.results / "bench.json").write_text(json.dumps({
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None},
        "table": rows, "sources": raw}, indent=2) + "\n")
    print(f"\nwritten {args.results / 'bench.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
