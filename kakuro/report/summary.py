"""Per-backend summaries of a section: counts per status, times, PAR-2.

Every count is of puzzles (repeats aggregated, see `aggregate`). `time` and `median` are the sum and
the median of the per-puzzle median times of the answered puzzles (SOLVED or UNSATISFIABLE); PAR-2
is the mean over puzzles of that time for an answered puzzle and of twice the time limit for any
other. All times are seconds.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kakuro.errors import KakuroError
from kakuro.records.record import JobStatus
from kakuro.report.aggregate import PuzzleResult
from kakuro.report.comparison import Section

ALL = "all"
"""The group name of the whole-section rows."""
GROUPINGS = ("source", "size")
COUNTED = {status.value.lower(): status for status in (
    JobStatus.SOLVED, JobStatus.UNSATISFIABLE, JobStatus.WRONG, JobStatus.TIMEOUT, JobStatus.BUDGET, JobStatus.MEMOUT,
    JobStatus.CRASH, JobStatus.ERROR)}
"""Summary column -> the status it counts: the status in lower case (`unsatisfiable`)."""


@dataclass(frozen=True)
class Row:
    """One backend's summary over one group of puzzles. Times are seconds."""

    group: str
    backend: str
    puzzles: int
    runs: int
    counts: Mapping[str, int]
    """Puzzles per status, keyed by the names of `COUNTED`."""
    time_total: float
    time_median: float | None
    par2: float
    root_solved: int | None = None
    """Answered puzzles decided by root propagation, with no search; None when none of this
    backend's answers reports it (stats key `root_solved`)."""
    certified: int | None = None
    """UNSATISFIABLE answers certified (`--certify`); None when no UNSATISFIABLE answer was
    certified or tried."""

    @property
    def answered(self) -> int:
        return self.counts["solved"] + self.counts["unsatisfiable"]


def group_of(result: PuzzleResult, group_by: str) -> str:
    """The group of a puzzle: its source file's stem (`source`) or its grid `RxC` (`size`,
    counting the clue row and column)."""
    if group_by == "size":
        return f"{result.rows}x{result.cols}"
    if group_by == "source":
        return Path(result.source).stem
    raise KakuroError(f"unknown grouping {group_by!r}; use {' or '.join(GROUPINGS)}")


def group_order(name: str) -> tuple[object, ...]:
    """A sort key that puts groups in natural order: grid sizes `RxC` by area, then rows
    (6x6 before 10x7), other names with their numbers compared as numbers (set2 before set10).
    Numbers are ASCII digits ('²' is text here) compared by length then digits, so a number of
    any length orders without being converted."""
    size = re.fullmatch(r"([0-9]{1,100})x([0-9]{1,100})", name)
    if size:
        rows, cols = int(size[1]), int(size[2])
        return (0, rows * cols, rows, cols)
    parts = re.split(r"([0-9]+)", name)  # the numbers are at odd positions
    return (1, *(_number_key(part) if i % 2 else (1, 0, part) for i, part in enumerate(parts) if part))


def _number_key(digits: str) -> tuple[int, int, str]:
    """A run of ASCII digits as a key that orders as its number does."""
    value = digits.lstrip("0") or "0"
    return (0, len(value), value)


def summarize(section: Section, *, group_by: str = "source") -> list[Row]:
    """Rows for every backend over all compared puzzles (group `all`, best PAR-2 first, then
    most answered), then per group and backend in that order."""
    results = section.results
    overall = sorted(
        (_row(ALL, b, [r for r in results if r.backend == b]) for b in section.backends),
        key=lambda row: (row.par2, -row.answered, row.backend),
    )
    order = [row.backend for row in overall]
    groups = sorted({group_of(r, group_by) for r in results}, key=group_order)
    out = list(overall)
    if len(groups) > 1:
        for g in groups:
            for b in order:
                members = [r for r in results if r.backend == b and group_of(r, group_by) == g]
                if members:
                    out.append(_row(g, b, members))
    return out


def ranking(section: Section) -> list[str]:
    """The section's backends, best PAR-2 first."""
    return [row.backend for row in summarize(section) if row.group == ALL]


def _row(group: str, backend: str, results: Sequence[PuzzleResult]) -> Row:
    counts = {name: sum(r.status is status for r in results) for name, status in COUNTED.items()}
    times = [r.time for r in results if r.answered and r.time is not None]
    par2 = sum(r.score for r in results) / len(results) if results else 0.0
    median = statistics.median(times) if times else None
    runs = sum(len(r.runs) for r in results)
    said = [r.root_solved for r in results if r.root_solved is not None]
    root = sum(said) if said else None
    tried = [r.certified for r in results if r.certified is not None]
    certified = sum(tried) if tried else None
    return Row(group, backend, len(results), runs, counts, float(sum(times)), median, par2, root, certified)
