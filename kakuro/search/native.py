"""What the native backends share on top of the compiled engine (`kakuro.search.engine`):
starting a search (build, arm, root propagation) and running the engine's depth-first search,
each answered in the `Solver` contract's terms.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kakuro.puzzle import Puzzle
from kakuro.search.engine.propagate import root_propagate
from kakuro.search.engine.state import (
    EXHAUSTED, NFREE, ROOT_SOLVED, STOP, STOPPED, BuildStopped, State, all_fixed, arm, build_state, load_domains,
    raise_if_interrupted, stats_of,
)
from kakuro.search.engine.tree import NO_CELLS, run_depth_first
from kakuro.solver import Deadline, Enumeration

TIME_LIMIT_REACHED = "time limit reached"


def start(
    puzzle: Puzzle, consistency: str, deadline: Deadline, seed: int, stat_names: tuple[str, ...],
    domains: Sequence[int] | None = None,
) -> tuple[State | None, Enumeration | None]:
    """Build the state of `puzzle` at `consistency` (from `domains` when given, bitmasks in
    cell order), arm it with the deadline and seed, and root-propagate. Returns the state and,
    when the root already decides (unsatisfiable, solved, or out of time), that decision (the
    state is None only when the deadline passed while it was built).
    Stats get `root_solved`: True when root propagation alone decided the puzzle (a wipe-out,
    or every cell fixed)."""
    try:
        st = build_state(puzzle, consistency, deadline.expired)
    except BuildStopped:
        return None, Enumeration([], False, {}, TIME_LIMIT_REACHED + " while building the search state")
    if domains is not None:
        load_domains(st, list(domains))
    arm(st, deadline.end, seed)
    ok = root_propagate(st)
    raise_if_interrupted(st)
    st.info[ROOT_SOLVED] = (not ok and st.info[STOP] == 0) or (ok and all_fixed(st))
    stats = dict(stats_of(st, stat_names))
    if not ok:
        if st.info[STOP] != 0:
            return st, Enumeration([], False, stats, TIME_LIMIT_REACHED + " during root propagation")
        return st, Enumeration([], True, stats, "root propagation wiped out a domain")
    if st.info[NFREE] == 0:
        return st, Enumeration([[int(v) for v in st.val]], True, stats)
    return st, None


def search(
    st: State, limit: int, stat_names: tuple[str, ...], value_order: str = "ascending",
    cells: np.ndarray = NO_CELLS,
) -> Enumeration:
    """Up to `limit` solutions by the engine's depth-first search from the current state (see
    `kakuro.search.engine.tree.run_depth_first`), with the state's counters `stat_names`."""
    code, found = run_depth_first(st, value_order, limit, cells)
    message = TIME_LIMIT_REACHED if code == STOPPED else ""
    return Enumeration(found, code == EXHAUSTED, dict(stats_of(st, stat_names)), message)


def enumerate_solutions(
    puzzle: Puzzle, consistency: str, limit: int, deadline: Deadline, seed: int, stat_names: tuple[str, ...],
    value_order: str = "ascending", domains: Sequence[int] | None = None,
) -> Enumeration:
    """`start`, then (unless the root decides) `search`, smallest domain first."""
    st, decided = start(puzzle, consistency, deadline, seed, stat_names, domains)
    return decided if decided is not None else search(st, limit, stat_names, value_order)
