"""What the native backends share on top of the compiled engine (`kakuro.engine`):
its one-time costs paid before the clock (`NativeSolver`: the kernels a backend runs), starting
a search (build, arm, root propagation), the options of the complete tree search
(`TREE_OPTIONS`), and running it, each answered in the `Solver` contract's terms.

The tree search at `consistency=gac` is the engine's learning search (restarts, dom/wdeg,
phase saving, conflict learning, the balance check: `kakuro.engine.tree.learning_search`) unless every one
of its parts is off (`PLAIN`), which is the papers' depth-first search (`depth_first`). At
`consistency=fc` the search is always the depth-first one: the learning search refutes a value
(x != v) by propagating the removal, which forward checking cannot do.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from kakuro.clock import Deadline, Stopwatch
from kakuro.combos import fixed_values
from kakuro.engine.compile import ensure, is_cold
from kakuro.engine.plan import Plan, pause_at, plan_for
from kakuro.engine.propagate import root_propagate
from kakuro.engine.state import (
    BY_CLOCK,
    BY_FAILS,
    BY_NODES,
    EXHAUSTED,
    FULL,
    MAX_SUM_TOTAL,
    NFREE,
    OUT_OF_MEMORY,
    RNG,
    ROOT_SOLVED,
    STOP,
    STOPPED,
    BuildStopped,
    LearningState,
    State,
    all_fixed,
    arm,
    bound,
    build_state,
    load_domains,
    postpone,
    raise_if_interrupted,
    request_stop,
    resume,
    rng_state,
    stats_of,
    stopped_by,
    with_learning,
    with_shared_stop,
)
from kakuro.engine.tree import NO_CELLS, run_depth_first, run_learning_search
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import TIME_LIMIT_REACHED as TIME_LIMIT_REACHED  # its home; the native backends' name for it
from kakuro.outcome import Enumeration, Stat
from kakuro.puzzle import Puzzle
from kakuro.reasoning.implied import region_sums
from kakuro.solver import EnumeratingSolver, Solver

TREE_OPTIONS: dict[str, Option] = {
    "restarts": Option(
        "luby", "restarts, counted in conflicts: luby (100 x the Luby sequence), geometric (100, x1.5 each time) or none",
        choices=("luby", "geometric", "none"),
    ),
    "learning": Option(
        True, "conflict learning: 1-UIP nogoods explained by run propagation, backjumping, a reduced store "
        "(with consistency=gac; forward checking explains nothing, so it never learns)",
    ),
    "order": Option(
        "dom/wdeg", "variable order: dom/wdeg (smallest domain over its runs' failure weights, random ties) "
        "dom/activity (smallest domain over its conflict activity) or dom (smallest domain, lowest cell)",
        choices=("dom/wdeg", "dom/activity", "dom"),
    ),
    "phase": Option(True, "phase saving: a cell first gets the value it last had"),
    "implied": Option(
        True, "implied sums: the innies and outies of the grid's closed blocks (kakuro.reasoning.implied) kept at GAC "
        "during the search as extra sum constraints that explain their removals (with learning)",
    ),
    "balance": Option(
        True, "balance: an open region of the grid whose across runs' residuals and down runs' residuals add up "
        "differently is a wipe-out, explained by the fixed cells of its runs (kakuro.engine.balance)",
    ),
}
"""The complete tree search's parts, shared by `gac`, `fc` and `rdv` (at consistency=gac)."""
PLAIN = {"restarts": "none", "learning": False, "order": "dom", "phase": False, "implied": False, "balance": False}
"""Every part off: the papers' depth-first search (d-way branching, smallest domain first)."""
TREE_BUDGETS = MappingProxyType({"nodes": "nodes", "fails": "fails"})
"""The budgets of a backend whose search is the engine's tree search (`Solver.budgets`): its
nodes and fails, at which the search stops exactly (`kakuro.engine.interrupt.bound`)."""
LEARNING_STATS = ("restarts", "learned", "deleted", "unbalanced")
SEARCH_STATS = ("nodes", "fails", "propagations")
"""The counters a complete search reports (with LEARNING_STATS for the learning search)."""
CONSISTENCY = Option("gac", "propagation after each assignment: gac (exact run-level reasoning, the strongest; refuses value "
                            "ranges too wide to tabulate) or fc (the paper's forward checking, any range)", choices=("gac", "fc"))
