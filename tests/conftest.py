"""Shared test fixtures: where the shared worked rounds live."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PONTOON_SHARED_DIR", ROOT.parent / "shared"))


def worked_rounds(subdir: str = "") -> list[Path]:
    """Transcripts with an .expected.json beside them, under shared/transcripts[/subdir]."""
    folder = SHARED / "transcripts" / subdir if subdir else SHARED / "transcripts"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED
