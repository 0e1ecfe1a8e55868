"""`pontoon replay`: play transcripts and print their money (one file, or a JSON-lines batch)."""
from __future__ import annotations

import argparse
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

from ..engine.transcript import parse_transcript
from ..replay import Known, load_game, replay_data


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


# Set in each pool process by its initializer, _start_worker; the parent process has none.
_worker: _Worker | None = None


def _start_worker(path: str | None, first_line: bytes) -> None:
    """A worker's start: open the batch's file, and load the rules and paytable its first line names."""
    global _worker
    _worker = _Worker({}, os.open(path, os.O_RDONLY) if path is not None else None)
    try:
        load_game(parse_transcript(orjson.loads(first_line)), _worker.known)
    except ValueError:
        pass  # that line's own error is reported in order, on its line


def lines_of(chunk: Chunk, file: int | None) -> bytes:
    """A chunk's lines: carried in it, or read from the file where it lies."""
    if chunk.lines is not None:
        return chunk.lines
    assert file is not None, "a chunk without its lines comes only from a file open to read them"
    return os.pread(file, chunk.length, chunk.start)


def _play_in_worker(chunk: Chunk) -> Played:
    assert _worker is not None, "runs only in a pool process, after its initializer"
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
