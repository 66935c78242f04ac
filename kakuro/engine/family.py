"""The Sudoku family's search at machine speed: one candidate mask per cell, singles, locked
candidates and a depth-first search that copies the state per level, over many puzzles of one
shape in one compiled call.

The state (`kakuro.engine.family_state.FamilyState`) is built once per shape; each puzzle is a
row of givens. `propagate` runs to a fixpoint:

- naked singles: a cell with one candidate left removes it from its peers (a queue of cells);
- hidden singles: a value with one place left in a house goes there (a house missing a value
  everywhere is a wipe-out), all houses scanned once the queue is empty;
- cages (a Killer's, and the innies of its houses: `family_state.Cages`), when singles run dry:
  each cage's exact check, then the sums of innies and outies (`kakuro.engine.family_cages`);
- locked candidates, when all that runs dry and the state asks for them: where two houses cross
  (a box and a row), a value that house A has only in the crossing leaves the rest of B
  (pointing), and one that B has only there leaves the rest of A (claiming).

The search guesses on a cell with the fewest candidates (the first of two), its lowest value;
in a puzzle with cages, on the cell with the fewest candidates per wipe-out counted against it
so far (plus one: dom/wdeg, which spares the heavy tails of Killers whose first choices were
wrong; a wipe-out counts against the cells of the house, cage or sum where it happened, or the
two cells of a naked single's):
the level's candidates are copied to the next level (a few hundred bytes), the guess made and
propagated; when that subtree is done the value is removed at the level it was guessed on and
propagated there (binary branching), and the search goes on from that level. It counts
solutions up to `limit` (2 proves uniqueness) and keeps the first `keep`. Every
`CLOCK_EVERY` nodes it reads the clock: a run stops at the batch's deadline, on Ctrl-C or a
stop request (`kakuro.engine.interrupt`), and a puzzle stops at its own budget.

`solve_givens(state, givens, ..., cages=...)` is the batch entry: givens (P, N) -> a `Batch` of answers
(P, keep, N) and outcomes (P, OUTCOME) (code, count, nodes, fails, time). Answers are checked by
`kakuro.engine.verify`, which reads the puzzle's groups, not this state.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kakuro.clock import Deadline
from kakuro.engine.bits import lowest_bit_index, popcount
from kakuro.engine.compile import compiled, entry_point
from kakuro.engine.family_cages import cage_pass, sum_pass, work_list
from kakuro.engine.family_state import FULL, LOCKED, Cages, FamilyState, cages_for, family_state, no_cages
from kakuro.engine.interrupt import arm, clock_ns, raise_if_interrupted, should_stop
from kakuro.engine.layout import CLOCK_EVERY, EXHAUSTED, LIMIT, NO_DEADLINE, STOP, STOPPED, TICKS
from kakuro.puzzle import Puzzle

# outcome columns
CODE = 0
"""EXHAUSTED (the search finished: `COUNT` is exact, 0 means no solution), LIMIT (`limit`
solutions found), STOPPED (deadline, budget, interrupt or stop request: at least `COUNT`) or
CUT (its cap of guesses reached: at least `COUNT`)."""
COUNT = 1
NODES = 2
"""Guesses made."""
FAILS = 3
"""Propagations that ended in a wipe-out."""
TIME = 4
"""Nanoseconds the puzzle's search took (the kernels' clock)."""
OUTCOME = 5
CUT = -1
"""A CODE: the search gave up at its cap of guesses (a heavy tail another search may not have)."""
NO_CAP = np.iinfo(np.int64).max


# --------------------------------------------------------------------- propagation
@compiled
def _remove(st: FamilyState, cand: np.ndarray, k: int, start: int, end: int, mask: int, qlen: int) -> int:
    """Remove `mask` from the cells of the pieces `crossings[k, start:end]`; cells left with one
    candidate join the queue. Returns the queue's new length, -1 on a wipe-out."""
    pieces = st.pieces
    for j in range(start, end):
        p = st.crossings[k, j]
        for t in range(pieces.shape[1]):
            c = pieces[p, t]
            m = cand[c]
            if m & mask:
                m &= ~mask
                cand[c] = m
                if m == 0:
                    return -1
                if m & (m - 1) == 0:
                    st.queue[qlen] = c
                    qlen += 1
    return qlen


