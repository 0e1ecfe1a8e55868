"""A browser's part in the console tests: the Flask test client with its cookies, the CSRF token
read from the page as a form would carry it, and signing in through the login form."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass(frozen=True, slots=True)
class StaffLogin:
    username: str
    password: str
    role: str


class ConsoleClient:
    """One browser: its own cookie jar. post() carries the form's CSRF token unless told not to."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.signed_in = False
        self.login: StaffLogin | None = None     # who signed in through sign_in(), if anyone

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        return self.client.get(path, **kwargs)

    def csrf_token(self) -> str:
        """The token a form on a page shown now carries."""
        page = self.client.get("/console/account" if self.signed_in else "/console/login")
        if page.status_code == 302:     # the session has ended meanwhile: the sign-in form has one
            self.signed_in = False
            page = self.client.get("/console/login")
        found = CSRF_FIELD.search(page.get_data(as_text=True))
        assert found, f"no CSRF token on the page ({page.status_code})"
        return found.group(1)

    def post(self, path: str, data: dict[str, Any] | None = None, *, csrf: bool = True,
             **kwargs: Any) -> TestResponse:
        form = dict(data or {})
        if csrf:
            form.setdefault("csrf_token", self.csrf_token())
        return self.client.post(path, data=form, **kwargs)

    def sign_in(self, username: str, password: str, totp: str = "", role: str = "") -> TestResponse:
        response = self.post("/console/login", {"username": username, "password": password, "totp": totp})
        if response.status_code == 302:
            self.signed_in = True
            self.login = StaffLogin(username, password, role)
        return response

    def sign_out(self) -> TestResponse:
        response = self.post("/console/logout")
        self.signed_in = False
        return response
