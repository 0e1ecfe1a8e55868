"""Every picture the README and the docs show is there: each image link (and each link to a
picture) resolves to a file beside the page that names it; each role's guide shows the console
first, with its pictures, before the API's commands."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "guides").glob("*.md"))]
# ![alt](target) and [text](target.png): the target up to a space or the closing parenthesis.
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")
PICTURE_LINK = re.compile(r"\]\(([^)\s]+\.(?:png|jpe?g|svg|gif))\)")


def pictures(page: Path) -> list[str]:
    text = page.read_text()
    return sorted(set(IMAGE.findall(text)) | set(PICTURE_LINK.findall(text)))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_picture_a_page_shows_is_there(page):
    missing = [target for target in pictures(page)
               if not target.startswith(("http:", "https:")) and not (page.parent / target).is_file()]
    assert missing == [], f"{page.relative_to(ROOT)} shows pictures that are not there"


def test_the_check_finds_a_missing_picture(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("![here](here.png) and [a link](gone.png)\n")
    (tmp_path / "here.png").write_bytes(b"")
    assert pictures(page) == ["gone.png", "here.png"]
    assert not (page.parent / "gone.png").is_file()


@pytest.mark.parametrize("guide", sorted((ROOT / "docs" / "guides").glob("*.md")), ids=lambda p: p.name)
def test_each_guide_gives_the_console_first_with_its_pictures(guide):
    text = guide.read_text()
    console, api = text.find("## In the console"), text.find("## With the API")
    assert 0 <= console < api, "the console's way, then the API's"
    assert IMAGE.search(text[console:api]), "the console's way shows its pages"
    assert "```sh" not in text[:api], "the commands come with the API's way"
