"""`pontoon replay`: play transcripts and print their money (one file, or a JSON-lines batch)."""
from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, BinaryIO

import orjson
import psycopg

from ..config import Settings
from ..engine.games.canberra.paytable import Paytable
from ..engine.play import play_transcript
from ..engine.transcript import Transcript, parse_transcript
from ..rounds.catalog import approved_paytable
from ..rules import Rules, RulesError, load_paytable, load_rules, parse_paytable
from ..store.repositories.paytables import PaytablesRepository


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a pair of rules and paytable names could not be had: kept for the batch, raised anew each
    time (an error raised again would grow its traceback)."""

    source: str
    errors: dict[str, str]


Game = tuple[Rules, Paytable | None]
# For one batch, the rules and paytable each pair of names resolved to, or why they could not be
# had: a batch never asks the database again, nor waits for it again, for a version it could not give.
# A transcript carrying its paytable version's document is keyed by the document too: two
# databases may hold different documents under one name@version.
Known = dict[tuple[str, str | None, bytes | None], Game | Refused]


def replay_data(data: Any, known: Known | None = None) -> dict[str, Any]:
    """The result of one transcript (already parsed from JSON); raises TranscriptError or RulesError."""
    transcript = parse_transcript(data)
    rules, paytable = _game(transcript, known)
    result: dict[str, Any] = play_transcript(rules, paytable, transcript).result()
    return result


def _game(transcript: Transcript, known: Known | None) -> Game:
    """The rules and paytable a transcript names (a transcript with its own options has its own rules)."""
    remembered = known is not None and not transcript.options
    document = transcript.paytable_document
    carried = None if document is None else orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    key = (transcript.rules, transcript.paytable, carried)
    game = known.get(key) if known is not None and remembered else None
    if game is None:
        try:
            rules = load_rules(_rules_name(transcript.rules), transcript.options)
            if transcript.paytable is None:
                game = rules, None
            elif document is not None:
                game = rules, _carried_paytable(transcript.paytable, document)
            else:
                game = rules, _paytable(transcript.paytable)
        except RulesError as exc:
            game = Refused(exc.source, exc.errors)
        if known is not None and remembered:
            known[key] = game
    if isinstance(game, Refused):
        raise RulesError(game.source, game.errors)
    return game


def _rules_name(ref: str) -> str:
    """Rules exist as their file alone, version 1: a round named under another version cannot be
    played as it was, so it is refused rather than played under the file."""
    name, _, version = ref.partition("@")
    if version and version != "1":
        raise RulesError(ref, {"rules": "only version 1 (the file) exists, as in canberra@1"})
    return name


def _carried_paytable(ref: str, document: dict[str, Any]) -> Paytable:
    """The paytable version a transcript carries with it (exported rounds under a stored version
    do): played as carried, no database asked. It must be the version the transcript names."""
    name, _, version = ref.partition("@")
    number = int(version) if version.isdigit() else 1
    for field, expected in (("name", name), ("version", number)):
        if field in document and document[field] != expected:
            raise RulesError(ref, {"paytable_document": f"is {field} {document[field]!r}, not {expected!r}"})
    return parse_paytable(ref, document)


def _paytable(ref: str) -> Paytable:
    """Version 1 (or no version) is the YAML file; a later version not carried in the transcript is
    an approved row in the database named by DATABASE_URL, where operators stored it."""
    name, _, version = ref.partition("@")
    if not version or version == "1":
        return load_paytable(name)
    if not version.isdigit():
        raise RulesError(ref, {"paytable": "a version is a whole number, as in name@2"})
    return _stored_paytable(name, int(version))


@functools.lru_cache(maxsize=64)
def _stored_paytable(name: str, version: int) -> Paytable:
    try:
        with psycopg.connect(Settings.from_env().database_url, connect_timeout=5) as conn:
            table: Paytable = approved_paytable(PaytablesRepository(conn), name, version)
            return table
    except psycopg.Error as exc:
        reason = _one_line(exc)
    raise RulesError(f"{name}@{version}", {"paytable": f"a stored version needs the database (DATABASE_URL): {reason}"})


def _one_line(exc: BaseException) -> str:
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


def replay_lines(numbered: Iterable[tuple[int, bytes]], write: Callable[[bytes], object],
                 known: Known | None = None) -> int:
    """Write the result of each (line number, line) as a JSON line; how many lines were refused."""
    refused = 0
    known = {} if known is None else known
    for number, line in numbered:
        try:
            result = replay_data(orjson.loads(line), known)
        except ValueError as exc:  # TranscriptError, RulesError, JSON errors (orjson's are ValueErrors)
            result = {"error": f"line {number}: {_one_line(exc)}"}
            refused += 1
        write(orjson.dumps(result, option=orjson.OPT_APPEND_NEWLINE))
    return refused


# --- batches -------------------------------------------------------------------------------------
# A gaming day's file is cut into chunks of whole lines, played on every core in order: the parent
# finds where each chunk lies (from a pipe, it reads and cuts the lines itself), each worker reads,
# parses, plays and encodes a chunk, and the parent writes the encoded chunks out in the order of
# the file.

_CHUNK_BYTES = 1 << 18        # about five hundred rounds: small enough that a worker reuses its memory
_SMALLEST_CHUNK = 16 << 10
_AHEAD_PER_WORKER = 3         # chunks in flight per worker, so none waits for the parent


@dataclass(frozen=True, slots=True)
class Chunk:
    """Whole lines of a batch: the first is line `first_line` of the file, and they lie `length`
    bytes long from byte `start`. `lines` holds them, or is None where a worker reads them from
    the file itself (the parent then sends no lines through the pipe, only where they lie)."""

    first_line: int
    start: int
    length: int
    lines: bytes | None


@dataclass(frozen=True, slots=True)
class Played:
    """A chunk's results, encoded as the lines to write, and how many of its lines were refused."""

    output: bytes
    refused: int


