"""Every setting the service reads from the environment, in one object: its variable, its default
(one that works on a developer's machine) and what it means, from which the README's table is made."""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import urlsplit

from .store.session import owner_conninfo

# The local server, logged in as the application role (trust on 127.0.0.1); migrations connect as
# the local superuser unless PONTOON_OWNER_DATABASE_URL says otherwise.
DEFAULT_DATABASE_URL = "postgresql://pontoon_app@127.0.0.1:5432/pontoon"


def _setting(variable: str, default: Any, meaning: str, *, shown: str | None = None) -> Any:
    """A field read from `variable`; `shown` is how the README gives a default worked out at start."""
    return field(default=default, metadata={"variable": variable, "meaning": meaning, "shown": shown})


@dataclass(frozen=True)
class Settings:
    database_url: str = _setting(
        "DATABASE_URL", DEFAULT_DATABASE_URL,
        "the service's login to PostgreSQL, always as the `pontoon_app` role")
    owner_database_url: str = _setting(
        "PONTOON_OWNER_DATABASE_URL", "",
        "where migrations and owner commands (`pontoon migrate`, `pontoon keys`) connect: the schema's owner",
        shown="`DATABASE_URL`'s database as `postgres`")
    broker_url: str = _setting("BROKER_URL", "redis://127.0.0.1:6379/0", "the Celery broker settlement travels on")
    # The broker queue settlement messages travel on: stacks sharing a broker keep apart.
    settlement_queue: str = _setting(
        "PONTOON_SETTLEMENT_QUEUE", "",
        "the broker queue settlement uses (`pontoon settle queue` prints it); set it where hosts reach one "
        "database under different names", shown="derived from `DATABASE_URL`")
    # Seconds before Redis hands a message whose worker vanished without acking (SIGKILL, lost
    # machine) to another worker. Settling a batch takes well under a second, so minutes are
    # safe; the relay's sweep settles such rounds sooner anyway.
    broker_visibility_timeout: int = _setting(
        "PONTOON_BROKER_VISIBILITY_TIMEOUT", 300,
        "seconds before the broker hands a message whose worker vanished to another worker")
    port: int = _setting("PORT", 8000, "the API listens on 127.0.0.1:`PORT`; `pontoon terminal` calls it there")
    # Apart from the workers, so that liveness is answered whatever they wait on (the database).
    health_port: int = _setting(
        "PONTOON_HEALTH_PORT", 0, "the port the API's master process answers liveness (`GET /healthz`) on; "
        "`0`: none (`make run` uses `PORT` + 1)")
    gaming_day_starts: str = _setting(
        "GAMING_DAY_STARTS", "06:00", "the local time a gaming day starts, `HH:MM` (one every day has exactly once)")
    timezone: str = _setting("PONTOON_TZ", "Australia/Sydney", "the casino's time zone: gaming days and reports")
    # The hosts that stamp audit records may disagree with the database's clock by this much: an
    # export reaching the present ends this much before the instant every record has committed.
    audit_clock_margin: float = _setting(
        "PONTOON_AUDIT_CLOCK_MARGIN", 1.0, "seconds an audit export reaching the present stops short of its horizon")
    # The Ed25519 key that signs the chains' heads (kept where the database cannot reach it) and
    # the directory the signed checkpoints are appended to.
    checkpoint_key: str = _setting(
        "PONTOON_CHECKPOINT_KEY", "", "the Ed25519 private key file (PEM) that signs the audit chains' heads",
        shown="unset: no checkpoints")
    checkpoint_dir: str = _setting(
        "PONTOON_CHECKPOINT_DIR", "", "the directory signed checkpoints are appended to", shown="unset")
    checkpoint_every: float = _setting(
        "PONTOON_CHECKPOINT_EVERY", 300.0, "seconds between two checkpoints (and one as each gaming day closes)")
    # Far above the largest legitimate body (a paytable document with its reason).
    max_body_bytes: int = _setting(
        "PONTOON_MAX_BODY_BYTES", 1 << 20,
        "the largest request body the service reads, sent with its length or chunked (413 beyond)")
    # The console's keys never come from the database: from the environment, or from the file
    # PONTOON_SECRETS_FILE names (`make run` writes one, mode 0600); see service/staff/keys.py.
    secrets_file: str = _setting(
        "PONTOON_SECRETS_FILE", "", "a file (mode 0600) of `NAME=value` lines holding the console's keys",
        shown="unset")
    secret_key: str = _setting(
        "PONTOON_SECRET_KEY", "", "the key signing the console's cookies and its session tokens",
        shown="a key made for this process alone")
    totp_key: str = _setting(
        "PONTOON_TOTP_KEY", "", "the Fernet key the staff's TOTP secrets are sealed with",
        shown="a key made for this process alone")
    # Where people reach the console and the dealer's screens. Its host is one a request may name;
    # its scheme says whether the service is served over HTTPS (then cookies are Secure and
    # browsers are told to use nothing else).
    public_url: str = _setting(
        "PONTOON_PUBLIC_URL", "", "the address the console and the dealer's screens are reached at, "
        "`scheme://host[:port]` (e.g. `https://pontoon.casino.example`): its host is trusted; with `https` every "
        "cookie is `Secure` and every answer carries `Strict-Transport-Security`", shown="unset")
    # A request naming any other Host is refused (400) before anything reads it: no link, redirect
    # or cookie is ever made for a name a client chose.
    trusted_hosts: tuple[str, ...] = _setting(
        "PONTOON_TRUSTED_HOSTS", ("127.0.0.1", "localhost"),
        "further host names a request's `Host` may give, comma-separated (the public URL's host always may; "
        "`.casino.example` takes its subdomains): those terminals, probes and scrapers call by; any other is 400")
    console_secure_cookies: bool = _setting(
        "PONTOON_CONSOLE_SECURE_COOKIES", False,
        "`1`: the console's and the screens' cookies are sent over HTTPS only even when `PONTOON_PUBLIC_URL` is "
        "not `https` (behind a proxy that ends TLS under another name)")
    console_max_failures: int = _setting(
        "PONTOON_CONSOLE_MAX_FAILURES", 5,
        "failed sign-ins in a row, from one address, before an account is locked from it")
    console_lock_minutes: float = _setting(
        "PONTOON_CONSOLE_LOCK_MINUTES", 15.0, "minutes a locked account stays locked")
    console_idle_minutes: float = _setting(
        "PONTOON_CONSOLE_IDLE_MINUTES", 15.0, "minutes without a request that end a console session")
    console_session_hours: float = _setting(
        "PONTOON_CONSOLE_SESSION_HOURS", 12.0, "hours after which a console session ends however busy")
    console_2fa_roles: tuple[str, ...] = _setting(
        "PONTOON_CONSOLE_2FA_ROLES", (), "roles, comma-separated, that must sign in with a second factor (TOTP)")
    # Table games accounting: the chips a tray holds, what a table's tray is filled to at the start
    # (its float), how many shifts a gaming day has, and how far a table's win from its tray and box
    # may be from the game win of its rounds before it is flagged for review.
    chip_denominations: tuple[str, ...] = _setting(
        "PONTOON_CHIP_DENOMINATIONS", ("1", "5", "25", "100", "500", "1000"),
        "the chips' values in dollars, comma-separated: what a tray, a fill and a credit are counted in")
    table_float: tuple[str, ...] = _setting(
        "PONTOON_TABLE_FLOAT", ("1:100", "5:100", "25:100", "100:50", "500:20", "1000:10"),
        "a table's float: `dollars:chips` for each denomination its tray holds when it opens, comma-separated")
    shifts_per_gaming_day: int = _setting(
        "PONTOON_SHIFTS_PER_GAMING_DAY", 3, "shifts in a gaming day: the tray is counted at each change of shift")
    variance_threshold: int = _setting(
        "PONTOON_VARIANCE_THRESHOLD", 10000,
        "cents a table's win may differ from its rounds' game win before the statement flags it for review")
    log_level: str = _setting("PONTOON_LOG_LEVEL", "INFO", "the API's, the worker's and the relay's logging level")
    metrics_token: str = _setting(
        "PONTOON_METRICS_TOKEN", "", "when set, `/metrics` needs `Authorization: Bearer <token>`", shown="unset")
    analysis_cache: str = _setting(
        "PONTOON_ANALYSIS_CACHE", "", "where `pontoon analyse` caches its exact reports", shown="`run/analysis/`")
    terminal_url: str = _setting(
        "PONTOON_URL", "", "the API `pontoon terminal` drives", shown="`http://127.0.0.1:$PORT`")
    admin_key: str = _setting(
        "PONTOON_ADMIN_KEY", "", "the admin key `pontoon terminal` creates its tables and keys with", shown="unset")
    terminal_key: str = _setting(
        "PONTOON_TERMINAL_KEY", "", "the terminal key `pontoon terminal` plays an existing table with", shown="unset")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment (or `env`) gives; a variable that is not set keeps its default."""
        source: Mapping[str, str] = os.environ if env is None else env
        if source.get("PONTOON_SECRETS_FILE"):
            source = {**read_secrets_file(source["PONTOON_SECRETS_FILE"]), **source}
        values = {setting.name: _parse(source[setting.metadata["variable"]], setting.default)
                  for setting in fields(cls) if setting.metadata["variable"] in source}
        settings = cls(**values)
        if not settings.owner_database_url:
            settings = replace(settings, owner_database_url=owner_conninfo(settings.database_url))
        return settings

    @property
    def over_https(self) -> bool:
        """Whether people reach the service over HTTPS (its public URL says so)."""
        return urlsplit(self.public_url).scheme.lower() == "https"

    @property
    def secure_cookies(self) -> bool:
        """Whether the browser's cookies are sent over HTTPS only."""
        return self.over_https or self.console_secure_cookies

    @property
    def host_names(self) -> tuple[str, ...]:
        """The names a request's Host may give: the public URL's host and the trusted hosts."""
        public = urlsplit(self.public_url).hostname
        return ((public,) if public else ()) + tuple(name for name in self.trusted_hosts if name != public)

    @property
    def api_url(self) -> str:
        """Where `pontoon terminal` finds the API."""
        return self.terminal_url or f"http://127.0.0.1:{self.port}"


def _parse(text: str, default: Any) -> Any:
    """A variable's text as its setting's type (the default's)."""
    if isinstance(default, bool):
        return text == "1"
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    if isinstance(default, tuple):
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return text


def settings_table() -> str:
    """The README's table of settings: variable, default, meaning, in the order Settings declares them."""
    lines = ["| variable | default | |", "| --- | --- | --- |"]
    for setting in fields(Settings):
        default = setting.metadata["shown"] or _shown(setting.default)
        lines.append(f"| `{setting.metadata['variable']}` | {default} | {setting.metadata['meaning']} |")
    return "\n".join(lines) + "\n"


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "`1`" if default else "`0`"
    if isinstance(default, tuple):
        return ", ".join(default) or "none"
    return f"`{default}`"


def read_secrets_file(path: str) -> dict[str, str]:
    """NAME=value lines of a file only its owner may read (blank lines and # comments skipped).
    A file others could read is refused: the keys in it sign staff in."""
    mode = os.stat(path).st_mode
    if mode & 0o077:
        raise PermissionError(f"{path} is readable by others (mode {mode & 0o777:o}): chmod 600 it")
    values: dict[str, str] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                name, value = line.split("=", 1)
                values[name.strip()] = value.strip()
    return values