@compiled
def _locked_candidates(st: FamilyState, cand: np.ndarray) -> tuple[int, int]:
    """One pass of pointing and claiming over every crossing. Returns (changed, queue length):
    changed 1 when a candidate went, 0 when none, -1 on a wipe-out. The unions of the pieces are
    taken once, before the pass: one that went stale only holds more, which removes less."""
    unions, pieces, x = st.unions, st.pieces, st.crossings
    for p in range(pieces.shape[0] - 1):
        m = 0
        for t in range(pieces.shape[1]):
            m |= cand[pieces[p, t]]
        unions[p] = m
    rest = (x.shape[1] - 1) // 2
    changed = 0
    qlen = 0
    for k in range(x.shape[0]):
        shared = unions[x[k, 0]]
        in_a = 0
        in_b = 0
        for j in range(1, 1 + rest):
            in_a |= unions[x[k, j]]
            in_b |= unions[x[k, j + rest]]
        pointing = shared & ~in_a & in_b  # A has them only where it crosses B
        claiming = shared & ~in_b & in_a
        if pointing:
            qlen = _remove(st, cand, k, 1 + rest, 1 + 2 * rest, pointing, qlen)
            if qlen < 0:
                return -1, 0
            changed = 1
        if claiming:
            qlen = _remove(st, cand, k, 1, 1 + rest, claiming, qlen)
            if qlen < 0:
                return -1, 0
            changed = 1
    return changed, qlen


@compiled
def _blame(weights: np.ndarray, cells: np.ndarray, a: int, b: int) -> None:
    """Count a wipe-out against each of `cells[a:b]`, the cells of the constraint where it
    happened (`FamilyState.weights`)."""
    for t in range(a, b):
        weights[cells[t]] += 1


@compiled
def propagate(st: FamilyState, cg: Cages, cand: np.ndarray, qlen: int) -> bool:
    """Propagate the candidates `cand` (a row of `st.stack`) to a fixpoint, starting from the
    first `qlen` cells of `st.queue` (fixed cells whose value their peers still hold), with the
    cages of `cg`'s work list. False on a wipe-out."""
    queue, peers, houses = st.queue, st.peers, st.houses
    full = st.spec[FULL]
    width = houses.shape[1]
    while True:
        while qlen > 0:  # naked singles
            qlen -= 1
            c = queue[qlen]
            b = cand[c]
            for k in range(peers.shape[1]):
                p = peers[c, k]
                m = cand[p]
                if m & b:
                    m ^= b
                    cand[p] = m
                    if m == 0:
                        st.weights[p] += 1
                        st.weights[c] += 1
                        return False
                    if m & (m - 1) == 0:
                        queue[qlen] = p
                        qlen += 1
        found = False
        for h in range(houses.shape[0]):  # hidden singles
            once = 0
            twice = 0
            fixed = 0
            for k in range(width):
                m = cand[houses[h, k]]
                twice |= once & m
                once |= m
                if m & (m - 1) == 0:
                    fixed |= m
            if once != full:
                _blame(st.weights, houses[h], 0, width)
                return False
            single = once & ~twice & ~fixed
            if single:
                for k in range(width):
                    c = houses[h, k]
                    m = cand[c] & single
                    if m:
                        if m & (m - 1):  # two values with one place each, the same place
                            _blame(st.weights, houses[h], 0, width)
                            return False
                        cand[c] = m
                        queue[qlen] = c
                        qlen += 1
                found = True
        if found:
            continue
        if cg.work_count[0] > 0:
            changed, qlen = cage_pass(st, cg, cand)
            if changed < 0:
                _blame(st.weights, cg.work_cells, cg.work_start[qlen], cg.work_start[qlen + 1])
                return False
            if changed == 0:
                changed, qlen = sum_pass(st, cg, cand)
                if changed < 0:
                    _blame(st.weights, cg.sum_cells, cg.sum_start[qlen], cg.sum_start[qlen + 1])
                    return False
            if changed:
                continue
        if st.spec[LOCKED] == 0:
            return True
        changed, qlen = _locked_candidates(st, cand)
        if changed < 0:
            return False
        if changed == 0:
            return True


