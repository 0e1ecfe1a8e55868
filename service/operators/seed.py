"""Seeds version 1 of each paytable from its YAML file in paytables/ when the database lacks it:
idempotent and safe to run from several processes at once (INSERT ... ON CONFLICT DO NOTHING)."""
from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

import yaml

from ..rules import RulesError, load_paytable
from ..rules.registry import paytables_dir
from ..store.repositories.audit import AuditRecord, AuditRepository, chain_for
from ..store.repositories.paytables import PaytablesRepository, VersionStatus
from .documents import NAME, changes

log = logging.getLogger(__name__)
SYSTEM = "system"


def seed_file_versions(paytables: PaytablesRepository, audit: AuditRepository,
                       names: Iterable[str] | None = None) -> list[str]:
    """Insert version 1 of the named paytables (all files when None) that the database lacks, in
    the caller's transaction, with an audit record for each one inserted; returns their names.
    A file that does not read as a paytable is skipped (and logged): it can never be played."""
    folder = Path(paytables_dir())
    wanted = sorted(path.stem for path in folder.glob("*.yaml")) if names is None else sorted(set(names))
    present = paytables.seeded_names(wanted)
    records, seeded = [], []
    for name in (name for name in wanted if name not in present):
        path = folder / f"{name}.yaml"
        if not NAME.fullmatch(name) or not path.is_file():
            continue
        try:
            load_paytable(name)
        except RulesError as exc:
            log.warning("paytable file %s is not valid, not seeded: %s", path.name, exc)
            continue
        text = path.read_text(encoding="utf-8")
        content = {**yaml.safe_load(text), "name": name, "version": 1}
        reason = f"version 1 seeded from paytables/{path.name}"
        row = paytables.seed(name=name, content=content, source=text, reason=reason)
        if row is None:
            continue
        seeded.append(name)
        records.append(AuditRecord("paytable_version_seeded", {
            "paytable": name, "version": 1, "status": VersionStatus.APPROVED, "reason": reason,
            "before": None, "after": content, "changes": changes(None, content)}, actor=SYSTEM))
    audit.append(chain_for(None), records)
    return seeded
