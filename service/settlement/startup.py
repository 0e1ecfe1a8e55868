"""Records a settlement process's start in the audit log (the `service_started` event)."""
from __future__ import annotations

import os
import socket

from ..store.repositories.audit import AuditRecord, AuditRepository, chain_for
from .connection import connect


def record_service_start(database_url: str, service: str, **details: object) -> None:
    """One `service_started` record on the system chain, in its own transaction."""
    payload = {"service": service, "host": socket.gethostname(), "pid": os.getpid(), **details}
    with connect(database_url) as conn:
        with conn.transaction():
            AuditRepository(conn).append(chain_for(None), [AuditRecord("service_started", payload, actor=service)])
