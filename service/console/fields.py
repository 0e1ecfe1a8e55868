"""The console's form fields: the most each one takes, said beside it and refused at it with a
message in the reader's words (never cut short), and one message for each problem."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import IntEnum

from flask import Flask

from ..staff.accounts import DISPLAY_NAME_MAX
from ..staff.passwords import MAX_LENGTH as PASSWORD_MAX
from ..web.schemas.base import MAX_NAME_LENGTH, ONE_LINE_TEXT
from ..web.schemas.paytables import MAX_DOCUMENT_CHARS, MAX_REASON

Errors = dict[str, list[str]]
_ONE_LINE = re.compile(ONE_LINE_TEXT)


class Most(IntEnum):
    """The most characters each kind of field takes (the handlers' and the REST API's own limits)."""

    USERNAME = 32
    DISPLAY_NAME = DISPLAY_NAME_MAX
    PASSWORD = PASSWORD_MAX
    CODE = 6
    KEY_NAME = 128
    TABLE_ID = MAX_NAME_LENGTH
    REASON = MAX_REASON
    PAYTABLE = MAX_DOCUMENT_CHARS


def at_most(most: int) -> str:
    """The limit as a form states it: "at most 2,000 characters"."""
    return f"at most {most:,} characters"


def too_long(value: str, most: int) -> str | None:
    """The message for a value over its limit, saying by how much (None within it)."""
    if len(value) <= most:
        return None
    return f"Too long: {at_most(most)}, and this has {len(value):,}."


def over_limits(form: Mapping[str, str], limits: Mapping[str, int]) -> Errors:
    """Each field of `form` longer than its limit, with its message."""
    return {name: [message] for name, most in limits.items()
            if (message := too_long(form.get(name, ""), most)) is not None}


def reason_problem(reason: str, what: str = "the reason") -> str | None:
    """What is wrong with a reason for the audit log, in one message (None: nothing)."""
    if not reason.strip():
        return f"Say why: {what} is kept in the audit log with your name."
    if (message := too_long(reason, Most.REASON)) is not None:
        return message
    if "\x00" in reason or not _ONE_LINE.fullmatch(reason):
        return "One line of text, please: no line breaks, control characters or direction marks."
    return None


def one_each(errors: Mapping[str, Iterable[object]]) -> Errors:
    """One message for each field: the first, as a check lists them (a too-long value that is also
    of the wrong form is one problem to the person typing it)."""
    out: Errors = {}
    for name, messages in errors.items():
        listed = [str(m) for m in messages] if isinstance(messages, list | tuple) else [str(messages)]
        if listed:
            out[str(name)] = listed[:1]
    return out


def install(app: Flask) -> None:
    """The limits for the templates: `most.REASON`, and `at_most` to say one beside a field."""
    app.add_template_global(Most, "most")
    app.add_template_global(at_most, "at_most")
