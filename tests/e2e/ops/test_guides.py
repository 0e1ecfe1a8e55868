"""The task guides in docs/guides run as written: every `sh` block of every guide, in the guides'
order, in one shell against a fresh stack, given only what `make run` gives (the URL and the first
admin key; DATABASE_URL for the commands run on the server), in a directory of their own."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import BIN, ROOT, make_key

GUIDES = ROOT / "docs" / "guides"
# The order a reader follows them: the admin's makes the keys and the table the others use.
ORDER = ("admin.md", "operator.md", "supervisor.md", "compliance.md", "player-banked.md", "shift-change.md", "cage.md",
         "count.md")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)

pytestmark = pytest.mark.integration


def shell_blocks(path: Path) -> list[str]:
    """The guide's runnable blocks (```sh); ```text blocks are for reading (placeholders, output)."""
    return [body for language, body in FENCE.findall(path.read_text()) if language == "sh"]


def guides_script(guides: list[Path]) -> str:
    """One bash script of every block, each announced on standard error so a failure names it."""
    parts = ["set -euo pipefail"]
    for guide in guides:
        for number, block in enumerate(shell_blocks(guide), 1):
            parts.append(f"echo '=== {guide.name} block {number}' >&2\n{block}")
    return "\n".join(parts) + "\necho '=== every guide ran' >&2\n"


def test_every_guide_is_in_the_order_and_has_commands():
    assert sorted(path.name for path in GUIDES.glob("*.md")) == sorted(ORDER)
    assert all(shell_blocks(GUIDES / name) for name in ORDER)


def test_the_guides_commands_run_as_written_on_a_fresh_stack(stack, tmp_path, dump_logs_on_failure):
    api = stack.apis[0]
    env = {**os.environ, "PONTOON_URL": api.url, "ADMIN_KEY": make_key(stack.database_url, "admin"),
           "DATABASE_URL": stack.database_url, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    ran = subprocess.run(["bash", "-c", guides_script([GUIDES / name for name in ORDER])], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0 and "=== every guide ran" in ran.stderr, \
        f"stdout:\n{ran.stdout[-6000:]}\nstderr:\n{ran.stderr[-6000:]}"
