"""The classic generator's local search on the filling, judged by propagation
(`kakuro.generate.unique` drives it; its docstring describes the search).

A *filling* gives every white cell of a layout a value, all different along every run; the
*score* of a filling is the number of values propagation leaves beyond one per cell in its
puzzle (root GAC, then shaving once few cells stay open), 0 meaning unique. `search` improves a
filling in place by moves at open cells until the score is 0, the moves run out or the stop
flag rises. One `gac` state per layout (`layout_state`) is retargeted to each filling's clues.
Everything draws from the state's generator, so a seed gives the same filling on any machine.
"""

from __future__ import annotations

import numpy as np

from kakuro.combos import combination_library, range_mask
from kakuro.puzzle import Puzzle
from kakuro.engine.build import build_state
from kakuro.engine.compile import compiled, entry_point
from kakuro.engine.interrupt import arm, raise_if_interrupted, should_stop
from kakuro.engine.bits import popcount
from kakuro.engine.layout import FREE, NFREE, QHEAD, QLEN, QUEUED, SUM, TARGET, State
from kakuro.engine.propagate import SHAVE_COUNTERS, gac_root_propagate, shave
from kakuro.engine.queries import domain_summary
from kakuro.engine.rng import random_below, random_value
from kakuro.engine.trail import commit_root

SHAVE_BELOW = 30
SHAVE_SHARE = 4
"""Shave (singleton arc consistency) only when root GAC leaves at most SHAVE_BELOW cells open,
and at most one cell in SHAVE_SHARE: shaving costs a propagation per open value, and only
decides the last few cells."""
STALL = 100
"""Moves without a new best score before going back to the best filling and kicking."""
KICK_GROWTH = 10
KICK_MOVES = 8
"""A kick makes one random move, one more after every KICK_GROWTH kicks without a new best,
up to KICK_MOVES."""
MOVE_TRIES = 16
"""Random draws per move until one is allowed (long runs leave few values free)."""

# how a search ended (`search`'s first result)
UNIQUE = 0
OUT_OF_MOVES = 1
STOPPED = 2


@compiled
def retarget(st: State, values: np.ndarray, bounds: np.ndarray, masks: np.ndarray, full: int) -> None:
    """Reset a `gac` state without givens to its unpropagated root for the clues of a filling:
    run r's target becomes the sum of `values` (one per cell) over its cells and its
    combinations the library's (`kakuro.combos.combination_library`: `bounds`, `masks`); every
    domain becomes `full`, nothing is assigned, the trail and the queue are empty. `st.combos`
    must have room for each run's largest table (`kakuro.generate.unique` sizes it), so the
    classic generator builds one state per layout instead of one per filling."""
    m = st.runs.shape[0]
    at = m + 1
    for r in range(m):
        first, last = st.members[r], st.members[r + 1]
        total = 0
        for idx in range(first, last):
            total += values[st.members[idx]]
        st.runs[r, TARGET] = total
        st.runs[r, SUM] = 0
        st.runs[r, FREE] = last - first
        st.runs[r, QUEUED] = 0
        st.combos[r] = at
        for q in range(bounds[last - first, total, 0], bounds[last - first, total, 1]):
            st.combos[at] = masks[q]
            at += 1
    st.combos[m] = at
    width = popcount(full)
    for c in range(st.dom.shape[0]):
        st.dom[c] = full
        st.val[c] = -1
        st.size[c] = width
    commit_root(st)
    st.info[NFREE] = st.dom.shape[0]
    st.info[QHEAD] = 0
    st.info[QLEN] = 0


@compiled
def _evaluate(st: State, fill: np.ndarray, bounds: np.ndarray, masks: np.ndarray, full: int,
              counters: np.ndarray, beyond_gac: bool) -> int:
    """The score of `fill`: the values propagation leaves beyond one per cell (0: unique), or 1
    when `beyond_gac` and root GAC alone decides. The state is left propagated and committed
    (trail 0), a search root. -1 when stopped by the deadline."""
    retarget(st, fill, bounds, masks, full)
    if not gac_root_propagate(st) or should_stop(st):
        return -1
    n = st.dom.shape[0]
    total, fixed = domain_summary(st)
    left = n - fixed
    if left == 0:
        return 1 if beyond_gac else 0
    if left <= SHAVE_BELOW and left * SHAVE_SHARE <= n:
        if not shave(st, True, counters):
            return -1  # a filling's own clues never wipe out: only a stop ends here
        total = domain_summary(st)[0]
    return total - n


