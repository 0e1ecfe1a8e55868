"""Signed checkpoints of the chains' heads, kept outside the database (after Certificate
Transparency's signed tree heads): a chain re-hashed or cut short after a checkpoint no longer
extends it, which `audit verify --checkpoints` reports."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)
from psycopg.rows import dict_row

from ..store.transaction import returned
from .report import Problem, Report

FILE_PREFIX = "checkpoints-"
HashAt = Callable[[str, int], "str | None"]     # (chain, seq) -> the hash of the record there, if any


def signed_text(chain: str, seq: int, digest: str, at: str) -> bytes:
    """What a checkpoint's signature covers: the chain, its head's seq and hash, and the time."""
    return f"pontoon-checkpoint-v1\n{chain}\n{seq}\n{digest}\n{at}".encode()


def public_key_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def load_or_create_key(path: str | Path) -> Ed25519PrivateKey:
    """The signing key at `path` (PEM); generated there, readable by its owner only, if absent."""
    path = Path(path)
    if not path.exists():
        key = Ed25519PrivateKey.generate()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
        return key
    loaded = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(loaded, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key")
    return loaded


def sign_heads(heads: dict[str, tuple[int, str]], key: Ed25519PrivateKey, at: datetime) -> list[dict[str, Any]]:
    """One signed checkpoint per chain head (chain -> (seq, hash)), stamped `at`."""
    stamp = at.isoformat(timespec="microseconds")
    public = public_key_hex(key.public_key())
    return [{"chain": chain, "seq": seq, "hash": digest, "at": stamp, "key": public,
             "signature": key.sign(signed_text(chain, seq, digest, stamp)).hex()}
            for chain, (seq, digest) in sorted(heads.items())]


def append_checkpoints(directory: str | Path, checkpoints: list[dict[str, Any]], at: datetime) -> Path:
    """Append the checkpoints to the day's file in `directory` (opened for appending only, flushed
    to disk before returning): earlier lines are never rewritten."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{FILE_PREFIX}{at.date().isoformat()}.jsonl"
    with open(path, "a", encoding="utf-8") as handle:
        for checkpoint in checkpoints:
            handle.write(json.dumps(checkpoint, sort_keys=True) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return path


def checkpoint_database(conn: psycopg.Connection, key: Ed25519PrivateKey, directory: str | Path) -> list[dict]:
    """Sign every chain's head as committed now and append the checkpoints to `directory`."""
    with conn.transaction(), conn.cursor(row_factory=dict_row) as cur:
        now = returned(cur.execute("SELECT now() AS now").fetchone())["now"]
        heads = cur.execute("SELECT chain, seq, hash FROM audit_chain_heads").fetchall()
    checkpoints = sign_heads({head["chain"]: (head["seq"], head["hash"]) for head in heads}, key, now)
    if checkpoints:
        append_checkpoints(directory, checkpoints, now)
    return checkpoints


def read_checkpoints(directory: str | Path) -> list[dict[str, Any]]:
    """Every checkpoint in the directory's files, in file then line order."""
    found = []
    for path in sorted(Path(directory).glob(f"{FILE_PREFIX}*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                found.append(json.loads(line))
    return found


def stored_hash(conn: psycopg.Connection) -> HashAt:
    """The stored record's hash at (chain, seq), or None: a lookup for check_checkpoints."""
    def lookup(chain: str, seq: int) -> str | None:
        with conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute("SELECT hash FROM audit_log WHERE chain = %s AND seq = %s", (chain, seq)).fetchone()
        return None if row is None else str(row["hash"])
    return lookup


def check_checkpoints(conn: psycopg.Connection | HashAt, checkpoints: Iterable[dict[str, Any]], report: Report,
                      public_key: Ed25519PublicKey | None = None) -> None:
    """Each checkpoint is signed by the key (by `public_key` when given) and the chain still has,
    at the checkpoint's seq, the record whose hash it signed: the chain extends it. `conn`: the
    database, or a lookup (chain, seq) -> hash of an export's records."""
    hash_at = stored_hash(conn) if isinstance(conn, psycopg.Connection) else conn
    trusted = public_key_hex(public_key) if public_key is not None else None
    for checkpoint in checkpoints:
        chain, seq, digest, at = checkpoint["chain"], int(checkpoint["seq"]), checkpoint["hash"], checkpoint["at"]
        where = f"checkpoint of chain {chain} at seq {seq} ({at})"
        key_hex = trusted or checkpoint.get("key", "")
        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex)).verify(
                bytes.fromhex(checkpoint["signature"]), signed_text(chain, seq, digest, at))
        except (InvalidSignature, ValueError):
            report.problems.append(Problem(where, "its signature does not verify: the checkpoint is not genuine"))
            continue
        if seq == 0:
            continue
        found = hash_at(chain, seq)
        if found is None:
            report.problems.append(Problem(where, f"the chain no longer reaches seq {seq}: records the "
                                                  "checkpoint signed were removed (the chain was cut short)"))
        elif found != digest:
            report.problems.append(Problem(where, f"the record at seq {seq} has hash {found[:16]}…, not the "
                                                  f"signed {digest[:16]}…: the chain was re-hashed since"))
    if trusted is None:
        report.notes.append("checkpoints checked against the keys they carry: give the public key to check "
                            "who signed them")


class CheckpointSchedule:
    """When the relay signs the heads next: `every` seconds after the last checkpoint, and at the
    first pass after a gaming day closes (so each day's last records are under a checkpoint)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last_at: float | None = None       # a monotonic clock's reading
        self.last_day: Any = None               # the gaming day of the last checkpoint

    def due(self, now: float, gaming_day: Any) -> bool:
        return self.last_at is None or now - self.last_at >= self.every or gaming_day != self.last_day

    def done(self, now: float, gaming_day: Any) -> None:
        self.last_at, self.last_day = now, gaming_day
