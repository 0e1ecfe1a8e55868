"""Test fixtures for every folder: where the worked rounds (transcripts and their expected money) live."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"


def worked_rounds(subdir: str = "") -> list[Path]:
    """Transcripts with an .expected.json beside them, under tests/fixtures/transcripts[/subdir]."""
    folder = TRANSCRIPTS / subdir if subdir else TRANSCRIPTS
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.fixture(scope="session")
def transcripts_dir() -> Path:
    return TRANSCRIPTS
