"""`make settings-table`: writes the README's table of settings from service/config.py's Settings,
between its two markers; `--check` only says whether the README's table is the generated one."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.config import settings_table  # noqa: E402

README = ROOT / "README.md"
BEGIN = "<!-- settings: written by `make settings-table` from service/config.py -->\n"
END = "<!-- end of settings -->\n"


def readme_table(text: str) -> str:
    """The table between the README's markers."""
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def with_table(text: str, table: str) -> str:
    """The README with `table` between its markers."""
    head, rest = text.split(BEGIN, 1)
    return head + BEGIN + table + END + rest.split(END, 1)[1]


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    if "--check" in argv:
        if readme_table(text) != settings_table():
            print("README.md's settings table differs from service/config.py: run `make settings-table`",
                  file=sys.stderr)
            return 1
        return 0
    README.write_text(with_table(text, settings_table()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
