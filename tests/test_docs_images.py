"""docs/make_images.py remakes every picture the documentation and the README show.

The script runs once into a temporary folder (about 35 s here once the engines are compiled):
each picture must come out non-trivial (an SVG that parses, a PNG of a real size). The two
browser screenshots are skipped, with the reason, when no Chromium or Chrome is installed
(`make_images.INSTALL` says how to get one). Every picture a page shows must be one the script makes, so a
new picture cannot be added by hand and then rot.
"""

from __future__ import annotations

import os
import re
import shlex
import struct
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests import doc_runner
from tests.conftest import DOCS, ROOT, docs_markdown, load_module, tree_env

SCRIPT = DOCS / "make_images.py"
SECONDS = 900
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img\s[^>]*src=\"([^\"]+)\"")


make_images = load_module(SCRIPT)


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    """`python docs/make_images.py ARGS` from the root, as a fresh process would run it (in a child
    of the worker's warm interpreter, `tests.doc_runner`)."""
    return doc_runner.run(shlex.join(["python", str(SCRIPT), *args]), ROOT, tree_env(), SECONDS)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str | None]:
    """The script's pictures in a temporary folder, and the browser it used (None: none found)."""
    out = tmp_path_factory.mktemp("images")
    browser = make_images.find_browser(None)
    done = run_script("--out", str(out), *([] if browser else ["--no-browser"]))
    assert done.returncode == 0, f"make_images.py failed:\n{done.stderr[-4000:]}\n{done.stdout[-2000:]}"
    return out, browser


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) of a PNG file; fails unless it starts as a PNG does."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    assert head[12:16] == b"IHDR", f"{path} has no IHDR chunk first"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_svgs_parse_and_draw_a_grid(made: tuple[Path, str | None]) -> None:
    out, _ = made
    for name in make_images.SVGS:
        path = out / name
        assert path.is_file(), f"{name} not made"
        root = ElementTree.parse(path).getroot()
        assert root.tag.endswith("svg"), f"{name}: root element {root.tag}"
        elements = sum(1 for _ in root.iter())
        assert elements > 100 and path.stat().st_size > 5000, f"{name} looks empty: {elements} elements"


def test_the_svgs_are_reproducible(made: tuple[Path, str | None]) -> None:
    """Seeded generation counts moves, not seconds: the committed SVGs are what the script makes."""
    out, _ = made
    changed = [name for name in make_images.SVGS if (out / name).read_bytes() != (DOCS / name).read_bytes()]
    assert not changed, f"{changed} differ from docs/: run python docs/make_images.py and commit the pictures"


def test_the_cactus_plot_is_a_real_png(made: tuple[Path, str | None]) -> None:
    out, _ = made
    path = out / "images" / "compare-cactus.png"
    width, height = png_size(path)
    assert width >= 400 and height >= 300 and path.stat().st_size > 10_000, (width, height, path.stat().st_size)


def test_the_screenshots_are_browser_windows(made: tuple[Path, str | None]) -> None:
    out, browser = made
    if browser is None:
        pytest.skip(f"screenshots not taken: {make_images.no_browser_message()}")
    for name, window in (("images/compare-report.png", make_images.REPORT_WINDOW),
                         ("images/explain-page.png", make_images.PAGE_WINDOW)):
        path = out / name
        assert png_size(path) == window, name
        assert path.stat().st_size > 20_000, f"{name} looks blank ({path.stat().st_size} bytes)"


def test_an_existing_picture_outside_docs_is_not_replaced(tmp_path: Path) -> None:
    mine = tmp_path / "classic-10x10.svg"
    mine.write_text("mine", encoding="utf-8")
    done = run_script("--out", str(tmp_path), "--no-browser")
    assert done.returncode == 2
    assert "--force" in done.stderr and "nothing was written" in done.stderr
    assert mine.read_text(encoding="utf-8") == "mine"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["classic-10x10.svg"]


def test_no_browser_is_said_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("KAKURO_BROWSER", raising=False)
    assert make_images.find_browser(None) is None
    message = make_images.no_browser_message()
    assert "chromium" in message and make_images.INSTALL in message
    assert "compare-report.png" in message and "explain-page.png" in message


def test_every_picture_the_pages_show_is_made_by_the_script() -> None:
    pages = [ROOT / "README.md", *docs_markdown()]
    shown: set[str] = set()
    for page in pages:
        for match in IMAGE.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1) or match.group(2)
            if "://" in target:
                continue
            path = (page.parent / target).resolve()
            assert path.is_file(), f"{page.relative_to(ROOT)} shows {target}, which does not exist"
            shown.add(os.path.relpath(path, DOCS).replace(os.sep, "/"))
    assert shown, "no picture found in the pages (the pattern is wrong)"
    assert shown <= set(make_images.OUTPUTS), f"pictures no script makes: {sorted(shown - set(make_images.OUTPUTS))}"
