"""Repeats aggregated: one `PuzzleResult` per (puzzle, backend), the raw runs kept inside.

Rules, for the n runs of one backend on one puzzle:

- WRONG if any run is WRONG (a wrong answer is never outvoted);
- answered (SOLVED or UNSATISFIABLE) if more than half of the runs answered (solved by majority);
  its time is the median time of the answered runs, its spread their min and max;
- otherwise the most frequent status of the other runs (ties: TIMEOUT, MEMOUT, CRASH, ERROR).

A puzzle is identified by its instance name and digest, so the same puzzle read through two
paths of one file counts once.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from kakuro.records.record import ANSWERED, JobStatus, Record

PuzzleId = tuple[str, str]
"""(instance name, digest)."""
_ORDER = list(JobStatus)


@dataclass(frozen=True)
class PuzzleResult:
    """All runs of one backend on one puzzle under one time limit. Times are seconds."""

    instance: str
    digest: str
    source: str
    rows: int | None
    cols: int | None
    backend: str
    time_limit: float
    runs: tuple[Record, ...]
    status: JobStatus
    time: float | None
    """Median time of the answered runs, when answered by majority."""
    low: float | None
    high: float | None
    """Fastest and slowest answered run, when answered by majority."""

    @property
    def puzzle(self) -> PuzzleId:
        return (self.instance, self.digest)

    @property
    def answered(self) -> bool:
        return self.status in ANSWERED

    @property
    def score(self) -> float:
        """PAR-2: the median time if answered, else twice the time limit."""
        return self.time if self.answered and self.time is not None else 2.0 * self.time_limit

    @property
    def answered_runs(self) -> int:
        return sum(run.status in ANSWERED for run in self.runs)

    @property
    def certified(self) -> bool | None:
        """For an UNSATISFIABLE answer of a campaign run with `--certify`: True when every
        UNSATISFIABLE run is certified (`Record.certified`), False when one is not; None
        otherwise."""
        said = [run.certified for run in self.runs if run.status is JobStatus.UNSATISFIABLE and run.certified is not None]
        if self.status is not JobStatus.UNSATISFIABLE or not said:
            return None
        return all(said)

    @property
    def root_solved(self) -> bool | None:
        """True when the answer was decided by root propagation, with no search (stats key
        `root_solved` true in most of the answered runs that report it); None when no
        answered run reports it (or the puzzle was not answered)."""
        if not self.answered:
            return None
        said = [bool(run.stats["root_solved"]) for run in self.runs
                if run.status in ANSWERED and "root_solved" in run.stats]
        return 2 * sum(said) > len(said) if said else None


def aggregate(records: Iterable[Record]) -> list[PuzzleResult]:
    """One result per (puzzle, backend, time limit), in the order first seen."""
    groups: dict[tuple[str, str, str, float], list[Record]] = {}
    for record in records:
        groups.setdefault((record.instance, record.digest, record.backend, record.time_limit), []).append(record)
    return [_combine(runs) for runs in groups.values()]


def majority(answered: np.ndarray, wrong: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rule that aggregates runs, over the last axis of the arrays (one entry per run:
    answered, WRONG, time in seconds): whether the runs answer by majority with none WRONG,
    and the median time of the answered runs there (nan elsewhere)."""
    runs = answered.shape[-1]
    ok = (2 * answered.sum(axis=-1) > runs) & ~wrong.any(axis=-1)
    with warnings.catch_warnings():  # a slice with no answered run has no median: nan, as wanted
        warnings.simplefilter("ignore", RuntimeWarning)
        median = np.nanmedian(np.where(answered, times, np.nan), axis=-1)
    return ok, np.where(ok, median, np.nan)


def run_arrays(runs: Sequence[Record]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(answered, wrong, time) of each run, as `majority` takes them (a missing time is nan)."""
    answered = np.array([run.status in ANSWERED and run.time is not None for run in runs])
    wrong = np.array([run.status is JobStatus.WRONG for run in runs])
    times = np.array([run.time if run.time is not None else np.nan for run in runs], dtype=float)
    return answered, wrong, times


def _combine(runs: list[Record]) -> PuzzleResult:
    first = runs[0]
    statuses = Counter(run.status for run in runs)
    answered, wrong, times = run_arrays(runs)
    ok, median = majority(answered, wrong, times)
    time = low = high = None
    if statuses[JobStatus.WRONG]:
        status = JobStatus.WRONG
    elif 2 * sum(statuses[s] for s in ANSWERED) > len(runs):
        status = JobStatus.SOLVED if statuses[JobStatus.SOLVED] else JobStatus.UNSATISFIABLE
        if ok:
            time, low, high = float(median), float(times[answered].min()), float(times[answered].max())
    else:
        others = [s for s in _ORDER if s not in ANSWERED and statuses[s]]
        status = max(others, key=lambda s: (statuses[s], -_ORDER.index(s)))
    return PuzzleResult(first.instance, first.digest, first.source, first.rows, first.cols, first.backend,
                        first.time_limit, tuple(runs), status, time, low, high)
