"""The round's revision a request names in If-Match: a card, decision or void taken on a view of
the round that has moved since is refused (409 revision_conflict) instead of applied."""
from __future__ import annotations

import re

from flask import request

from .docs import IF_MATCH, IF_MATCH_PATTERN
from .errors import fail

_REVISION = re.compile(IF_MATCH_PATTERN)


def expected_revision() -> int | None:
    """The round's revision named by If-Match (bare, or as an entity tag), if the client sent one."""
    raw = request.headers.get(IF_MATCH)
    if raw is None:
        return None
    written = raw.strip()
    if not _REVISION.match(written):
        fail(422, "invalid_request", "If-Match must name the round's revision, e.g. \"7\"",
             errors={IF_MATCH: ["must be the round's revision number"]})
    return int(written.removeprefix("W/").strip('"'))
