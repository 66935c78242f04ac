"""The one solving clock: `time.perf_counter` seconds, minus time that is not solving.

Everything that times or limits a solve (the `Solver` template, the compare harness, the
isolation of children, the compiled engine) reads this clock. One-time costs met in the middle
of a solve (a compiled kernel that a puzzle needs for the first time) are not solving: the part
that pays them registers its running total with `exclude` and this module takes it off, in one
place (`Stopwatch`, `Deadline.postponed`). Nothing here knows what the excluded costs are.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_TIME_LIMIT = 2_000_000.0
"""Longest time limit in seconds (23 days); a longer one, `inf` included, means this. Every
engine's clock can hold it: a wait of 2^31 ms, a deadline of 2^63 ns, a double."""


def now() -> float:
    """The clock's reading in seconds (`time.perf_counter`)."""
    return time.perf_counter()


_excluded: list[Callable[[], float]] = []


def exclude(total: Callable[[], float]) -> None:
    """Register `total()`, the seconds this process has spent so far on something that is not
    solving (it only grows): the compiled engine's compilation registers here when imported."""
    if total not in _excluded:
        _excluded.append(total)


def excluded() -> float:
    """Seconds spent so far in this process on what `exclude` registered (0 when nothing is)."""
    return float(sum(total() for total in _excluded))


class Stopwatch:
    """Seconds of solving since it was made: the clock's time minus what `excluded` grew by."""

    def __init__(self) -> None:
        self.start = now()
        self.excluded_at_start = excluded()

    def off_clock(self) -> float:
        """Seconds spent since the start on what is not solving."""
        return excluded() - self.excluded_at_start

    def elapsed(self) -> float:
        """Seconds of solving since the start."""
        return now() - self.start - self.off_clock()


@dataclass(frozen=True)
class Deadline:
    """A point on the `perf_counter` clock after which a backend must stop (None: no limit).
    At most `MAX_TIME_LIMIT` seconds away."""

    end: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        return cls(None if seconds is None else now() + min(seconds, MAX_TIME_LIMIT))

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        return None if self.end is None else max(0.0, self.end - now())

    def expired(self) -> bool:
        return self.end is not None and now() >= self.end

    def later(self, seconds: float) -> Deadline:
        """This deadline `seconds` later (no limit stays none): how long to wait for a search
        that stops itself at this deadline before killing it."""
        return self if self.end is None else Deadline(self.end + seconds)

    def postponed(self, watch: Stopwatch) -> Deadline:
        """This deadline moved later by what `watch` counted off the clock (no limit stays none)."""
        return self.later(watch.off_clock())