"""The propagation option of the native backends that search or play on the compiled state."""


class NativeSolver(Solver):
    """A backend that runs the compiled engine. It names the kernels a solve with given
    settings runs (`engine_kernels`: names of `kakuro.engine.compile.KERNELS`) and
    those of them compiled only when a puzzle needs them (`lazy_kernels`); the `Solver` hook
    `prepare_engine` compiles (or loads from the disk cache) the others before the clock."""

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        """The compiled engine kernels a solve with `settings` runs."""
        return ()

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        """The kernels (of `engine_kernels`) a solve compiles only when a puzzle needs them,
        off its clock: the complete search after root propagation, which most published
        puzzles never reach (seconds of compilation saved on a first solve)."""
        return ()

    def prepare_engine(self, settings: Mapping[str, Any], everything: bool = True) -> None:
        kernels = self._kernels(settings, everything)
        if kernels:
            ensure(*kernels)

    def is_cold(self, settings: Mapping[str, Any] | None = None) -> bool:
        kernels = self._kernels(self.settings if settings is None else settings, everything=False)
        return bool(kernels) and is_cold(*kernels)

    def _kernels(self, settings: Mapping[str, Any], everything: bool) -> tuple[str, ...]:
        kernels = self.engine_kernels(settings)
        if everything:
            return kernels
        lazy = self.lazy_kernels(settings)
        return tuple(k for k in kernels if k not in lazy)


class TreeSearchSolver(NativeSolver, EnumeratingSolver):
    """A native backend whose `engine_kernels` end with its tree search's (`tree_kernels`):
    that one is compiled when a puzzle first needs a search, off the clock."""

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return self.engine_kernels(settings)[-1:]


def learns(consistency: str, tree: Mapping[str, Any]) -> bool:
    """True when the search with `tree` options at `consistency` learns nogoods."""
    return bool(tree["learning"]) and consistency == "gac"


def is_plain(consistency: str, tree: Mapping[str, Any]) -> bool:
    """True when the search is the depth-first one: below gac, or with every part of the
    learning search off (see PLAIN)."""
    if consistency != "gac":
        return True
    return (tree["restarts"] == "none" and not tree["learning"] and tree["order"] == "dom" and not tree["phase"]
            and not tree["balance"])


def tree_kernels(consistency: str, tree: Mapping[str, Any], stages: tuple[str, ...] = ("root",)) -> tuple[str, ...]:
    """The engine kernels of `stages` ("root", "shave") at `consistency` and, last, of the
    tree search (on a learning state when it learns: see `with_learning`). `search` compiles
    the last one when a puzzle first needs it (NativeSolver.lazy_kernels)."""
    strength = "learn" if learns(consistency, tree) else consistency
    search = "depth_first" if is_plain(consistency, tree) else "learning"
    return tuple(f"{stage}:{consistency}" for stage in stages) + (f"{search}:{strength}",)


def start(
    puzzle: Puzzle, consistency: str, limits: Limits, seed: int, stat_names: tuple[str, ...],
    domains: Sequence[int] | None = None, learning: bool = False, implied: bool = False,
) -> tuple[State | None, Enumeration | None]:
    """Build the state of `puzzle` at `consistency`, from `domains` when given (bitmasks in
    cell order), arm it with the limits (`arm_limits`) and seed, and root-propagate. Returns the state (a
    learning state with `learning`, with the implied sums when `implied`, when the root leaves
    the puzzle open; None only when the deadline passed while it was built) and, when the
    root already decides (unsatisfiable, solved, or out of time), that decision. Stats get
    `root_solved`: True when root propagation alone decided the puzzle (a wipe-out, or every
    cell fixed)."""
    deadline = limits.deadline
    try:
        st = build_state(puzzle, consistency, deadline.expired)
    except BuildStopped:
        return None, Enumeration([], False, {}, TIME_LIMIT_REACHED + " while building the search state", "time")
    if domains is not None:
        load_domains(st, list(domains))
    arm_limits(st, limits, seed)
    ok = root_propagate(st)
    raise_if_interrupted(st)
    st.info[ROOT_SOLVED] = (not ok and st.info[STOP] == 0) or (ok and all_fixed(st))
    stats: dict[str, Stat] = dict(stats_of(st, stat_names))
    if not ok:
        if st.info[STOP] != 0:
            return st, Enumeration([], False, stats, TIME_LIMIT_REACHED + " during root propagation", "time")
        return st, Enumeration([], True, stats, "root propagation wiped out a domain")
    if st.info[NFREE] == 0:
        return st, Enumeration([[int(v) for v in st.val]], True, stats)
    if consistency == "gac" and all_fixed(st):  # a run at GAC with every domain single is satisfied
        return st, Enumeration([fixed_values(st.dom)], True, stats)
    # A LearningState goes wherever a State does (numba types the engine; its annotations say State).
    return (learning_state(st, puzzle, implied, deadline) if learning else st), None  # type: ignore[return-value]


