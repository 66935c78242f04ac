"""The native GAC sum-alldiff model (backend `gac`), after the Choco Kakuro tutorial.

Each run is one combined sum + all-different constraint kept at generalized arc consistency
by the engine's run-level propagator (`revise_run`, through `kakuro.native`: a value stays only if some
combination of distinct values with the run's sum, matched one-to-one onto the run's free
cells, gives it to that cell; the tutorial compiles the same constraint to a table or a
`regular` automaton). Three stages:

1. root GAC: every run revised to a fixpoint (`root_propagate`);
2. shaving, i.e. singleton arc consistency (`shave`): each remaining value of each unfixed
   cell is assigned, propagated and undone; a value whose propagation wipes out a domain is
   removed (and the removal propagated). `bounded` (default) repeats sweeps until one removes
   nothing, or until it has spent `kakuro.reasoning.root.shaving_budget` run revisions without
   removing a value (100 per run of a Kakuro, more where cells lie in more groups): on the
   published puzzles it removes what `fixpoint` does (the most revisions a removal took there
   is 2.7 per run), and on grids where it removes
   nothing (empty Cazenave grids) the search starts at once instead of after a full pass (0.4 s
   on a 20x20 grid over 1..21, 4 s on a 30x30 over 1..31, where the search takes 0.02 s).
   `fixpoint` repeats sweeps until one removes nothing (singleton arc consistency, whatever it
   costs), `once` sweeps once, `none` skips the stage. Measured on all 1,398 shared puzzles
   (`experiments/propagation_strength.py`): `once` and `fixpoint` decide the same puzzles with
   no search (every one with a unique solution) at the same cost;
3. a complete search maintaining GAC from the shaved domains: by default the engine's learning
   search (Luby restarts, dom/wdeg with random ties, phase saving, conflict learning from
   explained run propagation, the grid's implied sums kept at GAC beside the runs: its closed
   blocks' innies and outies, `kakuro.reasoning.implied`; the balance check on the open regions,
   the engine's `balance`; `kakuro.native_solver.TREE_OPTIONS` names the parts), or, with every part
   off (`restarts=none,learning=false,order=dom,phase=false,implied=false,balance=false`), the
   tutorial's depth-first search, smallest domain first, values ascending.

Stats: `root_solved` (stages 1-2 decided the puzzle: every domain a single value, or a
wipe-out), `removed_gac` and `removed_shaving` (values removed by each stage from the initial
domains: the full range for an empty cell, the digit for a given), `probes` (shaving trial
assignments), `sweeps`, `shaving_cut` (`bounded` shaving stopped on its budget), `nodes`,
`fails`, `propagations` (run revisions), and for the learning search `restarts`, `learned` and
`deleted` (nogoods). The seed breaks the learning search's
ties; the plain search does not use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.clock import Stopwatch
from kakuro.family_search import FAMILY, FamilySolver, family_count
from kakuro.limits import Limits
from kakuro.native.searches import SEARCH_STATS, bound_search, search
from kakuro.native.settings import FAMILY_KERNELS, ROOT, SHAVE, Strength, TreeSearch
from kakuro.native.state import PROPAGATIONS, stats_of
from kakuro.native_solver import TREE_BUDGETS, TREE_OPTIONS, TreeSearchSolver, learning_state
from kakuro.options import Option
from kakuro.outcome import Enumeration, Stat
from kakuro.puzzle import Puzzle
from kakuro.reasoning.root import DRY_REVISIONS_PER_RUN, SHAVING, prepare, root_answer
from kakuro.registry import register


@register("gac")
class GacModel(TreeSearchSolver, FamilySolver):
    """Run-level GAC sum-alldiff, then shaving, then search maintaining GAC."""

    description = "GAC per run (sum + alldifferent as one constraint), shaving (SAC), MAC search"
    paradigm = "native propagation"
    complete = True
    budgets = TREE_BUDGETS
    options = {
        "shaving": Option(
            "bounded",
            "singleton arc consistency after root GAC: bounded (repeated sweeps, stopped once they spend "
            f"{DRY_REVISIONS_PER_RUN} run revisions per run of a Kakuro without removing a value, more where cells lie in more "
            "groups), fixpoint (repeated sweeps), once or none",
            choices=SHAVING,
        ),
        **TREE_OPTIONS,
        "family": FAMILY,
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        tree = TreeSearch.of(settings).kernels(Strength.GAC, (ROOT, SHAVE))
        return tree + (FAMILY_KERNELS if settings["family"] else ())

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return self.engine_kernels(settings)[1:]  # shaving and the search: compiled when a puzzle needs them

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        family = family_count(puzzle, limit, limits.deadline) if opts["family"] and not limits.budget.asked() else None
        if family is not None:
            return family
        tree = TreeSearch.of(opts)
        watch = Stopwatch()
        st, reduction = prepare(puzzle, opts["shaving"], limits.deadline, seed)
        deadline = limits.deadline.postponed(watch)  # by shaving's compilation, when it met one
        if st is None:
            return Enumeration([], False, {"root_solved": False}, "time limit reached while building the search state", "time")
        if reduction is None:
            stopped: dict[str, Stat] = {**stats_of(st, SEARCH_STATS), "root_solved": False}
            return Enumeration([], False, stopped, "time limit reached during root propagation or shaving", "time")
        stats: dict[str, Any] = {
            "root_solved": reduction.wiped_out or reduction.solved,
            "removed_gac": reduction.removed_gac,
            "removed_shaving": reduction.removed_shaving,
            "probes": reduction.probes,
            "sweeps": reduction.sweeps,
            "shaving_cut": reduction.cut,
        }
        decided = root_answer(reduction, {**stats, "nodes": 0, "fails": 0, "propagations": int(st.info[PROPAGATIONS])})
        if decided is not None:
            return decided
        root = learning_state(st, puzzle, tree.implied, deadline) if tree.learns(Strength.GAC) else st
        bound_search(st, limits)  # the search's budgets (root GAC and shaving count no nodes; `root` shares `info`)
        found = search(root, limit, SEARCH_STATS, tree=tree)  # type: ignore[arg-type]  # a LearningState goes wherever a State does
        found.stats.pop("root_solved")
        found.stats.update(stats)
        return found
