"""Monte-Carlo search on the compiled state (Cazenave 2010, Sect. 2.2-2.4).

- `sampling`: iterative sampling: playouts (smallest-domain cell, random value, propagate)
  from the root until one solves the puzzle or the time limit;
- `nmcs`: nested Monte-Carlo search at `level` (1 = the paper's meta Monte-Carlo), with the
  best-sequence memory of the paper's pseudo code, restarted until solved or the limit.

Both are incomplete: they never prove unsatisfiability by search (root propagation may).
The playout (`kernel.playout`) and variable choice (`kernel.select_variable`) are shared by
every Monte-Carlo algorithm.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.puzzle import Puzzle
from kakuro.search import kernel
from kakuro.search.fc import CONSISTENCY
from kakuro.solver import Deadline, Option, Outcome, Solver, Status, register

STATS = ("samples", "assignments", "restarts", "propagations")


def _finish(st: kernel.State, code: int) -> Outcome:
    stats = kernel.stats_of(st, STATS)
    if code == kernel.SOLVED:
        return Outcome(Status.SOLVED, kernel.values_of_solution(st), stats)
    return Outcome(Status.UNKNOWN, None, stats, "time limit reached")


@register("sampling")
class IterativeSampling(Solver):
    """Iterative sampling: random playouts from the root until one solves the puzzle."""

    description = "iterative sampling: random playouts with forward checking (Cazenave 2010)"
    complete = False
    options = {"consistency": CONSISTENCY}

    @classmethod
    def warm_up(cls) -> None:
        kernel.warm_up()

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        st, decided = kernel.start(puzzle, opts["consistency"], deadline, seed, STATS)
        if decided is not None:
            return decided
        return _finish(st, kernel.run_sampling(st))


@register("nmcs")
class NestedMonteCarlo(Solver):
    """Nested Monte-Carlo search (level 1 = meta Monte-Carlo), restarted until solved."""

    description = "nested Monte-Carlo search with best-sequence memory (Cazenave 2010)"
    complete = False
    options = {
        "level": Option(2, "nesting level (1 = meta Monte-Carlo)", minimum=1, maximum=5),
        "consistency": CONSISTENCY,
    }

    @classmethod
    def warm_up(cls) -> None:
        kernel.warm_up()

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        st, decided = kernel.start(puzzle, opts["consistency"], deadline, seed, STATS)
        if decided is not None:
            return decided
        return _finish(st, kernel.run_nested(st, opts["level"]))
