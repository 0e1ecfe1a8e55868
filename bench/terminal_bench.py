"""Terminal load against a running stack: a concurrency sweep to the peak, then half of the peak for
latencies, with the floor endpoint (one authenticated INSERT and commit) measured the same ways.

The floor is served by the benchmark's own app, bench/floor_app.py, not by the product API: the
stack under test runs with PONTOON_WSGI_APP='bench.floor_app:create_app()', as ops/bench.sh does."""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import uuid
from pathlib import Path

import requests
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cpu_use import per_request_ms, snapshot  # noqa: E402
from paired import FLOOR as FLOOR_SIDE  # noqa: E402
from paired import TERMINAL as TERMINAL_SIDE  # noqa: E402
from paired import measure_pairs, median_window, summarise_pairs, windows_in_turn  # noqa: E402

from service.terminal.client import Latencies, TerminalClient  # noqa: E402
from service.terminal.simulator import IssuedKey, SimulatorConfig, issue_key, revoke_keys  # noqa: E402
from service.terminal.simulator import run as simulate  # noqa: E402
from service.terminal.stats import latency_table, summary  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "terminal.json"
FLOOR = "POST /ops/floor"
FLOOR_PATH = "/v1/ops/floor"     # as bench/floor_app.py serves it
ACTIONS = "POST /rounds/{id}/actions"


def issue_keys(args, role: str, count: int) -> list[IssuedKey]:
    """Keys for the floor's clients: one each, as each terminal has its own (a shared key would
    make every request wait on the same api_keys row)."""
    admin = TerminalClient(args.url, args.admin_key)
    try:
        return [issue_key(admin, role) for _ in range(count)]
    finally:
        admin.close()


def revoke(args, keys: list[IssuedKey]) -> None:
    admin = TerminalClient(args.url, args.admin_key)
    try:
        left = revoke_keys(admin, keys, "the benchmark is over")
    finally:
        admin.close()
    if left:
        print(f"keys the benchmark issued could not be revoked: {', '.join(left)}", file=sys.stderr)


def check_floor(args, key: IssuedKey) -> None:
    """Stop at once, saying why, when the stack is the product API alone, which has no floor."""
    client = TerminalClient(args.url, key.secret)
    try:
        reply = client.post(FLOOR_PATH, None, FLOOR)
    finally:
        client.close()
    if reply.status == 404:
        raise SystemExit(f"{args.url} serves no {FLOOR_PATH}: run the stack with "
                         "PONTOON_WSGI_APP='bench.floor_app:create_app()' (ops/bench.sh does)")


def terminal_load(args, concurrency: int, seconds: float, rate: float | None = None) -> dict:
    config = SimulatorConfig(base_urls=(args.url,), table=f"B{uuid.uuid4().hex[:6]}", rounds=None,
                             seats=args.seats, concurrency=concurrency, physical=args.physical, seed=concurrency,
                             admin_key=args.admin_key, rate=rate,
                             duration=seconds, money=False, progress_every=0)
    before = snapshot()
    figures = summary(simulate(config))
    figures["cpu_ms_per_request"] = per_request_ms(before, snapshot(), figures["requests"])
    figures["concurrency"] = concurrency
    return figures


def floor_load(args, keys: list[IssuedKey], seconds: float, rate: float | None = None) -> dict:
    """len(keys) clients posting the floor endpoint for `seconds`."""
    deadline = time.monotonic() + seconds
    pace = rate / len(keys) if rate else None
    clients = [TerminalClient(args.url, key.secret, pace=pace, phase=n / len(keys)) for n, key in enumerate(keys)]
    errors = [0] * len(clients)

    def hammer(n: int) -> None:
        while time.monotonic() < deadline:
            if not clients[n].post(FLOOR_PATH, None, FLOOR).ok:
                errors[n] += 1

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(len(clients))]
    before = snapshot()
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    cpu = snapshot()
    latencies = Latencies()
    for client in clients:
        latencies.merge(client.latencies)
        client.close()
    return {"concurrency": len(keys), "requests": latencies.count(), "errors": sum(errors),
            "seconds": round(elapsed, 3), "requests_per_s": round(latencies.count() / elapsed, 1),
            "latency": latency_table(latencies), "cpu_ms_per_request": per_request_ms(before, cpu, latencies.count())}