@compiled
def _open_cells(st: State, out: np.ndarray) -> int:
    """Write the open cells (domain of more than one value) to the front of `out`, ascending;
    returns how many."""
    count = 0
    for c in range(st.size.shape[0]):
        if st.size[c] > 1:
            out[count] = c
            count += 1
    return count


@compiled
def _used_by_runs(st: State, fill: np.ndarray, c: int, skip: int) -> int:
    """The values of the cells sharing a run with `c` (bitmask), the run `skip` left out and
    cells without a value (-1) ignored."""
    used = np.int64(0)
    for e in range(st.cell_runs.shape[1]):
        r = st.cell_runs[c, e]
        if r < 0 or r == skip:
            continue
        for idx in range(st.members[r], st.members[r + 1]):
            o = st.members[idx]
            if o != c and fill[o] >= 0:
                used |= np.int64(1) << fill[o]
    return used


@compiled
def _run_mate(st: State, c: int) -> tuple[int, int]:
    """A random run of `c` and a random other cell of it: (run, cell). A cell's runs fill the
    front of its `cell_runs` row; a draw past them wraps around (Kakuro's one-run cells: the
    draw of two that always was)."""
    e = random_below(st, st.cell_runs.shape[1])
    r = st.cell_runs[c, e]
    if r < 0:
        count = 0
        while count < st.cell_runs.shape[1] and st.cell_runs[c, count] >= 0:
            count += 1
        r = st.cell_runs[c, e % count]
    first, last = st.members[r], st.members[r + 1]
    o = st.members[first + random_below(st, last - first - 1)]
    if o == c:
        o = st.members[last - 1]
    return r, o


@compiled
def _move(st: State, fill: np.ndarray, open_cells: np.ndarray, n_open: int, full: int, change: np.ndarray) -> int:
    """Apply a random move at a random open cell (the first `n_open` of `open_cells`; any cell
    when none is open): a new value for it, a swap with a cell of one of its runs, or new values
    for it and one or two cells linked to it by runs. `change` gets (cell, old value) pairs.
    Returns the cells changed (0: the move drawn was not allowed)."""
    if n_open == 0:
        c = random_below(st, fill.shape[0])
    else:
        c = open_cells[random_below(st, n_open)]
    kind = random_below(st, 3)
    if kind == 1:  # swap
        r, o = _run_mate(st, c)
        if (_used_by_runs(st, fill, c, r) >> fill[o]) & 1 or (_used_by_runs(st, fill, o, r) >> fill[c]) & 1:
            return 0
        change[0] = c
        change[1] = fill[c]
        change[2] = o
        change[3] = fill[o]
        fill[c] = change[3]
        fill[o] = change[1]
        return 2
    count = 1 if kind == 0 else 2 + random_below(st, 2)
    change[0] = c
    for i in range(1, count):  # a chain of cells, each sharing a run with the previous one
        _, o = _run_mate(st, change[2 * (i - 1)])
        for j in range(i):
            if change[2 * j] == o:
                return 0
        change[2 * i] = o
    for i in range(count):
        change[2 * i + 1] = fill[change[2 * i]]
        fill[change[2 * i]] = -1
    moved = False
    for i in range(count):
        c = change[2 * i]
        free = full & ~_used_by_runs(st, fill, c, -1)
        if count == 1:
            free &= ~(np.int64(1) << change[1])
        if free == 0:
            _undo_move(fill, change, count)
            return 0
        fill[c] = random_value(st, free)
        moved = moved or fill[c] != change[2 * i + 1]
    if not moved:
        _undo_move(fill, change, count)
        return 0
    return count


@compiled
def _undo_move(fill: np.ndarray, change: np.ndarray, changed: int) -> None:
    for i in range(changed):
        fill[change[2 * i]] = change[2 * i + 1]


@compiled
def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    for i in range(src.shape[0]):
        dst[i] = src[i]


