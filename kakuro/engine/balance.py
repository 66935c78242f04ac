"""The balance of a grid's open regions: a condition every solution meets that no run's own
propagation sees.

Each cell of a classic or all-white grid lies in two runs, one across and one down. Link two
open cells (a domain of more than one value) when they share a run. In a connected
*component* C every run with an open cell has all its open cells in C, so the values of C add
up both to its across runs' residuals (clue minus the run's fixed values) and to its down
runs'. When the two totals differ, C is *unbalanced* and nothing completes it, however
consistent each run looks: a 2x2 open block whose across runs want 7 and 9 and whose down
runs want 8 and 9 is one. (Over the reals the runs' equations have a solution exactly when
every component balances: cells are the edges of a bipartite graph of runs, and the left
kernel of its incidence matrix is spanned by the components' +1 / -1 vectors.)

A search meets an unbalanced component far below its cause. Fixing a cell inside a component
takes its value from one across and one down residual, so the balance stays; it changes only
when a fixed cell splits a component, into parts whose balances add up to the whole's. The
run propagators see nothing wrong until most of the part is filled: on loose 100x100 grids
the search filled thousands of cells above a part that could never balance, and learned
nogoods about the part's inside.

`balanced` checks, after a propagation, the components next to the cells fixed since a trail
mark: it explores them side by side, breadth first from one open cell of each of those cells'
runs (a run's open cells are one region; one *piece* each, merged when they meet), until at
most one piece is unfinished. That one is the
rest of a component that balanced before (every component does, by induction from the root,
where `balanced` checks them all), so it balances too; a common step, a cell fixed inside a
large component without splitting it, costs a few cells' exploration, not the component's.
A failure is the wipe-out `UNBALANCED` (`info[FAILED]`), explained by the fixed cells of the
component's runs (`Balance.cause`): together they leave no solution.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kakuro.engine.bits import lowest_bit_index
from kakuro.engine.compile import compiled
from kakuro.engine.layout import FAILED, SUMS_FROM, TARGET, TRAIL, UNBALANCED, UNBALANCED_FOUND, State
from kakuro.engine.queries import is_fixed
from kakuro.engine.trail import trail_cell

# counters slots
EPOCH = 0
"""The last piece's number (pieces mark their cells and runs with it; a check's pieces are
numbered on from the last check's)."""
CAUSES = 1
"""How many cells of `cause` explain the last unbalanced component."""
PARTS = 2
"""How many runs of `part_runs` the last unbalanced component has."""
ON = 3
"""1 while the check is on (0: off, or not applicable)."""
COUNTERS = 4


class Balance(NamedTuple):
    """The buffers of the balance check (made by `balance_buffers`)."""

    sign: np.ndarray
    """int64 per run: +1 for one direction, -1 for the other (a 2-colouring of the runs)."""
    cell_mark: np.ndarray
    run_mark: np.ndarray
    """int64 per cell / per run: the piece that last met it."""
    queue: np.ndarray
    """int64 per cell: the check's queue of cells (and, while colouring, of runs)."""
    parent: np.ndarray
    pending: np.ndarray
    total: np.ndarray
    """int64 per piece of a check: the piece it was merged into (union-find), its cells queued
    and not yet explored, the balance of its runs explored so far."""
    cause: np.ndarray
    """int64 (2 per cell): the fixed cells of the unbalanced component's runs (some twice)."""
    part_runs: np.ndarray
    """int64 per run: the unbalanced component's runs."""
    counters: np.ndarray
    """int64 (COUNTERS,): see the slots."""


def balance_buffers(st: State, on: bool) -> Balance:
    """Buffers for `st`, the check `on` where every cell lies in two runs, one of each colour
    (`colour_runs` decides, in the search)."""
    n, runs = st.dom.shape[0], st.runs.shape[0]
    counters = np.zeros(COUNTERS, dtype=np.int64)
    counters[ON] = int(on and st.cell_runs.shape[1] == 2)
    cells = [np.zeros(n, dtype=np.int64) for _ in range(4)]
    return Balance(np.zeros(runs, dtype=np.int64), cells[0], np.zeros(runs, dtype=np.int64),
                   np.zeros(max(n, runs), dtype=np.int64), cells[1], cells[2], cells[3],
                   np.zeros(2 * n, dtype=np.int64), np.zeros(runs, dtype=np.int64), counters)


@compiled
def colour_runs(st: State, b: Balance) -> None:
    """Give every run a sign, the two runs of each cell opposite ones (once: the signs stay
    with the buffers); turn the check off when a cell lies in fewer than two runs (or in an
    implied sum's row) or no such signs exist."""
    if b.counters[ON] == 0 or b.sign[0] != 0:
        return
    for c in range(st.dom.shape[0]):
        for k in range(2):
            if not 0 <= st.cell_runs[c, k] < st.info[SUMS_FROM]:
                b.counters[ON] = 0
                return
    for first in range(st.info[SUMS_FROM]):
        if b.sign[first] != 0:
            continue
        b.sign[first] = 1
        b.queue[0] = first
        head, tail = 0, 1
        while head < tail:
            r = b.queue[head]
            head += 1
            for idx in range(st.members[r], st.members[r + 1]):
                c = st.members[idx]
                other = st.cell_runs[c, 0] if st.cell_runs[c, 1] == r else st.cell_runs[c, 1]
                if b.sign[other] == 0:
                    b.sign[other] = -b.sign[r]
                    b.queue[tail] = other
                    tail += 1
                elif b.sign[other] == b.sign[r]:
                    b.counters[ON] = 0
                    return


