"""The broker queue a stack's settlement messages travel on, named after the database they settle into."""
from __future__ import annotations

import hashlib
import re

from psycopg.conninfo import conninfo_to_dict

QUEUE_PREFIX = "pontoon.settle"
DEFAULT_PORT = "5432"


def database_identity(database_url: str) -> str:
    """host:port/dbname of the database a URL (or libpq conninfo string) names: what makes two
    stacks' ledgers the same ledger. The user and password are left out: two roles writing to
    one database settle the same rounds, and a secret must not end up in a queue name."""
    parts = conninfo_to_dict(database_url)
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or DEFAULT_PORT)
    dbname = str(parts.get("dbname") or parts.get("user") or "")
    return f"{host}:{port}/{dbname}"


def settlement_queue(database_url: str) -> str:
    """`pontoon.settle.<dbname>.<hash>`: stacks sharing one broker never take each other's rounds,
    while every relay and worker serving one database meets on the same queue. The database's
    name keeps it readable in `redis-cli`; the hash of host, port and name keeps it unique."""
    identity = database_identity(database_url)
    digest = hashlib.sha256(identity.encode()).hexdigest()[:10]
    readable = re.sub(r"[^A-Za-z0-9_-]+", "_", identity.rsplit("/", 1)[1])[:40] or "default"
    return f"{QUEUE_PREFIX}.{readable}.{digest}"
