"""The progress bar of a campaign: jobs done, solved, timeouts, wrong, and an ETA.

The ETA is computed from the durations of finished jobs, per backend, not from a rate: the
first jobs to finish are the fast ones, so a rate promises far too early an end (a campaign
of 3 min 38 s once showed 16 s). Each backend's unfinished jobs are expected to take its
finished jobs' mean duration (a timeout counts its whole limit and grace; a backend with no
finished job yet takes the mean over all backends), never more than the limit and grace.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from rich.console import Console
from rich.progress import ProgressColumn
from rich.text import Text

from kakuro.compare.jobs import Job
from kakuro.records.record import JobStatus, Record


class Eta:
    """Seconds left in a campaign of `jobs` run `slots` at a time. Times are `time.monotonic`."""

    def __init__(self, jobs: Sequence[Job], slots: int) -> None:
        self._left: Counter[str] = Counter(job.backend.label for job in jobs)
        self._cap: dict[str, float] = {}
        for job in jobs:
            label = job.backend.label
            self._cap[label] = max(self._cap.get(label, 0.0), job.limits.kill_after)
        self._slots = max(1, slots)
        self._spent: Counter[str] = Counter()
        self._timed: Counter[str] = Counter()
        self._estimate: float | None = None
        self._at = 0.0

    def finished(self, backend: str, seconds: float | None, now: float) -> None:
        """A job of `backend` ended after `seconds` (None: unknown, e.g. its worker died)."""
        self._left[backend] -= 1
        if seconds is not None:
            self._spent[backend] += min(seconds, self._cap.get(backend, seconds))  # type: ignore[assignment]  # a Counter of float seconds
            self._timed[backend] += 1
        self._estimate, self._at = self._compute(), now

    def seconds_left(self, now: float) -> float | None:
        """The estimate, counting down between two finished jobs; None before the first."""
        if self._estimate is None:
            return None
        return max(0.0, self._estimate - (now - self._at))

    def _compute(self) -> float | None:
        timed = sum(self._timed.values())
        if timed == 0:
            return None
        overall = sum(self._spent.values()) / timed
        expected = {
            label: min(self._spent[label] / self._timed[label] if self._timed[label] else overall, self._cap[label])
            for label, left in self._left.items() if left > 0
        }
        if not expected:
            return 0.0
        total = sum(self._left[label] * seconds for label, seconds in expected.items())
        return max(total / self._slots, max(expected.values()))  # the last job takes its time even alone


class ProgressBar:
    """A rich progress bar on stderr; `advance` it with each recorded job."""

    def __init__(self, progress: Any, task: Any, eta: Eta) -> None:
        self._progress = progress
        self._task = task
        self._eta = eta
        self._counts: Counter[JobStatus] = Counter()

    @classmethod
    @contextlib.contextmanager
    def shown(
        cls, jobs: Sequence[Job], slots: int, *, enabled: bool, console: Console | None = None
    ) -> Iterator[ProgressBar | _Hidden]:
        """The bar for `jobs` while the block runs, on `console` (default: stderr); a
        do-nothing stand-in when not `enabled`."""
        if not enabled or not jobs:
            yield _Hidden()
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        eta = Eta(jobs, slots)
        columns = (
            TextColumn("jobs"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(), EtaColumn(eta),
        )
        with Progress(*columns, console=console or Console(stderr=True), transient=True) as progress:
            task = progress.add_task("jobs", total=len(jobs), counts=cls.text(Counter()))
            yield cls(progress, task, eta)

    def advance(self, job: Job, record: Record) -> None:
        self._counts[record.status] += 1
        self._eta.finished(job.backend.label, record.wall, time.monotonic())
        self._progress.update(self._task, advance=1, counts=self.text(self._counts))

    @staticmethod
    def text(counts: Counter[JobStatus]) -> str:
        """`solved N  timeouts N  wrong N`, then the other statuses that occurred."""
        shown = [JobStatus.SOLVED, JobStatus.TIMEOUT, JobStatus.WRONG]
        names = {JobStatus.SOLVED: "solved", JobStatus.TIMEOUT: "timeouts", JobStatus.WRONG: "wrong"}
        parts = [f"{names[s]} {counts[s]}" for s in shown]
        parts += [f"{s.value.lower()} {n}" for s, n in counts.items() if s not in shown and n]
        return "  ".join(parts)


class _Hidden:
    """The progress bar when none is shown."""

    def advance(self, job: Job, record: Record) -> None:
        pass


class EtaColumn(ProgressColumn):
    """The ETA of an `Eta`, counting down between two finished jobs."""

    def __init__(self, eta: Eta) -> None:
        super().__init__()
        self.eta = eta

    def render(self, task: Any) -> Text:
        left = self.eta.seconds_left(time.monotonic())
        if left is None:
            return Text("ETA -:--:--")
        if left >= 86400:
            return Text("ETA > 1 day")
        return Text("ETA " + time.strftime("%H:%M:%S", time.gmtime(left)))
