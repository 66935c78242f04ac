"""The engine's propagation and tree searches by name, with typed settings: root propagation
(`root_propagate`), shaving (`shave`), the papers' depth-first search and the learning search
(restarts, dom/wdeg, phase saving, conflict learning, the balance check: `TreeSearch`), and a
search started (`start`: build, arm, root-propagate) and run (`search`), answered in the `Solver`
contract's terms (`Enumeration`).

A kernel that a puzzle needs for the first time (shaving, the search after the root) is
compiled here, off every clock (`kakuro.native.kernels.compile_off_clock`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kakuro.combos import fixed_values
from kakuro.engine.plan import Plan, pause_at, plan_for
from kakuro.engine.propagate import BUDGET, CUT, PROBES, SHAVE_COUNTERS, SWEEPS
from kakuro.engine.propagate import root_propagate as engine_root_propagate
from kakuro.engine.propagate import shave as engine_shave
from kakuro.engine.tree import NO_CELLS, free_cells, run_depth_first, run_learning_search
from kakuro.limits import Limits
from kakuro.native.kernels import compile_off_clock
from kakuro.native.settings import SHAVE_KERNEL, Strength, TreeSearch, ValueOrder
from kakuro.native.state import (
    BY_CLOCK,
    BY_FAILS,
    BY_NODES,
    EXHAUSTED,
    FULL,
    NFREE,
    OUT_OF_MEMORY,
    ROOT_SOLVED,
    STOPPED,
    BuildStopped,
    State,
    all_fixed,
    arm,
    bound,
    build_state,
    load_domains,
    raise_if_interrupted,
    stats_of,
    stopped,
    stopped_by,
)
from kakuro.outcome import TIME_LIMIT_REACHED, Enumeration, Stat
from kakuro.puzzle import Puzzle

__all__ = [
    "LEARNING_STATS", "NO_CELLS", "SEARCH_STATS", "STOPPED_BY", "Plan", "Shaving", "arm_limits", "bound_search",
    "free_cells", "learning_plan", "pause_at", "root_propagate", "search", "shave", "start", "stop_reason",
]

LEARNING_STATS = ("restarts", "learned", "deleted", "unbalanced")
SEARCH_STATS = ("nodes", "fails", "propagations")
"""The counters a complete search reports (with LEARNING_STATS for the learning search)."""


def root_propagate(st: State) -> bool:
    """Propagate the armed `st` at its strength from its givens and domains; False on a
    wipe-out or a stop (`stopped`). Raises KeyboardInterrupt on Ctrl-C."""
    ok = bool(engine_root_propagate(st))
    raise_if_interrupted(st)
    return ok


@dataclass(frozen=True)
class Shaving:
    """What one call of `shave` did."""

    consistent: bool
    """False when shaving wiped out a domain or was stopped (`stopped` says which)."""
    probes: int
    """Trial assignments made."""
    sweeps: int
    cut: bool
    """Stopped on its budget: the domains are GAC, not necessarily singleton arc consistent."""


def shave(st: State, fixpoint: bool, budget: int = 0) -> Shaving:
    """Singleton arc consistency on the root-propagated gac `st` (its kernel compiled off the
    clock when first needed): one sweep, or sweeps until one removes nothing (`fixpoint`);
    given `budget` > 0, stopped once it has spent that many run revisions without removing a
    value. The shaved domains become the root."""
    compile_off_clock([SHAVE_KERNEL], st)
    counters = np.zeros(SHAVE_COUNTERS, dtype=np.int64)
    counters[BUDGET] = budget
    ok = bool(engine_shave(st, fixpoint, counters))
    raise_if_interrupted(st)
    return Shaving(ok, int(counters[PROBES]), int(counters[SWEEPS]), bool(counters[CUT]))


def start(
    puzzle: Puzzle, strength: Strength, limits: Limits, seed: int, stat_names: tuple[str, ...],
    domains: Sequence[int] | None = None,
) -> tuple[State | None, Enumeration | None]:
    """Build the state of `puzzle` at `strength`, from `domains` when given (bitmasks in cell
    order), arm it with the limits (`arm_limits`) and seed, and root-propagate. Returns the state
    (None only when the deadline passed while it was built) and, when the root already decides
    (unsatisfiable, solved, or out of time), that decision. Stats get `root_solved`: True when
    root propagation alone decided the puzzle (a wipe-out, or every cell fixed)."""
    try:
        st = build_state(puzzle, strength, limits.deadline.expired)
    except BuildStopped:
        return None, Enumeration([], False, {}, TIME_LIMIT_REACHED + " while building the search state", "time")
    if domains is not None:
        load_domains(st, list(domains))
    arm_limits(st, limits, seed)
    ok = root_propagate(st)
    st.info[ROOT_SOLVED] = (not ok and not stopped(st)) or (ok and all_fixed(st))
    stats: dict[str, Stat] = dict(stats_of(st, stat_names))
    if not ok:
        if stopped(st):
            return st, Enumeration([], False, stats, TIME_LIMIT_REACHED + " during root propagation", "time")
        return st, Enumeration([], True, stats, "root propagation wiped out a domain")
    if st.info[NFREE] == 0:
        return st, Enumeration([[int(v) for v in st.val]], True, stats)
    if strength == Strength.GAC and all_fixed(st):  # a run at GAC with every domain single is satisfied
        return st, Enumeration([fixed_values(st.dom)], True, stats)
    return st, None


def arm_limits(st: State, limits: Limits, seed: int) -> None:
    """Arm `st` for one solve (`arm`): the deadline and the seed, and the tree search's budgets
    (`bound`: root propagation and shaving count no nodes)."""
    arm(st, limits.deadline.end, seed)
    bound_search(st, limits)


def bound_search(st: State, limits: Limits) -> None:
    """Give the tree search on the armed `st` the budgets of `limits` (`bound`)."""
    bound(st, limits.budget.nodes, limits.budget.fails)


def learning_plan(st: State, tree: TreeSearch, strength: Strength = Strength.GAC,
                  value_order: ValueOrder = ValueOrder.ASCENDING) -> Plan:
    """The learning search's settings and buffers for `tree` at `strength`."""
    return plan_for(st, restarts=tree.restarts, learning=tree.learns(strength), order=tree.order, values=value_order,
                    phase=tree.phase, balance=tree.balance)


