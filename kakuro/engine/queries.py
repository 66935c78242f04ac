"""Reading the state: the smallest domain, the assignment and solution, domain sizes, stats."""

from __future__ import annotations

import numpy as np

from kakuro.engine.bits import popcount
from kakuro.engine.compile import compiled, entry_point
from kakuro.engine.layout import (
    ASSIGNED,
    MODE,
    MODE_GAC,
    ROOT_SOLVED,
    STAT_SLOTS,
    State,
)


@compiled
def is_fixed(st: State, c: int) -> bool:
    """Cell `c` has one value left: assigned, or narrowed to one by propagation."""
    return st.size[c] == 1 or st.size[c] == ASSIGNED


@compiled
def select_variable(st: State) -> int:
    """The free cell with the smallest domain (lowest index on ties); -1 when none is free."""
    best = -1
    best_size = ASSIGNED
    for c in range(st.size.shape[0]):
        s = st.size[c]
        if s < best_size:
            best_size = s
            best = c
            if s <= 1:
                break
    return best


@compiled
def copy_values(st: State, out: np.ndarray) -> None:
    """Copy the assignment (one value per cell, -1 for a free cell) into `out`."""
    for c in range(st.val.shape[0]):
        out[c] = st.val[c]


@compiled
def capture(st: State) -> None:
    """Copy the (complete) assignment into `sol`."""
    copy_values(st, st.sol)


@entry_point
def domain_summary(st: State) -> tuple[int, int]:
    """(sum of the domain sizes, number of one-value domains); an assigned cell counts one."""
    total = 0
    fixed = 0
    for c in range(st.dom.shape[0]):
        k = popcount(st.dom[c])
        total += k
        fixed += k == 1
    return total, fixed


def all_fixed(st: State) -> bool:
    """True when every cell is assigned or has a one-value domain."""
    return bool(np.all((st.size == ASSIGNED) | (st.size == 1)))


def stats_of(st: State, names: tuple[str, ...]) -> dict[str, int | bool]:
    """The counters `names` (keys of STAT_SLOTS) of the state, plus `root_solved`;
    `propagations` (run revisions) is only reported under gac."""
    out: dict[str, int | bool] = {
        name: int(st.info[STAT_SLOTS[name]])
        for name in names
        if name != "propagations" or st.info[MODE] == MODE_GAC
    }
    out["root_solved"] = bool(st.info[ROOT_SOLVED])
    return out


def solution_values(st: State) -> list[int]:
    """The captured solution (`sol`), one value per cell."""
    return [int(v) for v in st.sol]
