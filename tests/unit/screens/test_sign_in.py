"""A dealer signing in on a screen: the PIN checked as a password is (the count, the lock, the same
answer whatever failed), console staff refused in words, one dealer per screen and one screen per
dealer, and every way a dealer's session ends: signing out, relief, a revocation, a deactivation
and a new PIN. Each attempt leaves its record on the table's chain, never the PIN."""
from __future__ import annotations

from datetime import timedelta

import pytest

from service.refusals import Conflict, Invalid
from service.screens.commands import DealerSignIn, DealerSignOut, RevokeScreen, VisitScreen
from service.screens.enrolment import revoke_screen
from service.screens.sign_in import DealerOutcome, sign_in_dealer, sign_out_dealer, visit_screen
from service.staff.accounts import change_role, create_staff, deactivate_staff, reset_password
from service.staff.commands import ChangeRole, CreateStaff, DeactivateStaff, ResetPassword, SignIn
from service.staff.sessions import SignInOutcome, sign_in

from .conftest import PIN, TABLE, chain, kinds

ADDRESS = "10.1.1.5"


def dealer_at(uow, policy, screen: str, token: str | None):
    visit = visit_screen(VisitScreen(screen, token), uow, policy)
    assert visit is not None, "the screen is no live screen"
    return visit.dealer


def test_a_dealer_signs_in_on_the_screen_and_deals_there_under_their_name(uow, policy, enrolled, dealer):
    screen = enrolled("Left")
    dealer("dana")
    result = sign_in_dealer(DealerSignIn(screen, " Dana ", PIN, ADDRESS), uow, policy)
    assert result.outcome is DealerOutcome.SIGNED_IN and result.token and result.screen.name == "Left"
    holder = dealer_at(uow, policy, screen, result.token)
    assert holder.username == "dana" and holder.role == "dealer"
    record = chain(uow)[-1]
    assert record.kind == "dealer_signed_in" and record.actor == "staff:dana" and record.table_id == TABLE
    assert record.payload["screen"] == "Left" and record.payload["address"] == ADDRESS
    assert PIN not in repr(chain(uow)) and result.token not in repr(chain(uow))
    # The session is the screen's: the same cookie at another screen signs nobody in.
    other = enrolled("Right")
    assert dealer_at(uow, policy, other, result.token) is None


def test_a_wrong_pin_fails_and_five_in_a_row_lock_the_dealer_out_from_that_address(uow, policy, clock, enrolled,
                                                                                     dealer):
    screen = enrolled()
    dealer("dana")
    outcomes = [sign_in_dealer(DealerSignIn(screen, "dana", f"90817{n}", ADDRESS), uow, policy).outcome
                for n in range(5)]
    assert outcomes == [DealerOutcome.FAILED] * 5
    assert sign_in_dealer(DealerSignIn(screen, "dana", PIN, ADDRESS), uow, policy).outcome is DealerOutcome.FAILED
    assert kinds(uow).count("dealer_sign_in_failed") == 6 and kinds(uow).count("dealer_locked") == 1
    assert chain(uow)[-1].payload["reason"] == "locked" and chain(uow)[-1].payload["screen"] == "Left"
    # Another address is not locked out by these failures (the dealer at the next table over).
    assert sign_in_dealer(DealerSignIn(screen, "dana", PIN, "10.1.1.6"), uow, policy).outcome \
        is DealerOutcome.SIGNED_IN
    clock.move(minutes=15, seconds=1)
    assert sign_in_dealer(DealerSignIn(screen, "dana", PIN, ADDRESS), uow, policy).outcome is DealerOutcome.SIGNED_IN


def test_an_unknown_name_fails_as_a_wrong_pin_does(uow, policy, enrolled):
    screen = enrolled()
    result = sign_in_dealer(DealerSignIn(screen, "nobody", PIN, ADDRESS), uow, policy)
    assert result.outcome is DealerOutcome.FAILED and result.token is None
    assert chain(uow)[-1].payload["reason"] == "unknown_account"


