"""`pontoon replay`: play transcripts and print their money (one file, or a JSON-lines batch)."""
from __future__ import annotations

import json
import sys
from typing import Any

from ..engine.play import play_transcript
from ..engine.transcript import TranscriptError, parse_transcript
from ..rules import RulesError, load_paytable, load_rules


def replay_data(data: Any) -> dict:
    """The result of one transcript (already parsed from JSON); raises TranscriptError or RulesError."""
    transcript = parse_transcript(data)
    rules = load_rules(transcript.rules.split("@", 1)[0], transcript.options or None)
    paytable = load_paytable(transcript.paytable.split("@", 1)[0]) if transcript.paytable else None
    return play_transcript(rules, paytable, transcript).result()


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
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


def replay_batch(path: str) -> int:
    status = 0
    out = []
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as exc:
        print(f"{path}: {_one_line(exc)}", file=sys.stderr)
        return 2
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                result = replay_data(json.loads(line))
            except (ValueError, RulesError, TranscriptError) as exc:
                result = {"error": f"line {number}: {_one_line(exc)}"}
                status = 2
            out.append(json.dumps(result))
            if len(out) >= 512:
                sys.stdout.write("\n".join(out) + "\n")
                out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    return status


def run(args) -> int:
    if args.batch:
        return replay_batch(args.batch)
    if not args.file:
        print("pontoon replay: give a transcript FILE or --batch FILE.jsonl", file=sys.stderr)
        return 2
    return replay_file(args.file)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("replay", help="play round transcripts and print their money")
    parser.add_argument("file", nargs="?", help="a transcript (JSON)")
    parser.add_argument("--batch", metavar="FILE.jsonl", help="one transcript per line ('-' for standard input)")
    parser.set_defaults(run=run)
