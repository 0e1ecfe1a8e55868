"""URL converters: a table id or paytable name that cannot name one is a 404 before any code or
SQL sees it."""
from __future__ import annotations

from werkzeug.routing import BaseConverter

from ..web.schemas.accounting import SERIAL_PATTERN
from ..web.schemas.base import MAX_NAME_LENGTH, NAME_PATTERN, TABLE_ID_PATTERN


class TableIdConverter(BaseConverter):
    regex = TABLE_ID_PATTERN


def table_id_param_schema(_converter) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": f"^{TABLE_ID_PATTERN}$"}


class PaytableNameConverter(BaseConverter):
    regex = NAME_PATTERN


def paytable_name_param_schema(_converter) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": f"^{NAME_PATTERN}$"}


class SerialConverter(BaseConverter):
    """A chip slip's serial number: T-, F- or C- and its digits."""
    regex = SERIAL_PATTERN


def serial_param_schema(_converter) -> dict:
    return {"type": "string", "minLength": 8, "maxLength": 14, "pattern": f"^{SERIAL_PATTERN}$"}
