"""Every setting comes from one object, read from the environment in one place; the README's table
of them is the one made from that object."""
from __future__ import annotations

import re
import sys
from dataclasses import fields

from service.config import Settings, settings_table
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "ops"))

from settings_table import readme_table  # noqa: E402


def test_the_readmes_table_is_the_one_made_from_the_settings():
    assert readme_table((ROOT / "README.md").read_text(encoding="utf-8")) == settings_table(), \
        "README.md's settings table has drifted from service/config.py: run `make settings-table`"


def test_the_table_names_every_setting_by_its_variable():
    variables = re.findall(r"^\| `([A-Z0-9_]+)` \|", settings_table(), flags=re.MULTILINE)
    assert variables == [setting.metadata["variable"] for setting in fields(Settings)]


def test_no_module_of_the_service_but_the_settings_reads_the_environment():
    readers = [path.relative_to(ROOT).as_posix() for path in (ROOT / "service").rglob("*.py")
               if re.search(r"os\.environ|os\.getenv|getenv\(", path.read_text(encoding="utf-8"))]
    # prometheus_client's own switch to multiprocess mode, which the library reads itself at import.
    assert sorted(readers) == ["service/config.py", "service/metrics/multiproc.py"]


def test_a_variable_set_is_read_as_its_settings_type_and_one_unset_keeps_its_default():
    settings = Settings.from_env({"PORT": "8123", "PONTOON_AUDIT_CLOCK_MARGIN": "2.5",
                                  "PONTOON_CONSOLE_SECURE_COOKIES": "1",
                                  "PONTOON_CONSOLE_2FA_ROLES": "admin, operator,", "PONTOON_LOG_LEVEL": "debug"})
    assert (settings.port, settings.audit_clock_margin, settings.console_secure_cookies) == (8123, 2.5, True)
    assert settings.console_2fa_roles == ("admin", "operator") and settings.log_level == "debug"
    assert settings.broker_url == Settings().broker_url and settings.console_max_failures == 5


def test_the_owners_login_defaults_to_the_services_database_as_the_superuser():
    settings = Settings.from_env({"DATABASE_URL": "postgresql://pontoon_app@db.example:5432/casino"})
    assert "user=postgres" in settings.owner_database_url and "dbname=casino" in settings.owner_database_url
    given = Settings.from_env({"PONTOON_OWNER_DATABASE_URL": "postgresql://owner@db.example/casino"})
    assert given.owner_database_url == "postgresql://owner@db.example/casino"


def test_pontoon_terminal_finds_the_api_on_the_port_unless_told_its_url():
    assert Settings.from_env({"PORT": "9000"}).api_url == "http://127.0.0.1:9000"
    assert Settings.from_env({"PONTOON_URL": "http://api.example"}).api_url == "http://api.example"


def test_the_public_urls_scheme_makes_cookies_secure_and_its_host_is_trusted():
    local = Settings.from_env({})
    assert (local.over_https, local.secure_cookies, local.host_names) == (False, False, ("127.0.0.1", "localhost"))
    casino = Settings.from_env({"PONTOON_PUBLIC_URL": "https://Pontoon.Casino.Example:8443",
                                "PONTOON_TRUSTED_HOSTS": "10.0.0.5, .pit.casino.example"})
    assert (casino.over_https, casino.secure_cookies) == (True, True)
    assert casino.host_names == ("pontoon.casino.example", "10.0.0.5", ".pit.casino.example")
    plain = Settings.from_env({"PONTOON_PUBLIC_URL": "http://pontoon.lan"})
    assert (plain.over_https, plain.secure_cookies) == (False, False)
    proxied = Settings.from_env({"PONTOON_PUBLIC_URL": "http://pontoon.lan", "PONTOON_CONSOLE_SECURE_COOKIES": "1"})
    assert (proxied.over_https, proxied.secure_cookies) == (False, True)
