"""`pontoon replay`: play transcripts and print their money (one file, or a JSON-lines batch)."""
from __future__ import annotations

import functools
import gc
import json
import os
import sys
from collections import namedtuple
from types import SimpleNamespace

import orjson

from ..engine.play import play_transcript
from ..engine.transcript import TranscriptError, parse_transcript
from ..rules import RulesError, load_paytable, load_rules, parse_cache

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Any, Callable


def replay_data(data: Any, known: dict | None = None) -> dict:
    """The result of one transcript (already parsed from JSON); raises TranscriptError or RulesError.
    `known` remembers, for one batch, the rules and paytable each pair of names resolved to, or
    why they could not be had: a batch never asks the database again, nor waits for it again,
    for a paytable version it could not give."""
    transcript = parse_transcript(data)
    key = (transcript.rules, transcript.paytable)
    game = known.get(key) if known is not None and not transcript.options else None
    if game is None:
        try:
            rules = load_rules(_rules_name(transcript.rules), transcript.options)
            game = rules, _paytable(transcript.paytable) if transcript.paytable else None
        except RulesError as exc:
            game = _Refused(exc.source, exc.errors)
        if known is not None and not transcript.options:
            known[key] = game
    if type(game) is _Refused:
        raise RulesError(game.source, game.errors)   # a new error: one raised again grows its traceback
    return play_transcript(game[0], game[1], transcript).result()


# Why a pair of rules and paytable names could not be had: kept for the batch, raised anew each time.
_Refused = namedtuple("_Refused", "source errors")


def _rules_name(ref: str) -> str:
    """Rules exist as their file alone, version 1: a round named under another version cannot be
    played as it was, so it is refused rather than played under the file."""
    name, _, version = ref.partition("@")
    if version and version != "1":
        raise RulesError(ref, {"rules": "only version 1 (the file) exists, as in canberra@1"})
    return name


def _paytable(ref: str):
    """Version 1 (or no version) is the YAML file; a later version is an approved row in the
    database named by DATABASE_URL, where operators stored it."""
    name, _, version = ref.partition("@")
    if not version or version == "1":
        return load_paytable(name)
    if not version.isdigit():
        raise RulesError(ref, {"paytable": "a version is a whole number, as in name@2"})
    return _stored_paytable(name, int(version))


@functools.lru_cache(maxsize=64)
def _stored_paytable(name: str, version: int):
    import psycopg

    from ..config import Settings
    from ..rounds.catalog import approved_paytable
    try:
        with psycopg.connect(Settings.from_env().database_url, connect_timeout=5) as conn:
            return approved_paytable(conn, name, version)
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split())
    raise RulesError(f"{name}@{version}", {"paytable": f"a stored version needs the database (DATABASE_URL): {reason}"})


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def replay_file(path: str) -> int:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        result = replay_data(data)
    except (OSError, ValueError) as exc:  # TranscriptError, RulesError and JSON errors are ValueErrors
        print(f"{path}: {_one_line(exc)}", file=sys.stderr)
        return 2
    except RecursionError:  # the JSON decoder's answer to nesting deeper than the interpreter's stack
        print(f"{path}: the file nests JSON too deeply to be a transcript", file=sys.stderr)
        return 2
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


def replay_lines(numbered: list[tuple[int, bytes]], write: Callable[[bytes], object]) -> bool:
    """Write the result of each (line number, line) as a JSON line; whether any line failed.
    Results go out as they come: orjson's buffers are larger than their text, so a batch's
    results are not held in memory."""
    refused = 0
    known: dict = {}
    loads, dumps, newline = orjson.loads, orjson.dumps, orjson.OPT_APPEND_NEWLINE
    for number, line in numbered:
        try:
            result = replay_data(loads(line), known)
        except ValueError as exc:  # TranscriptError, RulesError, JSON errors (orjson's are ValueErrors)
            result = {"error": f"line {number}: {_one_line(exc)}"}
            refused += 1
            if not refused % _COLLECT_EVERY_REFUSALS:
                # A played round leaves no reference cycles, but a refusal raised from deep in a
                # library may (an exception holds its frames): the batch's collector is off.
                gc.collect()
        write(dumps(result, option=newline))
    return refused > 0


_COLLECT_EVERY_REFUSALS = 1000


