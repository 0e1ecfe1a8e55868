"""The API's Blueprint: flask-smorest's, reading JSON bodies only when sent as JSON, and strictly."""
from __future__ import annotations

from typing import Any

import flask
import flask_smorest
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

from .strict_json import StrictJsonError, strict_loads


class JsonBodyParser(FlaskParser):
    """A body is read as JSON only when it says it is JSON: a JSON body sent as text/plain gets 415,
    not a 422 about fields it seems to lack. A key given twice, NaN, Infinity and a body that is
    not JSON (nested past the interpreter's recursion limit included) are a 400, naming what is wrong."""

    def load_json(self, req: flask.Request, schema: ma.Schema) -> Any:
        body = req.get_data(cache=True)
        if not body:
            return core.missing
        if not is_json_request(req):
            abort(415, messages={"Content-Type": ["the body must be sent as application/json"]})
        try:
            return strict_loads(body)
        except StrictJsonError as exc:
            if exc.field == "json":
                abort(400, messages={"json": [exc.reason]})
            abort(400, messages={"json": {exc.field: [exc.reason]}}, code="duplicate_key",
                  message=f"the body gives the key {exc.field!r} more than once")
        except (ValueError, RecursionError):   # UnicodeDecodeError is a ValueError
            abort(400, messages={"json": ["Invalid JSON body."]})


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()
