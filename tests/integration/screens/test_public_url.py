"""The address the service is reached at: a Host that is neither the public URL's nor a trusted name
is refused (400) before anything answers it, redirects never name the Host a request gave, and a
service reached over HTTPS sends its cookies `Secure` and every answer with HSTS."""
from __future__ import annotations

import dataclasses
import re
from html import unescape

import pytest

from service.app import create_app
from service.web.transport import STRICT_TRANSPORT_SECURITY, check_public_url
from tests.integration.console.console_client import ConsoleClient
from tests.support.dealer_screen import SCREEN_COOKIE, SESSION_COOKIE, ScreenClient, issue_code_in, make_dealer_in

PUBLIC = "pontoon.casino.example"
LINK = re.compile(r'id="issued-link"><code>([^<]+)</code>')


@pytest.fixture
def https_app(settings):
    """The app as a casino serves it: reached at https://pontoon.casino.example."""
    app = create_app(dataclasses.replace(settings, public_url=f"https://{PUBLIC}"))
    app.config["TESTING"] = True
    yield app
    app.extensions["pontoon.pool"].close()


def _set_cookies(response, name: str) -> list[str]:
    return [value for value in response.headers.getlist("Set-Cookie") if value.startswith(name + "=")]


@pytest.mark.parametrize("path", ["/console/floor", "/console/", "/dealer", "/dealer/table", "/v1/tables",
                                  "/healthz"])
def test_a_foreign_host_is_refused_and_never_redirected_to(client, path):
    reply = client.get(path, headers={"Host": "evil.example"})
    assert reply.status_code == 400, (path, reply.status_code, reply.headers.get("Location"))
    assert "Location" not in reply.headers
    assert "evil.example" not in reply.get_data(as_text=True)


def test_a_foreign_host_posting_a_form_is_refused_before_the_form_is_read(client):
    reply = client.post("/console/login", data={"username": "a", "password": "b"}, headers={"Host": "evil.example:80"})
    assert reply.status_code == 400 and "Location" not in reply.headers


def test_redirects_name_a_path_never_the_requests_host(client, https_app):
    for app_client, host in ((client, "localhost"), (client, "127.0.0.1:8000"), (https_app.test_client(), PUBLIC)):
        reply = app_client.get("/console/floor", headers={"Host": host})
        assert reply.status_code == 302, (host, reply.status_code)
        location = reply.headers["Location"]
        assert location.startswith("/console/login") and host.split(":")[0] not in location, location


def test_the_public_urls_host_is_trusted_beside_the_trusted_names(https_app):
    client = https_app.test_client()
    for host in (PUBLIC, f"{PUBLIC}:443", "127.0.0.1:8000", "localhost"):
        assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
    assert client.get("/healthz", headers={"Host": "pontoon.casino.example.evil.example"}).status_code == 400


def test_over_http_no_cookie_is_secure_and_no_hsts_is_sent(app, make_staff, table):
    login = make_staff("supervisor")
    console = ConsoleClient(app.test_client())
    signed = console.sign_in(login.username, login.password)
    assert signed.status_code == 302
    for cookie in _set_cookies(signed, "pontoon_console_session") + _set_cookies(signed, "pontoon_console_form"):
        assert "Secure" not in cookie
    screen = ScreenClient(app.test_client())
    enrolled = screen.enrol(issue_code_in(app, table))
    assert enrolled.status_code == 303 and "Secure" not in _set_cookies(enrolled, SCREEN_COOKIE)[0]
    for reply in (signed, enrolled, app.test_client().get("/healthz")):
        assert "Strict-Transport-Security" not in reply.headers


def test_over_https_every_cookie_is_secure_and_every_answer_carries_hsts(https_app, make_staff, table):
    login = make_staff("supervisor")
    console = ConsoleClient(https_app.test_client())
    signed = console.sign_in(login.username, login.password)
    assert signed.status_code == 302, signed.get_data(as_text=True)
    session_cookies = _set_cookies(signed, "pontoon_console_session")
    form_cookies = _set_cookies(signed, "pontoon_console_form")
    assert session_cookies and form_cookies
    assert all("; Secure" in cookie for cookie in session_cookies + form_cookies), session_cookies + form_cookies
    signed_out = console.sign_out()
    assert all("; Secure" in cookie for cookie in _set_cookies(signed_out, "pontoon_console_session"))

    screen = ScreenClient(https_app.test_client())
    enrolled = screen.enrol(issue_code_in(https_app, table))
    assert enrolled.status_code == 303
    assert "; Secure" in _set_cookies(enrolled, SCREEN_COOKIE)[0]
    signed_at_screen = screen.sign_in(make_dealer_in(https_app))
    assert signed_at_screen.status_code == 303 and "; Secure" in _set_cookies(signed_at_screen, SESSION_COOKIE)[0]

    client = https_app.test_client()
    answers = [signed, signed_out, enrolled, signed_at_screen, client.get("/healthz"), client.get("/v1/tables"),
               client.get("/console/no-such-page"), client.get("/healthz", headers={"Host": "evil.example"})]
    assert [reply.headers.get("Strict-Transport-Security") for reply in answers] == \
        [STRICT_TRANSPORT_SECURITY] * len(answers), [reply.status_code for reply in answers]


def test_an_enrolment_link_is_on_the_public_url(https_app, make_staff, table):
    login = make_staff("supervisor")
    console = ConsoleClient(https_app.test_client())
    assert console.sign_in(login.username, login.password).status_code == 302
    page = console.post(f"/console/tables/{table}/screens", {"name": "Left"})   # asked by localhost
    assert page.status_code == 201, page.get_data(as_text=True)
    link = unescape(LINK.search(page.get_data(as_text=True)).group(1))
    assert link.startswith(f"https://{PUBLIC}/dealer/enrol?code="), link


@pytest.mark.parametrize("url", ["ftp://pontoon.example", "https://", "https://pontoon.example/console",
                                 "https://pontoon.example:port", "pontoon.example", "https://u:p@pontoon.example"])
def test_a_public_url_that_is_not_scheme_host_and_port_is_refused_at_start(settings, url):
    with pytest.raises(ValueError, match="PONTOON_PUBLIC_URL"):
        check_public_url(url)
    with pytest.raises(ValueError):
        create_app(dataclasses.replace(settings, public_url=url), connect=False)
