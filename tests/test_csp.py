"""The `csp` backend (python-constraint2): its model, the honest mapping of the engine's None,
its time limit, and its agreement with `cpsat`."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import BackendOptionError, Puzzle, Status
from kakuro.solvers.csp import build_problem
from tests.conftest import shared_data_or_skip
from tests.random_puzzles import random_puzzles
from tests.timing import timed

TIME_SLACK = 1.0
"""Seconds past the limit, as on an idle core (`tests.timing`)."""


def hard_for_csp() -> Puzzle:
    """A 7x7 all-white grid, values 1..8, rows leaving out 1..7 and columns 2..8: unsatisfiable
    by counting, which plain backtracking with forward checking only finds by exhaustion."""
    full = sum(range(1, 9))
    return Puzzle.all_white([full - k for k in range(1, 8)], [full - k for k in range(2, 9)], values=(1, 8))


def test_model_has_integer_variables_and_fixed_givens() -> None:
    puzzle = Puzzle.all_white([3, 7], [4, 6], values=(1, 5), givens={(0, 0): 1})
    solutions = build_problem(puzzle).getSolutions()
    assert solutions == [{0: 1, 1: 2, 2: 3, 3: 4}]  # keys are the cell numbers
    with pytest.raises(BackendOptionError):
        build_problem(puzzle, search="minconflicts")


def test_engine_none_is_unsatisfiable_only_when_search_finished(unsatisfiable: Puzzle) -> None:
    assert build_problem(unsatisfiable).getSolution() is None  # the engine's ambiguous answer
    for limit in (None, 5.0):
        result = kakuro.solve(unsatisfiable, "csp", time_limit=limit)
        assert result.status is Status.UNSATISFIABLE and result.solution is None


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_a_search_killed_at_the_limit_is_unknown_not_unsatisfiable() -> None:
    with timed() as t:
        result = kakuro.solve(hard_for_csp(), "csp", time_limit=0.5)
    assert t.quiet(t.wall - 0.5) < TIME_SLACK, t
    assert result.status is Status.UNKNOWN and result.message == "time limit reached"
    found = kakuro.count_solutions(hard_for_csp(), "csp", limit=2, time_limit=0.5)
    assert (found.status, found.exhausted) == (Status.UNKNOWN, False)


def test_counting_keeps_the_solutions_found_before_the_limit() -> None:
    # an empty 5x5 grid with loose sums has a huge number of solutions: stop at 0.5 s
    puzzle = Puzzle.all_white([25] * 5, [25] * 5, values=(1, 9))
    found = kakuro.count_solutions(puzzle, "csp", limit=10**6, time_limit=0.5)
    assert found.count > 0 and not found.exhausted and found.status is Status.SOLVED
    assert all(puzzle.check(s) == [] for s in found.solutions)


@pytest.fixture(scope="module")
def random_with_cpsat() -> list[tuple[Puzzle, kakuro.Count]]:
    """The random puzzles the backends are checked on, each with cpsat's count: counted once."""
    return [(puzzle, kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30))
            for puzzle in random_puzzles(seed=23, count=20)]


@pytest.mark.parametrize("backend", ["csp", "csp:search=optimized", "csp:forwardcheck=false"])
def test_counts_agree_with_cpsat_on_random_puzzles(backend: str, random_with_cpsat) -> None:
    for puzzle, reference in random_with_cpsat:
        mine = kakuro.count_solutions(puzzle, backend, limit=2, time_limit=30)
        assert (mine.count, mine.exhausted) == (reference.count, reference.exhausted), puzzle.to_grid()


def test_counts_agree_with_cpsat_on_shared_puzzles() -> None:
    """The guard against the sum constraint pruning valid values (a public bug report)."""
    root = shared_data_or_skip()
    sample = kakuro.read(root / "krazydad.jsonl")[::25] + kakuro.read(root / "ifilot_cx16.jsonl")
    for puzzle in sample:
        mine = kakuro.count_solutions(puzzle, "csp", limit=2, time_limit=30)
        reference = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        assert mine.status is not Status.UNKNOWN, puzzle.id
        assert (mine.count, mine.exhausted) == (reference.count, reference.exhausted), puzzle.id
