"""The documentation site (docs/) builds with Sphinx with no warning, and its API reference
documents every name `kakuro` exports.

One build per session (a fresh output folder under tmp_path, a few seconds); the pages'
```console and ```python blocks are run by tests/test_docs.py, one test per block.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kakuro
from tests.conftest import ROOT

BUILD_SECONDS = 300

MISSING = [name for name in ("sphinx", "furo", "myst_parser") if importlib.util.find_spec(name) is None]
"""The documentation tools not installed: looked up, not imported (the build runs in a process of its own)."""
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} missing: the documentation tools "
                                                      "are in the `test` extra: pip install -e '.[test]'")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML site, built as docs/README.md says, with warnings as errors."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_SECONDS,
    )
    assert done.returncode == 0, f"the site does not build without warnings:\n{done.stderr[-6000:]}\n{done.stdout[-2000:]}"
    return out / "html"


def test_site_builds_without_warnings(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert (site / "guide" / "index.html").is_file()
    assert (site / "api" / "index.html").is_file()


def test_every_exported_name_is_in_the_api_reference(site: Path) -> None:
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    data = getattr(inventory, "data", inventory)  # Sphinx 8.2+: an Inventory; before: a dict
    documented = {name for kind, objects in data.items() if kind.startswith("py:") for name in objects}
    missing = [name for name in kakuro.__all__ if f"kakuro.{name}" not in documented]
    assert not missing, f"names of kakuro.__all__ missing from docs/api: {missing}"


def test_backend_options_tables_come_from_the_code(site: Path) -> None:
    """A backend page's option table shows what backend_info says (every option, its default)."""
    pages = {path.stem: path for path in (site / "backends").glob("*.html")} if (site / "backends").is_dir() else {}
    checked = 0
    for info in kakuro.backend_info():
        page = pages.get(info.name)
        if page is None:
            continue
        text = page.read_text(encoding="utf-8")
        for key in info.options:
            assert f"<code class=\"docutils literal notranslate\"><span class=\"pre\">{key}</span>" in text, (info.name, key)
        checked += 1
    if not checked:
        pytest.skip("no backend page named after a backend yet")


@pytest.mark.parametrize("name", ["solve", "count_solutions", "Solver", "Result"])
def test_the_api_reference_says_what_help_says(site: Path, name: str) -> None:
    """Every line of help(kakuro.NAME)'s docstring is in the API reference (autodoc: one source)."""
    import html
    import inspect
    import re

    def words(text: str) -> str:
        return " ".join(re.findall(r"[A-Za-z0-9_]{3,}", text))

    page = html.unescape(re.sub(r"<[^>]+>", " ", (site / "api" / "solving.html").read_text(encoding="utf-8")))
    shown = words(page)
    doc = inspect.getdoc(getattr(kakuro, name))
    assert doc, f"kakuro.{name} has no docstring"
    missing = [line for line in doc.splitlines() if words(line) and words(line) not in shown]
    assert not missing, f"lines of help(kakuro.{name}) not in docs/api/solving: {missing}"
