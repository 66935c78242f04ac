"""OR-Tools CP-SAT backend: each run as AllDifferent + sum, as a table, or as an automaton.

One worker and a fixed random seed by default, because CP-SAT is only reproducible with
`num_workers=1` and a `random_seed`. OR-Tools is imported when a solve starts.

A fail budget is CP-SAT's `max_number_of_conflicts`, which it checks between conflicts, so a
run it stops may count a few more (docs/backends/cpsat.md measures it). With more than one worker
the limit does not stop the search (a budget of 50 on instances/hard/unsat-8x8-v9 ran to its time
limit with 2 workers), so `workers` > 1 refuses a fail budget; CP-SAT has no limit on its
branches, so a node budget is refused.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.combos import given_domains, permutations, range_mask, subset_automaton, values_of
from kakuro.isolation import call_interruptibly
from kakuro.limits import Limits
from kakuro.options import Option, seed_below
from kakuro.outcome import Enumeration, Outcome, Status
from kakuro.puzzle import Puzzle
from kakuro.reasoning.rdv import reduce_domains
from kakuro.registry import register
from kakuro.solver import Solver

MODELS = ("decomposition", "table", "automaton")
BUILD_CHECK_EVERY = 64
"""Cells or runs added to a model between two looks at the deadline."""
SEED_BITS = 31
"""CP-SAT's `random_seed` is a 32-bit signed integer: larger seeds are folded into it."""


def build_model(
    puzzle: Puzzle, model_kind: str = "decomposition", deadline: Deadline | None = None
) -> tuple[Any, list[Any], dict[str, Any]] | None:
    """The CP-SAT model of `puzzle`, its cell variables (cell order) and size statistics; None
    when `deadline` passes while building (checked every BUILD_CHECK_EVERY cells and runs, and
    during the domain reduction: a 1000x1000 grid takes seconds).

    `decomposition`: AllDifferent + linear sum per run, domains lo..hi (givens fixed).
    `table`: per run the allowed tuples (permutations of its combinations); `automaton`: per
    run an automaton over the sets of digits used so far. Both start from the domains of the
    Reducing Domain Values pass (sound, cheap), which keeps the tables small: a free 9-cell run
    of 45 alone has 9! = 362,880 rows.
    """
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model = cp_model.CpModel()
    lo, hi = puzzle.values
    sizes: dict[str, Any] = {}
    deadline = deadline or Deadline()
    if model_kind == "decomposition":
        domains = given_domains(puzzle)
    else:
        reduction = reduce_domains(puzzle, deadline)
        if reduction.stopped:
            return None
        domains = list(reduction.domains)
        if reduction.wiped_out:
            model.add_bool_or([])  # the reduction proved unsatisfiability: an empty clause says so
            domains = [range_mask(puzzle.values)] * puzzle.size
    cells = []
    for number, (d, (r, c)) in enumerate(zip(domains, puzzle.cells)):
        if number % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        cells.append(model.new_int_var_from_domain(cp_model.Domain.from_values(values_of(d)), f"x_{r}_{c}"))
    tuples = states = transitions = 0
    for number, run in enumerate(puzzle.groups):
        if number % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        members = [cells[i] for i in run.cells]
        if model_kind == "table":
            rows = permutations(run.total, [domains[i] for i in run.cells], puzzle.values)
            model.add_allowed_assignments(members, rows)
            tuples += len(rows)
        elif model_kind == "automaton":
            arcs, accepting = subset_automaton(len(run), run.total, puzzle.values)
            model.add_automaton(members, 0, list(accepting), list(arcs))
            states += len({a for a, _, _ in arcs} | set(accepting))
            transitions += len(arcs)
        else:
            if len(members) > 1:
                model.add_all_different(members)
            model.add(cp_model.LinearExpr.sum(members) == run.total)
    if model_kind == "table":
        sizes["num_tuples"] = tuples
    elif model_kind == "automaton":
        sizes.update(num_states=states, num_transitions=transitions)
    sizes["build_time"] = time.perf_counter() - started
    return model, cells, sizes


