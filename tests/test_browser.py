"""tests/browser.py finds a browser or skips saying how to get one; it never installs one and
starts no program while it looks (the suite changes nothing outside its temporary folders)."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.browser import chromium_or_skip


def only(folder: Path, *names: str) -> Path:
    """`folder` holding one fake executable per name."""
    for name in names:
        program = folder / name
        program.write_text("#!/bin/sh\n", encoding="utf-8")
        program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return folder


def test_without_a_browser_the_test_skips_saying_how_to_install_one(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """A PATH with no browser: the search skips, saying how to get one, and starts no program at
    all (so none that would install one)."""
    started: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        started.append(args)
        raise AssertionError(f"the browser search started a program: {args}")

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("KAKURO_BROWSER", raising=False)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(os, "system", refuse)
    with pytest.raises(pytest.skip.Exception) as skipped:
        chromium_or_skip()
    assert "no headless browser found" in str(skipped.value) and "install" in str(skipped.value)
    assert started == []


def test_a_browser_named_but_missing_skips_saying_which(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KAKURO_BROWSER", str(tmp_path / "no-such-browser"))
    with pytest.raises(pytest.skip.Exception, match="no-such-browser"):
        chromium_or_skip()


def test_a_browser_on_the_path_is_the_one_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(only(tmp_path, "chromium")))
    monkeypatch.delenv("KAKURO_BROWSER", raising=False)
    assert chromium_or_skip() == str(tmp_path / "chromium")
    assert os.access(chromium_or_skip(), os.X_OK)
