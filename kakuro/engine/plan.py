"""The learning search's plan (`kakuro.engine.tree.learning_search`): its settings (restart
policy and schedule, variable and value orders, learning, phase saving, the balance check)
and the buffers it keeps between calls (weights, phases, decisions, analysis, its position),
so that a search paused at a restart goes on where it was."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kakuro.engine import nogoods
from kakuro.engine.balance import Balance, balance_buffers
from kakuro.engine.compile import compiled
from kakuro.engine.interrupt import kernel_ns
from kakuro.engine.layout import LearningState, State

ASCENDING = 0
DESCENDING = 1
RANDOM = 2
VALUE_ORDERS = {"ascending": ASCENDING, "descending": DESCENDING, "random": RANDOM}

RESTART_POLICIES = {"none": 0, "luby": 1, "geometric": 2}
DOM, DOM_WDEG, DOM_ACTIVITY = range(3)
ORDERS = {"dom": DOM, "dom/wdeg": DOM_WDEG, "dom/activity": DOM_ACTIVITY}
DECAY = 0.95
"""dom/activity: each conflict multiplies the bump of later conflicts by 1 / DECAY (VSIDS)."""
# plan.settings slots
S_RESTARTS, S_UNIT, S_LEARNING, S_ORDER, S_VALUES, S_PHASE, S_KEEP = range(7)
SETTINGS = 7
GEOMETRIC = 1.5
"""Growth of the conflict budget between two geometric restarts."""
# plan.position slots
P_RESTART, P_PAUSE, P_FOUND, P_LEVEL, P_CONFLICTS, P_BUDGET = range(6)
POSITION = 6


class Plan(NamedTuple):
    """A learning search's settings and buffers (made by `plan_for`)."""

    settings: np.ndarray
    """int64 (SETTINGS,): restart policy, restart unit (conflicts), learning (0/1), variable
    order, value order, phase saving (0/1), learned nogoods kept at a reduction."""
    weights: np.ndarray
    """float64 per run: dom/wdeg's weights."""
    phase: np.ndarray
    """int64 per cell: the value it last had (-1: none yet)."""
    decision_cell: np.ndarray
    decision_value: np.ndarray
    """int64 per decision level (1..): the decision."""
    analysis: nogoods.Analysis
    count: np.ndarray
    """int64 (2,): scratch of the analysis."""
    activity: np.ndarray
    """float64 per cell, then the current bump: dom/activity's conflict activity (a cell's
    grows by the bump each time a conflict's analysis meets it)."""
    position: np.ndarray
    """int64 (POSITION,): the restart the search is in (0: not started), a moment (kernel
    clock, ns; 0: none) from which it pauses at its next restart (`pause_at`), and while it
    stands at a solution with FILLED: the solutions found so far, its decision level, the
    conflicts since the restart and its conflict budget (P_FOUND 0: it stands nowhere)."""
    balance: Balance
    """The balance check's buffers and settings (`kakuro.engine.balance`)."""


@compiled
def luby(i: int) -> int:
    """The i-th term (i >= 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if (1 << k) - 1 == i:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@compiled
def conflict_budget(settings: np.ndarray, restart: int) -> int:
    """Conflicts allowed before restart number `restart` + 1."""
    if settings[S_RESTARTS] == 1:
        return settings[S_UNIT] * luby(restart)
    if settings[S_RESTARTS] == 2:
        return int(settings[S_UNIT] * GEOMETRIC ** (restart - 1))
    return np.iinfo(np.int64).max


def plan_for(st: State, *, restarts: str = "luby", unit: int = 100, learning: bool = True, order: str = "dom/wdeg",
             values: str = "ascending", phase: bool = True, keep: int = 2000, balance: bool = True) -> Plan:
    """A learning search's settings and fresh buffers for `st` (learning needs a LearningState);
    `balance`: the balance check (`kakuro.engine.balance`) where it applies."""
    if learning and not isinstance(st, LearningState):
        raise ValueError("learning needs a LearningState (build_state(..., learning=True))")
    n = st.dom.shape[0]
    settings = np.zeros(SETTINGS, dtype=np.int64)
    settings[[S_RESTARTS, S_UNIT, S_LEARNING, S_ORDER, S_VALUES, S_PHASE, S_KEEP]] = (
        RESTART_POLICIES[restarts], unit, int(learning), ORDERS[order], VALUE_ORDERS[values], int(phase), keep)
    analysis = nogoods.analysis_buffers(st) if isinstance(st, LearningState) else nogoods.Analysis(
        *(np.zeros(n + 2, dtype=np.int64) for _ in nogoods.Analysis._fields))
    return Plan(settings, np.ones(st.runs.shape[0], dtype=np.float64), np.full(n, -1, dtype=np.int64),
                np.zeros(n + 2, dtype=np.int64), np.zeros(n + 2, dtype=np.int64), analysis, np.zeros(2, dtype=np.int64),
                np.ones(n + 1, dtype=np.float64), np.zeros(POSITION, dtype=np.int64), balance_buffers(st, balance))


def pause_at(plan: Plan, moment: float | None) -> None:
    """Make the learning search of `plan` pause (return STOPPED) at its first restart from
    `moment` (a `time.perf_counter` reading; None: never). Paused at the root with its trail
    kept, it goes on when called again exactly as if it had not paused, which a stop at a
    deadline (undone to where the search began, its restarts counted anew) does not."""
    plan.position[P_PAUSE] = 0 if moment is None else max(1, kernel_ns(moment))
