"""Shared fixtures: the two rule sets the analysis is held to, and their derived strategies."""
from __future__ import annotations

import pytest

from service.analysis.strategy import derive
from service.rules import load_paytable, load_rules


@pytest.fixture(scope="session")
def canberra():
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    return rules, paytable, derive(rules, paytable)


@pytest.fixture(scope="session")
def blackjack():
    rules, paytable = load_rules("blackjack-enhc"), load_paytable("blackjack")
    return rules, paytable, derive(rules, paytable)
