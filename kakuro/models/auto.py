"""The backend a user gets without choosing one (`auto`): the measured best path per puzzle.

1. Root GAC and shaving (`kakuro.models.gac.prepare`): most published puzzles end here.
2. What is left is raced (`kakuro.isolation.race`: two child processes, the first to finish
   wins, the other is killed): the native modern search (restarts, dom/wdeg, phase saving,
   conflict learning) on the shaved domains against a SAT solver (`sat_solver`, CaDiCaL 1.9.5
   by default) on the same domains (`kakuro.models.sat.encode` with `domains`: only the
   values and combinations left are encoded). Measured, neither dominates: the native search
   solves loose 30x30 grids several times faster than CaDiCaL, CaDiCaL proves grids whose row
   and column sums disagree unsatisfiable in 0.1 s where the native search needs minutes. The
   race uses two cores for that stage; `search=native` or `search=sat` keeps to one (in this
   process for native). The native search first runs alone for `head_start` seconds (0.05 s),
   which decides the easier half of the puzzles left without starting any process.

Stats: `path` says what decided the puzzle ("root", "native" or "sat"; "none" when the time
ran out), the root's counters (`removed_gac`, `removed_shaving`, `probes`), `search_time`
(seconds after the root) and the winner's counters. Complete: it proves unsatisfiability and
counts solutions.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

from kakuro.models.gac import prepare, root_answer
from kakuro.isolation import race
from kakuro.models.sat import DEFAULT_SOLVER, SOLVER_NAMES, enumerate_with_sat, enumeration_of, sat_items
from kakuro.puzzle import Puzzle
from kakuro.search.engine.compile import seconds_spent
from kakuro.search.engine.state import State, arm, with_learning
from kakuro.search.native import TREE_OPTIONS, TreeSearchSolver, search, tree_kernels
from kakuro.solver import Deadline, Enumeration, Option, register

SEARCHES = ("race", "native", "sat")
NATIVE_STATS = ("nodes", "fails", "propagations")
DEFAULT_TREE = {name: option.default for name, option in TREE_OPTIONS.items()}


@register("auto")
class Auto(TreeSearchSolver):
    """Root GAC and shaving, then the native modern search raced against SAT on the shaved domains."""

    description = "root GAC + shaving, then native search with learning raced against SAT on the shaved domains (the default)"
    options = {
        "search": Option("race", "after the root: race (native and SAT side by side, the first answer wins), native or sat", choices=SEARCHES),
        "sat_solver": Option(DEFAULT_SOLVER, "the PySAT solver of the SAT stage", choices=SOLVER_NAMES),
        "head_start": Option(0.05, "race: seconds the native search runs alone first (no process is started for what it decides)", minimum=0.0),
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        if settings["search"] == "sat":
            return ("root:gac", "shave:gac")
        return tree_kernels("gac", DEFAULT_TREE, ("root", "shave"))

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return () if settings["search"] == "sat" else super().lazy_kernels(settings)

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        st, reduction = prepare(puzzle, "fixpoint", deadline, seed)
        stats: dict[str, Any] = {"path": "none"}
        if reduction is None:
            return Enumeration([], False, stats, "time limit reached during root propagation or shaving")
        stats.update(removed_gac=reduction.removed_gac, removed_shaving=reduction.removed_shaving, probes=reduction.probes)
        decided = root_answer(reduction, {**stats, "path": "root"})
        if decided is not None:
            return decided
        start = time.perf_counter()

        def armed(end: float | None) -> State:  # a learning state at the shaved root (empty store) until `end`
            learning = with_learning(st)
            arm(learning, end, seed)
            return learning

        if opts["search"] == "native":
            found, path = _native(armed(deadline.end), limit), "native"
        elif opts["search"] == "sat":
            found, path = enumerate_with_sat(puzzle, limit, deadline, opts["sat_solver"], domains=reduction.domains), "sat"
        else:  # a head start alone, then the race (from a fresh store: the head start's solutions are found again)
            head = time.perf_counter() + opts["head_start"]
            compiled = seconds_spent()
            found, path = _native(armed(head if deadline.end is None else min(head, deadline.end)), limit), "native"
            if deadline.end is not None:  # the search kernel's first compilation is not solving
                deadline = Deadline(deadline.end + seconds_spent() - compiled)
            if not _decided(found, limit) and not deadline.expired():
                sat_job = (sat_items, (puzzle, limit, opts["sat_solver"], "combinations", reduction.domains))
                winner, items = race([(_native_items, (armed(deadline.end), limit)), sat_job], deadline)
                if winner == 0:
                    found = items[0][0]
                else:
                    found, path = enumeration_of(items[1], winner == 1, limit), "sat"
        stats["search_time"] = time.perf_counter() - start
        decided = _decided(found, limit)
        stats = {**stats, **found.stats, "path": path if decided else "none"}
        return Enumeration(found.solutions, found.exhausted, stats, "" if decided else "time limit reached")


def _decided(found: Enumeration, limit: int) -> bool:
    """The search finished, or found all `limit` solutions asked for."""
    return found.exhausted or len(found.solutions) >= limit


def _native(st: State, limit: int) -> Enumeration:
    found = search(st, limit, NATIVE_STATS, tree=DEFAULT_TREE)
    found.stats.pop("root_solved", None)
    return found


def _native_items(st: State, limit: int) -> Iterator[Enumeration]:
    """The native search's answer as the one item of a raced job."""
    yield _native(st, limit)
