"""python-constraint backend: one variable per white cell, AllDifferent and ExactSum per run.

The textbook CSP model on a pure-Python engine (python-constraint2, imported as `constraint`):
integer variable names (the engine rejects tuples), domain lo..hi, a given's domain is its
digit. The engine's backtracking searches are complete, so a finished search that found
nothing is UNSATISFIABLE; but `getSolution()` answers None for unsat and for gave-up alike,
and has no limit of its own, so with a time limit the search runs in a child process killed
at the deadline (`kakuro.isolation`) and a kill is reported as UNKNOWN, never as unsat.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kakuro.availability import Engine
from kakuro.errors import BackendOptionError
from kakuro.isolation import stream_with_deadline
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Enumeration, Outcome, Stat, Status
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.solver import Solver

SEARCHES = ("backtracking", "optimized")
"""python-constraint's complete searches: BacktrackingSolver (the default: picks the next
variable dynamically, most constraints then smallest domain) and OptimizedBacktrackingSolver
(a static order fixed before search). Measured here on krazydad-10x10-v9-b98-8: 4.7-6.6 s with
"backtracking", over 20 s (stopped) with "optimized"."""


def build_problem(puzzle: Puzzle, search: str = "backtracking", forwardcheck: bool = True) -> Any:
    """The python-constraint `Problem` of `puzzle`: variable `i` is white cell `i`."""
    import constraint

    kinds = {"backtracking": constraint.BacktrackingSolver, "optimized": constraint.OptimizedBacktrackingSolver}
    if search not in kinds:
        raise BackendOptionError(f"search {search!r} is not one of {', '.join(SEARCHES)}")
    problem = constraint.Problem(kinds[search](forwardcheck=forwardcheck))
    lo, hi = puzzle.values
    for cell in range(puzzle.size):
        given = puzzle.givens.get(cell)
        problem.addVariable(cell, [given] if given is not None else list(range(lo, hi + 1)))
    for run in puzzle.groups:
        cells = list(run.cells)
        if len(cells) > 1:
            problem.addConstraint(constraint.AllDifferentConstraint(), cells)
        if run.stated:  # a Sudoku group's sum follows from its all-different
            problem.addConstraint(constraint.ExactSumConstraint(run.total), cells)
    return problem


def _values(puzzle: Puzzle, assignment: Mapping[int, int]) -> list[int]:
    return [int(assignment[cell]) for cell in range(puzzle.size)]


def _solutions(puzzle: Puzzle, search: str, forwardcheck: bool, limit: int | None) -> Iterator[list[int]]:
    """Yield up to `limit` solutions (None: all) as one value per cell; ends when search ends."""
    if limit == 0:
        return
    for found, assignment in enumerate(build_problem(puzzle, search, forwardcheck).getSolutionIter(), start=1):
        yield _values(puzzle, assignment)
        if limit is not None and found >= limit:
            return


def _sizes(puzzle: Puzzle) -> dict[str, Stat]:
    constraints = sum(run.stated + (len(run) > 1) for run in puzzle.groups)
    return {"num_vars": puzzle.size, "num_constraints": constraints}


@register("csp")
class Csp(Solver):
    """python-constraint2's backtracking with forward checking on AllDifferent + ExactSum."""

    description = "python-constraint2 backtracking, AllDifferent + ExactSum per run"
    paradigm = "CP"
    complete = True
    supports_seed = False
    engine = Engine("constraint", pip="python-constraint2", distribution="python-constraint2")
    options = {
        "search": Option("backtracking", "python-constraint's search", choices=SEARCHES),
        "forwardcheck": Option(True, "forward checking during search"),
    }

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        found, finished = stream_with_deadline(
            _solutions, puzzle, opts["search"], opts["forwardcheck"], 1, deadline=limits.deadline
        )
        if found:
            return Outcome(Status.SOLVED, found[0], _sizes(puzzle))
        if finished:  # the complete search ended without a solution
            return Outcome(Status.UNSATISFIABLE, None, _sizes(puzzle))
        return Outcome(Status.UNKNOWN, None, _sizes(puzzle), "time limit reached")

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        found, finished = stream_with_deadline(
            _solutions, puzzle, opts["search"], opts["forwardcheck"], limit, deadline=limits.deadline
        )
        solutions: list[Sequence[int]] = list(found)
        return Enumeration(solutions, finished and len(solutions) < limit, _sizes(puzzle))
