"""The dealer's screen driven as a casino's or a test lab's script would: only through the
attributes docs/dealer.md lists (data-awaiting, data-seat, data-hand, data-action, name="card",
name="amount", name="wager" ...), by clicks and typing, or by the keyboard alone."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from .stack import ROOT

SCREENSHOTS = ROOT / "docs" / "dealer"


class By(StrEnum):
    CLICKS = "clicks"       # touches (clicks) and typing into fields
    KEYS = "keys"           # the keyboard alone: keys, Tab and Enter, no pointer


def dollars(cents: int) -> str:
    """Cents as a dealer types them."""
    whole, rest = divmod(cents, 100)
    return f"{whole}" if rest == 0 else f"{whole}.{rest:02d}"


class NotOffered(AssertionError):
    """A decision the screen does not offer (as the engine would refuse it)."""


@dataclass
class ScreenDriver:
    page: Page
    by: By
    touches: int = field(default=0)

    # ----- what the screen shows ----------------------------------------------------------
    @property
    def root(self) -> Locator:
        return self.page.locator("#screen")

    def awaiting(self) -> str:
        return str(self.root.get_attribute("data-awaiting"))

    def round_id(self) -> str | None:
        return self.root.get_attribute("data-round")

    def refusal(self, at: str) -> Locator:
        return self.root.locator(f"[data-refusal='{at}']")

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(Path(SCREENSHOTS / f"{name}.png")))

    def expect_awaiting(self, *states: str) -> None:
        expect(self.root).to_have_attribute("data-awaiting", re.compile("^(" + "|".join(states) + ")$"))

    # ----- touches ------------------------------------------------------------------------
    def _touched(self, touch) -> None:
        """Do `touch`, then wait for the screen to be drawn again (every touch redraws it)."""
        drawn = self.root.get_attribute("data-drawn")
        touch()
        expect(self.root).not_to_have_attribute("data-drawn", drawn or "")
        self.touches += 1

    def _press_button(self, button: Locator) -> None:
        """Press a button: a click, or by keys its own key, else Tab until it has the focus, then Enter."""
        if self.by is By.CLICKS:
            button.click()
            return
        key = button.get_attribute("data-key")
        if key and key != "Enter" and self.root.locator(f"[data-key='{key}']").first == button:
            self.page.keyboard.press(key)
            return
        self._tab_to(button)
        self.page.keyboard.press("Enter")

    def _tab_to(self, target: Locator) -> None:
        for _ in range(80):
            if target.evaluate("element => element === document.activeElement"):
                return
            self.page.keyboard.press("Tab")
        raise AssertionError("the keyboard never reaches " + target.evaluate("element => element.outerHTML"))

    def open_shoe(self, mode: str = "physical") -> None:
        self.expect_awaiting("shoe")
        button = self.root.locator(f"button[data-action='open-shoe'][data-mode='{mode}']")
        self._touched(lambda: self._press_button(button))
        self.expect_awaiting("wagers")

    def put_up_kitty(self, cents: int) -> None:
        amount = self.root.locator("input[name=amount][data-action=kitty]")
        button = self.root.locator("button[data-action=kitty]")
        if self.by is By.CLICKS:
            amount.fill(dollars(cents))
            self._touched(lambda: button.click())
        else:
            self._tab_to(amount)
            self.page.keyboard.type(dollars(cents))
            self._touched(lambda: self.page.keyboard.press("Enter"))

    def bets(self, rows: list[dict[str, int]]) -> None:
        """Each seat's bets: {"seat": 1, "wager": 1000, "side_bets.pair": 500} (the fields' names),
        every other seat left empty; then Deal."""
        self.expect_awaiting("wagers")
        form = self.root.locator("form[data-form=wagers]")
        wanted = {(row["seat"], name): cents for row in rows for name, cents in row.items() if name != "seat"}
        fields = form.locator("input[data-seat]:not([type=hidden])")
        for index in range(fields.count()):
            field_ = fields.nth(index)
            key = (int(field_.get_attribute("data-seat") or 0), field_.get_attribute("name"))
            text = dollars(wanted.pop(key)) if key in wanted else ""
            if self.by is By.CLICKS:
                field_.fill(text)
            else:
                self._tab_to(field_)
                self.page.keyboard.press("Control+A")
                self.page.keyboard.press("Delete")
                if text:
                    self.page.keyboard.type(text)
        assert not wanted, f"the bets form has no field for {sorted(wanted)}"
        deal = form.locator("button[data-action=deal]")
        self._touched(lambda: self._press_button(deal) if self.by is By.CLICKS
                      else self.page.keyboard.press("Enter"))

    def card(self, card: str) -> None:
        """The next card out of a physical shoe: two keystrokes into the card field, or the pad."""
        self.expect_awaiting("card")
        if self.by is By.CLICKS:
            rank, suit = card[:-1].replace("10", "T"), card[-1]
            self._touched(lambda: (self.root.locator(f"[data-rank='{rank}']").click(),
                                   self.root.locator(f"[data-suit='{suit}']").click()))
        else:
            self.type_card(card)

    def type_card(self, keys: str, enter: bool = False) -> None:
        """Type into the card field once the redrawn screen has put the focus there (a key typed
        before that would go nowhere), then Enter if asked."""
        expect(self.root.locator("input[name=card]")).to_be_focused()

        def touch() -> None:
            self.page.keyboard.type(keys)
            if enter:
                self.page.keyboard.press("Enter")
        self._touched(touch)

    def decision_button(self, seat: int, action: str, hand: int | None) -> Locator:
        at_hand = f"[data-hand='{hand}']" if hand is not None else ":not([data-hand])"
        return self.root.locator(f"form.decision[data-seat='{seat}']{at_hand} button[data-action='{action}']")

    def decide(self, seat: int, action: str, hand: int | None = None, amount: int | None = None) -> None:
        self.expect_awaiting("decision")
        button = self.decision_button(seat, action, hand)
        if button.count() == 0:
            raise NotOffered(f"seat {seat} hand {hand}: {action} is not offered")
        amount_field = button.locator("xpath=ancestor::form").locator("input[name=amount]")
        if amount_field.count() and amount is not None:
            if self.by is By.CLICKS:
                amount_field.fill(dollars(amount))
                self._touched(lambda: button.click())
                return
            key = button.get_attribute("data-key")
            if key and self.root.locator(f"[data-key='{key}']").first == button:
                self.page.keyboard.press(key)
                expect(amount_field).to_be_focused()
            else:
                self._tab_to(amount_field)
            self.page.keyboard.press("Control+A")
            self.page.keyboard.type(dollars(amount))
            self._touched(lambda: self.page.keyboard.press("Enter"))
            return
        self._touched(lambda: self._press_button(button))

    def next_round(self) -> None:
        self.expect_awaiting("complete")
        button = self.root.locator("[data-action=next-round]")
        self._touched(lambda: self._press_button(button))

    # ----- a whole worked round -----------------------------------------------------------
    def play(self, cards: list[str], actions: list[dict]) -> list[dict]:
        """Cards while a card is owed, decisions while one is awaited, in the transcript's orders,
        until the round is complete; the actions left over (a refused one first) are returned."""
        cards, actions = list(cards), list(actions)
        while True:
            state = self.awaiting()
            if state == "card" and cards:
                self.card(cards.pop(0))
            elif state == "decision" and actions:
                action = actions[0]
                self.decide(action["seat"], action["action"], action.get("hand"),
                            action.get("amount", action.get("shoot")))
                actions.pop(0)
            else:
                return actions
