"""Kernels for explanations (`kakuro.explain`): finding the values whose assumption propagates
to a wipe-out, all in one compiled call (a Python loop over `assign` and `undo` would compile a
Python-callable twin of `undo` in every process). `refuted_values(puzzle, candidates)` is the
Python entry; it needs the kernels "root:gac" and "refute:gac" (`compile.ensure`)."""

from __future__ import annotations

import numpy as np

from kakuro.puzzle import Puzzle
from kakuro.engine.bits import lowest_bit_index
from kakuro.engine.build import WARM_UP_PUZZLE, build_state, load_domains
from kakuro.engine.compile import entry_point
from kakuro.engine.interrupt import arm, raise_if_interrupted
from kakuro.engine.layout import STOP, TRAIL, State
from kakuro.engine.propagate import assign, root_propagate
from kakuro.engine.trail import undo

REFUTATION_FIELDS = 3
"""Columns of a `refutations` row: cell, value, domain changes made before the wipe-out."""


@entry_point
def refutations(st: State, found: np.ndarray) -> int:
    """Try every value of every free cell of the root-propagated state `st`: assign it,
    propagate at the state's strength, undo. Row k of `found` (int64, REFUTATION_FIELDS
    columns) gets (cell, value, domain changes before the wipe-out) of the k-th value whose
    propagation wipes out; returns how many (at most `found`'s rows). The state is restored."""
    count = 0
    for c in range(st.dom.shape[0]):
        if st.val[c] >= 0:
            continue
        left = st.dom[c]
        while left:
            bit = left & -left
            left ^= bit
            v = lowest_bit_index(bit)
            mark = st.info[TRAIL]
            ok = assign(st, c, v)
            changes = st.info[TRAIL] - mark
            undo(st, mark)
            if not ok and st.info[STOP] == 0 and count < found.shape[0]:
                found[count, 0] = c
                found[count, 1] = v
                found[count, 2] = changes
                count += 1
    return count


def refuted_values(puzzle: Puzzle, candidates: list[int], consistency: str = "gac",
                   end: float | None = None) -> list[tuple[int, int, int]] | None:
    """(cell, value, domain changes before the wipe-out) of every candidate of an open cell
    whose assumption, propagated at `consistency` from `candidates` (bitmasks, cell order),
    wipes out; None when `candidates` themselves propagate to a wipe-out. Stops at `end` (a
    `time.perf_counter` reading; None: no limit), when the list may be short (every entry is
    still a true refutation); raises KeyboardInterrupt on Ctrl-C."""
    st = build_state(puzzle, consistency)
    load_domains(st, candidates)
    arm(st, end, 0)
    ok = root_propagate(st)
    raise_if_interrupted(st)
    if not ok:
        return None
    return _refute_all(st)


def _refute_all(st: State) -> list[tuple[int, int, int]]:
    """`refutations` on the root-propagated `st`, with its buffer."""
    capacity = int(np.bitwise_count(st.dom).sum()) + 1
    found = np.zeros((capacity, REFUTATION_FIELDS), dtype=np.int64)
    count = refutations(st, found)
    raise_if_interrupted(st)
    return [(int(c), int(v), int(k)) for c, v, k in found[:count]]


def warm_up(consistency: str) -> None:
    """Compile `refutations` for states of `consistency`."""
    st = build_state(WARM_UP_PUZZLE, consistency)
    arm(st, None, 1)
    root_propagate(st)
    _refute_all(st)