# The API's own view of the same requests: its latency histogram, per URL rule.
SERVER_ROUTES = {"POST /rounds/{id}/actions": "/v1/rounds/<uuid:round_id>/actions",
                 "POST /tables/{id}/rounds": "/v1/tables/<table_id:table_id>/rounds",
                 FLOOR: FLOOR_PATH}


def histogram_counts(url: str) -> dict[tuple[str, float], float]:
    """{(endpoint, upper bound): cumulative count} of POST requests, from /metrics."""
    counts: dict[tuple[str, float], float] = {}
    for family in text_string_to_metric_families(requests.get(url + "/metrics", timeout=10).text):
        for sample in family.samples:
            if sample.name == "pontoon_http_request_duration_seconds_bucket" and sample.labels.get("method") == "POST":
                counts[(sample.labels["endpoint"], float(sample.labels["le"]))] = sample.value
    return counts


def server_percentiles(before: dict, after: dict) -> dict[str, dict[str, float]]:
    """p50/p95/p99 in ms per endpoint for the requests between two scrapes, interpolated within
    the histogram's buckets (so as exact as the buckets are fine)."""
    out = {}
    for label, rule in SERVER_ROUTES.items():
        bounds = sorted(le for (endpoint, le) in after if endpoint == rule)
        cumulative = [after[(rule, le)] - before.get((rule, le), 0.0) for le in bounds]
        if not cumulative or cumulative[-1] <= 0:
            continue
        total = cumulative[-1]
        figures: dict[str, float] = {"count": int(total)}
        for name, q in (("p50_ms", 0.50), ("p95_ms", 0.95), ("p99_ms", 0.99)):
            rank = q * total
            lower_bound, lower_count = 0.0, 0.0
            for le, count in zip(bounds, cumulative):
                if count >= rank:
                    if le == float("inf"):
                        figures[name] = round(lower_bound * 1000, 1)
                    else:
                        share = (rank - lower_count) / (count - lower_count) if count > lower_count else 1.0
                        figures[name] = round((lower_bound + (le - lower_bound) * share) * 1000, 1)
                    break
                lower_bound, lower_count = le, count
        out[label] = figures
    return out


def with_server_view(args, measure) -> dict:
    before = histogram_counts(args.url)
    figures = measure()
    figures["server_latency"] = server_percentiles(before, histogram_counts(args.url))
    return figures


def best_of(runs: int, measure, key) -> tuple[dict, list[dict]]:
    """The least disturbed of `runs` measurements (the machine is shared), and all of them."""
    measured = [measure() for _ in range(runs)]
    for figures in measured:
        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return max(measured, key=key), measured


def p99_of_decisions(figures: dict) -> float:
    return figures["latency"].get(ACTIONS, {}).get("p99_ms", float("inf"))


def p99_of_floor(figures: dict) -> float:
    return figures["latency"].get(FLOOR, {}).get("p99_ms", float("inf"))