def replay_batch(path: str, workers: int | None = None) -> int:
    """One result per line, in order. A gaming day's file is split into contiguous parts played
    on every core: forked children inherit the parsed lines and the rules, and each writes its
    results to an in-memory file that the parent copies out in order after its own part."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        print(f"{path}: {_one_line(exc)}", file=sys.stderr)
        return 2
    numbered = [(n, line) for n, line in enumerate(data.splitlines(), 1) if line.strip()]
    workers = workers if workers is not None else (os.cpu_count() or 1)
    parallel = workers > 1 and len(numbered) >= _PARALLEL_FROM and hasattr(os, "fork")
    if parallel:
        _warm_rules(numbered)
    # What is loaded by now lives as long as the process: the collector need not walk it again
    # (and a forked worker then does not copy the pages it would touch doing so).
    gc.freeze()
    # A played round leaves no reference cycles (a test holds the engine to that): counting
    # references frees each round whole, and the cycle collector, which would find nothing, stays
    # off for the batch (replay_lines collects after every thousand refused lines).
    gc.disable()
    try:
        return _replay_parts(path, numbered, workers if parallel else 1)
    finally:
        gc.enable()


def _replay_parts(path: str, numbered: list[tuple[int, bytes]], workers: int) -> int:
    """Play the lines on `workers` processes (1: this one alone) and write the results in order."""
    sys.stdout.flush()
    out = sys.stdout.buffer
    if workers == 1:
        failed = replay_lines(numbered, out.write)
        out.flush()
        return 2 if failed else 0
    size = -(-len(numbered) // workers)
    parts = [numbered[i:i + size] for i in range(0, len(numbered), size)]
    children = [_fork_part(part) for part in parts[1:]]
    failed = replay_lines(parts[0], out.write)
    for pid, spill in children:
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, _PART_FAILED):
            out.flush()
            print(f"{path}: a replay worker stopped with status {code}", file=sys.stderr)
            return 2
        failed = failed or code == _PART_FAILED
        os.lseek(spill, 0, os.SEEK_SET)
        while chunk := os.read(spill, 1 << 20):
            out.write(chunk)
        os.close(spill)
    out.flush()
    return 2 if failed else 0


_PARALLEL_FROM = 1000
_PART_FAILED = 3   # a child's exit status when one of its lines was refused


def _fork_part(part: list[tuple[int, bytes]]) -> tuple[int, int]:
    spill = os.memfd_create("pontoon-replay") if hasattr(os, "memfd_create") else _temporary_fd()
    pid = os.fork()
    if pid == 0:  # the child: play its part, write it, and leave without running the parent's exit code
        status = 70
        try:
            with open(spill, "wb", closefd=False) as sink:
                failed = replay_lines(part, sink.write)
            status = _PART_FAILED if failed else 0
        finally:
            os._exit(status)
    return pid, spill


def _temporary_fd() -> int:
    import tempfile
    handle = tempfile.TemporaryFile()
    return os.dup(handle.fileno())


def _warm_rules(numbered: list[tuple[int, bytes]]) -> None:
    """Parse the first line's rules and paytable once, before the fork, so workers share them."""
    try:
        replay_data(orjson.loads(numbered[0][1]))
    except ValueError:
        pass  # that line's own error is reported in order by the worker that plays it


def run(args) -> int:
    parse_cache.use_default_directory()   # the YAML parser's import would be most of the start-up
    if args.batch:
        return replay_batch(args.batch, args.workers)
    if not args.file:
        print("pontoon replay: give a transcript FILE or --batch FILE.jsonl", file=sys.stderr)
        return 2
    return replay_file(args.file)


def main(argv: list[str]) -> int:
    """`pontoon replay [FILE] [--batch FILE.jsonl] [--workers N]` (the same options as its help lists)."""
    import getopt
    try:
        options, files = getopt.gnu_getopt(argv, "", ["batch=", "workers="])
    except getopt.GetoptError as exc:
        print(f"pontoon replay: error: {exc}", file=sys.stderr)
        return 2
    named = dict(options)
    workers = named.get("--workers")
    if workers is not None and not workers.isdigit():
        print(f"pontoon replay: error: --workers must be a whole number, not {workers!r}", file=sys.stderr)
        return 2
    if len(files) > 1:
        print(f"pontoon replay: error: one FILE at most, not {' '.join(files)}", file=sys.stderr)
        return 2
    return run(SimpleNamespace(batch=named.get("--batch"), workers=int(workers) if workers else None,
                               file=files[0] if files else None))


def add_parser(subparsers) -> None:
    add_arguments(subparsers.add_parser("replay", help="play round transcripts and print their money"))


def add_arguments(parser) -> None:
    parser.add_argument("file", nargs="?", help="a transcript (JSON)")
    parser.add_argument("--batch", metavar="FILE.jsonl", help="one transcript per line ('-' for standard input)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes for --batch (default: one per core)")
    parser.set_defaults(run=run)