# --------------------------------------------------------------------- search
@compiled
def _start(st: FamilyState, cg: Cages, i: int, givens: np.ndarray) -> bool:
    """Level 0 of the stack for puzzle i: the full range and `givens` (one value per cell, 0 for
    none), its cages' work list, propagated. False when the givens or cages already contradict."""
    if not work_list(st, cg, i):
        return False
    cand = st.stack[0]
    full = st.spec[FULL]
    n = givens.shape[0]
    qlen = 0
    for c in range(n):
        v = np.int64(givens[c])
        if v == 0:
            cand[c] = full
            continue
        b = np.int64(1) << v
        if b & full == 0:
            return False
        cand[c] = b
        st.queue[qlen] = c
        qlen += 1
    cand[n] = 0  # the sentinel
    return propagate(st, cg, cand, qlen)


@compiled
def _choose(cand: np.ndarray, n: int) -> int:
    """The first cell with the fewest candidates (two at best), -1 when every cell is fixed."""
    best = -1
    fewest = 64
    for c in range(n):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if k < fewest:
                fewest = k
                best = c
                if k == 2:
                    break
    return best


@compiled
def _choose_weighted(cand: np.ndarray, n: int, weights: np.ndarray) -> int:
    """The first cell with the fewest candidates per (1 + `weights`, the wipe-outs counted against
    it), -1 when every cell is fixed."""
    best = -1
    fewest = 1
    per = 0  # fewest / per: the best ratio so far (none yet)
    for c in range(n):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if per == 0 or k * per < fewest * (1 + weights[c]):
                fewest = k
                per = 1 + weights[c]
                best = c
    return best


@compiled
def _keep(cand: np.ndarray, answer: np.ndarray) -> None:
    """Write the fixed candidates `cand` as values into `answer`."""
    for c in range(answer.shape[0]):
        answer[c] = lowest_bit_index(cand[c])


@compiled
def _poll(st: FamilyState, end: int) -> bool:
    """Count a tick; every CLOCK_EVERY ticks read the clock: True when the run must stop (its
    deadline, Ctrl-C or a stop request: `should_stop`) or this puzzle's budget (`end`, kernel
    clock ns) is spent."""
    st.info[TICKS] += 1
    if st.info[TICKS] % CLOCK_EVERY != 0:
        return False
    return should_stop(st) or (end != NO_DEADLINE and clock_ns() >= end)


@compiled
def _search(st: FamilyState, cg: Cages, i: int, givens: np.ndarray, answers: np.ndarray, limit: int, end: int,
            cap: int, outcome: np.ndarray) -> None:
    """Count the solutions of puzzle i (`givens`, its cages in `cg`) up to `limit`, the first rows
    of `answers` (keep, N) receiving the first ones, giving up (CUT) before guess `cap` + 1; its
    outcome (CODE, COUNT, NODES, FAILS) into `outcome`."""
    n = givens.shape[0]
    stack, decisions, queue = st.stack, st.decisions, st.queue
    count, nodes, fails, code = 0, 0, 0, EXHAUSTED
    d = 0
    weighted = cg.first[i + 1] > cg.first[i]
    weights = st.weights
    for k in range(n + 1):
        weights[k] = 0
    ok = _start(st, cg, i, givens)
    if not ok:
        fails += 1
        d = -1
    while d >= 0:
        if ok:
            cand = stack[d]
            c = _choose_weighted(cand, n, weights) if weighted else _choose(cand, n)
            if c < 0:  # a solution
                if count < answers.shape[0]:
                    _keep(cand, answers[count])
                count += 1
                if count >= limit:
                    code = LIMIT
                    break
                ok = False
            else:
                if _poll(st, end):
                    code = STOPPED
                    break
                if nodes >= cap:
                    code = CUT
                    break
                b = cand[c] & -cand[c]
                decisions[d, 0] = c
                decisions[d, 1] = b
                child = stack[d + 1]
                for k in range(n + 1):
                    child[k] = cand[k]
                child[c] = b
                queue[0] = c
                nodes += 1
                d += 1
                ok = propagate(st, cg, child, 1)
                if not ok:
                    fails += 1
            continue
        d -= 1  # the subtree of level d's guess is done: refute it there
        if d < 0:
            break
        cand = stack[d]
        c = decisions[d, 0]
        m = cand[c] & ~decisions[d, 1]
        cand[c] = m
        queue[0] = c
        ok = propagate(st, cg, cand, 1 if m & (m - 1) == 0 else 0)
        if not ok:
            fails += 1
    outcome[CODE] = code
    outcome[COUNT] = count
    outcome[NODES] = nodes
    outcome[FAILS] = fails


