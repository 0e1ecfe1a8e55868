"""Test plumbing: a throwaway database for one test, always dropped."""
from __future__ import annotations

from pathlib import Path

from bench.processes import scratch_database

ROOT = Path(__file__).resolve().parents[3]


def fresh_database(purpose: str):
    """A new, migrated database for one test, dropped afterwards whatever happened."""
    return scratch_database(f"pontoon_test_{purpose}")
