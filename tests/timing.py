"""Bounds on wall time that hold on a busy machine, as tight as before on an idle one.

A promise such as "a solve stops within 50 ms of its time limit" is about work: what a backend
does after its deadline before it returns. The deadline itself is on the wall clock and does
not move with the load, but the work after it takes `slowdown` times longer when the process
gets a share of a core (two CPU-bound processes beside two test workers on 2 cores: about
twice as long). So a test times its block with `timed()` and states its bound as on an idle
core: the wall seconds past what it waits for by design (a time limit, a grace), divided by the
slowdown measured around the block (`Timing.quiet`). A block that ignores its limit still fails
on any machine: its overrun grows with the work it does, not with the load. A wait that is wall
time by design (a sleep, a grace, a limit) is never divided.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

SAMPLE_CPU = 0.02
"""CPU seconds of the busy loop that measures the slowdown (about 0.04 s of wall on a busy
machine). Its spread does not shrink with a longer loop: beside two CPU-bound loops on 2 cores,
40 samples of 0.05 s measured 1.49 +- 0.45, of 0.02 s 1.35 +- 0.44 (the scheduler's slices,
2026-11-29); the timed suite ran 339 of them, 0.1 s of wall each at 0.05 s."""
FRESH = 0.25
"""Seconds a measured slowdown stays the current one: a block that starts within them of the end
of the last measurement (a test's second block after its first) reuses it."""
_last: tuple[float, float] = (-math.inf, 1.0)
"""(perf_counter at the end of the last `slowdown()`, what it measured)."""


def slowdown() -> float:
    """How many times longer CPU work takes in this process now than on an idle core (at least
    1): the wall seconds of a busy loop over the SAMPLE_CPU seconds of CPU it got."""
    global _last
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < SAMPLE_CPU:
        pass
    end = time.perf_counter()
    _last = (end, max(1.0, (end - wall) / (time.process_time() - cpu)))
    return _last[1]


def current_slowdown() -> float:
    """`slowdown()`, or the one measured less than `FRESH` seconds ago."""
    end, measured = _last
    return measured if time.perf_counter() - end < FRESH else slowdown()


@dataclass
class Timing:
    """A timed block: its wall seconds and the machine's slowdown around it."""

    wall: float = 0.0
    """Seconds the block took (perf_counter)."""
    slowdown: float = 1.0
    """The larger of `slowdown()` just before and just after the block."""
    cpu: float = 0.0
    """CPU seconds this process spent in the block (process_time): the work itself, which a
    busy machine stretches in wall time but never adds to."""

    def quiet(self, seconds: float) -> float:
        """`seconds` of work on this machine as on an idle core."""
        return seconds / self.slowdown


@contextmanager
def timed() -> Iterator[Timing]:
    """Time the block: `with timed() as t: ...`, then `t.wall`, `t.slowdown`, `t.quiet(...)`."""
    timing = Timing(slowdown=current_slowdown())
    start, cpu = time.perf_counter(), time.process_time()
    try:
        yield timing
    finally:
        timing.wall = time.perf_counter() - start
        timing.cpu = time.process_time() - cpu
        timing.slowdown = max(timing.slowdown, slowdown())
