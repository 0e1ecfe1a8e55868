"""`pontoon replay` as a command: batches split over processes give the same lines in the same
order as one process, errors stay on their line, and bad options get one line and status 2."""
from __future__ import annotations

import gc
import json
import random
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bench.random_play import play_random_round
from service.replay import replay_data
from service.rules import load_paytable, load_rules

ROOT = Path(__file__).resolve().parents[3]


def _replay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", "replay", *args],
                          capture_output=True, input=stdin, cwd=ROOT)


@pytest.fixture(scope="module")
def day(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A day of 1,300 random rounds (enough to be split) with two broken lines inside it."""
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    rng = random.Random(7)
    transcripts = [play_random_round(rules, paytable, rng).transcript() for _ in range(1300)]
    lines = [json.dumps(t).encode() for t in transcripts]
    lines[5] = b'{"rules": "canberra", "cards": ['                     # not JSON
    lines[900] = json.dumps({**transcripts[900], "cards": transcripts[900]["cards"][:-1]}).encode()
    path = tmp_path_factory.mktemp("day") / "day.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, transcripts


@pytest.mark.parametrize("workers", ["1", "2", "3"])
def test_a_batch_gives_every_line_in_order_whatever_the_workers(day, workers):
    path, transcripts = day
    proc = _replay("--batch", str(path), "--workers", workers)
    assert proc.returncode == 2, proc.stderr      # two lines were refused
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(got) == len(transcripts)
    assert got[5]["error"].startswith("line 6: ")
    assert got[900]["error"].startswith("line 901: ") and "ran out of cards" in got[900]["error"]
    for number in (0, 1, 4, 6, 649, 650, 899, 901, 1299):
        assert got[number] == replay_data(transcripts[number]), number


def test_a_batch_writes_the_same_bytes_whatever_the_workers(tmp_path):
    """Three thousand rounds, cut into many chunks, with refused lines, a blank line and a CRLF
    ending mid-file: one, two and three workers, and standard input, write the very same bytes."""
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    rng = random.Random(11)
    transcripts = [play_random_round(rules, paytable, rng).transcript() for _ in range(3000)]
    lines = [json.dumps(t).encode() for t in transcripts]
    lines[1000] = b'{"rules": "canberra", "cards": ['                                    # not JSON
    lines[1500] = json.dumps({**transcripts[1500], "cards": transcripts[1500]["cards"][:-1]}).encode()
    lines[1501] = json.dumps({**transcripts[1501], "rules": "no-such-rules"}).encode()
    lines[2000] = b"   "                                                                   # blank: no result
    lines[2500] += b"\r"                                                                  # a CRLF ending
    path = tmp_path / "day.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    runs = [_replay("--batch", str(path), "--workers", workers) for workers in ("1", "2", "3")]
    runs.append(_replay("--batch", "-", "--workers", "2", stdin=path.read_bytes()))
    assert [run.returncode for run in runs] == [2, 2, 2, 2]
    assert all(run.stdout == runs[0].stdout for run in runs[1:])
    got = [json.loads(line) for line in runs[0].stdout.splitlines()]
    assert len(got) == 2999
    assert [got[n]["error"].split(":")[0] for n in (1000, 1500, 1501)] == ["line 1001", "line 1501", "line 1502"]
    assert got[1999] == replay_data(transcripts[1999]) and got[2000] == replay_data(transcripts[2001])
    assert got[2499] == replay_data(transcripts[2500]) and got[-1] == replay_data(transcripts[-1])


def test_a_batch_reads_standard_input(day):
    path, _ = day
    from_file = _replay("--batch", str(path), "--workers", "2")
    from_stdin = _replay("--batch", "-", stdin=path.read_bytes())
    assert from_stdin.stdout == from_file.stdout and from_stdin.returncode == from_file.returncode


def test_a_line_that_is_not_utf8_is_refused_on_its_own(day, tmp_path):
    _, transcripts = day
    path = tmp_path / "odd.jsonl"
    path.write_bytes(json.dumps(transcripts[0]).encode() + b"\n\xff\xfe\n" + json.dumps(transcripts[1]).encode())
    proc = _replay("--batch", str(path))
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 2
    assert got[0] == replay_data(transcripts[0]) and got[2] == replay_data(transcripts[1])
    assert got[1]["error"].startswith("line 2: ")


@pytest.mark.parametrize("args, message", [
    (["--workers", "two", "--batch", "x.jsonl"], "--workers must be a whole number"),
    (["--bogus"], "option --bogus not recognized"),
    (["a.json", "b.json"], "one FILE at most"),
    ([], "give a transcript FILE or --batch FILE.jsonl"),
    (["--batch", "/nonexistent/day.jsonl"], "No such file"),
])
def test_bad_options_get_one_line_and_status_2(args, message):
    proc = _replay(*args)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert proc.stdout == b""


def test_help_lists_the_options():
    proc = _replay("--help")
    assert proc.returncode == 0
    assert b"--batch" in proc.stdout and b"--workers" in proc.stdout


@pytest.mark.parametrize("content, reason", [
    ("[" * 100_000 + "]" * 100_000, "nests JSON too deeply"),
    (json.dumps({"rules": "canberra", "paytable": "canberra-standard", "seats": [{"seat": 1, "wager": 1000}],
                 "cards": ["9H", "9S", "KD"], "actions": [], "option": {"x": 1}}), "unknown fields ['option']"),
    (json.dumps({"rules": "canberra@7", "paytable": "canberra-standard", "seats": [{"seat": 1, "wager": 1000}],
                 "cards": ["9H", "9S", "KD", "8C"], "actions": [{"seat": 1, "hand": 0, "action": "stand"}]}),
     "only version 1 (the file) exists"),
])
def test_a_file_that_is_no_transcript_gets_one_line_and_status_2(tmp_path, content, reason):
    path = tmp_path / "round.json"
    path.write_text(content)
    proc = _replay(str(path))
    assert proc.returncode == 2 and proc.stdout == b""
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and reason in lines[0] and "Traceback" not in lines[0], proc.stderr


def test_a_batch_leaves_nothing_for_the_cycle_collector(day):
    """Every round played, and every line the engine refuses, is freed by reference counting
    alone: a gaming day's batch does not grow with the garbage the cycle collector must find."""
    from service.commands.replay import replay_lines
    from tests.conftest import worked_rounds

    path, _ = day
    worked = [p.read_bytes() for p in worked_rounds() + worked_rounds("traditional")]
    lines = path.read_bytes().splitlines()[:200] + [line.replace(b"\n", b" ") for line in worked] + [
        b"[1, 2", b'{"rules": "no-such-rules", "cards": [], "actions": []}', b'"a string"']
    numbered = list(enumerate(lines, 1))
    replay_lines(numbered, [].append)   # once first: the game modules it imports leave garbage of their own, once
    sink: list[bytes] = []
    gc.collect()
    gc.disable()
    try:
        replay_lines(numbered, sink.append)
        left = gc.collect()
    finally:
        gc.enable()
    assert len(sink) == len(lines)
    assert sum(b'"error"' in out for out in sink) >= 3     # refused lines were among them
    assert left == 0


def test_replay_runs_without_the_web_service():
    """`pontoon replay` re-verifies a gaming day away from the web service: it needs the engine, the
    rules and (for a stored paytable version) the database, never the web framework or the API."""
    probe = ("import sys; import service.commands.replay; "
             "print(sorted({'flask', 'celery', 'service.api'} & set(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout


def test_a_stored_paytable_the_database_cannot_give_is_asked_for_once_per_batch(monkeypatch):
    """Each line naming a version the database could not give is refused alike, without asking
    (or waiting for) the database again: a day's file replayed away from it fails fast. The
    "database" here is a port that hangs up on every connection, counting them."""
    from service.commands import replay

    connections: list[int] = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()

        def hang_up() -> None:
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:   # the test is over: the socket is closed
                    return
                connections.append(1)
                conn.close()

        threading.Thread(target=hang_up, daemon=True).start()
        port = server.getsockname()[1]
        monkeypatch.setenv("DATABASE_URL", f"postgresql://nobody@127.0.0.1:{port}/nowhere?sslmode=disable"
                                           "&gssencmode=disable&connect_timeout=5")
        line = json.dumps({"rules": "canberra", "paytable": "canberra-standard@2",
                           "seats": [{"seat": 1, "wager": 1000}], "cards": ["9H", "9S", "KD", "8C"],
                           "actions": [{"seat": 1, "hand": 0, "action": "stand"}]})
        sink: list[bytes] = []
        assert replay.replay_lines([(n, line.encode()) for n in (1, 2, 3)], sink.append)
    errors = [json.loads(out)["error"].split(": ", 1)[1] for out in sink]
    assert len(connections) == 1
    assert len(set(errors)) == 1 and errors[0].startswith(
        "canberra-standard@2: paytable: a stored version needs the database (DATABASE_URL): ")
