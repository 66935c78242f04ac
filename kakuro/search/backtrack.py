"""Stack-based backtracking and its published variants (Panov & Koceski 2013, Sect. III-VII,
after Davies' solvers), backend `backtrack`, on the shared kernel's state.

The free cells are filled in fixed row-major order (cell order); each value is assigned
without propagation and checked against the constraints of the assigned cells only: a value
repeated in a run, a completed run with a wrong sum, or a partial sum already over the clue
fails. Variants (option `variant`; each is `plain` plus one idea, as the paper presents them):

- `plain`: domains are the full value range, values ascending;
- `run-ordering`: domains start as the intersection of the digit sets of the cell's runs'
  combinations (`kakuro.search.rdv.run_intersections`, the first step of RDV);
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

import numpy as np

from kakuro.puzzle import Puzzle
from kakuro.search import kernel
from kakuro.search.kernel import State, compiled, lowest_bit_index, undo
from kakuro.search.rdv import load_domains, run_intersections
from kakuro.solver import Deadline, Enumeration, EnumeratingSolver, Option, register

VARIANTS = ("plain", "run-ordering", "value-ordering", "decisive", "projected-pruning")
CLOCK_EVERY_NODES = 1024
"""Values tried between two readings of the kernel clock."""


@compiled
def _highest_bit_index(mask: int, hi: int) -> int:
    """Index of the highest set bit of a non-zero `mask` whose bits lie at or below `hi`."""
    v = hi
    while (mask >> v) & 1 == 0:
        v -= 1
    return v


@compiled
def _reachable(free_values: int, k: int, rest: int, hi: int) -> bool:
    """Can `k` distinct values of the mask `free_values` sum to `rest`? Only the bracket is
    tested: the sum of the k smallest <= rest <= the sum of the k largest."""
    low = 0
    m = free_values
    for _ in range(k):
        if m == 0:
            return False
        b = m & -m
        low += lowest_bit_index(b)
        m ^= b
    if rest < low:
        return False
    high = 0
    m = free_values
    v = hi
    taken = 0
    while taken < k:
        if (m >> v) & 1:
            high += v
            taken += 1
        v -= 1
    return rest <= high


@compiled
def consistent(st: State, c: int, full: int, hi: int, projected: bool) -> bool:
    """Check the runs of cell `c`, just assigned, against the assigned cells only: no repeated
    value, a completed run sums to its clue, a partial sum does not exceed it; with
    `projected`, the free cells can still reach the clue with distinct unused values."""
    v = st.val[c]
    for k in range(2):
        r = st.cell_runs[c, k]
        if r < 0:
            continue
        used = np.int64(0)
        for idx in range(st.members[r], st.members[r + 1]):
            m = st.members[idx]
            if m != c and st.val[m] >= 0:
                if st.val[m] == v:
                    return False
                used |= np.int64(1) << st.val[m]
        used |= np.int64(1) << v
        total = st.runs[r, kernel.SUM]
        target = st.runs[r, kernel.TARGET]
        free = st.runs[r, kernel.FREE]
        if free == 0:
            if total != target:
                return False
        elif total > target:
            return False
        elif projected and not _reachable(full & ~used, free, target - total, hi):
            return False
    return True


@compiled
def place_givens(st: State, full: int, hi: int, projected: bool) -> bool:
    """Assign the givens (no propagation) and check them; False when they already break a
    run (or lie outside their cell's starting domain)."""
    for g in range(st.givens.shape[0]):
        c = st.givens[g, 0]
        if not kernel._assign_raw(st, c, st.givens[g, 1]):
            return False
        if not consistent(st, c, full, hi, projected):
            return False
    return True


@compiled
def backtrack(
    st: State, order: np.ndarray, descending: bool, projected: bool, full: int, hi: int,
    solutions: np.ndarray, stack: np.ndarray,
) -> tuple[int, int]:
    """Stack-based backtracking over the free cells `order` (int32, in that fixed order).

    Stores up to len(solutions) solutions in the rows of `solutions`; `stack` is int64
    (2, len(order) + 1) scratch. Returns (code, count) like `kernel.depth_first`: EXHAUSTED,
    LIMIT or STOPPED (the kernel clock against `info[END_NS]`). The state is restored.
    """
    limit = solutions.shape[0]
    root = st.info[kernel.TRAIL]
    depth_count = order.shape[0]
    count = 0
    if depth_count == 0:
        kernel._copy_values(st, solutions[0])
        return (kernel.LIMIT if limit <= 1 else kernel.EXHAUSTED), 1
    s_vals, s_mark = stack[0], stack[1]
    d = 0
    s_vals[0] = st.dom[order[0]]
    s_mark[0] = root
    while d >= 0:
        vals = s_vals[d]
        if vals == 0:
            d -= 1
            continue
        v = _highest_bit_index(vals, hi) if descending else lowest_bit_index(vals)
        s_vals[d] = vals & ~(np.int64(1) << v)
        undo(st, s_mark[d])
        st.info[kernel.NODES] += 1
        if st.info[kernel.NODES] % CLOCK_EVERY_NODES == 0 and kernel.clock_ns() >= st.info[kernel.END_NS]:
            st.info[kernel.STOP] = 1
            undo(st, root)
            return kernel.STOPPED, count
        c = order[d]
        kernel._assign_raw(st, c, v)
        if not consistent(st, c, full, hi, projected):
            st.info[kernel.FAILS] += 1
            continue
        if d + 1 == depth_count:
            kernel._copy_values(st, solutions[count])
            count += 1
            if count >= limit:
                undo(st, root)
                return kernel.LIMIT, count
            continue
        d += 1
        s_vals[d] = st.dom[order[d]]
        s_mark[d] = st.info[kernel.TRAIL]
    undo(st, root)
    return kernel.EXHAUSTED, count


def descending_for(puzzle: Puzzle) -> bool:
    """Decisive value ordering: True (descending) unless the average clue per cell (sum of
    the clues over the sum of the run lengths) lies below the middle of the value range."""
    lo, hi = puzzle.values
    cells = sum(len(run.cells) for run in puzzle.runs)
    clues = sum(run.total for run in puzzle.runs)
    return 2 * clues >= (lo + hi) * cells


@register("backtrack")
class Backtracking(EnumeratingSolver):
    """Stack-based backtracking, row-major, checks only (the variants of Davies' solvers)."""

    description = "stack-based backtracking and its variants (Panov & Koceski 2013, Davies 2009)"
    complete = True
    supports_seed = False
    options = {"variant": Option("run-ordering", "which published variant: plain (Davies' solver), run-ordering (domains start from the digit sets of each cell's runs; the strongest), value-ordering, decisive or projected-pruning", choices=VARIANTS)}

    @classmethod
    def warm_up(cls) -> None:
        kernel.warm_up()
        tiny = Puzzle.all_white([6, 9, 8], [6, 9, 8], values=(1, 4), givens={(0, 0): 1})
        for variant in ("plain", "projected-pruning"):
            cls(variant=variant)._run(tiny, {"variant": variant}, 2, Deadline.after(10.0))

    def _run(
        self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline
    ) -> tuple[list[list[int]], bool, dict[str, Any], str]:
        """Up to `limit` solutions, whether the search finished, stats, message."""
        variant = opts["variant"]
        lo, hi = puzzle.values
        full = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        projected = variant == "projected-pruning"
        if variant == "value-ordering":
            descending = True
        elif variant == "decisive":
            descending = descending_for(puzzle)
        else:
            descending = False
        stats: dict[str, Any] = {"value_order": "descending" if descending else "ascending"}
        st = kernel.build_state(puzzle, "fc")
        if variant == "run-ordering":
            load_domains(st, run_intersections(puzzle))
        kernel.begin(st, deadline, 0)
        if not place_givens(st, full, hi, projected):
            stats.update(nodes=0, fails=0)
            return [], True, stats, "the givens break a run"
        order = np.flatnonzero(st.val < 0).astype(np.int32)
        solutions = np.zeros((limit, puzzle.size), dtype=np.int32)
        stack = np.zeros((2, order.shape[0] + 1), dtype=np.int64)
        code, count = backtrack(st, order, descending, projected, full, hi, solutions, stack)
        stats.update(nodes=int(st.info[kernel.NODES]), fails=int(st.info[kernel.FAILS]))
        found = solutions[:count].tolist()
        return found, code == kernel.EXHAUSTED, stats, "time limit reached" if code == kernel.STOPPED else ""

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        return Enumeration(*self._run(puzzle, opts, limit, deadline))
