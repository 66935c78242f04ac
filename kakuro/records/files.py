"""Results files: one JSON object per line, one line per `Record` (`kakuro.records.lines`).

A results file is append-only. `ResultsFile.append` writes a record as one line with one write
call and fsyncs it, so an interrupted campaign loses nothing; an existing file is never
overwritten (`resume=True` appends to it). Before each append it checks that its path still
names the file it opened, as it left it: a file removed, replaced (an editor's save) or written
by another program is never written again, and what it held is saved in a new file beside it.
Readers take the last record of each job (`kakuro.records.record.latest`): a re-run after a
crash replaces the earlier record.

Reading streams the file line by line, with no bound on its size: memory grows with the records
kept, never with the file. It refuses what is not a regular file (a FIFO would block, a device
never ends), ignores a UTF-8 BOM, and skips with a warning any line that is not a record; a
file that is no results file (binary from its first line, a line longer than any kakuro
writes) is refused at once with one line naming file and line.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from kakuro.errors import KakuroError
from kakuro.files import cannot_write, open_new_log
from kakuro.records.lines import MAX_LINE, decode, encode, without_bom
from kakuro.records.record import Record

SHOWN_BAD_LINES = 10
"""Malformed lines of a results file named one by one; the others are counted."""
RESCUE_TAG = "-rescued"
"""Joins the stem of a results file's name to make the name of the file its records are saved
in when it was removed, replaced or changed during a campaign (`results-rescued.jsonl`)."""


def read_results(path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None) -> list[Record]:
    """Every record of a results file in order, read line by line (any size). A line that is
    not a valid record (torn by a killed writer, edited by hand, not UTF-8, written by a newer
    kakuro) is skipped: the first `SHOWN_BAD_LINES` are reported through `warn` as
    `file:line: reason`, then how many were skipped in all. A UTF-8 BOM at the start is ignored.
    Raises KakuroError, in one line, if the file cannot be read, is not a regular file, is no
    results file (binary, a line longer than `MAX_LINE`) or holds lines but no record."""
    fd = open_regular(path)
    with os.fdopen(fd, "rb") as stream:
        records, notes = _parse(stream, path)
    if notes and not records:
        raise KakuroError(f"{notes[0].removesuffix('; line skipped')}; {path} holds no results records")
    if warn is not None:
        for note in notes:
            warn(note)
    return records


def open_regular(path: str | os.PathLike[str]) -> int:
    """A descriptor for reading the results file `path`, after refusing what is not a regular
    file (looked at before and after opening: a FIFO would block the read, a device such as
    /dev/zero never ends). Raises KakuroError naming the file."""
    try:
        _refuse_special(path, os.stat(path).st_mode)  # before opening: opening some devices does something
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise KakuroError(f"{path}: no such results file") from None
    except OSError as exc:
        raise KakuroError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        _refuse_special(path, os.fstat(fd).st_mode)  # what was opened, if it changed meanwhile
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refuse_special(path: str | os.PathLike[str], mode: int) -> None:
    """Raise KakuroError unless `mode` (an `os.stat` st_mode) is a regular file's: results are
    read from and appended to regular files only."""
    if stat.S_ISREG(mode):
        return
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    kind = next((name for test, name in kinds if test(mode)), "not a file")
    raise KakuroError(f"{path} is {kind}, not a regular file; results files are regular files")


def _lines(stream: BinaryIO, path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes]]:
    """(1-based number, line without its newline) of each line of `stream`, the first without
    a BOM; holds one line at a time. Raises KakuroError at a line longer than `MAX_LINE` (no
    line kakuro writes is: a binary file, a device's endless zeros) or when reading fails."""
    number = 0
    try:
        while line := stream.readline(MAX_LINE + 1):
            number += 1
            if len(line) > MAX_LINE:
                raise KakuroError(f"{path}:{number}: a line longer than {MAX_LINE} bytes, which no results file "
                                  "holds (kakuro writes none); not a results file")
            line = line.removesuffix(b"\n")
            yield number, without_bom(line) if number == 1 else line
    except OSError as exc:
        raise KakuroError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def _binary(line: bytes) -> str | None:
    """Why `line` is binary data rather than text (a NUL byte, bytes that are not UTF-8 before
    its end, where a killed writer may have cut a character), or None."""
    nul = line.find(b"\0")
    if nul >= 0:
        return f"a NUL byte at byte {nul + 1}"
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.end < len(line.rstrip(b"\r")):
            return f"not UTF-8 at byte {exc.start + 1}"
    return None


def _parse(stream: BinaryIO, path: str | os.PathLike[str]) -> tuple[list[Record], list[str]]:
    """(records, warnings) of a results file's lines; see `read_results`. There are warnings
    exactly when a line was skipped. Raises KakuroError when its first line that is not blank
    is binary data: no results file, and not worth a warning per line."""
    records: list[Record] = []
    notes: list[str] = []
    skipped = 0
    shared: dict[tuple[str, str], Any] = {}
    for number, line in _lines(stream, path):
        if not line.strip():
            continue
        if not records and not skipped and (binary := _binary(line)) is not None:
            raise KakuroError(f"{path}:{number}: binary data ({binary}), not a results file (JSON text, a record a line)")
        found = decode(line, shared)
        if isinstance(found, Record):
            records.append(found)
            continue
        skipped += 1
        if skipped <= SHOWN_BAD_LINES:
            notes.append(f"{path}:{number}: {found}; line skipped")
    if skipped:
        notes.append(f"{path}: {skipped} malformed line(s) skipped, {len(records)} record(s) read")
    return records, notes


class ResultsFile:
    """An append-only JSON-lines file: `append` writes one line with one write call, then
    flushes it to disk (fsync). Creating refuses an existing file; `resume` appends to it, and
    only to a regular file that is empty or holds at least one record (a puzzle file or notes
    given as -o are never touched). The file is locked while it is open
    (`kakuro.files.open_new_log`): one writer at a time. Each append first checks that the
    path still names this file, as the last append left it; if not, nothing more is written to
    it (see `append`)."""

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
        self._reader: int | None = None
        """The same file opened for reading: what it holds can be saved when its path is lost."""
        self._size = 0
        """Bytes the file holds as this object last left it."""
        try:
            self._reader = open_regular(self.path)
            if not os.path.samestat(os.fstat(self._reader), os.fstat(self._fd)):
                raise KakuroError(f"{self.path} was replaced while it was being opened; nothing was written to it")
            self._size = os.fstat(self._fd).st_size
            if resume and self._size:
                self._read_existing(warn)
        except BaseException:
            self.close()
            raise

    def _read_existing(self, warn: Callable[[str], None] | None) -> None:
        """Read the records of a resumed file into `existing`; a file ending in a line torn by a
        killed writer gets a newline, so that line stays on its own."""
        assert self._reader is not None
        with os.fdopen(os.dup(self._reader), "rb") as stream:
            self.existing, notes = _parse(stream, self.path)
        if notes and not self.existing:
            raise KakuroError(f"{self.path} holds no results records; refusing to append")
        if warn is not None:
            for note in notes:
                warn(note)
        if os.pread(self._reader, 1, self._size - 1) != b"\n":
            self._write(b"\n")

    def append(self, record: Record) -> None:
        """Write one record as one line (`kakuro.records.lines.encode`: whatever the record
        holds, it gets its line) and make it durable before returning. Raises KakuroError when
        the file cannot take it (a full disk: the lines already written stay), or when its path
        no longer names the file as the last append left it (removed, replaced, or written by
        another program): then nothing is written to it, ever again, and what the file holds
        plus this record are saved in a new file beside it, named in the error, which
        `--resume` continues."""
        line = encode(record)
        problem = self._moved()
        if problem is not None:
            self._rescue(line, problem)
        self._write(line)

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
        finally:
            with contextlib.suppress(OSError):
                self._size = os.fstat(self._fd).st_size

    def _moved(self) -> str | None:
        """Why the path no longer names this file as the last append left it, or None."""
        if self._fd is None:
            raise KakuroError(f"{self.path} is closed")
        mine = os.fstat(self._fd)
        try:
            there = os.stat(self.path)
        except FileNotFoundError:
            return "was removed"
        except OSError as exc:
            return f"can no longer be reached ({exc.strerror or exc})"
        if not os.path.samestat(mine, there):
            return "was replaced by another file"
        if mine.st_size != self._size:
            return f"was changed by another program (it holds {mine.st_size} bytes; this run left {self._size})"
        return None

    def _rescue(self, line: bytes, problem: str) -> NoReturn:
        """Save what this file holds and `line` in a new file beside it (else in the system's
        temporary folder), close this one for good and raise KakuroError saying where."""
        failures = []
        for folder in (self.path.parent, Path(tempfile.gettempdir())):
            try:
                saved = self._save_copy(folder, line)
            except OSError as exc:
                failures.append(f"{folder}: {exc.strerror or exc}")
                continue
            self.close()
            raise KakuroError(f"{self.path} {problem} while the campaign ran; to lose nothing, no more is written to it: "
                              f"the records of the file this run opened and of the job that just ended are in {saved}; "
                              f"continue the campaign with --resume -o {saved}")
        self.close()
        raise KakuroError(f"{self.path} {problem} while the campaign ran; no more is written to it, and saving its "
                          f"records elsewhere failed ({'; '.join(failures)}): the job that just ended has no record")

    def _save_copy(self, folder: Path, line: bytes) -> Path:
        """A new file in `folder` (`<stem>-rescued[-n]<suffix>`, created exclusively) holding
        what this file holds and then `line`, synced to disk. Raises OSError."""
        assert self._reader is not None
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        for n in range(1, 1000):
            target = folder / f"{self.path.stem}{RESCUE_TAG}{'' if n == 1 else f'-{n}'}{self.path.suffix}"
            try:
                fd = os.open(target, flags, 0o666)
                break
            except FileExistsError:
                continue
        else:
            raise FileExistsError(f"{folder} holds 999 files named {self.path.stem}{RESCUE_TAG}-n{self.path.suffix}")
        try:
            offset, last = 0, b"\n"
            while chunk := os.pread(self._reader, 2**20, offset):
                _write_all(fd, chunk)
                offset, last = offset + len(chunk), chunk[-1:]
            _write_all(fd, (b"" if last == b"\n" else b"\n") + line)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(target)
            raise
        os.close(fd)
        return target

    def remove_if_unused(self) -> None:
        """Remove the file when this run created it, wrote nothing into it and its path still
        names it: a campaign that failed before its first record leaves nothing behind."""
        if self._fd is not None and self.created and self._size == 0 and self._moved() is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)

    def close(self) -> None:
        for fd in (self._fd, self._reader):
            if fd is not None:
                os.close(fd)
        self._fd = self._reader = None

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def default_results_path(folder: str | os.PathLike[str] = "results") -> Path:
    """A new `results/compare-YYYYMMDD-HHMMSS[-n].jsonl` that does not exist yet."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = Path(folder) / f"compare-{stamp}.jsonl"
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"compare-{stamp}-{n}.jsonl")
    return candidate