def arm_limits(st: State, limits: Limits, seed: int) -> None:
    """Arm `st` for one solve (`kakuro.engine.state.arm`): the deadline and the seed, and the
    tree search's budgets (`bound`: root propagation and shaving count no nodes)."""
    arm(st, limits.deadline.end, seed)
    bound_search(st, limits)


def bound_search(st: State, limits: Limits) -> None:
    """Give the tree search on the armed `st` the budgets of `limits` (`bound`)."""
    bound(st, limits.budget.nodes, limits.budget.fails)


def learning_state(st: State, puzzle: Puzzle, implied: bool, deadline: Deadline = Deadline()) -> LearningState:
    """`with_learning(st)`, with the puzzle's `implied_sums` (those found before the deadline)
    when `implied`."""
    return with_learning(st, sums=implied_sums(puzzle, deadline) if implied else ())


def implied_sums(puzzle: Puzzle, deadline: Deadline = Deadline()) -> list[tuple[tuple[int, ...], int]]:
    """(cells, total) of the puzzle's innie and outie sums (`kakuro.reasoning.implied.region_sums`, those
    found before the deadline) that a learning state can keep (total at most MAX_SUM_TOTAL)."""
    found = region_sums(puzzle, deadline.expired)
    return [(region.cells, region.total) for region in found if region.total <= MAX_SUM_TOTAL]


def search(
    st: State, limit: int, stat_names: tuple[str, ...], value_order: str = "ascending",
    cells: np.ndarray = NO_CELLS, tree: Mapping[str, Any] | None = None, consistency: str = "gac",
    plan: Plan | None = None,
) -> Enumeration:
    """Up to `limit` solutions by the engine's tree search from the current state, with the
    state's counters `stat_names`: the depth-first search (`cells`: a fixed variable order,
    empty for smallest domain first) when `tree` is None or `is_plain`, else the learning
    search with the `tree` options (TREE_OPTIONS) and the counters LEARNING_STATS too; given
    `plan` (`learning_plan`), the learning search resumes with its weights and phases."""
    if tree is not None:  # compiled when first needed (a puzzle the root decides never needs it), off the clock
        postpone(st, ensure(tree_kernels(consistency, tree)[-1]))
    if tree is None or is_plain(consistency, tree):
        code, found = run_depth_first(st, value_order, limit, cells)
    else:
        code, found = run_learning_search(st, limit, plan or learning_plan(st, tree, consistency, value_order))
        stat_names = stat_names + LEARNING_STATS
    stopped = STOPPED_BY[stopped_by(st)] if code == STOPPED else None
    return Enumeration(found, code == EXHAUSTED, dict(stats_of(st, stat_names)), stop_reason(code, len(found), stopped),
                       stopped)


STOPPED_BY = {BY_CLOCK: "time", BY_NODES: "nodes", BY_FAILS: "fails"}
"""`Enumeration.stopped_by` of a search stopped by each cause (`kakuro.engine.state.stopped_by`)."""


def stop_reason(code: int, found: int, stopped: str | None = "time") -> str:
    """Why a search that returned `code` after `found` solutions stopped before its limit
    ("" when it finished or reached the limit, or a budget stopped it: the template says so
    with the count); `stopped` the limit that stopped it."""
    if code == STOPPED:
        return TIME_LIMIT_REACHED if stopped == "time" else ""
    if code == FULL:
        return f"the nogood store is full of found solutions' nogoods ({found} solutions found)"
    if code == OUT_OF_MEMORY:
        return f"memory ran out after {found} solutions"
    return ""


