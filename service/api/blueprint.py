"""The API's Blueprint: flask-smorest's, reading JSON bodies with a parser that refuses any JSON it
cannot decode as malformed, however deep it nests."""
from __future__ import annotations

from typing import Any

import flask
import flask_smorest
import marshmallow as ma
from webargs.flaskparser import FlaskParser, abort


class JsonBodyParser(FlaskParser):
    """JSON nested past the interpreter's recursion limit makes the decoder raise RecursionError
    rather than a JSONDecodeError; a couple of kilobytes of brackets must get the same 400 as any
    other body that is not JSON, not a 500."""

    def load_json(self, req: flask.Request, schema: ma.Schema) -> Any:
        try:
            return super().load_json(req, schema)
        except RecursionError:
            abort(400, messages={"json": ["Invalid JSON body."]})


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()