def _configure(solver: Any, opts: Mapping[str, Any], limits: Limits, seed: int) -> None:
    params = solver.parameters
    params.catch_sigint_signal = False  # CP-SAT would leave SIGINT at SIG_DFL, killing the caller on Ctrl-C
    params.num_workers = opts["workers"]
    params.random_seed = seed_below(seed, SEED_BITS)
    remaining = limits.deadline.remaining()
    if remaining is not None:
        params.max_time_in_seconds = max(remaining, 1e-3)
    if limits.budget.fails is not None:
        params.max_number_of_conflicts = limits.budget.fails


def _stopped_by(solver: Any, limits: Limits) -> str:
    """What stopped a CP-SAT search that did not finish (CP-SAT does not say): its conflict
    budget when it spent it before the deadline, else time."""
    fails = limits.budget.fails
    return "fails" if fails is not None and solver.num_conflicts >= fails and not limits.deadline.expired() else "time"


def solve_interruptibly(solver: Any, model: Any, callback: Any = None) -> int:
    """`solver.solve(model, callback)`'s status, with Ctrl-C reaching the caller at once: CP-SAT
    (with `catch_sigint_signal` off) would otherwise hold the main thread until its own limit
    (`kakuro.isolation.call_interruptibly`, which stops it with `stop_search`)."""
    return int(call_interruptibly(lambda: solver.solve(model, callback), solver.stop_search, name="cp-sat-solve"))


def _statistics(solver: Any, model: Any, sizes: dict[str, Any]) -> dict[str, Any]:
    proto = model.proto
    return {
        **sizes,
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "num_vars": len(proto.variables),
        "num_constraints": len(proto.constraints),
    }


@register("cpsat")
class CpSat(Solver):
    """Google OR-Tools CP-SAT on the decomposition model (AllDifferent + sum per run)."""

    description = "OR-Tools CP-SAT; runs as AllDifferent + sum, tables or automata"
    paradigm = "CP-SAT"
    complete = True
    budgets = {"fails": "conflicts"}
    engine = Engine("ortools", pip="ortools")
    options = {
        "model": Option("decomposition", "how each run is modelled", choices=MODELS),
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

    def budgets_for(self, settings: Mapping[str, Any]) -> Mapping[str, str]:
        return self.budgets if settings["workers"] == 1 else {}  # see the module docstring

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        from ortools.sat.python import cp_model

        built = build_model(puzzle, opts["model"], limits.deadline)
        if built is None or limits.deadline.expired():
            return Outcome(Status.UNKNOWN, None, {}, "time limit reached while building the model", "time")
        model, cells, sizes = built
        solver = cp_model.CpSolver()
        _configure(solver, opts, limits, seed)
        status = solve_interruptibly(solver, model)
        stats = _statistics(solver, model, sizes)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome(Status.SOLVED, [solver.value(x) for x in cells], stats)
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.UNSATISFIABLE, None, stats)
        if status == cp_model.MODEL_INVALID:
            return Outcome(Status.ERROR, None, stats, model.validate())
        stopped = _stopped_by(solver, limits)
        return Outcome(Status.UNKNOWN, None, stats, "time limit reached" if stopped == "time" else "", stopped)

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        from ortools.sat.python import cp_model

        built = build_model(puzzle, opts["model"], limits.deadline)
        if built is None or limits.deadline.expired():
            return Enumeration([], False, {}, "time limit reached while building the model", "time")
        model, cells, sizes = built
        solver = cp_model.CpSolver()
        _configure(solver, {**opts, "workers": 1}, limits, seed)  # enumeration needs one worker
        solver.parameters.enumerate_all_solutions = True
        found: list[list[int]] = []

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                found.append([self.value(x) for x in cells])
                if len(found) >= limit:
                    self.stop_search()

        status = solve_interruptibly(solver, model, Collector())
        finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        stopped = None if finished or len(found) >= limit else _stopped_by(solver, limits)
        return Enumeration(found, finished and len(found) < limit, _statistics(solver, model, sizes), stopped_by=stopped)