def line_count(lines: bytes, end: int | None = None) -> int:
    """Lines in whole lines of text (up to byte `end`), counted as bytes.splitlines counts them:
    a lone \\r is a break too, and \\r\\n one break. Most files hold no \\r at all."""
    count = lines.count(b"\n", 0, end)
    if lines.find(b"\r", 0, end) >= 0:
        count += lines.count(b"\r", 0, end) - lines.count(b"\r\n", 0, end)
    return count


def chunks(source: BinaryIO, size: int) -> Iterator[Chunk]:
    """The source's whole lines, about `size` bytes at a time, each chunk numbered by its first line."""
    first, start, carry = 1, 0, b""
    while block := source.read(size):
        block = carry + block
        cut = block.rfind(b"\n") + 1
        lines, carry = block[:cut], block[cut:]
        if lines:
            yield Chunk(first, start, len(lines), lines)
            first, start = first + line_count(lines), start + len(lines)
    if carry:
        yield Chunk(first, start, len(carry), carry)


def spans(file: int, size: int) -> Iterator[Chunk]:
    """Where the whole lines of a regular file lie, about `size` bytes at a time, each chunk
    numbered by its first line, without its lines: workers read those from the file themselves.
    Each block is read at the byte its chunk starts, so nothing is carried from block to block."""
    first, start, want = 1, 0, size
    while block := os.pread(file, want, start):
        at_end = len(block) < want
        length = len(block) if at_end else block.rfind(b"\n") + 1
        if not length:  # a line longer than a chunk: read on until it ends
            want *= 2
            continue
        yield Chunk(first, start, length, None)
        first, start, want = first + line_count(block, length), start + length, size


def play_chunk(lines: bytes, first_line: int, known: Known) -> Played:
    """Play every non-blank line; the results in order, encoded."""
    numbered = ((number, line) for number, line in enumerate(lines.splitlines(), first_line) if line.strip())
    out: list[bytes] = []
    refused = replay_lines(numbered, out.append, known)
    return Played(b"".join(out), refused)


@dataclass(slots=True)
class _Worker:
    """What a worker process keeps for the whole batch: the rules and paytables it has loaded,
    and the batch's file, open, when it reads its chunks itself."""

    known: Known
    file: int | None = None


_worker = _Worker({})


def _start_worker(path: str | None, first_line: bytes) -> None:
    """A worker's start: open the batch's file, and load the rules and paytable its first line names."""
    _worker.known, _worker.file = {}, os.open(path, os.O_RDONLY) if path is not None else None
    try:
        _game(parse_transcript(orjson.loads(first_line)), _worker.known)
    except ValueError:
        pass  # that line's own error is reported in order, on its line


def lines_of(chunk: Chunk, file: int | None) -> bytes:
    """A chunk's lines: carried in it, or read from the file where it lies."""
    if chunk.lines is not None:
        return chunk.lines
    assert file is not None, "a chunk without its lines comes only from a file open to read them"
    return os.pread(file, chunk.length, chunk.start)


