"""Searching the CNF of `kakuro.reasoning.cnf` with a PySAT solver: one solution, or up to a
limit of them with blocking clauses over the value variables (the `sat` backend's search and
`auto`'s "SAT on reduced domains"). The generators here run in whatever process calls them;
`enumerate_with_sat` runs one in a child process killed at the deadline (`kakuro.isolation`),
since CaDiCaL ignores PySAT's `interrupt()`. A budget of conflicts is PySAT's `conf_budget`
with `solve_limited`, which the solvers of `CONFLICT_BUDGET_SOLVERS` honour.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from kakuro.clock import Deadline
from kakuro.errors import BackendOptionError, BackendUnavailableError
from kakuro.isolation import stream_with_deadline
from kakuro.outcome import Enumeration, Outcome, Stat, Status
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import encoded

DEFAULT_ENCODING = "combinations"


SOLVER_NAMES = (
    "cadical103", "cadical153", "cadical195", "cadical300", "cryptosat", "ergo", "gluecard3",
    "gluecard4", "glucose3", "glucose4", "glucose42", "kissat404", "lingeling", "maplechrono",
    "maplecm", "maplesat", "mergesat3", "minicard", "minisat22", "minisatgh", "minisatep",
)  # fmt: skip
"""The canonical solver names of `pysat.solvers.SolverNames` (PySAT 1.9); aliases such as
`g4` are not accepted, so one solver always has one spec string."""


DEFAULT_SOLVER = "cadical195"


_NON_INCREMENTAL = frozenset({"kissat404"})
"""Solvers that abort when a clause is added after a solve: counting rebuilds them."""


_EXTRA_PACKAGE = {"cryptosat": "pycryptosat"}


@cache
def pysat_name(name: str) -> str:
    """A name PySAT's Solver accepts for canonical `name`; raises if the solver cannot run here."""
    from pysat.solvers import NoSuchSolverError, SolverNames
    from pysat.solvers import Solver as PySatSolver

    aliases: tuple[str, ...] | None = getattr(SolverNames, name, None)
    if not aliases:
        raise BackendOptionError(f"the installed PySAT has no solver {name!r}")
    package = _EXTRA_PACKAGE.get(name)
    if package and importlib.util.find_spec(package) is None:
        raise BackendUnavailableError(f"sat:solver={name} needs {package}; install it with: pip install {package}")
    try:
        PySatSolver(name=aliases[0]).delete()
    except (NoSuchSolverError, AssertionError, ImportError) as exc:
        raise BackendUnavailableError(f"PySAT solver {name!r} cannot run here: {exc}") from None
    return aliases[0]


CONFLICT_BUDGET_SOLVERS = frozenset({
    "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "maplechrono", "maplecm", "maplesat",
    "mergesat3", "minicard", "minisat22", "minisatep", "minisatgh",
})  # fmt: skip
"""The solvers that stop at PySAT's `conf_budget` (between conflicts, so a few past it:
docs/backends/sat.md measures it) and report their conflicts. With PySAT 1.9: Glucose 3, 4 and
4.2 and Gluecard ignore it (77 conflicts on a budget of 5 on a 12x12 grid that needs more),
Lingeling refuses `solve_limited`, Kissat reports no statistics; CryptoMiniSat was not tried
(pycryptosat is not installed here)."""


SOLVER_COUNTERS = ("conflicts", "decisions", "propagations", "restarts")
"""The counters a CDCL solver reports in the stats (PySAT's `accum_stats`, a program's `c` lines)."""


def _solver_stats(solver: Any) -> dict[str, Stat]:
    try:
        raw = solver.accum_stats() or {}
    except (NotImplementedError, AttributeError):  # Kissat exposes none
        return {}
    return {k: int(raw[k]) for k in SOLVER_COUNTERS if k in raw}


def _solve_items(puzzle: Puzzle, encoding: str, name: str, conflicts: int | None = None) -> Iterator[tuple[str, Any]]:
    """Encode, then solve with PySAT solver `name` (within `conflicts` conflicts when given).
    Yields ("stats", encoding sizes) first, so they survive a kill at the deadline, then
    ("stats", solver statistics) and ("values", one value per cell, or None when unsatisfiable),
    or ("stopped", "fails") when the budget stopped it."""
    from pysat.solvers import Solver as PySatSolver

    enc, stats = encoded(puzzle, encoding)
    yield "stats", stats
    with PySatSolver(name=name, bootstrap_with=enc.clauses) as solver:
        sat = _limited_solve(solver, conflicts)
        yield "stats", _solver_stats(solver)
        if sat is None:
            yield "stopped", "fails"
        else:
            yield "values", enc.decode(solver.get_model()) if sat else None


def _limited_solve(solver: Any, conflicts: int | None) -> bool | None:
    """`solver.solve()`, or, given `conflicts`, `solve_limited` within that many more
    conflicts (None when they ran out)."""
    if conflicts is None:
        return bool(solver.solve())
    solver.conf_budget(conflicts)
    answer = solver.solve_limited()
    return None if answer is None else bool(answer)


