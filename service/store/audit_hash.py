"""The audit record's canonical encoding and hash: one definition shared by the writer (the store) and the verifier."""
from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


# json.dumps with these options would build this same encoder anew for every record.
_ENCODE_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode


def canonical(record: dict[str, Any]) -> bytes:
    """Sorted keys, no spaces, UTF-8: the same bytes wherever the record is re-encoded."""
    return _ENCODE_CANONICAL(record).encode("utf-8")


def record_hash(chain: str, seq: int, at: str, kind: str, actor: str | None, table_id: str | None,
                round_id: str | None, payload: Any, prev_hash: str) -> str:
    body = {"chain": chain, "seq": seq, "at": at, "kind": kind, "actor": actor, "table_id": table_id,
            "round_id": round_id, "payload": payload, "prev_hash": prev_hash}
    return hashlib.sha256(canonical(body)).hexdigest()
