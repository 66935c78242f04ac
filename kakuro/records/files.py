"""Results files: one JSON object per line, one line per `Record`.

A results file is append-only. `ResultsFile.append` writes a record as one line with one write
call and fsyncs it, so an interrupted campaign loses nothing; an existing file is never
overwritten (`resume=True` appends to it). Readers take the last record of each job
(`kakuro.records.record.latest`): a re-run after a crash replaces the earlier record.

Reading is bounded like reading a puzzle file (`kakuro.formats.MAX_INPUT_BYTES`), refuses what
is not a regular file (a FIFO would block, a device never ends), ignores a UTF-8 BOM, and skips
with a warning any line that is not a record, including one that is not UTF-8.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.files import cannot_write, open_new_log
from kakuro.formats import MAX_INPUT_BYTES, load_source
from kakuro.records.record import Record, clipped

SHOWN_BAD_LINES = 10
"""Malformed lines of a results file named one by one; the others are counted."""


def read_results(path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None) -> list[Record]:
    """Every record of a results file in order. A line that is not a valid record (torn by a
    killed writer, edited by hand, not UTF-8, written by a newer kakuro) is skipped: the first
    `SHOWN_BAD_LINES` are reported through `warn` as `file:line: reason`, then how many were
    skipped in all. A UTF-8 BOM at the start is ignored. Raises KakuroError, at once, if the
    file cannot be read, is not a regular file, or holds more than `MAX_INPUT_BYTES`."""
    records, notes = _parse(_read_bounded(path), path)
    if warn is not None:
        for note in notes:
            warn(note)
    return records


def _read_bounded(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the results file `path`, read as a puzzle file is (`kakuro.formats.load_source`:
    at most `MAX_INPUT_BYTES`), after refusing what is not a regular file: a FIFO would block
    the read, a device such as /dev/zero never ends. Raises KakuroError naming the file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise KakuroError(f"{path}: no such results file") from None
    except OSError as exc:
        raise KakuroError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    _refuse_special(path, info.st_mode)
    if info.st_size > MAX_INPUT_BYTES:
        raise KakuroError(f"{path}: holds {info.st_size} bytes; a results file may hold {MAX_INPUT_BYTES} at the most")
    try:
        data = load_source(Path(path))[1]
    except PuzzleFormatError as exc:  # grew past the bound since, or vanished: the reason, as a results file
        raise KakuroError(f"{path}: {exc.message}") from None
    return data if isinstance(data, bytes) else data.encode()


def _refuse_special(path: str | os.PathLike[str], mode: int) -> None:
    """Raise KakuroError unless `mode` (an `os.stat` st_mode) is a regular file's: results are
    read from and appended to regular files only."""
    if stat.S_ISREG(mode):
        return
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    kind = next((name for test, name in kinds if test(mode)), "not a file")
    raise KakuroError(f"{path} is {kind}, not a regular file; results files are regular files")


def _parse(data: bytes, path: str | os.PathLike[str]) -> tuple[list[Record], list[str]]:
    """(records, warnings) of a results file's bytes; see `read_results`. There are warnings
    exactly when a line was skipped."""
    data = data.removeprefix(codecs.BOM_UTF8)
    records: list[Record] = []
    notes: list[str] = []
    skipped = 0
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"not UTF-8 (byte {exc.start + 1} of the line)"
        else:
            if not line.strip():
                continue
            try:
                parsed = json.loads(line)
                if not isinstance(parsed, dict):
                    raise ValueError("not a JSON object")
                records.append(Record.from_json(parsed))
                continue
            except json.JSONDecodeError as exc:
                reason = f"not JSON ({exc.msg})"
            except (ValueError, TypeError, RecursionError) as exc:
                reason = f"not a result record: {clipped(str(exc), 200)}"
        skipped += 1
        if skipped <= SHOWN_BAD_LINES:
            notes.append(f"{path}:{number}: {reason}; line skipped")
    if skipped:
        notes.append(f"{path}: {skipped} malformed line(s) skipped, {len(records)} record(s) read")
    return records, notes


class ResultsFile:
    """An append-only JSON-lines file: `append` writes one line with one write call, then
    flushes it to disk (fsync). Creating refuses an existing file; `resume` appends to it, and
    only to a regular file that is empty or holds at least one record (a puzzle file or notes
    given as -o are never touched). The file is locked while it is open
    (`kakuro.files.open_new_log`): one writer at a time."""

    def __init__(
        self, path: str | os.PathLike[str], *, resume: bool = False, warn: Callable[[str], None] | None = None
    ) -> None:
        """Open `path` (see the class docstring); when resuming, `existing` holds the records it
        already has and `warn` receives the reasons its bad lines are skipped. Raises KakuroError,
        before anything is written, for a file that cannot be taken."""
        self.path = Path(path)
        with contextlib.suppress(FileNotFoundError):  # a missing file is created (a dangling link is refused by the open)
            _refuse_special(self.path, os.stat(self.path).st_mode)
        self.created = not resume or not os.path.lexists(self.path)
        """True when this run made the file (it held nothing before): always without `resume`,
        whose exclusive open refuses an existing file."""
        self.existing: list[Record] = []
        """The records the file held when it was opened (resuming)."""
        self._fd: int | None = open_new_log(self.path, resume=resume)
        try:
            if resume and os.fstat(self._fd).st_size:
                data = _read_bounded(self.path)
                self.existing, notes = _parse(data, self.path)
                if notes and not self.existing:
                    raise KakuroError(f"{self.path} holds no results records; refusing to append")
                if warn is not None:
                    for note in notes:
                        warn(note)
                if not data.endswith(b"\n"):  # a line torn by a killed writer stays on its own
                    self._write(b"\n")
        except BaseException:
            self.close()
            raise

    def append(self, record: Record) -> None:
        """Write one record as one line and make it durable before returning: a stats, versions
        or machine object that JSON cannot hold (a backend's 5,000-digit int) is dropped with a
        note in the message, so every job gets its line. Raises KakuroError when the file cannot
        take it (a full disk): the lines already written stay."""
        self._write((_record_line(record) + "\n").encode())

    def _write(self, data: bytes) -> None:
        if self._fd is None:
            raise KakuroError(f"{self.path} is closed")
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
        except OSError as exc:
            raise KakuroError(
                f"{cannot_write(self.path, exc)}; the records written before stay in it, and --resume runs the other jobs"
            ) from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _record_line(record: Record) -> str:
    """`record` as one line of JSON (no newline). A mapping field JSON cannot hold (a value
    over 4,300 digits, a NaN, a cycle...) is written as {} and the message says so."""
    try:
        return json.dumps(record.to_json(), allow_nan=False, default=str)
    except (ValueError, TypeError, RecursionError, OverflowError):
        pass
    dropped: dict[str, Any] = {}
    notes = []
    for name in ("stats", "versions", "machine"):
        try:
            json.dumps(getattr(record, name), allow_nan=False, default=str)
        except (ValueError, TypeError, RecursionError, OverflowError) as exc:
            dropped[name] = {}
            notes.append(f"{name} not recorded: {clipped(f'{type(exc).__name__}: {exc}', 200)}")
    message = "; ".join(filter(None, [record.message, *notes]))
    return json.dumps(dataclasses.replace(record, **dropped, message=clipped(message)).to_json(), allow_nan=False, default=str)


def default_results_path(folder: str | os.PathLike[str] = "results") -> Path:
    """A new `results/compare-YYYYMMDD-HHMMSS[-n].jsonl` that does not exist yet."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = Path(folder) / f"compare-{stamp}.jsonl"
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"compare-{stamp}-{n}.jsonl")
    return candidate
