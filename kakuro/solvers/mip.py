"""Backend `mip`: Kakuro as a 0-1 integer programme, solved by HiGHS (`highspy`, the default)
or SCIP (`pyscipopt`, `solver=scip`).

Both models have a binary x[c, v] per white cell c and value v of its domain (a given's domain
is its digit), with one row per cell: sum_v x[c, v] = 1. They differ in how a run is written
(option `model`):

- `combinations` (the default: its LP relaxation is much tighter, and it measures faster): a
  binary y[r, k] per allowed combination k of run r (`kakuro.combos.run_combinations`: the
  value sets that hold the run's givens), one chosen (sum_k y[r, k] = 1), linked to the cells
  by one row per value v: sum_{c in r} x[c, v] = sum_{k holding v} y[r, k]. The run's cells
  then hold exactly the values of the chosen combination, so the sum and the all-different
  follow; a run with one combination needs no y (each of its values once), and a cell's domain
  is cut to the values some combination of each of its runs holds. A run whose combinations
  number more than `MAX_RUN_COMBINATIONS` (a wide value range) is written as in `assignment`
  instead (stat `untabulated_runs`).
- `assignment`: per run, each value at most once (sum_{c in r} x[c, v] <= 1) and the sum as
  one linear equality (sum_{c in r} sum_v v x[c, v] = total). No tables, so it works for any
  value range; its LP relaxation is weak (fractional x satisfy the sum easily). This is the
  binary integer programme of Davies, Roach and Perkins ("Automation of the Solution of Kakuro
  Puzzles", 2009; cited as [6] by the RDV paper in ../shared/papers, which does not reproduce the
  model): a 0-1 variable per cell and digit, one digit per cell, no digit twice in a run, run
  sums as linear equalities.

Measured here (2 cores shared with other work, HiGHS 1.16, SCIP via PySCIPOpt 6.3): on every
14th janko puzzle the median solve took 0.03-0.08 s with combinations and 0.11-0.25 s with
assignment on HiGHS (0.6 s on SCIP, one puzzle over 30 s); combinations refutes the
unsatisfiable grids of instances/hard at the root (16x16 over 1..17 in about 1 s, where SAT
needs over 10 s) and solves the empty 12x12 and 16x16 grids in 0.1-0.3 s, while no variant
finds a solution of the loose 30x30 and larger grids within 10 s (HiGHS stays at the root).

The objective is zero: the first integer-feasible point is optimal, so either engine stops at
a solution or proves there is none (complete). Counting adds, after each solution, the no-good
cut sum over the non-fixed cells of x[c, v_c] <= n - 1 (that solution excluded, every other
kept) and solves again.

Time limits and Ctrl-C: the programme is built and solved in a forked child
(`kakuro.isolation`). Each engine gets the time left as its own limit (HiGHS `time_limit`, SCIP
`limits/time`) and stops itself, reporting its counters; the parent waits `GRACE` seconds past
the deadline and then kills the child. highspy's `solve()` catches Ctrl-C itself (prints and
waits) and SCIP catches it too, so neither would let KeyboardInterrupt reach the caller at once;
in the child, Ctrl-C kills the child and the parent goes on with the KeyboardInterrupt. A killed
or stopped search is UNKNOWN, never UNSATISFIABLE.

Stats: `num_vars` (columns), `num_constraints` (rows, counting cuts included), `nodes`
(branch-and-bound nodes), `lp_iterations` (simplex iterations), `build_time`, and
`untabulated_runs` for the combinations model. Counters add up over the solves of a count.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.combos import given_domains, run_combinations_up_to, union_of, values_of
from kakuro.errors import KakuroError
from kakuro.isolation import stream_with_deadline
from kakuro.limits import Limits
from kakuro.options import Option, seed_below
from kakuro.outcome import Enumeration, Stat
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.solver import EnumeratingSolver

MODELS = ("combinations", "assignment")
SOLVERS = ("highs", "scip")
SCIP = Engine("pyscipopt", pip="pyscipopt", distribution="PySCIPOpt")
"""The engine of `solver=scip` (the backend's own engine is HiGHS)."""

MAX_RUN_COMBINATIONS = 20_000
"""A run with more combinations than this is written as in the assignment model: its y columns
would dwarf the rest of the programme."""
GRACE = 0.5
"""Seconds past the deadline the parent waits for the engine to stop at its own time limit and
report its counters, before it kills the child."""
SEED_BITS = 31
"""HiGHS `random_seed` and SCIP `randomization/randomseedshift` are non-negative 32-bit ints."""


# --------------------------------------------------------------------- the programme
@dataclass
class Program:
    """A 0-1 feasibility programme: `num_cols` binary columns (fixed ones have lower bound 1),
    rows lower <= sum(value * x[index]) <= upper in compressed sparse row form, and for each
    cell its (value, column) pairs."""

    num_cols: int = 0
    col_lower: list[float] = field(default_factory=list)
    starts: list[int] = field(default_factory=lambda: [0])
    index: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    row_lower: list[float] = field(default_factory=list)
    row_upper: list[float] = field(default_factory=list)
    cell_columns: list[list[tuple[int, int]]] = field(default_factory=list)
    untabulated_runs: int = 0

    @property
    def num_rows(self) -> int:
        return len(self.row_lower)

    def column(self, fixed: bool = False) -> int:
        self.col_lower.append(1.0 if fixed else 0.0)
        self.num_cols += 1
        return self.num_cols - 1

    def row(self, terms: Sequence[tuple[int, float]], lower: float, upper: float) -> None:
        for col, coef in terms:
            self.index.append(col)
            self.value.append(coef)
        self.starts.append(len(self.index))
        self.row_lower.append(lower)
        self.row_upper.append(upper)

    def decode(self, x: Sequence[float]) -> list[int]:
        """One value per cell from a column solution (the value whose x is 1)."""
        return [max(pairs, key=lambda p: x[p[1]])[0] if pairs else 0 for pairs in self.cell_columns]

    def no_good(self, values: Sequence[int]) -> tuple[list[tuple[int, float]], float] | None:
        """The cut that excludes `values` and nothing else: its terms and upper bound; None when
        every cell is fixed (the programme has no other solution)."""
        terms = [(col, 1.0) for pairs, v in zip(self.cell_columns, values) if len(pairs) > 1
                 for w, col in pairs if w == v]
        return (terms, len(terms) - 1.0) if terms else None


def build_program(puzzle: Puzzle, model: str = MODELS[0]) -> Program:
    """The 0-1 programme of `puzzle` in `model` (see the module docstring)."""
    if model not in MODELS:
        raise KakuroError(f"unknown mip model {model!r}; models: {', '.join(MODELS)}")
    domains = given_domains(puzzle)
    tables: list[tuple[int, ...] | None] = [None] * len(puzzle.groups)
    if model == "combinations":
        tables = [run_combinations_up_to(puzzle, run, MAX_RUN_COMBINATIONS) for run in puzzle.groups]
        for run, combos in zip(puzzle.groups, tables):
            if combos is not None:
                union = union_of(combos)
                for cell in run.cells:
                    domains[cell] &= union
    program = Program()
    columns: list[dict[int, int]] = []
    for cell, domain in enumerate(domains):
        values = values_of(domain)
        given = cell in puzzle.givens
        pairs = [(v, program.column(fixed=given or len(values) == 1)) for v in values]
        program.cell_columns.append(pairs)
        columns.append(dict(pairs))
        program.row([(col, 1.0) for _, col in pairs], 1.0, 1.0)  # an empty domain: the row 0 = 1
    for run, combos in zip(puzzle.groups, tables):
        if combos is None:
            program.untabulated_runs += model == "combinations"
            _assignment_rows(program, puzzle, run.cells, run.total, columns)
        else:
            _combination_rows(program, run.cells, combos, columns)
    return program


def _assignment_rows(program: Program, puzzle: Puzzle, cells: Sequence[int], total: int,
                     columns: list[dict[int, int]]) -> None:
    lo, hi = puzzle.values
    for v in range(lo, hi + 1):
        holders = [columns[c][v] for c in cells if v in columns[c]]
        if len(holders) > 1:
            program.row([(col, 1.0) for col in holders], 0.0, 1.0)
    program.row([(col, float(v)) for c in cells for v, col in columns[c].items()], total, total)


def _combination_rows(program: Program, cells: Sequence[int], combos: Sequence[int],
                      columns: list[dict[int, int]]) -> None:
    if not combos:
        program.row([], 1.0, 1.0)  # no combination fits: 0 = 1
        return
    union = union_of(combos)
    if len(combos) == 1:  # each of its values exactly once, no selector needed
        for v in values_of(union):
            program.row([(columns[c][v], 1.0) for c in cells if v in columns[c]], 1.0, 1.0)
        return
    selectors = [program.column() for _ in combos]
    program.row([(y, 1.0) for y in selectors], 1.0, 1.0)
    for v in values_of(union):
        terms = [(columns[c][v], 1.0) for c in cells if v in columns[c]]
        terms += [(y, -1.0) for y, combo in zip(selectors, combos) if combo >> v & 1]
        program.row(terms, 0.0, 0.0)


# --------------------------------------------------------------------- engines
class _Engine:
    """One engine holding the programme: `solve` answers "solved", "infeasible" or "stopped"
    (a limit); `values` the cells' values; `cut` adds a row; `counters` the work so far."""

    def __init__(self, program: Program, seed: int) -> None:
        self.program = program
        self.nodes = self.iterations = 0

    def solve(self, seconds: float | None) -> str:
        raise NotImplementedError

    def values(self) -> list[int]:
        raise NotImplementedError

    def cut(self, terms: Sequence[tuple[int, float]], upper: float) -> None:
        raise NotImplementedError

    def counters(self) -> dict[str, Stat]:
        return {"nodes": self.nodes, "lp_iterations": self.iterations}


class _Highs(_Engine):
    def __init__(self, program: Program, seed: int) -> None:
        import highspy
        import numpy as np

        super().__init__(program, seed)
        self.highs = h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("random_seed", seed_below(seed, SEED_BITS))
        h.setOptionValue("threads", 1)
        n = program.num_cols
        h.addVars(n, np.array(program.col_lower), np.ones(n))
        h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kInteger))
        h.addRows(program.num_rows, np.array(program.row_lower), np.array(program.row_upper), len(program.index),
                  np.array(program.starts[:-1], dtype=np.int32), np.array(program.index, dtype=np.int32),
                  np.array(program.value))

    def solve(self, seconds: float | None) -> str:
        import highspy

        h = self.highs
        h.setOptionValue("time_limit", float("inf") if seconds is None else max(seconds, 1e-3))
        h.run()
        info = h.getInfo()
        self.nodes += max(int(info.mip_node_count), 0)
        self.iterations += max(int(info.simplex_iteration_count), 0)
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            return "solved"
        if status == highspy.HighsModelStatus.kInfeasible:
            return "infeasible"
        if status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
            return "stopped"
        raise RuntimeError(f"HiGHS ended with model status {h.modelStatusToString(status)}")

    def values(self) -> list[int]:
        return self.program.decode(list(self.highs.getSolution().col_value))

    def cut(self, terms: Sequence[tuple[int, float]], upper: float) -> None:
        import numpy as np

        self.highs.addRow(-float("inf"), upper, len(terms), np.array([c for c, _ in terms], dtype=np.int32),
                          np.array([a for _, a in terms]))


