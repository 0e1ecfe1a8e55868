"""URL converters: a table id that cannot name a table is a 404 before any code or SQL sees it."""
from __future__ import annotations

from werkzeug.routing import BaseConverter

from .schemas.base import TABLE_ID_PATTERN


class TableIdConverter(BaseConverter):
    regex = TABLE_ID_PATTERN


def table_id_param_schema(_converter) -> dict:
    return {"type": "string", "pattern": f"^{TABLE_ID_PATTERN}$"}
