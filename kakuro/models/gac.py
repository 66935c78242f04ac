"""The native GAC sum-alldiff model (backend `gac`), after the Choco Kakuro tutorial.

Each run is one combined sum + all-different constraint kept at generalized arc consistency
by the shared kernel's run-level propagator (`kernel.revise_run`: a value stays only if some
combination of distinct values with the run's sum, matched one-to-one onto the run's free
cells, gives it to that cell; the tutorial compiles the same constraint to a table or a
`regular` automaton). Three stages:

1. root GAC: every run revised to a fixpoint (`kernel.root_propagate`);
2. shaving, i.e. singleton arc consistency (`shave`): each remaining value of each unfixed
   cell is assigned, propagated and undone; a value whose propagation wipes out a domain is
   removed (and the removal propagated). `fixpoint` (default) repeats sweeps over the cells
   until one removes nothing, `once` sweeps once, `none` skips the stage. Measured on all
   1,398 shared puzzles (`experiments/propagation_strength.py`): `once` and `fixpoint` decide
   the same puzzles with no search (every one with a unique solution) at the same cost, since
   a second sweep only runs after a removal, when nearly every domain is fixed; `fixpoint` is
   the default because it guarantees singleton arc consistency;
3. depth-first search maintaining GAC, smallest domain first, values ascending
   (`kernel.depth_first`), from the shaved domains.

Stats: `root_solved` (stages 1-2 decided the puzzle: every domain a single value, or a
wipe-out), `removed_gac` and `removed_shaving` (values removed by each stage from the initial
domains: the full range for an empty cell, the digit for a given), `probes` (shaving trial
assignments), `sweeps`, `nodes`, `fails`, `propagations` (run revisions). Deterministic: the
seed is not used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kakuro.puzzle import Puzzle
from kakuro.search import kernel
from kakuro.search.kernel import State, assign, compiled, lowest_bit_index, popcount, undo
from kakuro.solver import Deadline, Enumeration, EnumeratingSolver, Option, register

SHAVING = ("none", "once", "fixpoint")
SEARCH_STATS = ("nodes", "fails", "propagations")
# counters of `shave` (an int64 array of SHAVE_COUNTERS slots)
PROBES = 0
SWEEPS = 1
SHAVE_COUNTERS = 2


@compiled
def shave(st: State, fixpoint: bool, counters: np.ndarray) -> bool:
    """Singleton arc consistency on the current (GAC) state: remove each value of a free cell
    whose assignment propagates to a wipe-out, propagating every removal. One sweep over the
    cells, or sweeps until one removes nothing (`fixpoint`). Removals stay on the trail (the
    caller commits them). `counters[PROBES]` and `counters[SWEEPS]` are incremented. False
    when the puzzle is unsatisfiable, or when stopped (`info[STOP]` set)."""
    n = st.dom.shape[0]
    while True:
        counters[SWEEPS] += 1
        changed = False
        for c in range(n):
            if st.val[c] >= 0 or st.size[c] <= 1:
                continue
            left = st.dom[c]
            while left:
                b = left & -left
                left ^= b
                if st.dom[c] & b == 0:  # removed meanwhile, by the propagation of a removal
                    continue
                counters[PROBES] += 1
                mark = st.info[kernel.TRAIL]
                ok = assign(st, c, lowest_bit_index(b))
                undo(st, mark)
                if ok:
                    continue
                if st.info[kernel.STOP] != 0:
                    return False
                nd = st.dom[c] & ~b
                kernel._set_domain(st, c, nd)
                if nd == 0:
                    return False
                for e in range(2):
                    if st.cell_runs[c, e] >= 0:
                        kernel._enqueue(st, st.cell_runs[c, e])
                if not kernel.propagate(st):
                    return False
                changed = True
        if not fixpoint or not changed:
            return True


@compiled
def domain_summary(st: State) -> tuple[int, int]:
    """(sum of the domain sizes, number of one-value domains); an assigned cell counts one."""
    total = 0
    fixed = 0
    for c in range(st.dom.shape[0]):
        k = popcount(st.dom[c])
        total += k
        fixed += k == 1
    return total, fixed


@dataclass(frozen=True)
class RootReduction:
    """What GAC and shaving did before any search (see `reduce`)."""

    domains: tuple[int, ...]
    """Cell domains (bitmasks, cell order) after the stages; meaningless after a wipe-out."""
    wiped_out: bool
    """The stages proved the puzzle unsatisfiable."""
    solved: bool
    """Every domain holds one value: at GAC those values are the only solution."""
    removed_gac: int
    removed_shaving: int
    probes: int
    """Trial assignments made by shaving."""
    sweeps: int
    """Shaving sweeps over the cells (0 without shaving)."""


def prepare(puzzle: Puzzle, shaving: str, deadline: Deadline) -> tuple[State, RootReduction | None]:
    """Build the GAC state of `puzzle`, run root GAC and `shaving` ("none", "once" or
    "fixpoint") and commit the result as the search root. Returns the state and the
    reduction, which is None when the deadline passed first.

    Raises KakuroError when the puzzle's combination tables are too large (wide value ranges).
    """
    st = kernel.build_state(puzzle, "gac")
    kernel.begin(st, deadline, 0)
    initial = _initial_total(puzzle)
    ok = kernel.root_propagate(st)
    counters = np.zeros(SHAVE_COUNTERS, dtype=np.int64)
    after_gac = domain_summary(st)[0] if ok else initial
    if ok and shaving != "none":
        ok = shave(st, shaving == "fixpoint", counters)
        st.info[kernel.TRAIL] = 0  # the shaved domains are the root of the search
    if st.info[kernel.STOP] != 0:
        return st, None
    after, fixed = domain_summary(st) if ok else (after_gac, 0)
    reduction = RootReduction(
        domains=tuple(st.dom.tolist()),
        wiped_out=not ok,
        solved=ok and fixed == puzzle.size,
        removed_gac=initial - after_gac,
        removed_shaving=after_gac - after,
        probes=int(counters[PROBES]),
        sweeps=int(counters[SWEEPS]),
    )
    return st, reduction


def reduce(puzzle: Puzzle, shaving: str = "none") -> RootReduction:
    """Root GAC, then `shaving`, on `puzzle` (no search, no time limit)."""
    if shaving not in SHAVING:
        raise ValueError(f"shaving must be one of {', '.join(SHAVING)}, not {shaving!r}")
    _, reduction = prepare(puzzle, shaving, Deadline())
    if reduction is None:  # cannot happen without a deadline
        raise RuntimeError("root propagation stopped without a deadline")
    return reduction


def _initial_total(puzzle: Puzzle) -> int:
    lo, hi = puzzle.values
    given = len(puzzle.givens)
    return (puzzle.size - given) * (hi - lo + 1) + given


@register("gac")
class GacModel(EnumeratingSolver):
    """Run-level GAC sum-alldiff, then shaving, then search maintaining GAC."""

    description = "GAC per run (sum + alldifferent as one constraint), shaving (SAC), MAC search"
    complete = True
    supports_seed = False
    options = {
        "shaving": Option(
            "fixpoint",
            "singleton arc consistency after root GAC: fixpoint (repeated sweeps), once or none",
            choices=SHAVING,
        ),
    }

    @classmethod
    def warm_up(cls) -> None:
        kernel.warm_up()
        tiny = Puzzle.all_white([6, 9, 8], [6, 9, 8], values=(1, 4))
        for shaving in SHAVING:
            prepare(tiny, shaving, Deadline.after(10.0))

    def _run(
        self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline
    ) -> tuple[list[list[int]], bool, dict[str, Any], str]:
        """Up to `limit` solutions, whether the search finished, stats, message."""
        st, reduction = prepare(puzzle, opts["shaving"], deadline)
        stats: dict[str, Any] = {}
        if reduction is None:
            stats.update(kernel.stats_of(st, SEARCH_STATS), root_solved=False)
            return [], False, stats, "time limit reached during root propagation or shaving"
        stats.update(
            root_solved=reduction.wiped_out or reduction.solved,
            removed_gac=reduction.removed_gac,
            removed_shaving=reduction.removed_shaving,
            probes=reduction.probes,
            sweeps=reduction.sweeps,
        )
        if reduction.wiped_out:
            stats.update(nodes=0, fails=0, propagations=int(st.info[kernel.PROPAGATIONS]))
            return [], True, stats, "root propagation wiped out a domain"
        if reduction.solved:
            stats.update(nodes=0, fails=0, propagations=int(st.info[kernel.PROPAGATIONS]))
            return [[d.bit_length() - 1 for d in reduction.domains]], True, stats, ""
        code, found = kernel.run_depth_first(st, True, limit)
        stats.update({k: v for k, v in kernel.stats_of(st, SEARCH_STATS).items() if k != "root_solved"})
        return found, code == kernel.EXHAUSTED, stats, "time limit reached" if code == kernel.STOPPED else ""

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        return Enumeration(*self._run(puzzle, opts, limit, deadline))