class _Scip(_Engine):
    def __init__(self, program: Program, seed: int) -> None:
        from pyscipopt import Model, quicksum

        super().__init__(program, seed)
        self.model = m = Model()
        m.hideOutput()
        m.setParam("misc/catchctrlc", False)
        m.setParam("randomization/randomseedshift", seed_below(seed, SEED_BITS))
        self.x = [m.addVar(vtype="B", lb=lower) for lower in program.col_lower]
        for r in range(program.num_rows):
            span = range(program.starts[r], program.starts[r + 1])
            expr = quicksum(program.value[k] * self.x[program.index[k]] for k in span)
            lower, upper = program.row_lower[r], program.row_upper[r]
            if not span:  # an empty row (0 = 1): SCIP takes no constant constraint, so over a column fixed at 0
                expr = quicksum([m.addVar(vtype="B", ub=0)])
            m.addCons(expr == lower if lower == upper else expr <= upper)

    def solve(self, seconds: float | None) -> str:
        m = self.model
        m.setParam("limits/time", 1e20 if seconds is None else max(seconds, 1e-3))
        m.optimize()
        self.nodes += int(m.getNNodes())
        self.iterations += int(m.getNLPIterations())
        status = m.getStatus()
        if status == "optimal":
            return "solved"
        if status == "infeasible":
            return "infeasible"
        if status in ("timelimit", "userinterrupt"):
            return "stopped"
        raise RuntimeError(f"SCIP ended with status {status}")

    def values(self) -> list[int]:
        best = self.model.getBestSol()
        return self.program.decode([self.model.getSolVal(best, x) for x in self.x])

    def cut(self, terms: Sequence[tuple[int, float]], upper: float) -> None:
        from pyscipopt import quicksum

        self.model.freeTransform()
        self.model.addCons(quicksum(a * self.x[c] for c, a in terms) <= upper)


