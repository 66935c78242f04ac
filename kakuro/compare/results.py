"""The results file: one typed `Record` per finished job, one JSON object per line.

A results file is append-only. `ResultsFile.append` writes a record as one line with one write
call and fsyncs it, so an interrupted campaign loses nothing; an existing file is never
overwritten (`resume=True` appends to it). Readers take the last record of each job (`latest`):
a re-run after a crash replaces the earlier record.

Schema history (the `schema` field; a record without one is schema 1):

    1  the first layout; `backend` is the solver's spec without its default options
    2  `backend` is the spec as it was asked for (`nmcs:level=2` stays so), and `spec` holds
       every option, defaults included (`get_solver(spec)` rebuilds exactly what ran)

Reading is bounded like reading a puzzle file (`kakuro.formats.MAX_INPUT_BYTES`), refuses what
is not a regular file (a FIFO would block, a device never ends), ignores a UTF-8 BOM, and skips
with a warning any line that is not a record, including one that is not UTF-8.

This module is the bottom of `kakuro.compare`: it imports no other part of it, so the report
can read results without the harness.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import enum
import json
import math
import os
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.files import cannot_write, open_new_log
from kakuro.formats import MAX_INPUT_BYTES, load_source

SCHEMA = 2
"""Version of the record layout written by this version (see the module docstring)."""
KEY_FIELDS = ("index", "digest", "backend", "seed", "repeat")
"""The fields that identify a job in a results file: the puzzle by what it is (its digest and
position), not by the path it was read through, so a campaign resumed from another folder, with
an absolute path or through a link finds its jobs done (records of any version hold both)."""
MAX_MESSAGE = 2000
"""Characters of a message kept in a record (a backend's message may be megabytes)."""
SHOWN_BAD_LINES = 10
"""Malformed lines of a results file named one by one; the others are counted."""


def clipped(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text`, cut to `limit` characters with a note saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters cut)"


class JobStatus(str, enum.Enum):
    """How a job ended, as the parent verified it (see `kakuro.compare.verdict`)."""

    SOLVED = "SOLVED"
    UNSAT = "UNSAT"
    TIMEOUT = "TIMEOUT"
    MEMOUT = "MEMOUT"
    CRASH = "CRASH"
    ERROR = "ERROR"
    WRONG = "WRONG"


ANSWERED = frozenset({JobStatus.SOLVED, JobStatus.UNSAT})
"""Statuses that count as a correct answer (PAR-2, cactus plots)."""
FINAL = frozenset(JobStatus) - {JobStatus.CRASH}
"""Statuses `--resume` does not re-run."""


@dataclass(frozen=True)
class Record:
    """One finished job. Times are seconds, memory MiB; `None` means not measured."""

    source: str
    """The puzzle file (as given on the command line); not part of `key`."""
    index: int
    """0-based position of the puzzle in `source`."""
    digest: str
    """`Puzzle.digest()`: the same puzzle has the same digest in any file."""
    backend: str
    """The backend's name in tables: its spec as asked for (`nmcs:level=2`)."""
    seed: int
    repeat: int
    status: JobStatus
    time_limit: float
    instance: str = ""
    """The puzzle's id, or `<file stem>#<1-based position>`."""
    spec: str | None = None
    """Every option of the backend, defaults included; None in schema-1 records."""
    time: float | None = None
    """The backend's own time (solving only, compilation and checking excluded)."""
    wall: float | None = None
    """Seconds the job took in its worker (or until it was killed)."""
    grace: float | None = None
    memory_limit_mb: int | None = None
    peak_rss_mb: float | None = None
    rows: int | None = None
    cols: int | None = None
    stats: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""
    finished: str = ""
    """UTC time the parent recorded the job (ISO 8601)."""
    versions: Mapping[str, str] = field(default_factory=dict)
    machine: Mapping[str, Any] = field(default_factory=dict)
    schema: int = SCHEMA

    @property
    def key(self) -> tuple[Any, ...]:
        """The job this record belongs to: the values of `KEY_FIELDS`."""
        return tuple(getattr(self, name) for name in KEY_FIELDS)

    @property
    def puzzle_key(self) -> tuple[str, int, str]:
        """The puzzle this record is about: (source, index, digest)."""
        return (self.source, self.index, self.digest)

    @property
    def answered(self) -> bool:
        """True for SOLVED and UNSAT: a correct answer with a time."""
        return self.status in ANSWERED

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (field order kept)."""
        data = asdict(self)
        data["status"] = self.status.value
        return {"schema": data.pop("schema"), **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """A record from a parsed JSON object of any schema up to `SCHEMA`. Raises ValueError
        saying what is wrong; unknown fields are ignored."""
        schema = data.get("schema", 1)
        if not _is_int(schema) or schema < 1:
            raise ValueError(f"schema {schema!r} is not a version number")
        if schema > SCHEMA:
            raise ValueError(f"schema {schema} is newer than this kakuro reads ({SCHEMA}); upgrade kakuro")
        try:
            status = JobStatus(data.get("status"))
        except ValueError:
            raise ValueError(f"status {data.get('status')!r} is not one of {', '.join(s.value for s in JobStatus)}") from None
        values: dict[str, Any] = {"schema": schema, "status": status}
        for item in fields(cls):
            if item.name in values or item.name not in data:
                continue
            value = data[item.name]
            check, wanted = _FIELD_CHECKS[item.name]
            if not check(value):
                raise ValueError(f"{item.name} {value!r} is not {wanted}")
            values[item.name] = float(value) if item.name in _FLOATS and value is not None else value
        missing = [name for name in _REQUIRED if name not in values]
        if missing:
            raise ValueError(f"no {', '.join(missing)}")
        if not values.get("instance"):
            values["instance"] = f"{Path(values['source']).stem}#{values['index'] + 1}"
        return cls(**values)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_non_negative(value: Any) -> bool:
    """A finite int or float (not a bool), 0 or more: a time in seconds, a memory in MB."""
    return _is_number(value) and value >= 0


def _is_positive(value: Any) -> bool:
    return _is_number(value) and value > 0


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _or_null(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


_REQUIRED = ("source", "index", "digest", "backend", "seed", "repeat", "time_limit")
_FLOATS = frozenset({"time_limit", "time", "wall", "grace", "peak_rss_mb"})
_FIELD_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "source": (_is_text, "a string"),
    "index": (_is_int, "a whole number"),
    "digest": (_is_text, "a string"),
    "backend": (_is_text, "a string"),
    "seed": (_is_int, "a whole number"),
    "repeat": (_is_int, "a whole number"),
    "time_limit": (_is_positive, "a positive number"),
    "instance": (_is_text, "a string"),
    "spec": (_or_null(_is_text), "a string or null"),
    "time": (_or_null(is_non_negative), "a number of seconds (0 or more) or null"),
    "wall": (_or_null(is_non_negative), "a number of seconds (0 or more) or null"),
    "grace": (_or_null(is_non_negative), "a number of seconds (0 or more) or null"),
    "memory_limit_mb": (_or_null(_is_int), "a whole number or null"),
    "peak_rss_mb": (_or_null(is_non_negative), "a number (0 or more) or null"),
    "rows": (_or_null(_is_int), "a whole number or null"),
    "cols": (_or_null(_is_int), "a whole number or null"),
    "stats": (_is_object, "an object"),
    "message": (_is_text, "a string"),
    "finished": (_is_text, "a string"),
    "versions": (_is_object, "an object"),
    "machine": (_is_object, "an object"),
}
"""For each record field read from JSON: its check and what the check wants, for the message."""


def read_results(path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None) -> list[Record]:
    """Every record of a results file in order. A line that is not a valid record (torn by a
    killed writer, edited by hand, not UTF-8, written by a newer kakuro) is skipped: the first
    `SHOWN_BAD_LINES` are reported through `warn` as `file:line: reason`, then how many were
    skipped in all. A UTF-8 BOM at the start is ignored. Raises KakuroError, at once, if the
    file cannot be read, is not a regular file, or holds more than `MAX_INPUT_BYTES`."""
    records, notes, _ = _parse(_read_bounded(path), path)
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


def _parse(data: bytes, path: str | os.PathLike[str]) -> tuple[list[Record], list[str], int]:
    """(records, warnings, lines skipped) of a results file's bytes; see `read_results`."""
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
    return records, notes, skipped


def latest(records: Iterable[Record]) -> list[Record]:
    """The last record of each job (a re-run after a crash replaces the earlier one), in the
    order of those last records."""
    last: dict[tuple[Any, ...], Record] = {}
    for record in records:
        last.pop(record.key, None)
        last[record.key] = record
    return list(last.values())


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
                self.existing, notes, skipped = _parse(data, self.path)
                if skipped and not self.existing:
                    raise KakuroError(f"{self.path} holds no results records; refusing to append")
                for note in notes:
                    if warn is not None:
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