@entry_point
def search(st: State, fill: np.ndarray, best: np.ndarray, open_cells: np.ndarray, change: np.ndarray,
            bounds: np.ndarray, masks: np.ndarray, full: int, max_moves: int,
            counters: np.ndarray, beyond_gac: bool) -> tuple[int, int, int]:
    """The iterated local search of the module docstring, in place on `fill` (left holding the
    unique filling when certified). Returns (code, moves, kicks)."""
    score = _evaluate(st, fill, bounds, masks, full, counters, beyond_gac)
    if score < 0:
        return STOPPED, 0, 0
    n_open = _open_cells(st, open_cells)
    _copy(fill, best)
    best_score = score
    moves = 0
    kicks = 0
    failed = 0  # kicks since the last new best
    since = 0
    while score > 0:
        if moves >= max_moves:
            return OUT_OF_MOVES, moves, kicks
        moves += 1
        if since >= STALL:
            since = 0
            kicks += 1
            failed += 1
            if score <= best_score:  # as good as the best: go on from here (its open cells are known)
                _copy(fill, best)
            else:
                _copy(best, fill)
                score = _evaluate(st, fill, bounds, masks, full, counters, beyond_gac)
                if score < 0:
                    return STOPPED, moves, kicks
                n_open = _open_cells(st, open_cells)
            for _ in range(1 + min(failed // KICK_GROWTH, KICK_MOVES - 1)):
                _try_move(st, fill, open_cells, n_open, full, change)
            score = _evaluate(st, fill, bounds, masks, full, counters, beyond_gac)
            if score < 0:
                return STOPPED, moves, kicks
            n_open = _open_cells(st, open_cells)
        else:
            changed = _try_move(st, fill, open_cells, n_open, full, change)
            if changed == 0:
                since += 1
                continue
            new = _evaluate(st, fill, bounds, masks, full, counters, beyond_gac)
            if new < 0:
                return STOPPED, moves, kicks
            if new <= score:
                score = new
                n_open = _open_cells(st, open_cells)
            else:
                _undo_move(fill, change, changed)
        if score < best_score:
            best_score = score
            _copy(fill, best)
            failed = 0
            since = 0
        else:
            since += 1
    return UNIQUE, moves, kicks


@compiled
def _try_move(st: State, fill: np.ndarray, open_cells: np.ndarray, n_open: int, full: int,
              change: np.ndarray) -> int:
    """`_move` until one is allowed, at most MOVE_TRIES draws: the cells changed (0: none)."""
    for _ in range(MOVE_TRIES):
        changed = _move(st, fill, open_cells, n_open, full, change)
        if changed:
            return changed
    return 0


def layout_state(puzzle: Puzzle, bounds: np.ndarray) -> State:
    """The gac state of the layout, its combination array sized for any clues of the library
    `bounds` (`kakuro.combos.combination_library`)."""
    st = build_state(puzzle, "gac")
    widest = (bounds[:, :, 1] - bounds[:, :, 0]).max(axis=1)
    room = len(puzzle.groups) + 1 + int(sum(widest[len(run.cells)] for run in puzzle.groups))
    return st._replace(combos=np.zeros(room, dtype=np.int64))


def run(puzzle: Puzzle, fill: np.ndarray, seed: int, max_moves: int, end: float | None,
        beyond_gac: bool) -> tuple[int, int, int]:
    """`search` from the filling `fill` (int64, one value per cell; left holding the unique
    filling when found) on `puzzle`'s layout, for at most `max_moves` moves or until `end` (a
    `time.perf_counter` reading, None: no limit). Returns (UNIQUE | OUT_OF_MOVES | STOPPED,
    moves, kicks)."""
    bounds, masks = combination_library(max(len(run.cells) for run in puzzle.groups), puzzle.values)
    st = layout_state(puzzle, bounds)
    arm(st, end, seed)
    n = puzzle.size
    code, moves, kicks = search(
        st, fill, np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(6, dtype=np.int64),
        bounds, masks, range_mask(puzzle.values), max_moves, np.zeros(SHAVE_COUNTERS, dtype=np.int64),
        beyond_gac,
    )
    raise_if_interrupted(st)
    return int(code), int(moves), int(kicks)


def warm_up() -> None:
    """Compile the search, on a tiny layout."""
    layout = Puzzle.all_white([3, 7], [4, 6], values=(1, 9))
    run(layout, np.array([1, 2, 3, 4], dtype=np.int64), 0, 10, None, False)
