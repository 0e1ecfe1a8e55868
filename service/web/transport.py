"""What every request and answer is held to, whichever adapter serves it: the Host it names (the
public URL's or a trusted name, or 400), a body sent without its length (chunked) held to the same
limit as one with it (413), and HTTPS kept to (Strict-Transport-Security) when the service is
reached over it."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge, SecurityError

from ..config import Settings

# A year, and every subdomain: what browsers' preload lists ask of a site served only over HTTPS.
STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains"


def install(app: Flask, settings: Settings) -> None:
    """The trusted hosts, the chunked body's limit and HSTS. Installed before any adapter's hooks,
    so that a foreign Host or an oversized body is refused before anything else reads the request
    (signs a person in, checks a form, opens a transaction)."""
    check_public_url(settings.public_url)
    # Flask refuses (SecurityError, a 400) a Host outside these when it routes the request.
    app.config["TRUSTED_HOSTS"] = list(settings.host_names)
    app.before_request(_refuse_untrusted_host)
    app.before_request(_read_chunked_body)
    if settings.over_https:
        app.after_request(_strict_transport_security)


def check_public_url(url: str) -> None:
    """A public URL is `http` or `https`, a host and perhaps a port, nothing more: refused at start
    otherwise (ValueError), as a link or a cookie's scope built on it would be wrong on every page."""
    if not url:
        return
    parts = urlsplit(url)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or not port_ok \
            or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"PONTOON_PUBLIC_URL must be http(s)://host[:port], not {url!r}")


def _refuse_untrusted_host() -> None:
    # Flask found the Host untrusted while routing but raises it only when the view is dispatched,
    # after every hook: a signed-out person would be redirected, a form checked, first.
    # Its own words are not answered: they repeat the name the client chose.
    if isinstance(request.routing_exception, SecurityError):
        current_app.logger.info("request refused: its Host is not a trusted name")
        raise SecurityError("the request names a host this service does not answer to")


def _read_chunked_body() -> None:
    """A chunked body is read here, up to the limit: werkzeug's own read stops at the limit without
    a word, so a form cut short would be taken as sent. More than the limit is 413."""
    if request.content_length is not None or "wsgi.input_terminated" not in request.environ \
            or "chunked" not in request.headers.get("Transfer-Encoding", "").lower():
        return
    request.get_data(cache=True)   # at most the limit; what later reads (forms, JSON) are given
    if request.environ["wsgi.input"].read(1):
        current_app.logger.info("request refused: a chunked body over %s bytes",
                                current_app.config["MAX_CONTENT_LENGTH"])
        raise RequestEntityTooLarge()


def _strict_transport_security(response: Response) -> Response:
    response.headers["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY
    return response
