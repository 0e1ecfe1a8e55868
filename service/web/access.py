"""Who may do what, for the REST API and the console alike: each task a caller may ask for and the
roles that may ask, declared here once. An API endpoint and a console page each name their task;
the roles are listed in the one order of `Role`, so a refusal names them alike everywhere."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType

from ..roles import CONSOLE_ROLES, KEY_ROLES, Role


class Task(StrEnum):
    SEE_TABLES = "see_tables"               # the floor, a table, its shoe, its rounds and its paytable
    CREATE_TABLES = "create_tables"
    DEAL = "deal"                           # a table's shoes, rounds, cards, decisions and bank
    DEAL_AT_SCREEN = "deal_at_screen"       # the same at a table's enrolled screen, signed in with a PIN
    SEE_PAYTABLES = "see_paytables"         # paytables, their versions and house edges
    CHANGE_PAYTABLES = "change_paytables"   # draft, approve or reject a version; assign one to a table
    CHANGE_TABLE_RULES = "change_table_rules"   # propose, approve or reject another rules file for a table
    VOID_ROUNDS = "void_rounds"
    RECALL_ROUNDS = "recall_rounds"         # game recall, a round's transcript and its re-verification
    READ_REPORTS = "read_reports"           # the table report, as JSON or CSV
    CHART_REPORTS = "chart_reports"         # the console's reports page: the table report charted by day
    AUDIT = "audit"                         # search, export and verify the audit log
    SEE_ACCESS = "see_access"               # the list of API keys, for an access review
    MANAGE_ACCESS = "manage_access"         # staff accounts and API keys: create, change, revoke
    OWN_ACCOUNT = "own_account"             # one's own password and second factor
    ENROL_SCREENS = "enrol_screens"         # a table's dealer screens: enrol one, list them, revoke one
    ANSWER_CALLS = "answer_calls"           # a dealer's call for a supervisor: dismissed, or answered by a void
    COUNT_TRAYS = "count_trays"             # a table's tray counted by denomination: opener, shift change, closer
    SIGN_SLIPS = "sign_slips"               # at the table: sign a tray's count, receive a fill's or a credit's slip
    REQUEST_CHIPS = "request_chips"         # ask the cage for a fill, or send it a credit
    ISSUE_CHIPS = "issue_chips"             # at the cage: issue a fill's chips, take a credit's
    VOID_SLIPS = "void_slips"               # void a mistaken slip with a reason (two people)
    RECORD_BUY_INS = "record_buy_ins"       # a seat's cash or marker into the drop box, chips out of the tray
    COUNT_DROP = "count_drop"               # the soft count: each drop box's cash and markers, verified by a second
    SEE_SLIPS = "see_slips"                 # a table's slips and buy-ins
    SEE_BOOKS = "see_books"                 # every table's slips and drop counts of a gaming day
    READ_STATEMENT = "read_statement"       # the table games statement, as JSON, CSV or the console's page
    ISSUE_STATEMENT = "issue_statement"     # record a gaming day's statement in the audit log


WHO_MAY: Mapping[Task, frozenset[Role]] = MappingProxyType({
    # Every key and console role sees the tables; a terminal's key only its own table (the API
    # checks the table). A dealer sees only the table of the screen they deal at, and no console page.
    Task.SEE_TABLES: frozenset(KEY_ROLES),
    Task.CREATE_TABLES: frozenset({Role.ADMIN, Role.OPERATOR}),
    Task.DEAL: frozenset({Role.TERMINAL}),
    Task.DEAL_AT_SCREEN: frozenset({Role.DEALER}),
    Task.SEE_PAYTABLES: frozenset(CONSOLE_ROLES),
    Task.CHANGE_PAYTABLES: frozenset({Role.OPERATOR}),
    Task.CHANGE_TABLE_RULES: frozenset({Role.OPERATOR}),
    Task.VOID_ROUNDS: frozenset({Role.SUPERVISOR}),
    Task.RECALL_ROUNDS: frozenset({Role.SUPERVISOR, Role.COMPLIANCE}),
    Task.READ_REPORTS: frozenset({Role.OPERATOR, Role.SUPERVISOR, Role.COMPLIANCE}),
    Task.CHART_REPORTS: frozenset({Role.COMPLIANCE}),
    Task.AUDIT: frozenset({Role.COMPLIANCE}),
    Task.SEE_ACCESS: frozenset({Role.ADMIN, Role.COMPLIANCE}),
    Task.MANAGE_ACCESS: frozenset({Role.ADMIN}),
    Task.OWN_ACCOUNT: frozenset(CONSOLE_ROLES),
    Task.ENROL_SCREENS: frozenset({Role.ADMIN, Role.SUPERVISOR}),
    Task.ANSWER_CALLS: frozenset({Role.SUPERVISOR}),
    # The tray is counted by the supervisor (the console, a key) and signed by the dealer (at the
    # screen, or the table's terminal key for them); a slip's two signatures are two people's.
    Task.COUNT_TRAYS: frozenset({Role.SUPERVISOR, Role.TERMINAL}),
    Task.SIGN_SLIPS: frozenset({Role.SUPERVISOR, Role.TERMINAL, Role.DEALER}),
    Task.REQUEST_CHIPS: frozenset({Role.SUPERVISOR}),
    Task.ISSUE_CHIPS: frozenset({Role.CAGE}),
    Task.VOID_SLIPS: frozenset({Role.SUPERVISOR, Role.CAGE}),
    Task.RECORD_BUY_INS: frozenset({Role.SUPERVISOR, Role.TERMINAL, Role.DEALER}),
    Task.COUNT_DROP: frozenset({Role.COUNT}),
    Task.SEE_SLIPS: frozenset({Role.SUPERVISOR, Role.COMPLIANCE, Role.CAGE, Role.COUNT, Role.TERMINAL}),
    Task.SEE_BOOKS: frozenset({Role.SUPERVISOR, Role.COMPLIANCE, Role.CAGE, Role.COUNT}),
    Task.READ_STATEMENT: frozenset({Role.OPERATOR, Role.SUPERVISOR, Role.COMPLIANCE}),
    Task.ISSUE_STATEMENT: frozenset({Role.COMPLIANCE}),
})


def roles_for(task: Task, among: Iterable[Role] = Role) -> tuple[Role, ...]:
    """The roles that may do `task` (of those `among`, as a person's roles for the console), in
    the order of `Role`."""
    return tuple(role for role in among if role in WHO_MAY[task])


def may(role: str, task: Task) -> bool:
    return role in WHO_MAY[task]
