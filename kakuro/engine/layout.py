"""The layout of the compiled search state: its arrays (`State` and its classes by mode,
`LearningState`), the slots of `info` and `runs`, the kernels' return codes and limits.

A `State` is a named tuple of numpy arrays built once per solve (`kakuro.engine.build`):

- per cell: `dom` (int64 bitmask, bit v = value v, values 0..62), `val` (assigned value,
  -1 = free, so a range starting at 0 works), `size` (popcount of `dom` for a free cell,
  `ASSIGNED` for an assigned one, so choosing the smallest domain is one scan) and
  `cell_runs` (the runs it belongs to, first to last, then -1: two columns for Kakuro, its
  across and down run; as many as a cell has groups for Sudoku (3) and Killer (4));
- per run, `runs[r, TARGET | SUM | FREE | QUEUED]`: the clue, the sum of the assigned cells,
  the number of free cells, and whether it waits in the propagation `queue`;
- `members`: run r's cells are `members[members[r]:members[r + 1]]` (offsets first);
- `combos`: run r's combinations (`kakuro.combos.run_tables`) are
  `combos[combos[r]:combos[r + 1]]` (offsets first; only under `gac`);
- `trail` (undo): pairs (cell, old domain) for a domain change, (-cell - 1, old domain) for an
  assignment; `undo(state, mark)` pops back to a mark (a trail length);
- `info`: trail length, free cells, stop flag, mode, deadline, generator ... then the stats
  counters (`NODES` ... `RESTARTS`); `sol` (the captured solution), `work` (scratch of the
  run propagator) and `givens` ((cell, value) rows, assigned by root propagation).

The state is few arrays on purpose: numba passes every array of the tuple to every kernel call
as seven machine words, and each extra array was measured to cost about 3 ns per assignment.

The mode (`build_state`'s `consistency`; the state's class and `info[MODE]`) is the strength
of `assign` (`kakuro.engine.propagate`), chosen when a kernel is compiled for that class,
so a backend compiles only its own propagation: `check` (no pruning, only the assigned cells are checked:
the backtracking family), `projected` (check, and each run's free cells must still reach its
clue), `fc` (Cazenave's forward checking) or `gac` (exact run-level reasoning).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# --------------------------------------------------------------------- constants
MODE_FC = 0
MODE_GAC = 1
MODE_CHECK = 2
MODE_PROJECTED = 3
MODES = {"check": MODE_CHECK, "projected": MODE_PROJECTED, "fc": MODE_FC, "gac": MODE_GAC}
"""Propagation strengths, weakest first (see the module docstring)."""

# runs[r, field]
TARGET = 0
SUM = 1
FREE = 2
QUEUED = 3
RUN_FIELDS = 4

# info slots: control
TRAIL = 0
NFREE = 1
STOP = 2
MODE = 3
END_NS = 4
TICKS = 5
QHEAD = 6
QLEN = 7
ROOT_SOLVED = 8
RNG = 9
# info slots: stats counters
NODES = 10
FAILS = 11
ASSIGNMENTS = 12
SAMPLES = 13
PROPAGATIONS = 14
RESTARTS = 15
# info slots: Monte-Carlo settings (0 = Cazenave's playout, so a fresh state behaves as before)
STRATEGY = 16
SELECTION = 17
# info slots: the value range as a mask (for the check modes); an interrupt (Ctrl-C) was seen
VALUE_MASK = 18
INTERRUPTED = 19
# info slots of a LearningState: the propagator making the current changes (a run r >= 0,
# DECISION, or NOGOOD_BASE - offset of a nogood), the source of the last wipe-out (same codes),
# the nogood queue, the nogood store and watch pool in use, and learning's counters
REASON = 20
FAILED = 21
NGQ_HEAD = 22
NGQ_LEN = 23
NG_TOP = 24
NG_COUNT = 25
W_TOP = 26
W_FREE = 27
LEARNED = 28
DELETED = 29
# info slot: the first row of `runs` that is an implied sum, not a run (a learning state's rows
# from there on: `with_learning`); the number of runs
SUMS_FROM = 30
# info slot: the open regions found unbalanced (`kakuro.engine.balance`), a stats counter
UNBALANCED_FOUND = 31
# info slot of a LearningState: the store's slots held by found solutions' nogoods (never deleted)
NG_KEPT = 32
# info slots: the tree search's budgets (the most nodes and fails it may count; NO_BUDGET: none)
# and what stopped a search that returned STOPPED (BY_CLOCK, BY_NODES or BY_FAILS)
NODE_BUDGET = 33
FAIL_BUDGET = 34
STOPPED_BY = 35
INFO_SIZE = 36
DECISION = -1
"""`info[REASON]` of a search decision (or refutation): no explanation."""
UNBALANCED = -1
"""`info[FAILED]` of a wipe-out no propagator made: an open region whose runs' sums disagree
(`kakuro.engine.balance`), explained by the buffers of that check."""
NOGOOD_BASE = -2
"""`info[REASON]` of a change a nogood made: NOGOOD_BASE - the nogood's offset in the store."""
STAT_SLOTS = {"nodes": NODES, "fails": FAILS, "assignments": ASSIGNMENTS, "samples": SAMPLES,
              "propagations": PROPAGATIONS, "restarts": RESTARTS, "learned": LEARNED, "deleted": DELETED,
              "unbalanced": UNBALANCED_FOUND}

