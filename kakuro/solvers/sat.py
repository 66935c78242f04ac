"""Backend `sat`: the CNF of `kakuro.reasoning.cnf` (one-hot digits, all-different as
at-most-one, each sum through its combinations or as a pseudo-Boolean equality) solved by any
SAT solver PySAT ships (`kakuro.reasoning.pysat_search`).

Time limits: PySAT's `interrupt()` is ignored by CaDiCaL, so with a time limit the solver runs
in a child process that is killed at the deadline (`kakuro.isolation`); without one it runs here.
Solutions are counted by blocking clauses over the value variables. A fail budget is a budget of
the solver's conflicts (PySAT's `conf_budget`), for the solvers that honour it
(`kakuro.reasoning.pysat_search.CONFLICT_BUDGET_SOLVERS`; the others refuse one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.availability import Engine
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Enumeration, Outcome
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import ENCODINGS
from kakuro.reasoning.pysat_search import (
    CONFLICT_BUDGET_SOLVERS,
    DEFAULT_ENCODING,
    DEFAULT_SOLVER,
    SOLVER_NAMES,
    enumerate_with_sat,
    pysat_name,
    solve_with_sat,
)
from kakuro.registry import register
from kakuro.solver import Solver


@register("sat")
class Sat(Solver):
    """SAT encodings of Kakuro solved by a PySAT solver (CaDiCaL 1.9.5 by default)."""

    description = "PySAT CNF (one-hot digits, combination selectors or PB sums), any PySAT solver"
    paradigm = "SAT"
    complete = True
    supports_seed = False
    budgets = {"fails": "conflicts"}
    engine = Engine("pysat", pip="python-sat")
    options = {
        "solver": Option(DEFAULT_SOLVER, "the PySAT solver (canonical name)", choices=SOLVER_NAMES),
        "encoding": Option(DEFAULT_ENCODING, "how each run's sum is encoded", choices=ENCODINGS),
    }

    @classmethod
    def warm_up(cls) -> None:
        """Import PySAT's solvers and encoders and check the default solver runs."""
        super().warm_up()
        import pysat.card  # noqa: F401

        pysat_name(DEFAULT_SOLVER)

    def budgets_for(self, settings: Mapping[str, Any]) -> Mapping[str, str]:
        return self.budgets if settings["solver"] in CONFLICT_BUDGET_SOLVERS else {}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return solve_with_sat(puzzle, limits.deadline, opts["solver"], opts["encoding"], limits.budget.fails)

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        return enumerate_with_sat(puzzle, limit, limits.deadline, opts["solver"], opts["encoding"], conflicts=limits.budget.fails)
