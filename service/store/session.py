"""Per-connection session set-up: every application connection logs in as the `pontoon_app` role,
reads JSON columns with orjson, and names its process in pg_stat_activity."""
from __future__ import annotations

import orjson
import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.pq import TransactionStatus
from psycopg.types.json import set_json_loads

APP_ROLE = "pontoon_app"
OWNER_ROLE = "postgres"   # who owns the schema where no owner's URL is given: the local server's superuser


def app_conninfo(database_url: str) -> str:
    """The connection string the service logs in with: `database_url` as it is when it names the
    application role, otherwise the same server and database as that role, without the password
    (which was another role's). A URL naming the owner, as a developer's or a test's may, never
    makes the service the owner: the role it logs in as cannot become another (migration 0014)."""
    params = conninfo_to_dict(database_url)
    if params.get("user") == APP_ROLE:
        return database_url
    return _as_role(params, APP_ROLE)


def owner_conninfo(database_url: str) -> str:
    """Where migrations and owner commands connect when no owner's URL is configured: `database_url`
    itself when it names another role than the application's, otherwise the same server and
    database as the local superuser (trust on 127.0.0.1 for development; set
    PONTOON_OWNER_DATABASE_URL anywhere else)."""
    params = conninfo_to_dict(database_url)
    if params.get("user") not in (None, "", APP_ROLE):
        return database_url
    return _as_role(params, OWNER_ROLE)


def _as_role(params: dict, role: str) -> str:
    params = {name: value for name, value in params.items() if name != "password"}
    return make_conninfo("", **{**params, "user": role})


def named(database_url: str, process: str) -> dict[str, str]:
    """Connection arguments naming the process ("pontoon-api", "pontoon-settlement", ...) as the
    connection's application_name, so pg_stat_activity and the server's log say which part of the
    service holds a lock or runs a statement. A name set in the URL itself is kept."""
    return {} if "application_name" in conninfo_to_dict(database_url) else {"application_name": process}


def configure_connection(conn: psycopg.Connection) -> None:
    """Set up a fresh application connection (a pool's `configure` hook, a worker's connect): JSON
    read with orjson, and a check that it logged in as the application role, whose grants refuse
    UPDATE, DELETE and TRUNCATE on the audit log and the ledger and who cannot become another
    role, so not even a statement injected into its session can rewrite history."""
    status = conn.info.transaction_status
    if status != TransactionStatus.IDLE:
        raise psycopg.ProgrammingError("configure_connection needs an idle connection, not one in a transaction")
    # A round's events come back as one JSON array on every decision; orjson reads it in under half
    # the standard library's time (PostgreSQL's JSON holds nothing orjson reads differently:
    # no NaN, and amounts are whole cents).
    set_json_loads(orjson.loads, conn)
    user = conn.info.parameter_status("session_authorization")
    if user is not None and user != APP_ROLE:
        raise psycopg.ProgrammingError(f"the service must log in as {APP_ROLE}, not {user} (connect with app_conninfo)")