@compiled
def _find(b: Balance, i: int) -> int:
    """The piece that piece `i` was merged into (path halving)."""
    while b.parent[i] != i:
        b.parent[i] = b.parent[b.parent[i]]
        i = b.parent[i]
    return i


@compiled
def _seed(b: Balance, s: int, first: int, pieces: int) -> None:
    """Open cell `s` starts piece number `pieces` of the check whose pieces start at `first`
    (the queue holds the seeds first, one each, in order)."""
    b.parent[pieces] = pieces
    b.pending[pieces] = 1
    b.total[pieces] = 0
    b.cell_mark[s] = first + pieces
    b.queue[pieces] = s


@compiled
def _explain(st: State, b: Balance, seed: int, mark: int) -> None:
    """Fill `cause` and `part_runs` from the component of open cell `seed`, marking it `mark`
    (larger than every mark so far)."""
    b.cell_mark[seed] = mark
    b.queue[0] = seed
    head, tail, causes, parts = 0, 1, 0, 0
    while head < tail:
        c = b.queue[head]
        head += 1
        for k in range(2):
            r = st.cell_runs[c, k]
            if b.run_mark[r] == mark:
                continue
            b.run_mark[r] = mark
            b.part_runs[parts] = r
            parts += 1
            for idx in range(st.members[r], st.members[r + 1]):
                o = st.members[idx]
                if is_fixed(st, o):
                    b.cause[causes] = o
                    causes += 1
                elif b.cell_mark[o] != mark:
                    b.cell_mark[o] = mark
                    b.queue[tail] = o
                    tail += 1
    b.counters[CAUSES] = causes
    b.counters[PARTS] = parts


@compiled
def _explore_run(st: State, b: Balance, r: int, i: int, first: int, tail: int) -> tuple[int, int]:
    """Piece `i` explores run `r`: queues the run's open cells no piece met, merges into `i` the
    pieces that met the others. Returns (the new queue tail, the pieces merged)."""
    b.run_mark[r] = first + i
    residual = st.runs[r, TARGET]
    merged = 0
    for idx in range(st.members[r], st.members[r + 1]):
        o = st.members[idx]
        if is_fixed(st, o):
            residual -= lowest_bit_index(st.dom[o])
        elif b.cell_mark[o] < first:
            b.cell_mark[o] = first + i
            b.queue[tail] = o
            tail += 1
            b.pending[i] += 1
        else:
            j = _find(b, b.cell_mark[o] - first)
            if j != i:
                b.parent[j] = i
                b.pending[i] += b.pending[j]
                b.total[i] += b.total[j]
                merged += 1
    b.total[i] += b.sign[r] * residual
    return tail, merged


@compiled
def balanced(st: State, b: Balance, since: int, everywhere: bool) -> bool:
    """Check the components next to a cell fixed by the trail entries from `since` on (every
    component, `everywhere`), as the module docstring says. False, with `info[FAILED]` =
    UNBALANCED and the component's runs and causes in `b`, when one does not balance; True when
    the check is off."""
    if b.counters[ON] == 0:
        return True
    first = b.counters[EPOCH] + 1
    pieces = 0
    if everywhere:
        for s in range(st.dom.shape[0]):
            if not is_fixed(st, s):
                _seed(b, s, first, pieces)
                pieces += 1
    else:
        for t in range(since, st.info[TRAIL]):
            f = trail_cell(st, t)
            if not is_fixed(st, f):
                continue
            for k in range(2):  # one open cell of each run of f: a run's open cells are one region
                r = st.cell_runs[f, k]
                for idx in range(st.members[r], st.members[r + 1]):
                    s = st.members[idx]
                    if not is_fixed(st, s):
                        if b.cell_mark[s] < first:
                            _seed(b, s, first, pieces)
                            pieces += 1
                        break
    b.counters[EPOCH] = first + pieces
    unfinished = pieces
    head, tail = 0, pieces
    while head < tail and unfinished > (0 if everywhere else 1):
        c = b.queue[head]
        head += 1
        i = _find(b, b.cell_mark[c] - first)
        for k in range(2):
            r = st.cell_runs[c, k]
            if b.run_mark[r] < first:
                tail, merged = _explore_run(st, b, r, i, first, tail)
                unfinished -= merged
        b.pending[i] -= 1
        if b.pending[i] == 0:
            unfinished -= 1
            if b.total[i] != 0:
                _explain(st, b, c, first + pieces)
                b.counters[EPOCH] += 1
                st.info[UNBALANCED_FOUND] += 1
                st.info[FAILED] = UNBALANCED
                return False
    return True
