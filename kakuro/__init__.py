"""kakuro: every serious way of solving Kakuro, side by side, behind one interface.

    >>> import kakuro
    >>> puzzle = kakuro.read("instances/examples/cazenave-2010-table1.txt")[0]
    >>> result = kakuro.solve(puzzle, "cpsat", time_limit=10)
    >>> result.status, puzzle.check(result.solution)
    >>> explanation = kakuro.explain(puzzle)      # human techniques, step by step, and a rating
    >>> verdict = kakuro.verify(kakuro.certify(puzzle))   # "exactly 1 solution, certified", with a proof

`kakuro.explain` is `kakuro.deduction.explain`; the types and the other tools (hints, pictures,
the rating scale) are in `kakuro.deduction` (`from kakuro.deduction import Explanation, hint`);
`kakuro.certify` and `kakuro.verify` are `kakuro.certificates`' (`Certificate`, `Verdict`, ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.deduction import explain
from kakuro.errors import (
    BackendOptionError,
    BackendUnavailableError,
    InvalidPuzzleError,
    InvalidSolutionError,
    KakuroError,
    PuzzleFormatError,
    UnknownBackendError,
    UnsupportedOperationError,
)
from kakuro.formats import read, write
from kakuro.limits import Budget, Limits
from kakuro.options import Option
from kakuro.outcome import STATS, Count, Enumeration, Outcome, Result, Status
from kakuro.puzzle import Group, Puzzle, Run
from kakuro.registry import ENTRY_POINT_GROUP, BackendInfo, backend_info, backends, get_solver, register
from kakuro.solution import Solution
from kakuro.solver import EnumeratingSolver, Solver

if TYPE_CHECKING:  # imported on first use (module __getattr__): `import kakuro` stays light, without numpy
    from kakuro.certificates import certify, verify

__version__ = "0.1.0"

DEFAULT_BACKEND = "auto"


def solve(
    puzzle: Puzzle,
    backend: str | Solver = DEFAULT_BACKEND,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> Result:
    """Solve `puzzle` and return a `Result`; never raises for an unsolvable puzzle.

    Arguments:
        puzzle: a `Puzzle` (from `kakuro.read`, `Puzzle.from_grid` or `Puzzle.all_white`).
        backend: a spec string `name[:key=value,...]` such as "cpsat", "nmcs:level=2" or
            "gac:shaving=once", or a `Solver`; default DEFAULT_BACKEND ("auto"). `kakuro backends NAME` (or
            `kakuro.backend_info(NAME)`) lists a backend's options with their defaults.
        time_limit: seconds of solving (compilation and engine import are not counted);
            None means no limit, which incomplete backends (sampling, nmcs, flat, uct, sahs)
            refuse with BackendOptionError because they could search forever.
        seed: a non-negative int for the backends that draw random numbers (default 0).
        budget: a `kakuro.Budget(nodes=N, fails=F)`: the search nodes and fails the run may
            count (as the backend counts them: a SAT engine's fails are its conflicts), a bound
            that a busy machine cannot move; None for none. A backend that does not honour a
            bound given refuses it with BackendOptionError (`kakuro backends NAME` lists what
            each honours).
        **options: backend options, overriding the spec's (e.g. `level=3`).

    Returns a frozen `Result`: `status` is one of
        Status.SOLVED: `solution` holds a `Solution` that passed `puzzle.check` (against
            `puzzle` as it was before the backend ran: a backend that changes the object
            cannot change the verdict);
        Status.UNSATISFIABLE: the backend proved there is no solution (complete backends, or
            propagation before any search);
        Status.UNKNOWN: a limit was reached, or an incomplete search gave up (`message` says
            which; `stopped_by` is "time", "nodes" or "fails" for a limit, with the nodes or
            fails counted in `stats`, at most the budget for the native backends; an answer
            past its budget is UNKNOWN too);
        Status.WRONG: the backend returned a solution that `puzzle.check` rejected (a bug
            in it): `message` names the broken rules, `rejected` holds the values, `solution`
            is None;
        Status.ERROR: the backend failed: it raised an exception, or answered ERROR
            (`message`).
    `time` is the solving time in seconds (`time.perf_counter`), `backend` the spec string
    with its non-default options, and `stats` a mapping in one vocabulary
    (`kakuro.outcome.STATS`): `nodes`, `fails`, `assignments`, `propagations`, `samples`,
    `restarts`, `root_solved`, `branches`, `conflicts`, `decisions`, `num_vars`,
    `num_clauses`, `num_constraints`, `num_tuples`, `build_time`, `lp_iterations`, plus
    backend-specific keys;
    a missing key means "not reported", never 0.

    Raises: UnknownBackendError, BackendOptionError (an unknown option, a bad value, a bad
    `time_limit`, `seed` or `budget`, a budget the backend does not honour),
    BackendUnavailableError (engine not installed, with the pip command), TypeError for
    something that is not a Puzzle.
    """
    return get_solver(backend).solve(puzzle, time_limit=time_limit, seed=seed, budget=budget, **options)


def solve_many(
    puzzles: Iterable[Puzzle],
    backend: str | Solver = DEFAULT_BACKEND,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    **options: Any,
) -> Iterator[Result]:
    """Solve each of `puzzles` (any iterable, read lazily) and yield its `Result`, in order: the
    `Result` `kakuro.solve(puzzle, backend, time_limit=time_limit, seed=seed, **options)` gives,
    every solution checked, `time_limit` per puzzle.

    It costs less than a `solve` per puzzle: the backend and its options are parsed once (a bad
    one raises here, before any puzzle is read), and `gac` and `auto` (option `family`) search
    Sudoku, Jigsaw and Sudoku X puzzles of one shape together in one compiled call with the
    state built once per shape, each answer checked by a compiled check of the puzzle's rules.
    Every other backend solves one puzzle after another.

        >>> for result in kakuro.solve_many(kakuro.read("puzzles.sdm"), "gac"):
        ...     print(result.status.value, result.time)
    """
    return get_solver(backend).solve_many(puzzles, time_limit=time_limit, seed=seed, **options)


def count_solutions(
    puzzle: Puzzle,
    backend: str | Solver = DEFAULT_BACKEND,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    seed: int | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> Count:
    """Find up to `limit` distinct solutions (each checked) with a complete backend.

    Arguments: `puzzle`, `backend`, `time_limit`, `seed`, `budget` and `**options` as for `kakuro.solve`;
    `limit` (a positive int, default 2, enough to tell unique from not) stops the search at
    that many solutions. Incomplete backends raise UnsupportedOperationError.

    Returns a frozen `Count`: `count` solutions in `solutions`; `exhausted` True when the
    search finished, so the count is exact; `bound` says "exactly N" or "at least N" (also
    shown by `str()` and `repr()`); `unique` is True only for exactly one. `status` is
    SOLVED (at least one found), UNSATISFIABLE (none exist), UNKNOWN (a limit came before
    the first: `stopped_by` says which), WRONG (a solution the checker rejected, or the same one twice:
    `message` says which, `rejected` holds it) or ERROR; `time`, `stats`, `message` and
    `backend` as in `Result`.
    """
    return get_solver(backend).count_solutions(puzzle, limit=limit, time_limit=time_limit, seed=seed, budget=budget,
                                               **options)


__all__ = [
    "ENTRY_POINT_GROUP",
    "STATS",
    "BackendInfo",
    "BackendOptionError",
    "BackendUnavailableError",
    "Budget",
    "Count",
    "Deadline",
    "Engine",
    "EnumeratingSolver",
    "Enumeration",
    "Group",
    "InvalidPuzzleError",
    "InvalidSolutionError",
    "KakuroError",
    "Limits",
    "Option",
    "Outcome",
    "Puzzle",
    "PuzzleFormatError",
    "Result",
    "Run",
    "Solution",
    "Solver",
    "Status",
    "UnknownBackendError",
    "UnsupportedOperationError",
    "backend_info",
    "backends",
    "certify",
    "count_solutions",
    "explain",
    "get_solver",
    "read",
    "register",
    "solve",
    "solve_many",
    "verify",
    "write",
]


_LAZY = {"certify": "kakuro.certificates", "verify": "kakuro.certificates"}
"""Names `kakuro` exports from modules it imports on first use."""


def __getattr__(name: str) -> Any:
    """`kakuro.certify` and `kakuro.verify`, imported when first asked for."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
