"""Backend `rdv`: the Reducing Domain Values reduction (Panov & Koceski 2013,
`kakuro.reasoning.rdv`), then by default the native complete search on the reduced domains;
`search=false` is the paper's algorithm alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.combos import (
    fixed_values,
)
from kakuro.limits import Limits
from kakuro.native.searches import SEARCH_STATS
from kakuro.native.settings import Strength, TreeSearch
from kakuro.native_solver import TREE_BUDGETS, TREE_OPTIONS, TreeSearchSolver, enumerate_solutions
from kakuro.options import Option
from kakuro.outcome import Enumeration
from kakuro.puzzle import Puzzle
from kakuro.reasoning.rdv import STOPPED, reduce_domains
from kakuro.registry import register


@register("rdv")
class ReducingDomainValues(TreeSearchSolver):
    """The Reducing Domain Values reduction, then (by default) depth-first search.

    `search=true` (default): the reduced domains are the root of a depth-first search, smallest
    domain first, values ascending (the engine's search), propagating by exact run reasoning
    (`consistency=gac`, default, which subsumes the reduction) or forward checking
    (`consistency=fc`), with the learning search's parts (`TREE_OPTIONS`), so the backend is
    complete: it proves unsatisfiability and counts solutions. `search=false`: the paper's
    algorithm alone, answering UNKNOWN when the reduction stalls (and, when counting,
    `exhausted=False`), so that setting is incomplete. `complete` (a class attribute) describes
    the default; `search=false` never claims more than the reduction proved.
    """

    description = "Reducing Domain Values (Panov & Koceski 2013), then depth-first search"
    paradigm = "native propagation"
    complete = True
    budgets = TREE_BUDGETS
    options = {
        "search": Option(True, "search after the reduction (false: the paper's algorithm, incomplete)"),
        "consistency": Option("gac", "propagation during the search after the reduction: gac (exact run-level "
                                     "reasoning, the strongest) or fc (forward checking)", choices=("gac", "fc")),
        **TREE_OPTIONS,
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        if not settings["search"]:
            return ()
        return TreeSearch.of(settings).kernels(Strength(settings["consistency"]))

    def budgets_for(self, settings: Mapping[str, Any]) -> Mapping[str, str]:
        return TREE_BUDGETS if settings["search"] else {}  # the reduction alone counts no nodes

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        reduction = reduce_domains(puzzle, limits.deadline)
        if reduction.stopped:
            return Enumeration([], False, {"passes": reduction.passes, "forced": reduction.forced}, STOPPED, "time")
        stats: dict[str, Any] = {
            "root_solved": reduction.wiped_out or reduction.solved,
            "passes": reduction.passes,
            "forced": reduction.forced,
        }
        if reduction.wiped_out:
            return Enumeration([], True, stats, "the reduction wiped out a domain")
        if reduction.solved:
            return Enumeration([fixed_values(reduction.domains)], True, stats)
        if not opts["search"]:
            undecided = sum(1 for d in reduction.domains if d & (d - 1))
            return Enumeration([], False, stats, f"the reduction stalled with {undecided} cells undecided (search=false)")
        found = enumerate_solutions(
            puzzle, Strength(opts["consistency"]), limit, limits, seed, SEARCH_STATS, domains=reduction.domains,
            tree=TreeSearch.of(opts),
        )
        found.stats.update(root_solved=stats["root_solved"], passes=reduction.passes, forced=reduction.forced)
        return found
