"""Compiling the engine's kernels (names made by `kakuro.native.settings`): before any clock
starts (`warm`, what `Solver.prepare_engine` and the generators call), or in the middle of a
solve, when a puzzle first needs one, off every clock (`compile_off_clock`).

`compile_off_clock` is the one place that compiles mid-solve and moves the clocks by what it
took: the armed state's deadline (the kernels' own clock) and the caller's `Deadline`; the
time charged (`kakuro.clock.Stopwatch`) leaves it out by itself, because the engine registers
its compile time with `kakuro.clock.exclude`. A caller that passed its `Deadline` down to code
that may compile moves it by what a `Stopwatch` counted off the clock meanwhile
(`Deadline.postponed`).
"""

from __future__ import annotations

from collections.abc import Iterable

from kakuro.clock import Deadline
from kakuro.engine import compile as engine
from kakuro.engine.state import State, postpone


def warm(*kernels: str) -> None:
    """Compile (or load from the disk cache) `kernels` now, before any clock starts; once per
    process."""
    engine.ensure(*kernels)


def is_cold(*kernels: str) -> bool:
    """True when `warm(*kernels)` would compile (nothing on disk yet for the engine's sources),
    so a command line can say what it is doing."""
    return engine.is_cold(*kernels)


def compile_off_clock(kernels: Iterable[str], state: State | None = None, deadline: Deadline = Deadline()) -> Deadline:
    """Compile (or load) `kernels` when a solve first needs them and take the time off every
    clock: the armed `state`'s deadline moves later by it, and so does the returned copy of
    `deadline` (no limit stays none); `Stopwatch` already leaves it out."""
    spent = engine.ensure(*kernels)
    if state is not None:
        postpone(state, spent)
    return deadline.later(spent)
