"""Depth-first search on the compiled state: the one tree search that `gac`, `fc`, `rdv` and
the backtracking family configure.

The search keeps an explicit stack (no recursion, so it is cached on disk) of (cell, values
left, trail mark). Each node assigns a value with `assign`, at the state's strength: `gac`
maintains arc consistency, `fc` forward checks, `check` / `projected` only check the assigned
cells (the backtracking family). Configuration:

- the variable order: the smallest domain first (lowest cell on ties), or a fixed list of
  cells (the backtracking family's row-major order);
- the value order: ascending, descending or uniformly random (from the state's generator).
"""

from __future__ import annotations

import numpy as np

from kakuro.search.engine.compile import compiled
from kakuro.search.engine.propagate import assign, root_propagate
from kakuro.search.engine.state import (
    EXHAUSTED, FAILS, LIMIT, MODES, NFREE, NODES, STOP, STOPPED, TRAIL, WARM_UP_PUZZLE, State, arm, build_state,
    copy_values, highest_bit_index, lowest_bit_index, random_value, select_variable, undo,
)

ASCENDING = 0
DESCENDING = 1
RANDOM = 2
VALUE_ORDERS = {"ascending": ASCENDING, "descending": DESCENDING, "random": RANDOM}


@compiled
def _pick_value(st: State, values: int, order: int) -> int:
    if order == ASCENDING:
        return lowest_bit_index(values)
    if order == DESCENDING:
        return highest_bit_index(values)
    return random_value(st, values)


@compiled
def _next_cell(st: State, cells: np.ndarray, depth: int) -> int:
    """The cell to branch on at `depth`: `cells[depth]`, or the smallest domain when `cells`
    is empty."""
    if cells.shape[0] == 0:
        return select_variable(st)
    return cells[depth]


@compiled
def depth_first(st: State, cells: np.ndarray, value_order: int, solutions: np.ndarray,
                stack: np.ndarray) -> tuple[int, int]:
    """Depth-first search from the current state.

    `cells` (int32) is the fixed variable order, one entry per free cell; empty for smallest
    domain first. `value_order` is a value of VALUE_ORDERS. Stores up to `limit` =
    len(solutions) solutions in the rows of `solutions`; `stack` is int64 (3, cells + 1)
    scratch. Returns (code, count): code EXHAUSTED (the search finished), LIMIT (`limit` found)
    or STOPPED. The state is restored.
    """
    limit = solutions.shape[0]
    root = st.info[TRAIL]
    count = 0
    if st.info[NFREE] == 0:
        copy_values(st, solutions[0])
        return (LIMIT if limit <= 1 else EXHAUSTED), 1
    s_var, s_vals, s_mark = stack[0], stack[1], stack[2]
    d = 0
    s_var[0] = _next_cell(st, cells, 0)
    s_vals[0] = st.dom[s_var[0]]
    s_mark[0] = root
    while d >= 0:
        vals = s_vals[d]
        if vals == 0:
            d -= 1
            continue
        v = _pick_value(st, vals, value_order)
        s_vals[d] = vals & ~(np.int64(1) << v)
        undo(st, s_mark[d])
        st.info[NODES] += 1
        if not assign(st, s_var[d], v):
            if st.info[STOP] != 0:
                undo(st, root)
                return STOPPED, count
            st.info[FAILS] += 1
            continue
        if st.info[NFREE] == 0:
            copy_values(st, solutions[count])
            count += 1
            if count >= limit:
                undo(st, root)
                return LIMIT, count
            continue
        d += 1
        c = _next_cell(st, cells, d)
        s_var[d] = c
        s_vals[d] = st.dom[c]
        s_mark[d] = st.info[TRAIL]
    undo(st, root)
    return EXHAUSTED, count


NO_CELLS = np.zeros(0, dtype=np.int32)


def run_depth_first(
    st: State, value_order: str = "ascending", limit: int = 1, cells: np.ndarray = NO_CELLS
) -> tuple[int, list[list[int]]]:
    """`depth_first` with its buffers: (code, up to `limit` solutions as value lists).
    `cells`: the fixed variable order (int32), or empty for smallest domain first."""
    n = st.val.shape[0]
    solutions = np.zeros((limit, n), dtype=np.int32)
    code, count = depth_first(
        st, cells.astype(np.int32), VALUE_ORDERS[value_order], solutions, np.zeros((3, n + 1), dtype=np.int64)
    )
    return int(code), solutions[:count].tolist()


def free_cells(st: State) -> np.ndarray:
    """The free cells in cell order (int32): the backtracking family's fixed order."""
    return np.flatnonzero(st.val < 0).astype(np.int32)


def warm_up() -> None:
    """Compile `depth_first` (every mode and value order, both variable orders)."""
    for consistency in MODES:
        st = build_state(WARM_UP_PUZZLE, consistency)
        arm(st, None, 1)
        root_propagate(st)
        for order in VALUE_ORDERS:
            run_depth_first(st, order, 2)
        run_depth_first(st, "ascending", 2, free_cells(st))
