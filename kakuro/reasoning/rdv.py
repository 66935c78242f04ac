"""The Reducing Domain Values rules (Panov & Koceski 2013) and Davies' run intersections: pure
domain reduction on bitmasks, shared by the `rdv`, `cpsat`, `backtrack` and `sahs` backends and
the generator's grading.

1. A cell's domain is the intersection of the digit sets of its runs' combinations.
2. Unique numbers: a digit that only one cell of a run can take becomes that cell's value.
3. Repeat to a fixpoint.

Two details the paper leaves implicit are made explicit so the reduction is sound: a run's
combinations are those still possible (containing the run's fixed digits and covered by its
cells' domains), and a fixed digit leaves the domains of the other cells of its runs; a
"unique number" is only forced when every remaining combination of the run contains it
(the paper's Fig. 4 example is such a case; without that condition the rule is unsound).
"""

from __future__ import annotations

from dataclasses import dataclass

from kakuro.clock import Deadline
from kakuro.combos import combinations, given_domains, range_mask, run_combinations, union_of
from kakuro.puzzle import Puzzle


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
    domains = given_domains(puzzle)
    deadline = deadline or Deadline()
    tables = []
    for number, run in enumerate(puzzle.groups):
        if number % CHECK_EVERY == 0 and deadline.expired():
            return Reduction(tuple(domains), False, 0, 0, stopped=True)
        tables.append(run_combinations(puzzle, run))  # those holding the givens: the others are never possible
    passes = forced = 0
    changed = True
    while changed:
        changed = False
        passes += 1
        for number, (run, table) in enumerate(zip(puzzle.groups, tables)):
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
    digits = [union_of(combinations(len(run.cells), run.total, puzzle.values)) for run in puzzle.groups]
    domains = []
    for runs in puzzle.cell_groups:
        d = full
        for r in runs:
            d &= digits[r]
        domains.append(d)
    return domains
