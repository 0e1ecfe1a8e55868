"""After a demo run, where to look: the rounds in /metrics, a recall of the last round, the table
report, each fetched from the running stack and printed with the URL it came from."""
from __future__ import annotations

import argparse
import sys
import time
from contextlib import closing
from typing import TextIO

from prometheus_client.parser import text_string_to_metric_families

from .client import TerminalClient
from .simulator import SetupError, issue_key, revoke_keys

SETTLE_WAIT = 60.0                # seconds to wait for the backlog to settle before looking
SHOWN_METRICS = ("pontoon_rounds_completed", "pontoon_rounds_settled", "pontoon_money_staked_cents",
                 "pontoon_money_returned_cents", "pontoon_settlement_lag_seconds", "pontoon_rounds_awaiting_settlement",
                 "pontoon_outbox_depth")


def metric_samples(text: str, tables: list[str]) -> list[tuple[str, dict, float]]:
    """The samples worth showing: this run's tables' rounds and money, settlement lag and backlog."""
    shown = []
    for family in text_string_to_metric_families(text):
        if family.name not in SHOWN_METRICS:
            continue
        for sample in family.samples:
            if sample.name.endswith("_created") or sample.name.endswith("_bucket"):
                continue
            table = sample.labels.get("table")
            if table is not None and table not in tables:
                continue
            shown.append((sample.name, sample.labels, sample.value))
    return shown


def metrics_digest(samples: list[tuple[str, dict, float]], tables: list[str]) -> str:
    """Per table: rounds completed and settled, cents staked and returned; then the settlement lag."""
    per_table = {table: {"completed": 0.0, "settled": 0.0, "staked": 0.0, "returned": 0.0} for table in tables}
    field_of = {"pontoon_rounds_completed_total": "completed", "pontoon_rounds_settled_total": "settled",
                "pontoon_money_staked_cents_total": "staked", "pontoon_money_returned_cents_total": "returned"}
    other = {}
    for name, labels, value in samples:
        if name in field_of and labels.get("table") in per_table:
            per_table[labels["table"]][field_of[name]] += value
        else:
            other[name] = value
    lines = [f"  {'table':<20}{'completed':>10}{'settled':>9}{'staked':>14}{'returned':>14}"]
    for table, row in per_table.items():
        lines.append(f"  {table:<20}{row['completed']:>10.0f}{row['settled']:>9.0f}"
                     f"{row['staked'] / 100:>14,.2f}{row['returned'] / 100:>14,.2f}")
    count = other.get("pontoon_settlement_lag_seconds_count", 0)
    mean = other.get("pontoon_settlement_lag_seconds_sum", 0) / count if count else 0
    lines.append(f"  settlement lag (complete to settled): {count:.0f} rounds, mean {mean:.2f} s; awaiting "
                 f"settlement {other.get('pontoon_rounds_awaiting_settlement', 0):.0f}, outbox "
                 f"{other.get('pontoon_outbox_depth', 0):.0f}")
    return "\n".join(lines)


def wait_until_settled(client: TerminalClient, timeout: float = SETTLE_WAIT) -> float | None:
    """Rounds still awaiting settlement once the wait is over (None if /metrics did not answer)."""
    deadline = time.monotonic() + timeout
    while True:
        reply = client.session.get(f"{client.base_url}/metrics", timeout=5)
        if reply.status_code != 200:
            return None
        awaiting = next((s.value for f in text_string_to_metric_families(reply.text) for s in f.samples
                         if s.name == "pontoon_rounds_awaiting_settlement"), None)
        if not awaiting or time.monotonic() > deadline:
            return awaiting
        time.sleep(0.5)


def tour(base_url: str, admin_key: str, tables: list[str], out: TextIO = sys.stdout) -> int:
    with closing(TerminalClient(base_url, admin_key)) as admin:
        base = admin.base_url
        print("\n== Where to look ==", file=out)
        awaiting = wait_until_settled(admin)
        print(f"\nMetrics: {base}/metrics (rounds awaiting settlement now: {awaiting})", file=out)
        text = admin.session.get(f"{base}/metrics", timeout=5).text
        print(metrics_digest(metric_samples(text, tables), tables), file=out)
        print(f"  (everything: curl -s {base}/metrics | grep ^pontoon_)", file=out)
        try:
            reader = issue_key(admin, "supervisor")
        except SetupError as exc:
            print(f"\n(no supervisor key for the recall and report: {exc})", file=out)
            return 0
        try:
            _show_recall_and_report(base_url, base, reader.secret, tables, out)
        finally:
            if revoke_keys(admin, [reader], "the tour is over"):
                print(f"\n(the tour's supervisor key {reader.key_id} could not be revoked: revoke it by hand)",
                      file=out)
    return 0


def _show_recall_and_report(base_url: str, base: str, reader: str, tables: list[str], out: TextIO) -> None:
    with closing(TerminalClient(base_url, reader)) as looker:
        table = tables[0]
        recall = looker.get(f"/v1/tables/{table}/recall?last=1", "GET recall")
        print(f"\nRecall of the last round: {base}/v1/tables/{table}/recall?last=1  (supervisor or compliance key)",
              file=out)
        if recall.ok:
            for round_ in recall.body["rounds"]:
                print(f"  round {round_['round_id']} ({round_['status']}): {len(round_['events'])} cards and "
                      f"decisions, money {round_['money']}", file=out)
                for bet in round_["bets"]:
                    print(f"    seat {bet['seat']} {bet['kind']}: staked {bet['stake']} returned {bet['returned']} "
                          f"({bet['outcome']})", file=out)
        else:
            print(f"  not available: {recall.status} {recall.code}", file=out)
        report = looker.get(f"/v1/reports/tables?table={table}", "GET report")
        print(f"\nTable report: {base}/v1/reports/tables?table={table}  (add &format=csv for CSV)", file=out)
        if report.ok:
            for row in report.body["rows"]:
                print("  " + ", ".join(f"{k} {row.get(k)}" for k in ("table_id", "rounds", "handle", "paid_out",
                                                                   "game_win", "game_win_percent")), file=out)
        else:
            print(f"  not available: {report.status} {report.code}", file=out)
        print(f"\nOne round's state and transcript: {base}/v1/rounds/<round_id> and .../transcript (the table's "
              f"terminal key, or any reader)", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.terminal.tour", description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--admin-key", required=True)
    parser.add_argument("--table", action="append", required=True, help="the run's tables (repeat)")
    args = parser.parse_args(argv)
    return tour(args.url, args.admin_key, args.table)


if __name__ == "__main__":
    sys.exit(main())
