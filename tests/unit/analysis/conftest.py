"""Shared fixtures: the two rule sets the analysis is held to, their derived strategies, and one
cache of exact reports for the whole run (a test that needs an empty cache names its own)."""
from __future__ import annotations

import pytest

from service.analysis.strategy import derive
from service.rules import load_paytable, load_rules


@pytest.fixture(scope="session", autouse=True)
def analysis_cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PONTOON_ANALYSIS_CACHE", str(tmp_path_factory.mktemp("analysis")))
        yield


@pytest.fixture(scope="session")
def canberra():
    rules, paytable = load_rules("canberra"), load_paytable("canberra-standard")
    return rules, paytable, derive(rules, paytable)


@pytest.fixture(scope="session")
def blackjack():
    rules, paytable = load_rules("blackjack-enhc"), load_paytable("blackjack")
    return rules, paytable, derive(rules, paytable)