def test_console_staff_cannot_deal_and_are_told_so_once_their_password_is_right(uow, policy, enrolled):
    screen = enrolled()
    create_staff(CreateStaff("sam", "supervisor", "staff:root", password="correct horse battery"), uow, policy)
    wrong = sign_in_dealer(DealerSignIn(screen, "sam", "not the password", ADDRESS), uow, policy)
    assert wrong.outcome is DealerOutcome.FAILED
    refused = sign_in_dealer(DealerSignIn(screen, "sam", "correct horse battery", ADDRESS), uow, policy)
    assert refused.outcome is DealerOutcome.NOT_A_DEALER and refused.token is None
    assert chain(uow)[-1].kind == "dealer_sign_in_failed"
    assert chain(uow)[-1].payload["reason"] == "not_a_dealer" and chain(uow)[-1].payload["role"] == "supervisor"
    assert uow.screens.sessions == {}


def test_a_dealer_cannot_sign_in_to_the_console_and_is_told_so(uow, policy, dealer):
    dealer("dana")
    assert sign_in(SignIn("dana", "111111", address=ADDRESS), uow, policy).outcome is SignInOutcome.FAILED
    result = sign_in(SignIn("dana", PIN, address=ADDRESS), uow, policy)
    assert result.outcome is SignInOutcome.NOT_FOR_CONSOLE and result.token is None
    record = uow.audit.records["system"][-1]
    assert record.kind == "staff_sign_in_failed" and record.payload["reason"] == "not_a_console_role"
    assert uow.staff.sessions == {}


def test_no_dealer_signs_in_on_a_browser_that_is_no_screen(uow, policy, dealer):
    dealer("dana")
    assert sign_in_dealer(DealerSignIn("made-up", "dana", PIN), uow, policy).outcome is DealerOutcome.NO_SCREEN
    assert visit_screen(VisitScreen("made-up", None), uow, policy) is None
    assert visit_screen(VisitScreen("", None), uow, policy) is None


def test_relief_is_the_next_dealers_sign_in_and_ends_the_first_ones_session(uow, policy, enrolled, dealer):
    screen = enrolled()
    dealer("dana")
    dealer("eric", pin="519340")
    first = sign_in_dealer(DealerSignIn(screen, "dana", PIN), uow, policy)
    assert sign_out_dealer(DealerSignOut(first.token, ADDRESS), uow, policy)
    assert not sign_out_dealer(DealerSignOut(first.token, ADDRESS), uow, policy)
    assert dealer_at(uow, policy, screen, first.token) is None
    assert chain(uow)[-1].kind == "dealer_signed_out" and chain(uow)[-1].payload["reason"] == "signed_out"
    second = sign_in_dealer(DealerSignIn(screen, "eric", "519340"), uow, policy)
    assert dealer_at(uow, policy, screen, second.token).username == "eric"
    # A dealer who signs in over someone (who forgot to sign out) relieves them.
    third = sign_in_dealer(DealerSignIn(screen, "dana", PIN), uow, policy)
    assert dealer_at(uow, policy, screen, second.token) is None
    assert dealer_at(uow, policy, screen, third.token).username == "dana"
    relieved = [r for r in chain(uow) if r.kind == "dealer_signed_out"][-1]
    assert relieved.payload["username"] == "eric" and relieved.payload["reason"] == "relieved"
    assert relieved.actor == "staff:dana"


def test_a_dealer_deals_at_one_screen_at_a_time(uow, policy, enrolled, dealer):
    left, elsewhere = enrolled("Left"), enrolled("Centre", table="T2")
    dealer("dana")
    first = sign_in_dealer(DealerSignIn(left, "dana", PIN), uow, policy)
    second = sign_in_dealer(DealerSignIn(elsewhere, "dana", PIN), uow, policy)
    assert dealer_at(uow, policy, left, first.token) is None
    assert dealer_at(uow, policy, elsewhere, second.token).username == "dana"
    assert chain(uow)[-1].kind == "dealer_signed_out" and chain(uow)[-1].payload["reason"] == "signed_in_elsewhere"


