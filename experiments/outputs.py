"""Where an experiment writes what it measures: new files only. An existing file is never
appended to or replaced; a name that is taken, or a folder that cannot be written, ends the run
with one line before any work (so no measurement is lost)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from kakuro.errors import KakuroError, OutputExistsError
from kakuro.files import open_new, refuse_existing


def new_file(path: Path | None, option: str) -> TextIO | None:
    """A new text file at `path` for lines written as the run goes (None without a `path`);
    SystemExit with one line naming `path` and `option` when it exists or cannot be made."""
    if path is None:
        return None
    try:
        return open_new(path)
    except OutputExistsError:
        raise SystemExit(_taken(path, option)) from None
    except KakuroError as exc:
        raise SystemExit(f"error: {exc}") from None


def check_new(path: Path | None, option: str) -> None:
    """SystemExit with one line when `path` (written at the end, with `kakuro.files.write_new`)
    is taken: checked before the work, not after it."""
    if path is None:
        return
    try:
        refuse_existing(path)
    except OutputExistsError:
        raise SystemExit(_taken(path, option)) from None


def _taken(path: Path, option: str) -> str:
    return f"error: {path} exists; choose another {option} file (results are never overwritten)"
