"""Remembers the parse of a YAML document, as JSON in the user's cache directory: `pontoon replay`
then starts without loading a YAML parser. An entry is found by a checksum of the text and holds
the text itself, which must match exactly; the data read back still goes through the full
validation, so the cache can only save time, never change a rule."""
from __future__ import annotations

import json
import os
import zlib

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing on replay's start-up path
if TYPE_CHECKING:
    from typing import Any

MISS = object()
# Whether this process may use the user's cache directory when PONTOON_CACHE_DIR is unset: the
# replay command asks to (use_default_directory), for its start-up. The service and the workers
# start once and read the rules under change control from their files alone, never from a copy
# outside the repository.
_default_directory_in_use = False


def use_default_directory() -> None:
    global _default_directory_in_use
    _default_directory_in_use = True


def _directory() -> str | None:
    explicit = os.environ.get("PONTOON_CACHE_DIR")
    if explicit == "":
        return None  # set and empty: no cache
    if explicit:
        return explicit
    if not _default_directory_in_use:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pontoon", "yaml")


def _path(text: str) -> str | None:
    directory = _directory()
    if directory is None:
        return None
    # CRC-32 and length only pick the file (a cryptographic hash costs start-up time for nothing:
    # the entry's own copy of the text is compared in full).
    encoded = text.encode("utf-8")
    return os.path.join(directory, f"{zlib.crc32(encoded):08x}-{len(encoded)}.json")


def recall(text: str) -> Any:
    path = _path(text)
    if path is None:
        return MISS
    try:
        with open(path, encoding="utf-8") as handle:
            entry = json.load(handle)
    except (OSError, ValueError):
        return MISS
    if type(entry) is not dict or entry.get("text") != text or "data" not in entry:
        return MISS  # another document with the same checksum, or a damaged entry
    return entry["data"]


def remember(text: str, data: Any) -> None:
    """Keep the parse only when JSON holds it exactly (YAML allows keys and values JSON has not)."""
    path = _path(text)
    if path is None:
        return
    try:
        encoded = json.dumps({"text": text, "data": data})
        if json.loads(encoded)["data"] != data:
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(encoded)
        os.replace(temporary, path)  # atomic: a concurrent reader sees all of it or nothing
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written costs time only
