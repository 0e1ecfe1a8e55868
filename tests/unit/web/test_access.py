"""The one table of who may do what: every task has its roles, a terminal's key reaches only its
table's play, a dealer only the screen they deal at, and the roles come out in one order wherever a
refusal names them."""
from __future__ import annotations

from service.roles import CONSOLE_ROLES, KEY_ROLES, STAFF_ROLES, Role
from service.web.access import WHO_MAY, Task, may, roles_for


def test_every_task_names_the_roles_that_may_do_it():
    assert set(WHO_MAY) == set(Task)
    assert all(WHO_MAY[task] for task in Task)


# What a dealer does at the table besides dealing: sign the tray's counts and the chips received, and
# record buy-ins; at the screen as themselves, over the API through the table's terminal.
AT_THE_TABLE = {Task.SIGN_SLIPS, Task.RECORD_BUY_INS}


def test_a_terminal_key_sees_and_plays_its_table_and_does_nothing_else():
    assert {task for task in Task if may(Role.TERMINAL, task)} == {
        Task.SEE_TABLES, Task.DEAL, Task.COUNT_TRAYS, Task.SEE_SLIPS, *AT_THE_TABLE}


def test_only_a_terminal_deals_over_the_api_and_no_person_is_a_terminal():
    assert roles_for(Task.DEAL) == (Role.TERMINAL,)
    assert roles_for(Task.DEAL, STAFF_ROLES) == ()
    assert Role.TERMINAL not in STAFF_ROLES


def test_a_dealer_deals_at_a_screen_and_has_no_console_task_nor_any_key():
    assert {task for task in Task if may(Role.DEALER, task)} == {Task.DEAL_AT_SCREEN, *AT_THE_TABLE}
    assert roles_for(Task.DEAL_AT_SCREEN) == (Role.DEALER,)
    assert Role.DEALER in STAFF_ROLES and Role.DEALER not in CONSOLE_ROLES and Role.DEALER not in KEY_ROLES
    assert all(roles_for(task, CONSOLE_ROLES) == roles_for(task, STAFF_ROLES) for task in Task
               if task is not Task.DEAL_AT_SCREEN and task not in AT_THE_TABLE)


def test_the_cage_issues_chips_and_the_count_team_counts_and_neither_deals():
    assert {task for task in Task if may(Role.CAGE, task)} == {
        Task.SEE_TABLES, Task.SEE_PAYTABLES, Task.OWN_ACCOUNT, Task.ISSUE_CHIPS, Task.VOID_SLIPS, Task.SEE_SLIPS,
        Task.SEE_BOOKS}
    assert {task for task in Task if may(Role.COUNT, task)} == {
        Task.SEE_TABLES, Task.SEE_PAYTABLES, Task.OWN_ACCOUNT, Task.COUNT_DROP, Task.SEE_SLIPS, Task.SEE_BOOKS}
    assert Role.CAGE in CONSOLE_ROLES and Role.COUNT in KEY_ROLES
    assert roles_for(Task.ISSUE_CHIPS) == (Role.CAGE,) and roles_for(Task.COUNT_DROP) == (Role.COUNT,)


def test_admins_and_supervisors_enrol_screens_and_supervisors_answer_calls():
    assert roles_for(Task.ENROL_SCREENS, CONSOLE_ROLES) == (Role.ADMIN, Role.SUPERVISOR)
    assert roles_for(Task.ANSWER_CALLS, CONSOLE_ROLES) == (Role.SUPERVISOR,)


def test_roles_come_in_the_order_of_role_whatever_the_table_says():
    assert roles_for(Task.RECALL_ROUNDS) == (Role.SUPERVISOR, Role.COMPLIANCE)
    assert roles_for(Task.SEE_TABLES, CONSOLE_ROLES) == CONSOLE_ROLES


def test_a_role_is_matched_as_the_text_a_key_or_an_account_stores():
    assert may("operator", Task.CHANGE_PAYTABLES)
    assert not may("supervisor", Task.CHANGE_PAYTABLES)
    assert not may("auditor", Task.SEE_TABLES)
    assert not may("dealer", Task.SEE_TABLES)
