"""Stack-based backtracking and its published variants (Panov & Koceski 2013, Sect. III-VII,
after Davies' solvers), backend `backtrack`: the engine's depth-first search with a fixed
variable order and check-only propagation (`check` / `projected` states).

The free cells are filled in fixed row-major order (cell order); each value is assigned
without propagation and checked against the constraints of the assigned cells only: a value
repeated in a run, a completed run with a wrong sum, or a partial sum already over the clue
fails. Variants (option `variant`; each is `plain` plus one idea, as the paper presents them):

- `plain`: domains are the full value range, values ascending;
- `run-ordering`: domains start as the intersection of the digit sets of the cell's runs'
  combinations (`kakuro.reasoning.rdv.run_intersections`, the first step of RDV);
- `value-ordering`: values descending;
- `decisive`: ascending when the puzzle's average clue per cell (sum of the clues over sum of
  the run lengths) lies below the middle of the value range (5 for 1..9), else descending;
- `projected-pruning`: also fails when a run's remaining free cells cannot reach its clue with
  distinct unused values (the sum of the smallest / largest of them brackets what is left).

Complete: proves unsatisfiability and counts solutions. Stats: `nodes` (values tried),
`fails` (values the check rejected). Deterministic: the seed is not used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.limits import Limits
from kakuro.native.searches import free_cells, search, start
from kakuro.native.settings import Strength, ValueOrder, depth_first_kernel, root_kernel
from kakuro.native_solver import TREE_BUDGETS, NativeSolver
from kakuro.options import Option
from kakuro.outcome import Enumeration
from kakuro.puzzle import Puzzle
from kakuro.reasoning.rdv import run_intersections
from kakuro.registry import register
from kakuro.solver import EnumeratingSolver

VARIANTS = ("plain", "run-ordering", "value-ordering", "decisive", "projected-pruning")
STATS = ("nodes", "fails")


def descending_for(puzzle: Puzzle) -> bool:
    """Decisive value ordering: True (descending) unless the average clue per cell (sum of
    the clues over the sum of the run lengths) lies below the middle of the value range."""
    lo, hi = puzzle.values
    cells = sum(len(run.cells) for run in puzzle.groups)
    clues = sum(run.total for run in puzzle.groups)
    return 2 * clues >= (lo + hi) * cells


def _strength(variant: str) -> Strength:
    """The engine's strength for `variant`: its check, with projected run pruning or without."""
    return Strength.PROJECTED if variant == "projected-pruning" else Strength.CHECK


@register("backtrack")
class Backtracking(NativeSolver, EnumeratingSolver):
    """Stack-based backtracking, row-major, checks only (the variants of Davies' solvers)."""

    description = "stack-based backtracking and its variants (Panov & Koceski 2013, Davies 2009)"
    paradigm = "native propagation"
    complete = True
    supports_seed = False
    budgets = TREE_BUDGETS
    options = {"variant": Option("run-ordering", "which published variant: plain (Davies' solver), run-ordering (domains start "
                                                 "from the digit sets of each cell's runs; the strongest), value-ordering, "
                                                 "decisive or projected-pruning", choices=VARIANTS)}

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        strength = _strength(settings["variant"])
        return (root_kernel(strength), depth_first_kernel(strength))

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        variant = opts["variant"]
        if variant == "value-ordering":
            descending = True
        elif variant == "decisive":
            descending = descending_for(puzzle)
        else:
            descending = False
        consistency = _strength(variant)
        domains = run_intersections(puzzle) if variant == "run-ordering" else None
        st, decided = start(puzzle, consistency, limits, 0, STATS, domains)
        if decided is not None:
            found = decided
            if decided.exhausted and not decided.solutions:
                found.message = "the givens break a run"
        else:
            assert st is not None  # start returns no state only with a decision
            found = search(st, limit, STATS, ValueOrder.DESCENDING if descending else ValueOrder.ASCENDING, free_cells(st))
        found.stats.pop("root_solved", None)
        found.stats["value_order"] = "descending" if descending else "ascending"
        return found
