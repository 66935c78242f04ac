"""kakuro: every serious way of solving Kakuro, side by side, behind one interface.

    >>> import kakuro
    >>> puzzle = kakuro.read("instances/examples/cazenave-2010-table1.txt")[0]
    >>> result = kakuro.solve(puzzle, "cpsat", time_limit=10)
    >>> result.status, puzzle.check(result.solution)
"""

from __future__ import annotations

from typing import Any

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
from kakuro.puzzle import Puzzle, Run, Solution
from kakuro.solver import Count, Result, Solver, Status, backend_info, backends, get_solver, register

__version__ = "0.1.0"

DEFAULT_BACKEND = "cpsat"


def solve(
    puzzle: Puzzle,
    backend: str | Solver = DEFAULT_BACKEND,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    **options: Any,
) -> Result:
    """Solve `puzzle` with a backend spec such as "nmcs:level=2"; limits are in seconds."""
    return get_solver(backend).solve(puzzle, time_limit=time_limit, seed=seed, **options)


def count_solutions(
    puzzle: Puzzle,
    backend: str | Solver = DEFAULT_BACKEND,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    seed: int | None = None,
    **options: Any,
) -> Count:
    """Count solutions up to `limit` with a complete backend (see `Count.exhausted`)."""
    return get_solver(backend).count_solutions(puzzle, limit=limit, time_limit=time_limit, seed=seed, **options)


__all__ = [
    "BackendOptionError",
    "BackendUnavailableError",
    "Count",
    "InvalidPuzzleError",
    "InvalidSolutionError",
    "KakuroError",
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
    "count_solutions",
    "get_solver",
    "read",
    "register",
    "solve",
    "write",
]
