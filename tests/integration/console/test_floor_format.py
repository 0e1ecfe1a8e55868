"""The pit's figures as the console shows them: dollars and cents, percentages, local times with the
gaming day they count in, and cards as playing cards."""
from __future__ import annotations

from datetime import UTC, date, datetime

from service.web.format import Colour, card, day_name, gaming_day, local_time, money, percent, when


def test_money_is_dollars_and_cents_with_a_minus_for_a_loss():
    assert money(0) == "$0.00" and money(5) == "$0.05" and money(123456) == "$1,234.56"
    assert money(-50) == "-$0.50" and money(-1234567) == "-$12,345.67" and money(None) == "\u2014"


def test_a_percentage_is_to_two_places_and_a_dash_without_one():
    assert percent(12.5) == "12.50%" and percent(-190.91) == "-190.91%" and percent(None) == "\u2014"


def test_times_are_local_with_the_gaming_day_they_count_in(app):
    # The console's settings: Australia/Sydney, the gaming day starting at 06:00 local.
    with app.app_context():
        late = datetime(2026, 11, 27, 17, 30, tzinfo=UTC)     # 04:30 on Saturday in Sydney (AEDT, +11)
        assert local_time(late) == "Sat 28 Nov 2026 04:30:00 AEDT" and local_time(late, False) == "04:30:00 AEDT"
        assert gaming_day(late) == date(2026, 11, 27)          # before 06:00: still Friday's gaming day
        assert when(late) == "Sat 28 Nov 2026 04:30:00 AEDT (gaming day Fri 27 Nov 2026)"
        assert gaming_day(datetime(2026, 11, 27, 19, 0, tzinfo=UTC)) == date(2026, 11, 28)   # 06:00 Saturday
        assert day_name(date(2026, 11, 27)) == "Fri 27 Nov 2026" and when(None) == "\u2014"


def test_cards_are_drawn_as_playing_cards():
    ace, ten, heart = card("AS"), card("TD"), card("10h")
    assert (ace.rank, ace.symbol, ace.colour, ace.name) == ("A", "\u2660", Colour.BLACK, "ace of spades")
    assert (ten.rank, ten.symbol, ten.colour) == ("10", "\u2666", Colour.RED)
    assert (heart.rank, heart.symbol, heart.colour) == ("10", "\u2665", Colour.RED)
    assert card("ZZ").rank == "ZZ"      # a token naming no card is shown as it is