ENGINES: Mapping[str, type[_Engine]] = {"highs": _Highs, "scip": _Scip}


def mip_items(puzzle: Puzzle, model: str, solver: str, limit: int, deadline: Deadline, seed: int
              ) -> Iterator[tuple[str, Any]]:
    """Build the programme, then find up to `limit` solutions, each excluded by a no-good cut
    before the next solve. Yields ("stats", ...) (sizes first, so they survive a kill),
    ("solution", values) per solution, and ("end", True) when the engine proved there is no
    other (or ("end", False) when it stopped at the deadline). Meant for a child process: it
    sends the engines' stdout (HiGHS's banner) to /dev/null."""
    _quiet_stdout()
    start = time.perf_counter()
    program = build_program(puzzle, model)
    sizes: dict[str, Stat] = {"num_vars": program.num_cols, "num_constraints": program.num_rows}
    if model == "combinations":
        sizes["untabulated_runs"] = program.untabulated_runs
    engine = ENGINES[solver](program, seed)
    sizes["build_time"] = time.perf_counter() - start
    yield "stats", sizes
    found = 0
    while True:
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            yield "end", False
            return
        answer = engine.solve(remaining)
        yield "stats", engine.counters()
        if answer != "solved":
            yield "end", answer == "infeasible"
            return
        values = engine.values()
        yield "solution", values
        found += 1
        if found >= limit:
            return
        cut = program.no_good(values)
        if cut is None:  # every cell fixed: no other solution
            yield "end", True
            return
        engine.cut(*cut)
        yield "stats", {"num_constraints": program.num_rows + found}