def test_a_session_ends_when_left_idle(uow, policy, enrolled, dealer):
    screen = enrolled()
    dealer("dana")
    result = sign_in_dealer(DealerSignIn(screen, "dana", PIN), uow, policy)
    session = uow.screens.sessions[result.session_id]
    session.last_seen_at -= policy.idle + timedelta(seconds=1)
    assert dealer_at(uow, policy, screen, result.token) is None


def test_a_page_refreshing_itself_is_no_activity(uow, policy, enrolled, dealer):
    screen = enrolled()
    dealer("dana")
    result = sign_in_dealer(DealerSignIn(screen, "dana", PIN), uow, policy)
    session = uow.screens.sessions[result.session_id]
    before = session.last_seen_at = session.last_seen_at - timedelta(minutes=1)
    visit_screen(VisitScreen(screen, result.token, activity=False), uow, policy)
    assert session.last_seen_at == before
    visit_screen(VisitScreen(screen, result.token), uow, policy)
    assert session.last_seen_at > before


@pytest.mark.parametrize("end", ["revoke", "deactivate", "reset"])
def test_a_revocation_a_deactivation_or_a_new_pin_ends_the_dealers_session(uow, policy, enrolled, dealer, end):
    screen = enrolled()
    dealer("dana")
    result = sign_in_dealer(DealerSignIn(screen, "dana", PIN), uow, policy)
    if end == "revoke":
        revoke_screen(RevokeScreen(TABLE, result.screen.screen_id, "cracked glass", "staff:sam"), uow)
        assert visit_screen(VisitScreen(screen, result.token), uow, policy) is None
        assert chain(uow)[-1].payload["sessions_ended"] == 1
    else:
        if end == "deactivate":
            deactivate_staff(DeactivateStaff("dana", "staff:root"), uow)
        else:
            issued = reset_password(ResetPassword("dana", "staff:root"), uow, policy)
            assert issued.is_pin and issued.password.isdigit() and len(issued.password) == 6
        assert dealer_at(uow, policy, screen, result.token) is None
        assert uow.audit.records["system"][-1].payload["sessions_ended"] == 1
    left = [r for r in chain(uow) if r.kind == "dealer_signed_out"]
    assert [r.payload["reason"] for r in left] == [{"revoke": "screen_revoked", "deactivate": "deactivated",
                                                    "reset": "pin_reset"}[end]]


def test_a_new_pin_follows_the_pin_rules(uow, policy, dealer):
    dealer("dana")
    with pytest.raises(Invalid) as refused:
        reset_password(ResetPassword("dana", "staff:root", password="12345"), uow, policy)
    assert set(refused.value.errors) == {"pin"}
    assert reset_password(ResetPassword("dana", "staff:root", password="8675309"), uow, policy).password == "8675309"


def test_a_generated_pin_is_six_digits_shown_once(uow, policy):
    issued = create_staff(CreateStaff("dana", "dealer", "cli"), uow, policy)
    assert issued.generated and issued.is_pin and issued.password.isdigit() and len(issued.password) == 6
    assert policy.passwords.verify(uow.staff.get("dana").password_hash, issued.password)


def test_no_account_crosses_between_dealing_and_the_console(uow, policy, dealer):
    dealer("dana")
    create_staff(CreateStaff("sam", "supervisor", "staff:root", password="correct horse battery"), uow, policy)
    for username, role in (("dana", "supervisor"), ("sam", "dealer")):
        with pytest.raises(Conflict) as refused:
            change_role(ChangeRole(username, role, "staff:root"), uow)
        assert refused.value.code == "role_signs_in_otherwise" and set(refused.value.errors) == {"role"}
    assert uow.staff.get("dana").role == "dealer" and uow.staff.get("sam").role == "supervisor"
