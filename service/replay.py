"""One transcript played through the engine under the rules and paytable it names: the rules file,
the paytable file, the paytable version the transcript carries, or an approved version in the
database. `pontoon replay` prints what it returns; a dealer terminal checks its rounds with it."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg

from .catalog import approved_paytable
from .config import Settings
from .engine.games.canberra.paytable import Paytable
from .engine.play import play_transcript
from .engine.transcript import Transcript, parse_transcript
from .rules import Ref, Rules, RulesError, load_paytable, load_rules, parse_paytable
from .store.repositories.paytables import PaytablesRepository


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
    rules, paytable = load_game(transcript, known)
    result: dict[str, Any] = play_transcript(rules, paytable, transcript).result()
    return result


def load_game(transcript: Transcript, known: Known | None) -> Game:
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


def _rules_name(written: str) -> str:
    """Rules exist as their file alone, version 1: a round named under another version cannot be
    played as it was, so it is refused rather than played under the file."""
    ref = _parsed("rules", written)
    if ref.version != 1:
        raise RulesError(written, {"rules": "only version 1 (the file) exists, as in canberra@1"})
    return ref.name


def _carried_paytable(written: str, document: dict[str, Any]) -> Paytable:
    """The paytable version a transcript carries with it (exported rounds under a stored version
    do): played as carried, no database asked. It must be the version the transcript names."""
    ref = _parsed("paytable", written)
    for field, expected in (("name", ref.name), ("version", ref.version)):
        if field in document and document[field] != expected:
            raise RulesError(written, {"paytable_document": f"is {field} {document[field]!r}, not {expected!r}"})
    return parse_paytable(written, document)


def _paytable(written: str) -> Paytable:
    """Version 1 (or no version) is the YAML file; a later version not carried in the transcript is
    an approved row in the database named by DATABASE_URL, where operators stored it."""
    ref = _parsed("paytable", written)
    if ref.version == 1:
        return load_paytable(ref.name)
    return _stored_paytable(ref)


def _parsed(field: str, written: str) -> Ref:
    """The transcript's reference, its fault named under the transcript's own field."""
    try:
        return Ref.parse(written)
    except RulesError as exc:
        raise RulesError(written, {field: "; ".join(exc.errors.values())}) from None


@functools.lru_cache(maxsize=64)
def _stored_paytable(ref: Ref) -> Paytable:
    try:
        with psycopg.connect(Settings.from_env().database_url, connect_timeout=5) as conn:
            table: Paytable = approved_paytable(PaytablesRepository(conn), ref)
            return table
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split())   # one line, whatever the driver wrote
    raise RulesError(str(ref), {"paytable": f"a stored version needs the database (DATABASE_URL): {reason}"})
