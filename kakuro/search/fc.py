"""Forward checking (Cazenave 2010, Sect. 2.1): depth-first search on the compiled state.

Smallest domain first, values in random (the paper's) or ascending order, propagation at
`consistency=fc` (the paper's forward checking) or `gac` (exact run-level reasoning, i.e.
maintaining arc consistency). Complete: proves unsatisfiability and counts solutions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.puzzle import Puzzle
from kakuro.search import kernel
from kakuro.solver import Deadline, Enumeration, Option, Outcome, Solver, Status, register

CONSISTENCY = Option("gac", "propagation after each assignment: gac (exact run-level reasoning, the strongest; refuses value ranges too wide to tabulate) or fc (the paper's forward checking, any range)", choices=("gac", "fc"))
STATS = ("nodes", "fails", "assignments", "propagations")


@register("fc")
class ForwardChecking(Solver):
    """Depth-first search with forward checking, smallest domain first (Cazenave 2010)."""

    description = "depth-first forward checking, smallest domain first (Cazenave 2010)"
    complete = True
    options = {
        "values": Option("ascending", "value order: ascending (measured the faster) or random (the paper's; the seed picks the order)", choices=("ascending", "random")),
        "consistency": CONSISTENCY,
    }

    @classmethod
    def warm_up(cls) -> None:
        kernel.warm_up()

    def _search(
        self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int
    ) -> tuple[int, list[list[int]], dict[str, Any], Outcome | None]:
        st, decided = kernel.start(puzzle, opts["consistency"], deadline, seed, STATS)
        if decided is not None:
            return kernel.STOPPED, [], decided.stats, decided
        code, found = kernel.run_depth_first(st, opts["values"] == "ascending", limit)
        return code, found, kernel.stats_of(st, STATS), None

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        code, found, stats, decided = self._search(puzzle, opts, 1, deadline, seed)
        if decided is not None:
            return decided
        if found:
            return Outcome(Status.SOLVED, found[0], stats)
        if code == kernel.EXHAUSTED:
            return Outcome(Status.UNSATISFIABLE, None, stats)
        return Outcome(Status.UNKNOWN, None, stats, "time limit reached")

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        code, found, stats, decided = self._search(puzzle, opts, limit, deadline, seed)
        if decided is not None:
            solved = decided.status is Status.SOLVED
            return Enumeration([list(decided.values)] if solved else [], decided.status is not Status.UNKNOWN, decided.stats)
        return Enumeration(found, code == kernel.EXHAUSTED, stats)