def paired_load(args, terminal_concurrency: int, floor_keys: list[IssuedKey]) -> tuple[dict, int]:
    """The terminal at its peak concurrency and the floor at its own, in windows taken in turn
    (paired.py): each pair's two windows are seconds apart, so the host's drift, which moves
    every figure over the minutes a sweep takes, falls on both alike. Returns the pairs with
    their summary, and the errors the windows met."""
    errors = 0

    def measure(side: str) -> float:
        nonlocal errors
        if side == FLOOR_SIDE:
            figures = floor_load(args, floor_keys, args.seconds)
        else:
            figures = terminal_load(args, terminal_concurrency, args.seconds)
        errors += figures["errors"]
        return figures["requests_per_s"]

    windows = measure_pairs(args.pairs, measure)
    return {"terminal_concurrency": terminal_concurrency, "floor_concurrency": len(floor_keys),
            "seconds": args.seconds, "windows": windows, **summarise_pairs(windows)}, errors


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default=os.environ.get("PONTOON_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--admin-key", default=os.environ.get("PONTOON_ADMIN_KEY"))
    parser.add_argument("--concurrency", default="1,2,4,8,12", help="the sweep's terminal counts")
    parser.add_argument("--seconds", type=float, default=6.0, help="per measurement")
    parser.add_argument("--warm-up", type=float, default=3.0, help="seconds of load before the first measurement")
    parser.add_argument("--repeats", type=int, default=2, help="measurements per step; the best one counts")
    parser.add_argument("--pairs", type=int, default=4,
                        help="terminal and floor windows taken in turn at their peaks, after the sweep")
    parser.add_argument("--half-pairs", type=int, default=5,
                        help="terminal and floor windows at half their peaks, taken in turn; "
                             "the median window's latency counts")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--physical", action="store_true")
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.half_pairs < 1:
        parser.error("--pairs and --half-pairs must each be at least 1")
    if not args.admin_key:
        parser.error("needs --admin-key (or PONTOON_ADMIN_KEY)")
    return args


def sweep_step(args, concurrency: int, floor_keys: list[IssuedKey]) -> tuple[dict, int]:
    """The terminal and the floor at one concurrency, each the best of args.repeats runs; the
    sweep's row and the errors its runs met."""
    terminal, terminal_runs = best_of(
        args.repeats, lambda: terminal_load(args, concurrency, args.seconds), key=lambda f: f["requests_per_s"])
    floor, floor_runs = best_of(
        args.repeats, lambda: floor_load(args, floor_keys[:concurrency], args.seconds),
        key=lambda f: f["requests_per_s"])
    row = {"concurrency": concurrency, "terminal_requests_per_s": terminal["requests_per_s"],
           "terminal_rounds_per_s": terminal["rounds_per_s"],
           "terminal_decisions_per_s": terminal["decisions_per_s"],
           "floor_requests_per_s": floor["requests_per_s"],
           "terminal_cpu_ms_per_request": terminal["cpu_ms_per_request"],
           "floor_cpu_ms_per_request": floor["cpu_ms_per_request"],
           "terminal_runs_requests_per_s": [run["requests_per_s"] for run in terminal_runs],
           "floor_runs_requests_per_s": [run["requests_per_s"] for run in floor_runs],
           "load_average": terminal["load_average"]}
    print(f"C={concurrency:<3} terminal {terminal['requests_per_s']:>7} req/s "
          f"{terminal['rounds_per_s']:>6} rounds/s {terminal['decisions_per_s']:>7} decisions/s "
          f"| floor {floor['requests_per_s']:>7} req/s"
          f"   (load {terminal['load_average'][0]})", file=sys.stderr)
    return row, sum(run["errors"] for run in terminal_runs + floor_runs)


