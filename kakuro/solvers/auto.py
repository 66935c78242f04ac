"""The backend a user gets without choosing one (`auto`): the measured best path per puzzle.

1. Root GAC and shaving (`kakuro.solvers.gac.prepare`): most published puzzles end here.
2. What is left is raced: the native modern search (`gac`'s: restarts, dom/wdeg, phase saving,
   conflict learning, implied sums) on the shaved domains, in this process, against a SAT
   solver (`sat_solver`, CaDiCaL 1.9.5 by default) on the same domains
   (`kakuro.solvers.sat.encode` with `domains`: only the values and combinations left are
   encoded) in a forked child. The child raises the native search's stop flag (its `info`
   array lives in shared memory) when it has answered; when the native search answers first
   the child is killed. Since the implied sums the native search is the faster on every loose
   grid measured; CaDiCaL refutes the unsatisfiable Cazenave grids whose sums add up, which
   the native search does not. The race uses two cores for that stage; `search=native` or
   `search=sat` keeps to one. The native search first runs alone until its first restart
   after `head_start` seconds (0.05 s), which decides the easier half of the puzzles left
   without starting any process, and pauses there (`tree.pause_at`); resumed in the race, it
   makes the very decisions `gac` makes with the same seed.

A puzzle whose value range is too wide for the root's combination tables (`TablesTooLargeError`:
a long run over 1..62, say) goes to `cpsat` instead (`WIDE_RANGE_BACKEND`), whose model needs
no table.

Stats: `path` says what decided the puzzle ("root", "native", "sat" or "cpsat"; "none" when
the time ran out), the root's counters (`removed_gac`, `removed_shaving`, `probes`), `search_time`
(seconds after the root) and the winner's counters. Complete: it proves unsatisfiability and
counts solutions.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from kakuro.clock import Deadline, Stopwatch
from kakuro.combos import run_table_sizes
from kakuro.engine.state import (
    State,
    arm,
    request_stop,
    resume,
    tables_refusal,
    with_shared_stop,
)
from kakuro.engine.tree import Plan, pause_at
from kakuro.errors import BackendUnavailableError, KakuroError, TablesTooLargeError
from kakuro.isolation import collect, discard, fork_child
from kakuro.native import (
    TREE_OPTIONS,
    TreeSearchSolver,
    learning_plan,
    learning_state,
    search,
    tree_kernels,
)
from kakuro.options import Option
from kakuro.outcome import Enumeration, Status
from kakuro.puzzle import Puzzle
from kakuro.reasoning.pysat_search import (
    DEFAULT_SOLVER,
    SOLVER_NAMES,
    enumerate_with_sat,
    enumeration_of,
    sat_items,
)
from kakuro.reasoning.root import prepare, root_answer
from kakuro.registry import get_solver, register

SEARCHES = ("race", "native", "sat")
NATIVE_STATS = ("nodes", "fails", "propagations")
DEFAULT_TREE = {name: option.default for name, option in TREE_OPTIONS.items()}


@register("auto")
class Auto(TreeSearchSolver):
    """Root GAC and shaving, then the native modern search raced against SAT on the shaved domains."""

    description = "root GAC + shaving, then native search with learning raced against SAT on the shaved domains (the default)"
    options = {
        "search": Option("race", "after the root: race (native and SAT side by side, the "
                                 "first answer wins), native or sat", choices=SEARCHES),
        "sat_solver": Option(DEFAULT_SOLVER, "the PySAT solver of the SAT stage", choices=SOLVER_NAMES),
        "head_start": Option(0.05, "race: seconds the native search runs alone first (no "
                                   "process is started for what it decides)", minimum=0.0),
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        if settings["search"] == "sat":
            return ("root:gac", "shave:gac")
        return tree_kernels("gac", DEFAULT_TREE, ("root", "shave"))

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return () if settings["search"] == "sat" else super().lazy_kernels(settings)

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        wide = tables_refusal(run_table_sizes(puzzle, givens=False))
        if wide is not None:  # see WIDE_RANGE_BACKEND: the range decides, even where the givens' tables fit
            return _wide_range(puzzle, limit, deadline, seed, wide)
        st, reduction = prepare(puzzle, "fixpoint", deadline, seed)  # the givens' tables are subsets: they fit too
        stats: dict[str, Any] = {"path": "none"}
        if st is None or reduction is None:  # (no state: no reduction either)
            return Enumeration([], False, stats, "time limit reached during root propagation or shaving")
        stats.update(removed_gac=reduction.removed_gac, removed_shaving=reduction.removed_shaving, probes=reduction.probes)
        decided = root_answer(reduction, {**stats, "path": "root"})
        if decided is not None:
            return decided
        start = time.perf_counter()
        root = st

        def armed(end: float | None) -> State:  # a learning state at the shaved root (empty store) until `end`
            learning = learning_state(root, puzzle, DEFAULT_TREE["implied"], deadline)
            arm(learning, end, seed)  # type: ignore[arg-type]  # a LearningState goes wherever a State does
            return learning  # type: ignore[return-value]

        if opts["search"] == "native":
            found, path = _native(armed(deadline.end), limit), "native"
        elif opts["search"] == "sat":
            found, path = enumerate_with_sat(puzzle, limit, deadline, opts["sat_solver"], domains=reduction.domains), "sat"
        else:  # a head start alone, then the race, the native search going on where it paused
            native = with_shared_stop(armed(None))
            plan = learning_plan(native, DEFAULT_TREE)  # one plan: the race resumes with the head start's weights and phases
            found, deadline = _head_start(native, plan, limit, deadline, opts["head_start"])
            path = "native"
            if not _decided(found, limit) and not deadline.expired():
                sat_job = (puzzle, limit, opts["sat_solver"], "combinations", reduction.domains)
                found, path = _race(native, plan, limit, found, sat_job, deadline)
        stats["search_time"] = time.perf_counter() - start
        settled = _decided(found, limit)
        stats = {**stats, **found.stats, "path": path if settled else "none"}
        return Enumeration(found.solutions, found.exhausted, stats, "" if settled else "time limit reached")


WIDE_RANGE_BACKEND = "cpsat"
"""The backend `auto` hands a puzzle whose value range is too wide for the GAC tables: CP-SAT's
AllDifferent + sum model needs no table, and it solved every such generated grid measured
(empty 8x8 over 1..62 in 0.01 s, 20x20 in 0.1 s, 44x44 with 10% holes in 6 s) where forward
checking (`fc:consistency=fc`) timed out at 20 s on each. The range decides (the tables of
each run's (length, total)), not whether the tables that hold the givens fit: those fit on
Cazenave grids over 1..62 with about 10 % holes, but `gac`'s root shaving over them is slow,
and of 11 such grids measured cpsat was the faster on 8 (25x25: 0.12 s against 9.8 s; 35x35
and 40x40: 0.4 s and 2.8 s against no answer in 30 s; 30x30: 0.6 s against 9.9 s), gac on 2
(20x20 with 10 % holes, 45x45 with 5 %: 0.2 s and 0.1 s against 1.3 s and 1.9 s), and
neither answered within 120 s on the 45x45 grid with 10 % holes of issue #27."""


def _wide_range(puzzle: Puzzle, limit: int, deadline: Deadline, seed: int, refusal: TablesTooLargeError) -> Enumeration:
    """Up to `limit` solutions of `puzzle` from `WIDE_RANGE_BACKEND` within `deadline` (its
    solutions checked by its own `count_solutions`), stats `path` "cpsat"; the GAC `refusal`
    stands, with the reason, when that backend is not installed or fails."""
    stats: dict[str, Any] = {"path": "none"}
    remaining = deadline.remaining()
    if remaining is not None and remaining <= 0:
        return Enumeration([], False, stats, "time limit reached")
    try:
        found = get_solver(WIDE_RANGE_BACKEND).count_solutions(puzzle, limit=limit, time_limit=remaining, seed=seed)
    except BackendUnavailableError as exc:
        raise KakuroError(f"{refusal}; {WIDE_RANGE_BACKEND} would solve it but is not available: {exc}") from None
    if found.status not in (Status.SOLVED, Status.UNSATISFIABLE, Status.UNKNOWN):
        raise KakuroError(f"{refusal}; {WIDE_RANGE_BACKEND} failed on it: {found.status.value}: {found.message}")
    decided = found.exhausted or found.count >= limit
    stats = {**found.stats, "path": WIDE_RANGE_BACKEND if decided else "none"}
    return Enumeration([s.values for s in found.solutions], found.exhausted, stats, "" if decided else "time limit reached")


def _decided(found: Enumeration, limit: int) -> bool:
    """The search finished, or found all `limit` solutions asked for."""
    return found.exhausted or len(found.solutions) >= limit


def _native(st: State, limit: int, plan: Plan | None = None) -> Enumeration:
    found = search(st, limit, NATIVE_STATS, tree=DEFAULT_TREE, plan=plan)
    found.stats.pop("root_solved", None)
    return found


def _head_start(st: State, plan: Plan, limit: int, deadline: Deadline, seconds: float) -> tuple[Enumeration, Deadline]:
    """The native search alone until its first restart `seconds` from now (at most to
    `deadline`), paused there so that the race goes on with the very search `gac` makes; and
    the deadline moved later by the search kernel's first compilation meanwhile (not solving)."""
    watch = Stopwatch()
    resume(st, deadline.end)
    pause_at(plan, time.perf_counter() + seconds)
    found = _native(st, limit, plan)
    pause_at(plan, None)
    return found, deadline.postponed(watch)


def _race(st: State, plan: Plan, limit: int, head: Enumeration, sat_job: tuple[Any, ...],
          deadline: Deadline) -> tuple[Enumeration, str]:
    """The native search for up to `limit` solutions, resumed in this process after `head` (its
    solutions so far), against SAT (`sat_items(*sat_job)`) in a forked child that stops the
    native search through the shared stop flag when it has answered; the loser stops (the child
    is killed). (The answer, "native" or "sat".)"""
    child = fork_child(_answer_then_stop, (st.info, *sat_job))
    try:
        resume(st, deadline.end)
        more = _native(st, limit - len(head.solutions), plan)
    except BaseException:
        discard(child)
        raise
    found = Enumeration([*head.solutions, *more.solutions], more.exhausted, more.stats, more.message)
    if _decided(found, limit):
        discard(child)
        return found, "native"
    wait = 0.0 if deadline.expired() else ANSWER_GRACE  # stopped by the flag, unless the time is up
    try:
        answered, items = collect(child, Deadline(time.perf_counter() + wait))
    except Exception as exc:  # SAT is out of the race (a died child, a table too large): the native answer stands
        found.stats["sat_failed"] = f"{type(exc).__name__}: {exc}"
        return found, "native"
    return (enumeration_of(items, True, limit), "sat") if answered else (found, "native")


ANSWER_GRACE = 0.5
"""Seconds the parent waits for the SAT child's answer once the native search has stopped:
the child raises the stop flag just before it sends."""


def _answer_then_stop(stop: np.ndarray, *sat_job: Any) -> list[tuple[str, Any]]:
    """SAT's items (in the child), then the native search's stop flag raised."""
    items = list(sat_items(*sat_job))
    request_stop(stop)
    return items
