"""Any harness's runs as records: a plain runs table (CSV, or tab-separated) with the columns
`solver`, `instance`, `status` and `time` (seconds), in any order and any case, other columns
ignored, so that a campaign run by BenchExec, a competition's published results or a paper's
table gets the report and the analysis a kakuro campaign gets.

A status is one of solved, sat (both SOLVED), unsat, timeout, memout, error and wrong, in any case.
The time limit is not in such a table: the reader is given it (`kakuro report RUNS.csv
--time-limit S`). An answered run needs its time; one whose time exceeds the limit did not answer
within it and counts as a timeout (the reader says how many). A (solver, instance) pair that
appears on several rows has that many repeats. Bad rows are one line naming file and line.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Callable, Iterator
from typing import TextIO

from kakuro.errors import KakuroError
from kakuro.records.files import open_regular
from kakuro.records.record import ANSWERED, JobStatus, Record

COLUMNS = ("solver", "instance", "status", "time")
"""The columns a runs table must have (lower-cased)."""
STATUSES = {
    "solved": JobStatus.SOLVED, "sat": JobStatus.SOLVED,
    "unsat": JobStatus.UNSATISFIABLE, "unsatisfiable": JobStatus.UNSATISFIABLE, "timeout": JobStatus.TIMEOUT,
    "memout": JobStatus.MEMOUT, "error": JobStatus.ERROR, "wrong": JobStatus.WRONG,
}
"""A status as a runs table writes it (lower-cased) -> the record's."""


def is_runs_table(path: str | os.PathLike[str]) -> bool:
    """True when `path` reads as a runs table: its first line is a header naming `COLUMNS`
    (a results file's first line is a JSON object). False for what is not a regular file (a
    FIFO would block the look, a device never end it): the results file reader says what it is."""
    try:
        with os.fdopen(open_regular(path), encoding="utf-8-sig", errors="replace") as stream:
            first = stream.readline(1 << 16)
    except (OSError, KakuroError):
        return False
    return not first.lstrip().startswith("{") and _header(first) is not None


def _header(line: str) -> tuple[str, list[str]] | None:
    """(delimiter, lower-cased column names) of a header line naming every column of `COLUMNS`."""
    delimiter = "\t" if "\t" in line and "," not in line else ","
    names = [name.strip().lower() for name in next(csv.reader([line], delimiter=delimiter), [])]
    return (delimiter, names) if all(column in names for column in COLUMNS) else None


def read_runs_table(
    path: str | os.PathLike[str], time_limit: float, *, warn: Callable[[str], None] | None = None,
) -> list[Record]:
    """The runs of the table at `path` as records under `time_limit` (seconds). Raises
    KakuroError in one line naming file and line for a table without the columns, a status
    not in `STATUSES` or a time that is not a number of seconds."""
    with os.fdopen(open_regular(path), "r", encoding="utf-8-sig", errors="replace", newline="") as stream:
        header = _header(stream.readline(1 << 16))
        if header is None:
            raise KakuroError(f"{path}:1: a runs table's first line names its columns, among them {', '.join(COLUMNS)}")
        records, late = _records(stream, header, path, time_limit)
    if late and warn is not None:
        warn(f"{path}: {late} answered run(s) took longer than the time limit ({time_limit:g} s): counted as timeouts")
    return records


def _records(
    stream: TextIO, header: tuple[str, list[str]], path: str | os.PathLike[str], time_limit: float,
) -> tuple[list[Record], int]:
    """The records of the rows after the header, and how many answered runs came too late."""
    delimiter, names = header
    records: list[Record] = []
    late = 0
    seen: dict[tuple[str, str], int] = {}
    index: dict[str, int] = {}
    for line, row in _rows(stream, delimiter, path):
        cells = dict(zip(names, (cell.strip() for cell in row)))
        solver, instance = cells.get("solver", ""), cells.get("instance", "")
        if not solver or not instance:
            raise KakuroError(f"{path}:{line}: a run needs its solver and its instance")
        status = STATUSES.get(cells.get("status", "").lower())
        if status is None:
            raise KakuroError(f"{path}:{line}: status {cells.get('status', '')!r} is not one of {', '.join(STATUSES)}")
        time = _seconds(cells.get("time", ""), path, line, needed=status in ANSWERED)
        if status in ANSWERED and time is not None and time > time_limit:
            status, late = JobStatus.TIMEOUT, late + 1
        repeat = seen.get((solver, instance), 0)
        seen[(solver, instance)] = repeat + 1
        records.append(Record(
            source=str(path), index=index.setdefault(instance, len(index)), digest=instance, backend=solver,
            seed=0, repeat=repeat, status=status, time_limit=time_limit, instance=instance,
            time=time if status in ANSWERED else None))
    return records, late


def _rows(stream: TextIO, delimiter: str, path: str | os.PathLike[str]) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of every row after the header that holds anything."""
    reader = csv.reader(stream, delimiter=delimiter)
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                yield reader.line_num + 1, row
    except csv.Error as exc:
        raise KakuroError(f"{path}:{reader.line_num + 1}: {exc}") from None


def _seconds(text: str, path: str | os.PathLike[str], line: int, *, needed: bool) -> float | None:
    """A time cell as seconds; None when empty and not `needed`."""
    if not text:
        if needed:
            raise KakuroError(f"{path}:{line}: an answered run needs its time (seconds)")
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise KakuroError(f"{path}:{line}: time {text[:40]!r} is not a number of seconds")
    return value

