"""The simulated terminal refuses, before it makes any table, rules it cannot deal."""
from __future__ import annotations

import pytest

from service.terminal import simulator
from service.terminal.simulator import SetupError, SimulatorConfig, prepare_tables


def no_server(base_urls: list[str], admin_key: str):
    """Fails the test if the simulator reaches for the API at all."""
    raise AssertionError("the simulator made a request before refusing the rules")


@pytest.mark.parametrize("rules", ["shoot-pontoon", "british-traditional", "no-such-rules"])
def test_rules_the_terminal_cannot_deal_are_refused_up_front(rules):
    config = SimulatorConfig(base_urls=("http://127.0.0.1:1",), table="SIM", admin_key="unused", rules=rules)
    with pytest.raises(SetupError, match=f"house-banked rules only.*'{rules}'"):
        prepare_tables(config, client=no_server)


def test_the_house_banked_rules_pass_the_check():
    simulator.check_dealt_here("canberra")
    simulator.check_dealt_here("blackjack-enhc")
