"""The one table of who may do what: every task has its roles, a terminal's key reaches only its
table's play, and the roles come out in one order wherever a refusal names them."""
from __future__ import annotations

from service.roles import STAFF_ROLES, Role
from service.web.access import WHO_MAY, Task, may, roles_for


def test_every_task_names_the_roles_that_may_do_it():
    assert set(WHO_MAY) == set(Task)
    assert all(WHO_MAY[task] for task in Task)


def test_a_terminal_key_sees_and_plays_its_table_and_does_nothing_else():
    assert {task for task in Task if may(Role.TERMINAL, task)} == {Task.SEE_TABLES, Task.DEAL}


def test_only_a_terminal_deals_and_no_person_is_a_terminal():
    assert roles_for(Task.DEAL) == (Role.TERMINAL,)
    assert roles_for(Task.DEAL, STAFF_ROLES) == ()
    assert Role.TERMINAL not in STAFF_ROLES


def test_roles_come_in_the_order_of_role_whatever_the_table_says():
    assert roles_for(Task.RECALL_ROUNDS) == (Role.SUPERVISOR, Role.COMPLIANCE)
    assert roles_for(Task.SEE_TABLES, STAFF_ROLES) == STAFF_ROLES


def test_a_role_is_matched_as_the_text_a_key_or_an_account_stores():
    assert may("operator", Task.CHANGE_PAYTABLES)
    assert not may("supervisor", Task.CHANGE_PAYTABLES)
    assert not may("auditor", Task.SEE_TABLES)
