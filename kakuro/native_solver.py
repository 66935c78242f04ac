"""What the native backends share above the engine's driver (`kakuro.native`): its one-time
costs paid before the clock (`NativeSolver`: the kernels a backend runs), the options of the
complete tree search (`TREE_OPTIONS`, read as a `kakuro.native.settings.TreeSearch`), a search
started and run to an `Enumeration` with the learning search's implied sums
(`enumerate_solutions`), and the learning search run in slices (`ResumableSearch`).

The tree search at `consistency=gac` is the engine's learning search (restarts, dom/wdeg,
phase saving, conflict learning, the balance check) unless every one of its parts is off
(`kakuro.native.settings.PLAIN`), which is the papers' depth-first search. At
`consistency=fc` the search is always the depth-first one: the learning search refutes a value
(x != v) by propagating the removal, which forward checking cannot do.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from kakuro.clock import Deadline, Stopwatch
from kakuro.limits import Limits
from kakuro.native.kernels import is_cold, warm
from kakuro.native.searches import SEARCH_STATS, learning_plan, pause_at, search, start
from kakuro.native.settings import Strength, TreeSearch, ValueOrder
from kakuro.native.state import (
    MAX_SUM_TOTAL,
    RNG,
    STOP,
    LearningState,
    State,
    arm,
    request_stop,
    resume,
    rng_state,
    with_learning,
    with_shared_stop,
)
from kakuro.options import Option
from kakuro.outcome import TIME_LIMIT_REACHED as TIME_LIMIT_REACHED  # its home; the native backends' name for it
from kakuro.outcome import Enumeration
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
"""The complete tree search's parts, shared by `gac`, `fc` and `rdv` (at consistency=gac): a
`TreeSearch` (`TreeSearch.of(settings)`), whose defaults are these (`DEFAULT_TREE`)."""
DEFAULT_TREE = TreeSearch.of({name: option.default for name, option in TREE_OPTIONS.items()})
"""The tree search of the options' defaults (`gac`'s, and `auto`'s search)."""
TREE_BUDGETS = MappingProxyType({"nodes": "nodes", "fails": "fails"})
"""The budgets of a backend whose search is the engine's tree search (`Solver.budgets`): its
nodes and fails, at which the search stops exactly (`kakuro.native.state.bound`)."""
CONSISTENCY = Option("gac", "propagation after each assignment: gac (exact run-level reasoning, the strongest; refuses value "
                            "ranges too wide to tabulate) or fc (the paper's forward checking, any range)", choices=("gac", "fc"))
"""The propagation option of the native backends that search or play on the compiled state."""


class NativeSolver(Solver):
    """A backend that runs the compiled engine. It names the kernels a solve with given
    settings runs (`engine_kernels`: named by `kakuro.native.settings`) and
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
            warm(*kernels)

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
    """A native backend whose `engine_kernels` end with its tree search's (`TreeSearch.kernels`):
    that one is compiled when a puzzle first needs a search, off the clock."""

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return self.engine_kernels(settings)[-1:]


def learning_state(st: State, puzzle: Puzzle, implied: bool, deadline: Deadline = Deadline()) -> LearningState:
    """`with_learning(st)`, with the puzzle's `implied_sums` (those found before the deadline)
    when `implied`."""
    return with_learning(st, sums=implied_sums(puzzle, deadline) if implied else ())


def implied_sums(puzzle: Puzzle, deadline: Deadline = Deadline()) -> list[tuple[tuple[int, ...], int]]:
    """(cells, total) of the puzzle's innie and outie sums (`kakuro.reasoning.implied.region_sums`, those
    found before the deadline) that a learning state can keep (total at most MAX_SUM_TOTAL)."""
    found = region_sums(puzzle, deadline.expired)
    return [(region.cells, region.total) for region in found if region.total <= MAX_SUM_TOTAL]


def enumerate_solutions(
    puzzle: Puzzle, strength: Strength, limit: int, limits: Limits, seed: int, stat_names: tuple[str, ...],
    value_order: ValueOrder = ValueOrder.ASCENDING, domains: Sequence[int] | None = None, tree: TreeSearch | None = None,
) -> Enumeration:
    """`start`, then (unless the root decides) `search` with `tree` (None: the depth-first
    search) on a learning state with the puzzle's implied sums when it learns (and `implied`),
    within `limits` (its budgets bound the search)."""
    st, decided = start(puzzle, strength, limits, seed, stat_names, domains)
    if decided is not None:
        return decided
    assert st is not None  # start returns no state only with a decision
    if tree is not None and tree.learns(strength):
        # A LearningState goes wherever a State does (numba types the engine; its annotations say State).
        st = learning_state(st, puzzle, tree.implied, limits.deadline)  # type: ignore[assignment]
    return search(st, limit, stat_names, value_order, tree=tree, strength=strength)


class ResumableSearch:
    """The native learning search (the `tree` options, `gac`'s defaults in `auto`) from a
    root-propagated state, run in slices, each going on where the last paused: together they
    make the very decisions of one uninterrupted search with the same seed. Its stop flag lives
    in memory shared with the processes forked after it was made, so `stop` works from one of
    them (`kakuro.isolation.race`). `deadline` is the solve's, moved later by the compilation a
    slice met (not solving)."""

    def __init__(self, root: State, puzzle: Puzzle, tree: TreeSearch, deadline: Deadline, seed: int) -> None:
        learning = learning_state(root, puzzle, tree.implied, deadline)
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
