"""The virtual pack between rounds: carried on without a Pontoon, shuffled into a new shoe after one."""
from __future__ import annotations

import random

from service.audit.verify import verify_database
from service.engine.shoe import SecureRandom, ShoeSpec, verify_commitment
from tests.support.api_client import ok

from .money import bank_of

PACK = ShoeSpec(1)


class _StackedShuffle:
    """A RandomSource whose first shuffle of the pack gives `order` (drawn as the shuffle's
    Fisher-Yates steps take their draws) and whose later shuffles are the house's. The shoe
    commits to it as to any other."""

    def __init__(self, order: list[str]) -> None:
        draws, cards = [], PACK.ordered_cards()
        for i in range(len(cards) - 1, 0, -1):   # the card at i is swapped with the one at the draw
            j = cards.index(order[i], 0, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
            draws.append(j)
        assert cards == order
        self._draws = draws[::-1]
        self._house = SecureRandom()

    def randbelow(self, n: int) -> int:
        if not self._draws:
            return self._house.randbelow(n)
        draw = self._draws.pop()
        assert draw < n
        return draw


def _stacked(top: list[str]) -> list[str]:
    """`top`, then the rest of the pack in pack order."""
    return top + [c for c in PACK.ordered_cards() if c not in top]


def _pack(db, table_id) -> list[str]:
    return db.execute("SELECT state->'pack'->'order' FROM tables WHERE table_id = %s", (table_id,)).fetchone()[0]


def _cards(state: dict) -> list[list[str]]:
    return [h["cards"] for p in state["players"] for h in p["hands"]] + [state["banker"]["cards"]]


def test_the_pack_carries_over_without_a_pontoon_and_is_reshuffled_after_one(new_table, db, app_with):
    round_one = ["TH", "9C", "8D", "6S", "9D", "9S", "KH"]
    round_two = ["AS", "7C", "KD", "8H"]
    order = _stacked(round_one + round_two)
    table_id, terminal = new_table("british-traditional", "virtual",
                                   app=app_with(shuffle_source=_StackedShuffle(order)))
    first_shoe = ok(terminal.get(f"/v1/tables/{table_id}/shoes/current"), 200)
    two_players = [{"seat": 1, "stake": 100}, {"seat": 2, "stake": 100}]

    # Round 1: seat 1 (TH 6S) twists KH and busts; seat 2 (9C 9D) sticks; the banker (8D 9S) stays.
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": two_players}), 201)
    assert _cards(state) == [["TH", "6S"], ["9C", "9D"], ["8D", "9S"]] and state["shoe_id"] == first_shoe["shoe_id"]
    round_id = state["round_id"]
    for action in ({"seat": 1, "hand": 0, "action": "twist"}, {"seat": 2, "hand": 0, "action": "stick"},
                   {"seat": 0, "action": "stay"}):
        state = ok(terminal.post(f"/v1/rounds/{round_id}/actions", action), 200)
    assert state["status"] == "complete" and state["reshuffle"] is False and state["next_banker"] is None
    # No shuffle: the same shoe, the pack dealt on from the top, the bust's cards under it first
    # (as they busted), then the rest in the order dealt.
    assert _pack(db, table_id) == order[7:] + ["TH", "6S", "KH", "9C", "8D", "9D", "9S"]
    assert ok(terminal.get(f"/v1/tables/{table_id}/shoes/current"), 200)["shoe_id"] == first_shoe["shoe_id"]

    # Round 2 deals the pack's continuation: seat 1's Pontoon (AS KD) against the banker's 15.
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    assert _cards(state) == [["AS", "KD"], ["7C", "8H"]] and state["shoe_id"] == first_shoe["shoe_id"]
    state = ok(terminal.post(f"/v1/rounds/{state['round_id']}/actions", {"seat": 0, "action": "stay"}), 200)
    assert state["status"] == "complete" and state["reshuffle"] is True and state["next_banker"] == 1

    # A Pontoon shuffles the pack: the old shoe closes and its order and salt open its commitment;
    # a new shoe holds the new order under a new commitment, and the next round deals from it.
    closed = ok(terminal.get(f"/v1/shoes/{first_shoe['shoe_id']}"), 200)
    assert closed["closed_at"] and closed["card_order"] == order
    assert verify_commitment(closed["commitment"], closed["card_order"], closed["salt"])
    new_shoe = ok(terminal.get(f"/v1/tables/{table_id}/shoes/current"), 200)
    assert new_shoe["shoe_id"] != first_shoe["shoe_id"] and new_shoe["commitment"] != first_shoe["commitment"]
    new_order, salt = db.execute("SELECT card_order, salt FROM shoes WHERE shoe_id = %s",
                                 (new_shoe["shoe_id"],)).fetchone()
    assert verify_commitment(new_shoe["commitment"], new_order, salt) and sorted(new_order) == sorted(order)
    assert _pack(db, table_id) == new_order
    assert bank_of(terminal, table_id)["banker_place"] == 1
    shuffled = [kind for (kind,) in db.execute(
        "SELECT kind FROM audit_log WHERE table_id = %s AND kind IN ('shoe_closed', 'shoe_started') ORDER BY seq",
        (table_id,))]
    assert shuffled == ["shoe_started", "shoe_closed", "shoe_started"]

    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    assert state["shoe_id"] == new_shoe["shoe_id"]
    assert _cards(state) == [[new_order[0], new_order[2]], [new_order[1], new_order[3]]]
    assert sorted(new_order) != new_order != order   # a real shuffle this time

    # The audit re-opens every closed shoe's commitment and replays every settled round.
    report = verify_database(db)
    assert report.intact and first_shoe["shoe_id"] in report.shoes, report.problems


def test_a_physical_pack_refuses_a_card_already_on_the_table(new_table):
    table_id, terminal = new_table("british-traditional", "physical")
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": [{"seat": 1, "stake": 100}]}), 201)
    ok(terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": "7H"}), 200)
    again = terminal.post(f"/v1/rounds/{state['round_id']}/cards", {"card": "7H"})
    assert (again.status, again.body["code"]) == (409, "card_refused")


class _SeededSource:
    """A reproducible RandomSource: the same shuffles on every run."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._random.randrange(n)


def test_eight_people_play_with_two_packs_shuffled_into_a_new_shoe(new_table, db, app_with):
    # Seeded shuffles: a deal that itself ends the round (the banker's Pontoon) would move the
    # pack on before it could be compared with the new shoe's order.
    table_id, terminal = new_table("british-traditional", "virtual", app=app_with(shuffle_source=_SeededSource(8)))
    one_pack = ok(terminal.get(f"/v1/tables/{table_id}/shoes/current"), 200)
    seven = [{"seat": seat, "stake": 100} for seat in range(1, 8)]
    state = ok(terminal.post(f"/v1/tables/{table_id}/rounds", {"players": seven}), 201)
    assert state["shoe_id"] != one_pack["shoe_id"] and state["status"] == "open"
    assert ok(terminal.get(f"/v1/shoes/{one_pack['shoe_id']}"), 200)["closed_at"] is not None
    order = db.execute("SELECT card_order FROM shoes WHERE shoe_id = %s", (state["shoe_id"],)).fetchone()[0]
    assert len(order) == 104 and _pack(db, table_id) == order
    assert _cards(state)[0] == [order[0], order[8]]      # seven players and the banker, then round again
