"""The backend a user gets without choosing one (`auto`): the measured best path per puzzle.

1. Root GAC and shaving (`kakuro.models.gac.prepare`): most published puzzles end here.
2. What is left goes to the native modern search (restarts, dom/wdeg, phase saving, conflict
   learning) on the shaved domains for `switch` seconds (default 1 s);
3. then, if it is still open, to a SAT solver (`sat_solver`, CaDiCaL 1.9.5 by default) on the
   same shaved domains (`kakuro.models.sat.encode` with `domains`: only the values and
   combinations left are encoded) until the time limit.

`search=native` or `search=sat` keeps to one of the two. Stats: `path` says what decided the
puzzle ("root", "native" or "sat"; "none" when the time ran out), the root's counters
(`removed_gac`, `removed_shaving`, `probes`), `native_time` and `sat_time` (seconds each stage
searched), and the deciding stage's counters. Complete: it proves unsatisfiability and
counts solutions (each stage counts from scratch on the shaved domains).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from kakuro.models.gac import prepare
from kakuro.models.sat import DEFAULT_SOLVER, SOLVER_NAMES, enumerate_with_sat
from kakuro.puzzle import Puzzle
from kakuro.search.engine.state import arm, with_learning
from kakuro.search.native import TREE_OPTIONS, search, tree_kernels
from kakuro.solver import Deadline, EnumeratingSolver, Enumeration, Option, register

SEARCHES = ("portfolio", "native", "sat")
NATIVE_STATS = ("nodes", "fails", "propagations")
DEFAULT_TREE = {name: option.default for name, option in TREE_OPTIONS.items()}


@register("auto")
class Auto(EnumeratingSolver):
    """Root GAC and shaving, then the native modern search, then SAT on the shaved domains."""

    description = "root GAC + shaving, then native search with learning, then SAT on the reduced domains (the default)"
    options = {
        "search": Option("portfolio", "after the root: portfolio (native for `switch` s, then SAT), native or sat", choices=SEARCHES),
        "switch": Option(1.0, "seconds the native search runs before SAT takes over (portfolio)", minimum=0.0),
        "sat_solver": Option(DEFAULT_SOLVER, "the PySAT solver of the SAT stage", choices=SOLVER_NAMES),
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        if settings["search"] == "sat":
            return ("root:gac", "shave:gac")
        return tree_kernels("gac", DEFAULT_TREE, ("root", "shave"))

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        st, reduction = prepare(puzzle, "fixpoint", deadline, seed)
        stats: dict[str, Any] = {"path": "none", "native_time": 0.0, "sat_time": 0.0}
        if reduction is None:
            return Enumeration([], False, stats, "time limit reached during root propagation or shaving")
        stats.update(removed_gac=reduction.removed_gac, removed_shaving=reduction.removed_shaving, probes=reduction.probes)
        if reduction.wiped_out:
            return Enumeration([], True, {**stats, "path": "root"}, "root propagation wiped out a domain")
        if reduction.solved:
            return Enumeration([[d.bit_length() - 1 for d in reduction.domains]], True, {**stats, "path": "root"})
        found = Enumeration([], False, {})
        if opts["search"] != "sat":
            native_end = deadline.end
            if opts["search"] == "portfolio":
                switch = time.perf_counter() + opts["switch"]
                native_end = switch if native_end is None else min(native_end, switch)
            start = time.perf_counter()
            learning = with_learning(st)
            arm(learning, native_end, seed)
            found = search(learning, limit, NATIVE_STATS, tree=DEFAULT_TREE)
            stats["native_time"] = time.perf_counter() - start
            found.stats.pop("root_solved", None)
            if found.exhausted or len(found.solutions) >= limit:
                return Enumeration(found.solutions, found.exhausted, {**stats, **found.stats, "path": "native"}, found.message)
        if opts["search"] == "native" or deadline.expired():
            return Enumeration(found.solutions, False, {**stats, **found.stats}, "time limit reached")
        start = time.perf_counter()
        answer = enumerate_with_sat(puzzle, limit, deadline, opts["sat_solver"], domains=reduction.domains)
        stats["sat_time"] = time.perf_counter() - start
        decided = answer.exhausted or len(answer.solutions) >= limit
        message = "" if decided else "time limit reached"
        return Enumeration(answer.solutions, answer.exhausted, {**stats, **answer.stats, "path": "sat" if decided else "none"}, message)