def learning_plan(st: State, tree: Mapping[str, Any], consistency: str = "gac", value_order: str = "ascending") -> Plan:
    """The learning search's settings and buffers for the `tree` options (TREE_OPTIONS)."""
    return plan_for(st, restarts=tree["restarts"], learning=learns(consistency, tree), order=tree["order"],
                    values=value_order, phase=tree["phase"], balance=tree["balance"])


def enumerate_solutions(
    puzzle: Puzzle, consistency: str, limit: int, limits: Limits, seed: int, stat_names: tuple[str, ...],
    value_order: str = "ascending", domains: Sequence[int] | None = None, tree: Mapping[str, Any] | None = None,
) -> Enumeration:
    """`start`, then (unless the root decides) `search` with the `tree` options (None: the
    depth-first search), within `limits` (its budgets bound the search)."""
    learning = tree is not None and learns(consistency, tree)
    implied = learning and bool(tree and tree["implied"])
    st, decided = start(puzzle, consistency, limits, seed, stat_names, domains, learning, implied)
    if decided is not None:
        return decided
    assert st is not None  # start returns no state only with a decision
    return search(st, limit, stat_names, value_order, tree=tree, consistency=consistency)


def tree_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The TREE_OPTIONS part of a backend's settings."""
    return {name: settings[name] for name in TREE_OPTIONS}


class ResumableSearch:
    """The native learning search (the `tree` options, `gac`'s defaults in `auto`) from a
    root-propagated state, run in slices, each going on where the last paused: together they
    make the very decisions of one uninterrupted search with the same seed. Its stop flag lives
    in memory shared with the processes forked after it was made, so `stop` works from one of
    them (`kakuro.isolation.race`). `deadline` is the solve's, moved later by the compilation a
    slice met (not solving)."""

    def __init__(self, root: State, puzzle: Puzzle, tree: Mapping[str, Any], deadline: Deadline, seed: int) -> None:
        learning = learning_state(root, puzzle, tree["implied"], deadline)
        arm(learning, None, seed)  # type: ignore[arg-type]  # a LearningState goes wherever a State does
        self.state = with_shared_stop(learning)  # type: ignore[arg-type]
        self.plan = learning_plan(self.state, tree)
        self.tree = tree
        self.deadline = deadline
        self.solutions: list[Sequence[int]] = []
        self.final: Enumeration | None = None

    def run(self, limit: int, pause: float | None = None) -> Enumeration:
        """Search on until `limit` solutions in all (earlier slices' included), the end of the
        search, the deadline, a `stop`, or (given `pause`, a `time.perf_counter` reading) its
        first restart after `pause`. Returns every solution so far, `exhausted` when the search
        ended, and the state's counters. A search that ended otherwise than by a stop (it
        finished, reached its limit, or ran out of room) is not searched again: a later call
        gives the same answer (going on, it would find the last solution again, whose nogood
        it never stored)."""
        if self.final is not None:
            return Enumeration(list(self.final.solutions), self.final.exhausted, dict(self.final.stats),
                               self.final.message)
        watch = Stopwatch()
        resume(self.state, self.deadline.end)
        pause_at(self.plan, pause)
        try:
            found = search(self.state, limit - len(self.solutions), SEARCH_STATS, tree=self.tree, plan=self.plan)
        finally:
            pause_at(self.plan, None)
            self.deadline = self.deadline.postponed(watch)
        self.solutions += found.solutions
        found.stats.pop("root_solved", None)
        answer = Enumeration(list(self.solutions), found.exhausted, found.stats, found.message)
        if found.message != TIME_LIMIT_REACHED:  # not a stop (at a pause, the deadline or `stop`)
            self.final = answer
        return Enumeration(list(answer.solutions), answer.exhausted, dict(answer.stats), answer.message)

    def stop(self) -> None:
        """Make a running slice return at its next look at the clock (from any process)."""
        request_stop(self.state.info)

    def variant(self, seed: int) -> ResumableSearch:
        """A copy of this search for a child forked right after (`kakuro.isolation.race`): it
        goes on from where this one paused (its nogoods, weights and phases) with its own
        counters and stop flag and its generator seeded with `seed`, so its random ties differ;
        `stop` on this one still reaches the parent. Make it while this one is paused: the
        counters are copied now, the other arrays when the child is forked."""
        other = copy.copy(self)
        other.state = self.state._replace(info=self.state.info.copy())
        other.state.info[RNG] = rng_state(seed)
        other.state.info[STOP] = 0
        other.solutions = list(self.solutions)
        return other