# kernel return codes
SOLVED = 0
STOPPED = 1
EXHAUSTED = 2
LIMIT = 3
FULL = 4
"""A search that learns ran out of room for the nogoods that keep its count exact."""
FILLED = 5
"""A search's solution rows are full (or its nogood store needs room, `nogoods.make_room`) before
its limit: it stopped in the middle, keeping its state, and goes on when called again."""
OUT_OF_MEMORY = 6
"""Not a kernel's: a search's Python driver ran out of memory for the solutions it hands out."""

ASSIGNED = 1 << 20
"""`size` of an assigned cell: larger than any domain, so variable choice skips it."""
NO_DEADLINE = np.iinfo(np.int64).max
NO_BUDGET = np.iinfo(np.int64).max
"""`info[NODE_BUDGET]` / `info[FAIL_BUDGET]` of a search without that budget."""
BY_CLOCK = 0
"""`info[STOPPED_BY]` of a search stopped by its deadline, Ctrl-C or a stop request (or not stopped)."""
BY_NODES = 1
"""`info[STOPPED_BY]` of a search stopped by its node budget: it would have opened one node more."""
BY_FAILS = 2
"""`info[STOPPED_BY]` of a search stopped by its fail budget: it met one dead end more (not counted)."""
CLOCK_EVERY = 16
"""Assignments between two clock readings (a reading costs about 30 ns)."""
MAX_TABLE = 20_000_000
"""Most combinations (all runs together) a `gac` state tabulates: 160 MB of masks."""
SCRATCH = 64
"""Length of each `work` row: more than the longest possible run (63 values 0..62)."""
MAX_SUM_TOTAL = 62
"""The largest total of an implied sum (`with_learning`): its reachable sums are bits of an int64."""
WORK_ROWS = 9
"""Rows of `work`, the run propagator's scratch (`kakuro.engine.propagate`)."""




class State(NamedTuple):
    """The compiled search state (see the module docstring); build it with `build_state`."""

    dom: np.ndarray
    val: np.ndarray
    size: np.ndarray
    cell_runs: np.ndarray
    runs: np.ndarray
    members: np.ndarray
    combos: np.ndarray
    trail: np.ndarray
    queue: np.ndarray
    info: np.ndarray
    sol: np.ndarray
    work: np.ndarray
    givens: np.ndarray


class CheckState(State):
    """A `check` state: `assign` only checks the assigned cells of the cell's runs."""


class ProjectedState(State):
    """A `projected` state: `check`, and the free cells of a run must still reach its clue."""


class FcState(State):
    """An `fc` state: `assign` forward checks (Cazenave 2010)."""


class GacState(State):
    """A `gac` state: `assign` keeps every run generalized arc consistent."""


STATE_CLASSES = {MODE_CHECK: CheckState, MODE_PROJECTED: ProjectedState, MODE_FC: FcState, MODE_GAC: GacState}
"""The class of a state by its mode: the engine compiles each kernel for the classes it meets."""


LEARNING_FIELDS = {
    "reasons": "per trail entry: the propagator that made it (`info[REASON]` at the time)",
    "links": "per trail entry: the previous entry of the same cell (-1: none)",
    "last": "per cell: its latest trail entry (-1: none)",
    "ng_queued": "per cell: 1 while it waits in `ng_queue`",
    "ng_queue": "cells whose domain changed since their nogoods were looked at (a ring)",
    "ng_store": "the nogoods, one after another: length, LBD, the two watched pairs, then (cell, mask) "
                "pairs; a nogood is named by its offset",
    "ng_before": "per queued cell: its domain when it was queued (the values it lost since are the news)",
    "watch_head": "per cell and value: the first watch entry of the nogoods watching that value (-1: none)",
    "watch_next": "per watch entry: the next entry of the same cell and value",
    "watch_nogood": "per watch entry: the watching nogood's offset",
    "watch_mask": "per watch entry: the watched literal's mask (its nogood's mask of the cell), read without the store",
    "cell_sums": "per cell: its implied sums (rows of `runs` from `info[SUMS_FROM]`) are "
                 "`cell_sums[cell_sums[c]:cell_sums[c + 1]]` (offsets first)",
}
"""The arrays a learning state has after the `State` ones, and what each holds."""

LearningState = NamedTuple(  # type: ignore[misc]
    "LearningState", [(name, np.ndarray) for name in (*State._fields, *LEARNING_FIELDS)]
)
LearningState.__doc__ = """A `gac` state that learns: the `State` arrays, then what conflict
analysis and nogood propagation need (`kakuro.engine.nogoods`; LEARNING_FIELDS says
what each holds). Made by `with_learning` (or `build_state(puzzle, "gac", learning=True)`)."""
