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

from kakuro.search.engine.compile import entry_point
from kakuro.search.engine.propagate import assign, root_propagate
from kakuro.search.engine.state import (
    EXHAUSTED, FAILS, LIMIT, NFREE, NODES, STOP, STOPPED, TRAIL, WARM_UP_PUZZLE, State, arm, build_state,
    copy_values, highest_bit_index, raise_if_interrupted, lowest_bit_index, random_value, select_variable, undo,
)

ASCENDING = 0
DESCENDING = 1
RANDOM = 2
VALUE_ORDERS = {"ascending": ASCENDING, "descending": DESCENDING, "random": RANDOM}


@entry_point
def depth_first(st: State, cells: np.ndarray, value_order: int, solutions: np.ndarray,
                stack: np.ndarray) -> tuple[int, int]:
    """Depth-first search from the current state.

    `cells` (int64) is the fixed variable order, one entry per free cell; empty for smallest
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
    dynamic = cells.shape[0] == 0
    d = np.int64(0)  # not a literal 0: numba would also compile the callees for a constant
    s_var[d] = select_variable(st) if dynamic else cells[d]
    s_vals[d] = st.dom[s_var[d]]
    s_mark[d] = root
    while d >= 0:
        vals = s_vals[d]
        if vals == 0:
            d -= 1
            continue
        if value_order == ASCENDING:
            v = lowest_bit_index(vals)
        elif value_order == DESCENDING:
            v = highest_bit_index(vals)
        else:
            v = random_value(st, vals)
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
        c = select_variable(st) if dynamic else cells[d]
        s_var[d] = c
        s_vals[d] = st.dom[c]
        s_mark[d] = st.info[TRAIL]
    undo(st, root)
    return EXHAUSTED, count


NO_CELLS = np.zeros(0, dtype=np.int64)


def run_depth_first(
    st: State, value_order: str = "ascending", limit: int = 1, cells: np.ndarray = NO_CELLS
) -> tuple[int, list[list[int]]]:
    """`depth_first` with its buffers: (code, up to `limit` solutions as value lists).
    `cells`: the fixed variable order (int64), or empty for smallest domain first."""
    n = st.val.shape[0]
    solutions = np.zeros((limit, n), dtype=np.int64)
    code, count = depth_first(
        st, cells, VALUE_ORDERS[value_order], solutions, np.zeros((3, n + 1), dtype=np.int64)
    )
    raise_if_interrupted(st)
    return int(code), solutions[:count].tolist()


def free_cells(st: State) -> np.ndarray:
    """The free cells in cell order (int64): the backtracking family's fixed order."""
    return np.flatnonzero(st.val < 0).astype(np.int64)


def warm_up(consistency: str) -> None:
    """Compile `depth_first` for states of `consistency` (one signature serves every order)."""
    st = build_state(WARM_UP_PUZZLE, consistency)
    arm(st, None, 1)
    root_propagate(st)
    run_depth_first(st, "ascending", 2)