@entry_point
def solve_rows(st: FamilyState, cg: Cages, givens: np.ndarray, answers: np.ndarray, outcomes: np.ndarray, limit: int,
               budget_ns: int, cap: int) -> int:
    """Search each row of `givens` (P, N; int8, 0 = empty; its cages in `cg`) in turn: answers (P, keep, N) int8,
    outcomes (P, OUTCOME) int64; each puzzle gets `budget_ns` (0: none) and `cap` guesses. Returns
    how many puzzles were searched: fewer than P when the run had to stop (the rest untouched)."""
    for i in range(givens.shape[0]):
        if _poll(st, NO_DEADLINE):
            return i
        start = clock_ns()
        end = NO_DEADLINE if budget_ns <= 0 else start + budget_ns
        _search(st, cg, i, givens[i], answers[i], limit, end, cap, outcomes[i])
        outcomes[i, TIME] = clock_ns() - start
        if st.info[STOP] != 0:
            return i + 1
    return givens.shape[0]


# --------------------------------------------------------------------- from Python
class Batch(NamedTuple):
    """The outcome of `solve_givens`: `answers` (P, keep, N) int8 (row k of puzzle i valid when
    `outcomes[i, COUNT] > k`), `outcomes` (P, OUTCOME) int64, and `searched`, how many puzzles
    the run reached (the others are STOPPED with a count of 0)."""

    answers: np.ndarray
    outcomes: np.ndarray
    searched: int


def solve_givens(st: FamilyState, givens: np.ndarray, limit: int = 1, keep: int = 1, deadline: Deadline = Deadline(),
                 budget: float | None = None, cages: Cages | None = None, cap: int | None = None) -> Batch:
    """Solve the puzzles `givens` (P, N: one row per puzzle of `st`'s shape, each cell's given
    value or 0; their `cages`, None for none) in one compiled call: count each one's solutions
    up to `limit`, keep the first `keep` (<= limit). The run stops at `deadline` (its `end`, a
    perf_counter reading), each puzzle after `budget` seconds (None: no budget) or `cap` guesses
    (None: no cap; CUT). Raises
    KeyboardInterrupt after a Ctrl-C (what was searched is lost: use `deadline` for partial
    results)."""
    if limit < 1 or not 0 <= keep <= limit:
        raise ValueError(f"limit must be >= 1 and keep 0..limit, not limit={limit}, keep={keep}")
    rows = np.ascontiguousarray(givens, dtype=np.int8)
    if rows.ndim != 2 or rows.shape[1] != st.cells:
        raise ValueError(f"givens must have one row of {st.cells} cells per puzzle, not shape {np.shape(givens)}")
    answers = np.zeros((rows.shape[0], keep, st.cells), dtype=np.int8)
    outcomes = np.zeros((rows.shape[0], OUTCOME), dtype=np.int64)
    outcomes[:, CODE] = STOPPED
    arm(st, deadline.end, 0)
    if cages is None:
        cages = no_cages(rows.shape[0], st)
    elif len(cages.first) != rows.shape[0] + 1:
        raise ValueError(f"cages for {len(cages.first) - 1} puzzles, givens for {rows.shape[0]}")
    searched = solve_rows(st, cages, rows, answers, outcomes, limit, 0 if budget is None else max(1, int(budget * 1e9)),
                          NO_CAP if cap is None else cap)
    raise_if_interrupted(st)
    return Batch(answers, outcomes, int(searched))


def warm_up() -> None:
    """Compile the family search on a 4x4 Sudoku with a cage (counting to 2, a budget and a
    deadline set)."""
    puzzle = Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
    givens = np.zeros((1, puzzle.size), dtype=np.int8)
    givens[0, [0, 15]] = 1
    st = family_state(puzzle)
    one = np.ones(1, dtype=np.int64)
    cages = cages_for(2 * one, np.array([1, 2]), 5 * one, one, st)
    solve_givens(st, givens, limit=2, keep=2, deadline=Deadline.after(60), budget=60, cages=cages)
