"""What a person does in the console, said once for the browser tests: sign in and out, open a
page (saving its picture for the docs), and the `pontoon` command beside it."""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from .stack import ROOT

# Every page a test visits is pictured here; the README shows the main ones. A run overwrites them.
SCREENSHOTS = ROOT / "docs" / "console"
LOGIN = re.compile(r"/console/login")


@dataclass(frozen=True, slots=True)
class Person:
    username: str
    password: str
    role: str
    display_name: str


def shot(page: Page, name: str) -> None:
    """A full-page picture of what the page shows now, as docs/console/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def shot_of(part: Locator, name: str) -> None:
    """A picture of one part of a page (a round, a form), as docs/console/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    part.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def visit(page: Page, path: str, picture: str | None = None) -> Page:
    """Open a console page (and picture it under `picture`, when given)."""
    page.goto(path)
    if picture is not None:
        shot(page, picture)
    return page


def submit_sign_in(page: Page, username: str, password: str) -> None:
    page.goto("/console/login")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("input[name=password]").press("Enter")


def sign_in(page: Page, person: Person) -> Page:
    """Signs `person` in and waits until the console has let them past the login page."""
    submit_sign_in(page, person.username, person.password)
    expect(page).not_to_have_url(LOGIN)
    return page


def sign_out(page: Page) -> None:
    page.locator("header").get_by_role("button", name=re.compile(r"sign out", re.I)).click()
    expect(page).to_have_url(LOGIN)


def pontoon(env: dict[str, str], *args: str, stdin: str | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """The `pontoon` command run as an operator would run it, against the stack's database."""
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout)
