"""JSON as the API takes it: a repeated key, NaN, Infinity or an overflowing number refused, never resolved."""
from __future__ import annotations

import json
import math
from typing import Any

from flask.json.provider import DefaultJSONProvider


class StrictJsonError(ValueError):
    """The body is JSON-like but not JSON the API takes: `field` names what is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated key is refused as YAML documents refuse one: taking the last silently would let
    # {"wager": 1000, "wager": 2000} stake 2000 where a reader of the body sees 1000.
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise StrictJsonError(key, "appears more than once in one object: send each key once")
        found[key] = value
    return found


def _no_constant(name: str) -> Any:
    raise StrictJsonError("json", f"{name} is not a JSON number: amounts are whole numbers")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJsonError("json", f"{text} is too large a number")
    return value


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constant, parse_float=_finite_float)


def strict_loads(data: str | bytes | bytearray) -> Any:
    """Decode one JSON document strictly (StrictJsonError for a repeated key or a non-finite
    number; ValueError, UnicodeDecodeError or RecursionError for anything else that is not JSON)."""
    text = data.decode("utf-8") if isinstance(data, bytes | bytearray) else data
    return _DECODER.decode(text)


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON with strict decoding: request.get_json() refuses what the parser refuses."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return strict_loads(s)
