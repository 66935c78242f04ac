"""Reducing Domain Values (Panov & Koceski 2013): the published domain reduction.

1. A cell's domain is the intersection of the digit sets of its runs' combinations.
2. Unique numbers: a digit that only one cell of a run can take becomes that cell's value.
3. Repeat to a fixpoint.

Two details the paper leaves implicit are made explicit so the reduction is sound: a run's
combinations are those still possible (containing the run's fixed digits and covered by its
cells' domains), and a fixed digit leaves the domains of the other cells of its runs; a
"unique number" is only forced when every remaining combination of the run contains it
(the paper's Fig. 4 example is such a case; without that condition the rule is unsound).

Self-Adaptive Harmony Search (`kakuro.search.harmony`) uses this reduction as its
pre-computation, as its paper does. Backend `rdv` (below) runs it, then optionally searches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kakuro.clock import Deadline
from kakuro.combos import (
    combinations,
    fixed_values,
    range_mask,
    run_combinations,
    union_of,
)
from kakuro.options import Option
from kakuro.outcome import Enumeration
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.search.native import (
    TREE_OPTIONS,
    TreeSearchSolver,
    enumerate_solutions,
    tree_kernels,
    tree_settings,
)

SEARCH_STATS = ("nodes", "fails", "propagations")


@dataclass(frozen=True)
class Reduction:
    """The reduced domains (bitmasks, cell order) and what the reduction did.

    `wiped_out` is True when some cell or run has no value left: the puzzle is unsatisfiable.
    `solved` is True when every domain holds exactly one value (not yet checked).
    """

    domains: tuple[int, ...]
    wiped_out: bool
    passes: int
    """Sweeps over all runs until nothing changed."""
    forced: int
    """Cells fixed by the unique-number rule."""
    stopped: bool = False
    """True when the deadline passed first: `domains` are sound but not reduced to the end."""

    @property
    def solved(self) -> bool:
        return not self.wiped_out and not self.stopped and all(d & (d - 1) == 0 for d in self.domains)


CHECK_EVERY = 64
"""Runs revised between two looks at the deadline (a 1000x1000 grid has ~500,000 runs)."""
STOPPED = "time limit reached during the domain reduction"


def reduce_domains(puzzle: Puzzle, deadline: Deadline | None = None) -> Reduction:
    """Apply the Reducing Domain Values rules to a fixpoint (pure; the puzzle is not changed),
    or until `deadline` passes (`stopped`; checked every CHECK_EVERY runs)."""
    full = range_mask(puzzle.values)
    domains = [full] * puzzle.size
    for cell, digit in puzzle.givens.items():
        domains[cell] = 1 << digit
    deadline = deadline or Deadline()
    tables = []
    for number, run in enumerate(puzzle.runs):
        if number % CHECK_EVERY == 0 and deadline.expired():
            return Reduction(tuple(domains), False, 0, 0, stopped=True)
        tables.append(run_combinations(puzzle, run))  # those holding the givens: the others are never possible
    passes = forced = 0
    changed = True
    while changed:
        changed = False
        passes += 1
        for number, (run, table) in enumerate(zip(puzzle.runs, tables)):
            if number % CHECK_EVERY == 0 and deadline.expired():
                return Reduction(tuple(domains), False, passes, forced, stopped=True)
            cells = run.cells
            fixed = 0
            for c in cells:
                d = domains[c]
                if d & (d - 1) == 0:
                    if d & fixed:
                        return Reduction(tuple(domains), True, passes, forced)
                    fixed |= d
            cover = union_of(domains[c] for c in cells)
            possible = [m for m in table if m & fixed == fixed and m & cover == m]
            if not possible:
                return Reduction(tuple(domains), True, passes, forced)
            digits = union_of(possible)
            required = possible[0]
            for m in possible[1:]:
                required &= m
            for c in cells:
                d = domains[c]
                new = d & digits if d & (d - 1) == 0 else d & digits & ~fixed
                if new != d:
                    if new == 0:
                        domains[c] = 0
                        return Reduction(tuple(domains), True, passes, forced)
                    domains[c] = new
                    changed = True
            for digit_mask in _bits(required & ~fixed):
                holders = [c for c in cells if domains[c] & digit_mask]
                if not holders:
                    return Reduction(tuple(domains), True, passes, forced)
                if len(holders) == 1 and domains[holders[0]] != digit_mask:
                    domains[holders[0]] = digit_mask
                    forced += 1
                    changed = True
    return Reduction(tuple(domains), False, passes, forced)


def _bits(mask: int) -> list[int]:
    """The single-bit masks of `mask`."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


# --------------------------------------------------------------------- backend
def run_intersections(puzzle: Puzzle) -> list[int]:
    """Step 1 of the reduction on its own: each cell's domain is the intersection, over its
    runs, of the digits of the run's combinations (givens ignored). Davies' run-based ordering
    starts its backtracking from these domains."""
    full = range_mask(puzzle.values)
    digits = [union_of(combinations(len(run.cells), run.total, puzzle.values)) for run in puzzle.runs]
    domains = []
    for runs in puzzle.cell_runs:
        d = full
        for r in runs:
            d &= digits[r]
        domains.append(d)
    return domains


@register("rdv")
class ReducingDomainValues(TreeSearchSolver):
    """The Reducing Domain Values reduction, then (by default) depth-first search.

    `search=true` (default): the reduced domains are the root of a depth-first search, smallest
    domain first, values ascending (the engine's search), propagating by exact run reasoning
    (`consistency=gac`, default, which subsumes the reduction) or forward checking
    (`consistency=fc`), with the modern search's parts (`TREE_OPTIONS`), so the backend is
    complete: it proves unsatisfiability and counts solutions. `search=false`: the paper's
    algorithm alone, answering UNKNOWN when the reduction stalls (and, when counting,
    `exhausted=False`), so that setting is incomplete. `complete` (a class attribute) describes
    the default; `search=false` never claims more than the reduction proved.
    """

    description = "Reducing Domain Values (Panov & Koceski 2013), then depth-first search"
    complete = True
    options = {
        "search": Option(True, "search after the reduction (false: the paper's algorithm, incomplete)"),
        "consistency": Option("gac", "propagation during the search after the reduction: gac (exact run-level "
                                     "reasoning, the strongest) or fc (forward checking)", choices=("gac", "fc")),
        **TREE_OPTIONS,
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        if not settings["search"]:
            return ()
        return tree_kernels(settings["consistency"], tree_settings(settings))

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        reduction = reduce_domains(puzzle, deadline)
        if reduction.stopped:
            return Enumeration([], False, {"passes": reduction.passes, "forced": reduction.forced}, STOPPED)
        stats: dict[str, Any] = {
            "root_solved": reduction.wiped_out or reduction.solved,
            "passes": reduction.passes,
            "forced": reduction.forced,
        }
        if reduction.wiped_out:
            return Enumeration([], True, stats, "the reduction wiped out a domain")
        if reduction.solved:
            return Enumeration([fixed_values(reduction.domains)], True, stats)
        if not opts["search"]:
            undecided = sum(1 for d in reduction.domains if d & (d - 1))
            return Enumeration([], False, stats, f"the reduction stalled with {undecided} cells undecided (search=false)")
        found = enumerate_solutions(
            puzzle, opts["consistency"], limit, deadline, seed, SEARCH_STATS, domains=reduction.domains,
            tree=tree_settings(opts),
        )
        found.stats.update(root_solved=stats["root_solved"], passes=reduction.passes, forced=reduction.forced)
        return found
