"""The player-banked table's bank and kitty between rounds, on a unit of work in memory: each
movement a table transfer and an audit record, refused where the game or the moment says no."""
from __future__ import annotations

import pytest

from service.refusals import Conflict
from service.rounds import handlers
from service.rounds.commands import CreateTable, OpenRound, OpenShoe
from service.traditional.bank import change_kitty, sell
from service.traditional.commands import ChangeKitty, SellBank

from .fake_uow import FakeUnitOfWork


def _table(rules: str) -> FakeUnitOfWork:
    uow = FakeUnitOfWork()
    handlers.create_table(CreateTable("S1", rules, None, actor="admin"), uow)
    return uow


def test_a_kitty_is_put_up_then_topped_up_each_a_transfer_from_the_banker():
    uow = _table("shoot-pontoon")
    put_up = change_kitty(ChangeKitty("S1", "put_up", 2000, actor="supervisor"), uow)
    assert put_up["kitty"] == 2000
    topped = change_kitty(ChangeKitty("S1", "top_up", 500, actor="supervisor"), uow)
    assert topped["kitty"] == 2500
    assert [(row.kind, row.from_seat, row.to_seat, row.amount) for row in uow.table_transfers.rows] == [
        ("kitty-put-up", 0, -1, 2000), ("kitty-topped-up", 0, -1, 500)]
    assert uow.audit.kinds("table:S1")[-2:] == ["kitty_put_up", "kitty_topped_up"]


def test_a_kitty_is_put_up_once_and_topped_up_only_once_up():
    uow = _table("shoot-pontoon")
    with pytest.raises(Conflict) as nothing_up:
        change_kitty(ChangeKitty("S1", "top_up", 500, actor="supervisor"), uow)
    assert nothing_up.value.code == "no_kitty"
    change_kitty(ChangeKitty("S1", "put_up", 2000, actor="supervisor"), uow)
    with pytest.raises(Conflict) as up_already:
        change_kitty(ChangeKitty("S1", "put_up", 2000, actor="supervisor"), uow)
    assert up_already.value.code == "kitty_up" and len(uow.table_transfers.rows) == 1


def test_only_shoot_pontoon_has_a_kitty():
    uow = _table("british-traditional")
    with pytest.raises(Conflict) as refused:
        change_kitty(ChangeKitty("S1", "put_up", 2000, actor="supervisor"), uow)
    assert refused.value.code == "no_kitty_game" and not uow.table_transfers.rows


def test_a_house_banked_table_has_no_bank_to_sell():
    uow = FakeUnitOfWork()
    handlers.create_table(CreateTable("C1", "canberra", "canberra-standard", actor="admin"), uow)
    with pytest.raises(Conflict) as refused:
        sell(SellBank("C1", 2, 5000, actor="supervisor"), uow)
    assert refused.value.code == "not_player_banked"


def test_a_sold_bank_moves_to_the_buyer_who_pays_and_the_old_banker_takes_the_kitty_back():
    uow = _table("shoot-pontoon")
    change_kitty(ChangeKitty("S1", "put_up", 2000, actor="supervisor"), uow)
    sold = sell(SellBank("S1", 2, 5000, actor="supervisor"), uow)
    assert sold["kitty"] == 0 and sold["banker_place"] == 2
    sale, taken = uow.table_transfers.rows[1:]
    assert (sale.kind, sale.from_seat, sale.to_seat, sale.amount) == ("bank-sale", 2, 0, 5000)
    assert (taken.kind, taken.from_seat, taken.to_seat, taken.amount) == ("kitty-taken", -1, 0, 2000)
    assert "bank_passed" in uow.audit.kinds("table:S1")


def test_a_bank_sold_to_a_seat_that_does_not_exist_is_refused_naming_the_seat():
    uow = _table("british-traditional")
    with pytest.raises(Conflict) as refused:   # a seat the rules have not: 409, as a round's stake for one is
        sell(SellBank("S1", 99, 5000, actor="supervisor"), uow)
    assert "to_seat" in (refused.value.errors or {}) and not uow.table_transfers.rows


def test_the_bank_is_not_sold_while_a_round_is_open():
    uow = _table("british-traditional")
    handlers.open_shoe(OpenShoe("S1", "physical", actor="terminal"), uow)
    handlers.open_round(OpenRound("S1", None, players=[{"seat": 1, "stake": 100}], actor="terminal"), uow)
    with pytest.raises(Conflict) as refused:
        sell(SellBank("S1", 1, 5000, actor="supervisor"), uow)
    assert refused.value.code == "round_open"
