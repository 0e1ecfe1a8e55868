"""CPU time a measurement cost the machine, by part of the stack (API, database, settlement, broker,
load generator), read from /proc: what one request costs beside what the floor's costs."""
from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
# (part, what its processes' command lines start with or contain); the first match names the part.
PARTS = (("api", "gunicorn"), ("settlement", "celery"), ("settlement", "service.observability.relay"),
         ("broker", "redis-server"))


def part_of(command_line: str) -> str | None:
    # The server runs as .../bin/postgres, and every backend renames itself "postgres: 15/main: ...".
    if command_line.split(" ", 1)[0].rsplit("/", 1)[-1].rstrip(":") == "postgres":
        return "database"
    for part, marker in PARTS:
        if marker in command_line:
            return part
    return None


def _process_seconds(pid: str) -> float | None:
    try:
        fields = (PROC / pid / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None      # gone since the directory was listed
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


def _machine_busy_seconds() -> float:
    values = [int(v) for v in (PROC / "stat").read_text().splitlines()[0].split()[1:]]
    idle, iowait = values[3], values[4]
    return (sum(values[:8]) - idle - iowait) / os.sysconf("SC_CLK_TCK")


Snapshot = dict  # {"processes": {pid: (part, cpu seconds)}, "machine": busy seconds}


def snapshot() -> Snapshot:
    """CPU seconds so far of every process of a part (this process is the load generator), and the
    machine's busy seconds; empty where there is no /proc."""
    if not (PROC / "stat").exists():
        return {}
    own = str(os.getpid())
    processes = {own: ("load generator", _process_seconds(own) or 0.0)}
    for entry in PROC.iterdir():
        pid = entry.name
        if not pid.isdigit() or pid == own:
            continue
        try:
            command_line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        part = part_of(command_line)
        seconds = _process_seconds(pid) if part else None
        if part is not None and seconds is not None:
            processes[pid] = (part, seconds)
    return {"processes": processes, "machine": _machine_busy_seconds()}


def per_request_ms(before: Snapshot, after: Snapshot, requests: int) -> dict[str, float]:
    """Milliseconds of CPU per request by part between two snapshots, counted process by process
    (one that ended in between loses only its last moments). `other` is the machine's busy time
    no part accounts for: processes that came and went, the kernel's own work."""
    if not before or not after or requests <= 0:
        return {}
    earlier = before["processes"]
    spent: dict[str, float] = {}
    for pid, (part, seconds) in after["processes"].items():
        spent[part] = spent.get(part, 0.0) + max(seconds - earlier.get(pid, (part, 0.0))[1], 0.0)
    machine = max(after["machine"] - before["machine"], 0.0)
    spent["other"] = max(machine - sum(spent.values()), 0.0)
    spent["machine"] = machine
    return {part: round(seconds / requests * 1000, 3) for part, seconds in sorted(spent.items())}
