"""Query fields naming gaming days (YYYY-MM-DD, in the casino's zone and day start), shared by the
audit export and the table report."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import marshmallow as ma

from ...reports.gaming_day import FIRST_DAY, LAST_DAY

DAY_FORMAT = "a gaming day as YYYY-MM-DD (it starts at GAMING_DAY_STARTS local time in PONTOON_TZ)"


def gaming_day_field(description: str) -> ma.fields.Date:
    return ma.fields.Date(validate=ma.validate.Range(min=FIRST_DAY, max=LAST_DAY),
                          error_messages={"invalid": f"Not a valid gaming day: give {DAY_FORMAT}."},
                          metadata={"description": description})


def check_days(data: dict[str, Any], others: Mapping[str, str]) -> None:
    """One way of naming the span at a time: gaming_day, or gaming_day_from with gaming_day_to
    (in order), or `others` (the query's own fields, attribute to parameter name: instants, a
    date). 422 naming the field."""
    given = [name for attribute, name in others.items() if data.get(attribute) is not None]
    single, first, last = data.get("gaming_day"), data.get("gaming_day_from"), data.get("gaming_day_to")
    if single is not None and (first is not None or last is not None):
        raise ma.ValidationError("give gaming_day, or gaming_day_from and gaming_day_to, not both",
                                 field_name="gaming_day")
    if (first is None) != (last is None):
        missing = "gaming_day_to" if last is None else "gaming_day_from"
        raise ma.ValidationError("gaming_day_from and gaming_day_to go together", field_name=missing)
    if first is not None and last is not None and first > last:
        raise ma.ValidationError("must be on or after gaming_day_from", field_name="gaming_day_to")
    if (single is not None or first is not None) and given:
        raise ma.ValidationError(f"gaming days and {' / '.join(given)} cannot be combined: give one",
                                 field_name="gaming_day" if single is not None else "gaming_day_from")
