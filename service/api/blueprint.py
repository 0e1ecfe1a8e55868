"""The API's Blueprint: flask-smorest's, reading JSON bodies with a parser that refuses any JSON it
cannot decode as malformed, however deep it nests."""
from __future__ import annotations

import json

import flask
import flask_smorest
from webargs.flaskparser import FlaskParser


class JsonBodyParser(FlaskParser):
    """JSON nested past the interpreter's recursion limit makes the decoder raise RecursionError
    rather than a JSONDecodeError; a couple of kilobytes of brackets must get the same 400 as any
    other body that is not JSON, not a 500."""

    def _raw_load_json(self, req: flask.Request):
        try:
            return super()._raw_load_json(req)
        except RecursionError:
            raise json.JSONDecodeError("nested too deeply", "(body)", 0) from None


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonBodyParser()