def _count_stream(
    puzzle: Puzzle, encoding: str, name: str, incremental: bool, limit: int, domains: Sequence[int] | None = None,
    conflicts: int | None = None,
) -> Iterator[tuple[str, Any]]:
    """Encode (from `domains` when given), then enumerate up to `limit` solutions with
    blocking clauses (a fresh solver per solution unless `incremental`), within `conflicts`
    conflicts in all when given. Yields ("stats", encoding sizes), ("solution", values) per
    solution, ("stopped", "fails") when the budget ran out first, and ("stats", solver
    statistics)."""
    from pysat.solvers import Solver as PySatSolver

    enc, stats = encoded(puzzle, encoding, domains)
    yield "stats", stats
    blocking: list[list[int]] = []
    totals: dict[str, Stat] = {}
    solver = PySatSolver(name=name, bootstrap_with=enc.clauses)
    try:
        while len(blocking) < limit:
            left = None if conflicts is None else conflicts - int(totals.get("conflicts", 0))
            if left is not None and left <= 0:
                yield "stopped", "fails"
                break
            sat = _limited_solve(solver, left)
            for key, value in _solver_stats(solver).items():  # cumulative within one solver
                totals[key] = int(value) + (0 if incremental else int(totals.get(key, 0)))
            if sat is None:
                yield "stopped", "fails"
                break
            if not sat:
                break
            values = enc.decode(solver.get_model())
            yield "solution", values
            blocking.append(enc.blocking_clause(values))
            if incremental:
                solver.add_clause(blocking[-1])
            else:
                solver.delete()
                solver = PySatSolver(name=name, bootstrap_with=enc.clauses + blocking)
    finally:
        solver.delete()
    yield "stats", totals


def enumerate_with_sat(
    puzzle: Puzzle, limit: int, deadline: Deadline, solver: str = DEFAULT_SOLVER, encoding: str = DEFAULT_ENCODING,
    domains: Sequence[int] | None = None, conflicts: int | None = None,
) -> Enumeration:
    """Up to `limit` solutions of `puzzle` (cells restricted to `domains` when given: see
    `encode`) by the PySAT `solver`, with blocking clauses, within `conflicts` conflicts when
    given (a solver of CONFLICT_BUDGET_SOLVERS); with a deadline, in a child process killed at it."""
    items, finished = stream_with_deadline(sat_items, puzzle, limit, solver, encoding, domains, conflicts,
                                           deadline=deadline)
    return enumeration_of(items, finished, limit)


def sat_items(
    puzzle: Puzzle, limit: int, solver: str = DEFAULT_SOLVER, encoding: str = DEFAULT_ENCODING,
    domains: Sequence[int] | None = None, conflicts: int | None = None,
) -> Iterator[tuple[str, Any]]:
    """The items of `enumerate_with_sat`'s search, as they come (for a caller that runs it
    in a child process of its own): ("stats", ...), ("solution", values) and ("stopped", "fails")."""
    name = pysat_name(solver)
    return _count_stream(puzzle, encoding, name, solver not in _NON_INCREMENTAL, limit, domains, conflicts)


def enumeration_of(items: Iterable[tuple[str, Any]], finished: bool, limit: int) -> Enumeration:
    """The Enumeration of `sat_items`' items; `finished`: all of them arrived (a search stopped
    by its budget did not finish)."""
    stats: dict[str, Stat] = {}
    solutions: list[Sequence[int]] = []
    stopped = None
    for kind, payload in items:
        if kind == "stats":
            stats.update(payload)
        elif kind == "stopped":
            stopped = payload
        else:
            solutions.append(payload)
    return Enumeration(solutions, finished and stopped is None and len(solutions) < limit, stats, stopped_by=stopped)


def solve_with_sat(puzzle: Puzzle, deadline: Deadline, solver: str = DEFAULT_SOLVER,
                   encoding: str = DEFAULT_ENCODING, conflicts: int | None = None) -> Outcome:
    """One solution of `puzzle` (or a proof there is none) by the PySAT `solver`, in a child
    process killed at `deadline`, within `conflicts` conflicts when given; the encoding's sizes
    and the solver's counters as stats."""
    items, _ = stream_with_deadline(_solve_items, puzzle, encoding, pysat_name(solver), conflicts, deadline=deadline)
    stats: dict[str, Stat] = {}
    for kind, payload in items:
        if kind == "stats":
            stats.update(payload)
        elif kind == "stopped":
            return Outcome(Status.UNKNOWN, None, stats, stopped_by=payload)
        else:
            status = Status.SOLVED if payload is not None else Status.UNSATISFIABLE
            return Outcome(status, payload, stats)
    return Outcome(Status.UNKNOWN, None, stats, "time limit reached", "time")