def half_loads(args, peak: dict, floor_peak: dict, floor_keys: list[IssuedKey]) -> tuple[dict, dict, int]:
    """The terminal and the floor each paced at half its own peak, for latencies, in
    args.half_pairs pairs of windows taken in turn as the peaks' are (paired.windows_in_turn): the
    result's "half_load" and "floor_half_load" are each side's median window, with every window's
    p99 beside it, and the errors the windows met."""
    half_rate = peak["terminal_requests_per_s"] / 2
    floor_half_rate = floor_peak["floor_requests_per_s"] / 2
    print(f"half of peak: {half_rate:.0f} req/s with {peak['concurrency']} terminals", file=sys.stderr)

    def measure(side: str) -> dict:
        if side == FLOOR_SIDE:
            return with_server_view(args, lambda: floor_load(
                args, floor_keys[:floor_peak["concurrency"]], args.seconds * 2, rate=floor_half_rate))
        return with_server_view(args, lambda: terminal_load(
            args, peak["concurrency"], args.seconds * 2, rate=half_rate))

    pairs = windows_in_turn(args.half_pairs, measure)
    windows = {side: [pair[side] for pair in pairs] for side in (TERMINAL_SIDE, FLOOR_SIDE)}
    half = median_window(windows[TERMINAL_SIDE], p99_of_decisions)
    floor_half = median_window(windows[FLOOR_SIDE], p99_of_floor)
    terminal_side = {"concurrency": peak["concurrency"], "target_requests_per_s": round(half_rate, 1),
                     "windows": args.half_pairs,
                     "requests_per_s": half["requests_per_s"], "rounds_per_s": half["rounds_per_s"],
                     "decisions_per_s": half["decisions_per_s"], "latency": half["latency"],
                     "server_latency": half["server_latency"],
                     "decisions_p99_ms_of_each_window": [p99_of_decisions(w) for w in windows[TERMINAL_SIDE]]}
    floor_side = {"concurrency": floor_peak["concurrency"], "target_requests_per_s": round(floor_half_rate, 1),
                  "windows": args.half_pairs,
                  "requests_per_s": floor_half["requests_per_s"], "latency": floor_half["latency"],
                  "server_latency": floor_half["server_latency"],
                  "p99_ms_of_each_window": [p99_of_floor(w) for w in windows[FLOOR_SIDE]]}
    errors = sum(w["errors"] for side in windows.values() for w in side)
    return terminal_side, floor_side, errors


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    levels = [int(c) for c in args.concurrency.split(",")]
    load_before = [round(x, 2) for x in os.getloadavg()]

    print("warming up", file=sys.stderr)
    terminal_load(args, 2, args.warm_up)
    floor_keys = issue_keys(args, "compliance", max(levels))
    try:
        check_floor(args, floor_keys[0])
        floor_load(args, floor_keys[:2], args.warm_up)
        sweep, errors = [], 0
        for concurrency in levels:
            row, step_errors = sweep_step(args, concurrency, floor_keys)
            sweep.append(row)
            errors += step_errors
        peak = max(sweep, key=lambda row: row["terminal_requests_per_s"])
        floor_peak = max(sweep, key=lambda row: row["floor_requests_per_s"])
        paired, paired_errors = paired_load(args, peak["concurrency"], floor_keys[:floor_peak["concurrency"]])
        errors += paired_errors
        print(f"paired at the peaks: terminal over floor {paired['median_ratio']} (median of {paired['pairs']}; "
              f"{paired.get('least_ratio')} to {paired.get('greatest_ratio')})", file=sys.stderr)
        half, floor_half, half_errors = half_loads(args, peak, floor_peak, floor_keys)
        errors += half_errors
    finally:
        revoke(args, floor_keys)

    result = {
        "sweep": sweep,
        "peak": {"concurrency": peak["concurrency"], "requests_per_s": peak["terminal_requests_per_s"],
                 "rounds_per_s": peak["terminal_rounds_per_s"], "decisions_per_s": peak["terminal_decisions_per_s"],
                 "cpu_ms_per_request": peak["terminal_cpu_ms_per_request"]},
        "floor_peak": {"concurrency": floor_peak["concurrency"], "requests_per_s": floor_peak["floor_requests_per_s"],
                       "cpu_ms_per_request": floor_peak["floor_cpu_ms_per_request"]},
        "ratio_terminal_to_floor": round(peak["terminal_requests_per_s"] / floor_peak["floor_requests_per_s"], 3),
        "paired": paired,
        "half_load": half,
        "floor_half_load": floor_half,
        "errors": errors,
        "method": f"each step of the sweep measured {args.repeats} times for {args.seconds} s, the best run "
                  f"counting (the machine is shared); then, at the two peaks, {args.pairs} pairs of windows "
                  "taken in turn (the order swapped every pair), their ratios' median given; then, at half "
                  f"of each peak, {args.half_pairs} pairs of {args.seconds * 2} s windows taken in turn, each "
                  "side's median window by p99 given; latency as the client sees it",
        "seats": args.seats, "shoe": "physical" if args.physical else "virtual",
        "cpus": os.cpu_count(), "load_average_before": load_before,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