def _quiet_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


def enumerate_with_mip(puzzle: Puzzle, model: str, solver: str, limit: int, deadline: Deadline, seed: int
                       ) -> Enumeration:
    """Up to `limit` solutions by `mip_items` in a child process, killed `GRACE` seconds after
    `deadline` (the engine stops itself at it) or on Ctrl-C."""
    waiting = deadline.later(GRACE)
    items, _ = stream_with_deadline(mip_items, puzzle, model, solver, limit, deadline, seed, deadline=waiting)
    stats: dict[str, Stat] = {}
    solutions: list[Sequence[int]] = []
    proved = False
    for kind, payload in items:
        if kind == "stats":
            stats.update(payload)
        elif kind == "solution":
            solutions.append(payload)
        else:
            proved = payload
    message = "" if proved or len(solutions) >= limit else "time limit reached"
    return Enumeration(solutions, proved and len(solutions) < limit, stats, message)


@register("mip")
class Mip(EnumeratingSolver):
    """0-1 integer programming: HiGHS (default) or SCIP on the combinations or assignment model."""

    description = "integer programming (HiGHS or SCIP): 0-1 cell values, runs as combinations or as sums"
    paradigm = "MIP"
    engine = Engine("highspy", pip="highspy")
    options = {
        "model": Option("combinations", "how each run is written: combinations (a 0-1 selector per allowed "
                                         "combination linked to the cells; tight LP) or assignment (each value at "
                                         "most once and the sum as a linear equality; Davies et al.'s model, for any "
                                         "value range)", choices=MODELS),
        "solver": Option("highs", "the MIP engine: highs (highspy) or scip (needs pyscipopt)", choices=SOLVERS),
    }

    def prepare_engine(self, settings: Mapping[str, Any], everything: bool = True) -> None:
        """`solver=scip` needs pyscipopt: refused here (BackendUnavailableError, with the pip
        command) before any clock starts."""
        if settings["solver"] == "scip":
            SCIP.version()

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        return enumerate_with_mip(puzzle, opts["model"], opts["solver"], limit, limits.deadline, seed)
