"""The `rdv` backend (Reducing Domain Values, then optional search) against CP-SAT; the
reduction itself is tested in test_sahs.py."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.reasoning.rdv import reduce_domains, run_intersections
from tests.conftest import shared_set
from tests.random_puzzles import random_puzzles
from tests.timing import timed

COMPLETE = ["rdv", "rdv:consistency=gac"]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    kakuro.get_solver("rdv").ensure_warm()


def cases(cazenave: Puzzle, two_solutions: Puzzle, unsatisfiable: Puzzle, puzzlink: Puzzle) -> list[Puzzle]:
    return [*random_puzzles(seed=23, count=30), cazenave, two_solutions, unsatisfiable, puzzlink]


def test_run_intersections_follow_the_papers_example() -> None:
    """Sect. IV: a column of 3 cells summing to 6 allows {1, 2, 3}, a row of 2 cells summing
    to 4 allows {1, 3}: their shared cell starts from {1, 3}."""
    puzzle = kakuro.read("#  6\\  #\n\\4  _  _\n#  _  #\n#  _  #\n")[0]
    domains = run_intersections(puzzle)
    corner = puzzle.index[(1, 1)]
    assert domains[corner] == 0b1010
    assert domains[puzzle.index[(1, 2)]] == 0b1010
    assert domains[puzzle.index[(2, 1)]] == 0b1110


@pytest.mark.parametrize("spec", COMPLETE)
def test_counts_agree_with_cpsat(spec: str, cazenave, two_solutions, unsatisfiable, puzzlink) -> None:
    for puzzle in cases(cazenave, two_solutions, unsatisfiable, puzzlink):
        expected = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        got = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert (got.count, got.exhausted, got.status) == (expected.count, expected.exhausted, expected.status), puzzle
        result = kakuro.solve(puzzle, spec, time_limit=30)
        assert result.status is (Status.SOLVED if expected.count else Status.UNSATISFIABLE), puzzle
        assert {"root_solved", "passes", "forced"} <= set(result.stats)


def test_without_search_it_answers_only_what_the_reduction_proves(cazenave, two_solutions, unsatisfiable, puzzlink) -> None:
    for puzzle in cases(cazenave, two_solutions, unsatisfiable, puzzlink):
        reduction = reduce_domains(puzzle)
        expected = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        result = kakuro.solve(puzzle, "rdv:search=false")
        count = kakuro.count_solutions(puzzle, "rdv:search=false", limit=2)
        assert result.stats["root_solved"] == (reduction.solved or reduction.wiped_out)
        if reduction.wiped_out:
            assert result.status is Status.UNSATISFIABLE and expected.count == 0
            assert (count.count, count.exhausted) == (0, True)
        elif reduction.solved:
            assert result.status is Status.SOLVED and expected.count == 1
            assert (count.count, count.exhausted) == (1, True)
        else:
            assert result.status is Status.UNKNOWN and "stalled" in result.message
            assert (count.count, count.exhausted, count.status) == (0, False, Status.UNKNOWN)


def test_the_reduction_alone_solves_some_krazydad_puzzles() -> None:
    """Measured: 84 of the 200 (the others stall; none is unsatisfiable)."""
    puzzles = shared_set("krazydad")
    results = [kakuro.solve(p, "rdv:search=false") for p in puzzles]
    assert all(r.status in (Status.SOLVED, Status.UNKNOWN) for r in results)
    assert all(r.stats["root_solved"] == r.solved for r in results)
    assert sum(r.solved for r in results) >= 60


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_time_limit_is_honoured_by_the_search(hard: Puzzle) -> None:
    with timed() as t:
        result = kakuro.solve(hard, "rdv", time_limit=0.2)
    assert result.status in (Status.UNKNOWN, Status.UNSATISFIABLE) and t.quiet(result.time - 0.2) < 0.8, (result.time, t)