def _play_in_worker(chunk: Chunk) -> Played:
    return play_chunk(lines_of(chunk, _worker.file), chunk.first_line, _worker.known)


def _play_here(pieces: Iterable[Chunk], file: int | None, write: Callable[[bytes], object]) -> int:
    known: Known = {}
    refused = 0
    for chunk in pieces:
        played = play_chunk(lines_of(chunk, file), chunk.first_line, known)
        write(played.output)
        refused += played.refused
    return refused


def _play_in_pool(pieces: Iterator[Chunk], path: str | None, first_line: bytes, workers: int,
                  write: Callable[[bytes], object]) -> int:
    """Play the chunks on `workers` processes, writing each chunk's results in the chunks' order.
    With `path`, workers read the lines of chunks that do not carry them from that file."""
    refused = 0
    with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(path, first_line)) as pool:
        pending: deque[Future[Played]] = deque()
        for chunk in pieces:
            pending.append(pool.submit(_play_in_worker, chunk))
            if len(pending) >= workers * _AHEAD_PER_WORKER:
                played = pending.popleft().result()
                write(played.output)
                refused += played.refused
        while pending:
            played = pending.popleft().result()
            write(played.output)
            refused += played.refused
    return refused


def _chunk_size(source: BinaryIO, workers: int) -> int:
    """Chunks small enough that a short file still gives every worker a few."""
    size = os.fstat(source.fileno()).st_size
    if not size:  # a pipe: its length is not known in advance
        return _CHUNK_BYTES
    return max(_SMALLEST_CHUNK, min(_CHUNK_BYTES, size // (workers * 4)))


def replay_batch(path: str, workers: int | None = None) -> int:
    """One result per line, in order; status 2 if any line was refused."""
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    sys.stdout.flush()
    out = sys.stdout.buffer
    try:
        source = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        print(f"{path}: {_one_line(exc)}", file=sys.stderr)
        return 2
    try:
        with source:
            # A regular file is read where each chunk lies, by whoever plays it (the parent only
            # finds the chunks); lines from a pipe are read once, by the parent, into the chunks.
            file = source.fileno()
            readable = path if path != "-" and stat.S_ISREG(os.fstat(file).st_mode) else None
            size = _chunk_size(source, workers)
            pieces = spans(file, size) if readable is not None else chunks(source, size)
            ahead = list(itertools.islice(pieces, 2))
            if workers == 1 or len(ahead) < 2:  # one chunk: no other process would have any work
                refused = _play_here(itertools.chain(ahead, pieces), file, out.write)
            else:
                lines = lines_of(ahead[0], file).splitlines()
                first_line = next((line for line in lines if line.strip()), b"")
                refused = _play_in_pool(itertools.chain(ahead, pieces), readable, first_line, workers, out.write)
    except OSError as exc:
        out.flush()
        print(f"{path}: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenProcessPool as exc:
        out.flush()
        print(f"{path}: a replay worker stopped: {_one_line(exc)}", file=sys.stderr)
        return 2
    out.flush()
    return 2 if refused else 0


# --- the command ---------------------------------------------------------------------------------

def _process_count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    if args.batch:
        return replay_batch(args.batch, args.workers)
    if not args.file:
        print("pontoon replay: give a transcript FILE or --batch FILE.jsonl", file=sys.stderr)
        return 2
    return replay_file(args.file)


def refuse_extra(extra: list[str], args: argparse.Namespace) -> str:
    """Why arguments the parser did not take are refused (the command's error line)."""
    options = [arg for arg in extra if arg.startswith("-") and arg != "-"]
    if options:
        return f"option {options[0]} not recognized"
    files = ([args.file] if args.file else []) + extra
    return f"one FILE at most, not {' '.join(files)}"


def add_parser(subparsers: Any) -> None:
    # exit_on_error=False: a bad option is one line on standard error (pontoon's main writes it),
    # as every other refusal of this command is, for the scripts that re-verify a gaming day.
    parser = subparsers.add_parser("replay", help="play round transcripts and print their money",
                                   exit_on_error=False)
    parser.add_argument("file", nargs="?", metavar="FILE", help="a transcript (JSON)")
    parser.add_argument("--batch", metavar="FILE.jsonl", help="one transcript per line ('-' for standard input)")
    parser.add_argument("--workers", type=_process_count, default=None, metavar="N",
                        help="processes for --batch (default: one per core)")
    parser.set_defaults(run=run, refuse_extra=refuse_extra)