def search(
    st: State, limit: int, stat_names: tuple[str, ...], value_order: ValueOrder = ValueOrder.ASCENDING,
    cells: np.ndarray = NO_CELLS, tree: TreeSearch | None = None, strength: Strength = Strength.GAC,
    plan: Plan | None = None,
) -> Enumeration:
    """Up to `limit` solutions by a tree search from the current state, with the state's
    counters `stat_names`: the depth-first search (`cells`: a fixed variable order, empty for
    smallest domain first) when `tree` is None or plain at `strength`, else the learning
    search (a learning state when it learns) and the counters LEARNING_STATS too; given `plan`
    (`learning_plan`), the learning search resumes with its weights and phases."""
    if tree is not None:  # compiled when first needed (a puzzle the root decides never needs it)
        compile_off_clock([tree.kernel(strength)], st)
    if tree is None or tree.is_plain(strength):
        code, found = run_depth_first(st, value_order, limit, cells)
    else:
        code, found = run_learning_search(st, limit, plan or learning_plan(st, tree, strength, value_order))
        stat_names = stat_names + LEARNING_STATS
    stopped_for = STOPPED_BY[stopped_by(st)] if code == STOPPED else None
    return Enumeration(found, code == EXHAUSTED, dict(stats_of(st, stat_names)), stop_reason(code, len(found), stopped_for),
                       stopped_for)


STOPPED_BY = {BY_CLOCK: "time", BY_NODES: "nodes", BY_FAILS: "fails"}
"""`Enumeration.stopped_by` of a search stopped by each cause (`stopped_by`)."""


def stop_reason(code: int, found: int, stopped_for: str | None = "time") -> str:
    """Why a search that returned `code` after `found` solutions stopped before its limit
    ("" when it finished or reached the limit, or a budget stopped it: the template says so
    with the count); `stopped_for` the limit that stopped it."""
    if code == STOPPED:
        return TIME_LIMIT_REACHED if stopped_for == "time" else ""
    if code == FULL:
        return f"the nogood store is full of found solutions' nogoods ({found} solutions found)"
    if code == OUT_OF_MEMORY:
        return f"memory ran out after {found} solutions"
    return ""
