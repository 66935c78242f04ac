"""Forward checking (Cazenave 2010, Sect. 2.1): depth-first search on the compiled state.

Smallest domain first, values in random (the paper's) or ascending order, propagation at
`consistency=fc` (the paper's forward checking) or `gac` (exact run-level reasoning, i.e.
maintaining arc consistency). Complete: proves unsatisfiability and counts solutions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.limits import Limits
from kakuro.native.settings import Strength, TreeSearch, ValueOrder
from kakuro.native_solver import CONSISTENCY, TREE_BUDGETS, TREE_OPTIONS, TreeSearchSolver, enumerate_solutions
from kakuro.options import Option
from kakuro.outcome import Enumeration
from kakuro.puzzle import Puzzle
from kakuro.registry import register

STATS = ("nodes", "fails", "assignments", "propagations")


@register("fc")
class ForwardChecking(TreeSearchSolver):
    """Depth-first search with forward checking, smallest domain first (Cazenave 2010)."""

    description = "depth-first forward checking, smallest domain first (Cazenave 2010)"
    paradigm = "native propagation"
    budgets = TREE_BUDGETS
    options = {
        "values": Option("ascending", "value order: ascending (measured the faster) or random (the "
                                      "paper's; the seed picks the order)", choices=("ascending", "random")),
        "consistency": CONSISTENCY,
        **TREE_OPTIONS,
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return TreeSearch.of(settings).kernels(Strength(settings["consistency"]))

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        return enumerate_solutions(puzzle, Strength(opts["consistency"]), limit, limits, seed, STATS,
                                   ValueOrder(opts["values"]), tree=TreeSearch.of(opts))
