"""OR-Tools CP-SAT backend: per run an AllDifferent and a linear sum.

One worker and a fixed random seed by default, because CP-SAT is only reproducible with
`num_workers=1` and a `random_seed`. OR-Tools is imported when a solve starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.puzzle import Puzzle
from kakuro.solver import Deadline, Engine, Enumeration, Option, Outcome, Solver, Status, register


def build_model(puzzle: Puzzle) -> tuple[Any, list[Any]]:
    """The CP-SAT model of `puzzle` and its cell variables (cell order)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    lo, hi = puzzle.values
    cells = []
    for i, (r, c) in enumerate(puzzle.cells):
        given = puzzle.givens.get(i)
        low, high = (given, given) if given is not None else (lo, hi)
        cells.append(model.new_int_var(low, high, f"x_{r}_{c}"))
    for run in puzzle.runs:
        members = [cells[i] for i in run.cells]
        if len(members) > 1:
            model.add_all_different(members)
        model.add(sum(members) == run.total)
    return model, cells


def _configure(solver: Any, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> None:
    params = solver.parameters
    params.catch_sigint_signal = False  # CP-SAT would leave SIGINT at SIG_DFL, killing the caller on Ctrl-C
    params.num_workers = opts["workers"]
    params.random_seed = seed
    remaining = deadline.remaining()
    if remaining is not None:
        params.max_time_in_seconds = max(remaining, 1e-3)


def _statistics(solver: Any, model: Any) -> dict[str, Any]:
    proto = model.proto
    return {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "num_vars": len(proto.variables),
        "num_constraints": len(proto.constraints),
    }


@register("cpsat")
class CpSat(Solver):
    """Google OR-Tools CP-SAT on the decomposition model (AllDifferent + sum per run)."""

    description = "OR-Tools CP-SAT, AllDifferent + sum per run"
    complete = True
    engine = Engine("ortools", pip="ortools")
    options = {
        "model": Option("decomposition", "how each run is modelled", choices=("decomposition",)),
        "workers": Option(1, "CP-SAT search workers (1 is reproducible)", minimum=1, maximum=64),
    }

    @classmethod
    def warm_up(cls) -> None:
        """Import CP-SAT's Python layer (over 1 s the first time) and run one trivial solve."""
        super().warm_up()
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        model.new_int_var(0, 1, "x")
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.catch_sigint_signal = False
        solver.solve(model)

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        from ortools.sat.python import cp_model

        model, cells = build_model(puzzle)
        solver = cp_model.CpSolver()
        _configure(solver, opts, deadline, seed)
        status = solver.solve(model)
        stats = _statistics(solver, model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome(Status.SOLVED, [solver.value(x) for x in cells], stats)
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.UNSATISFIABLE, None, stats)
        if status == cp_model.MODEL_INVALID:
            return Outcome(Status.ERROR, None, stats, model.validate())
        return Outcome(Status.UNKNOWN, None, stats, "time limit reached")

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        from ortools.sat.python import cp_model

        model, cells = build_model(puzzle)
        solver = cp_model.CpSolver()
        _configure(solver, {**opts, "workers": 1}, deadline, seed)  # enumeration needs one worker
        solver.parameters.enumerate_all_solutions = True
        found: list[list[int]] = []

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                found.append([self.value(x) for x in cells])
                if len(found) >= limit:
                    self.stop_search()

        status = solver.solve(model, Collector())
        finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        return Enumeration(found, finished and len(found) < limit, _statistics(solver, model))
