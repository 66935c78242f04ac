"""The `backtrack` backend: its five variants against CP-SAT, and the search each variant
makes on one run (node counts that pin down the checks and value orders of the paper)."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.solvers.backtrack import VARIANTS, descending_for
from tests.random_puzzles import random_puzzles
from tests.timing import timed


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    kakuro.get_solver("backtrack").ensure_warm()


def one_run(length: int, total: int) -> Puzzle:
    return Puzzle.from_grid([[[None, total]] + [0] * length])


@pytest.mark.parametrize("variant", VARIANTS)
def test_counts_agree_with_cpsat(variant: str, cazenave, two_solutions, unsatisfiable, puzzlink) -> None:
    spec = f"backtrack:variant={variant}"
    for puzzle in [*random_puzzles(seed=29, count=30), cazenave, two_solutions, unsatisfiable, puzzlink]:
        expected = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        got = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert (got.count, got.exhausted, got.status) == (expected.count, expected.exhausted, expected.status), puzzle
        result = kakuro.solve(puzzle, spec, time_limit=30)
        assert result.status is (Status.SOLVED if expected.count else Status.UNSATISFIABLE), puzzle


@pytest.mark.parametrize(
    ("variant", "nodes"),
    [
        # cell 0 = 1..7 each fail only once cell 1 has tried all nine values: 7 * 10, then 8, 9
        ("plain", 80),
        # the run's only combination is {8, 9}: 8, then 8 (repeated), 9
        ("run-ordering", 3),
        # 9, then 9 (repeated), 8
        ("value-ordering", 3),
        ("decisive", 3),  # 17 / 2 cells = 8.5 per cell >= 5: descending
        # 1..7 cannot be completed (the one free cell would need 16..10): 7, then 8, then 1..9
        ("projected-pruning", 17),
    ],
)
def test_node_counts_on_one_run(variant: str, nodes: int) -> None:
    result = kakuro.solve(one_run(2, 17), f"backtrack:variant={variant}")
    assert result.solved
    assert result.stats["nodes"] == nodes


def test_decisive_order_follows_the_average_clue() -> None:
    assert descending_for(one_run(2, 17))
    assert not descending_for(one_run(3, 7))
    assert descending_for(one_run(2, 10))  # exactly 5 per cell: descending (< 5 is ascending)
    result = kakuro.solve(one_run(3, 7), "backtrack:variant=decisive")
    assert result.stats["value_order"] == "ascending"


def test_pruning_and_domains_only_save_nodes(cazenave, puzzlink) -> None:
    for puzzle in [cazenave, puzzlink, *random_puzzles(seed=31, count=10)]:
        plain = kakuro.count_solutions(puzzle, "backtrack:variant=plain", limit=2, time_limit=30)
        for variant in ("run-ordering", "projected-pruning"):
            other = kakuro.count_solutions(puzzle, f"backtrack:variant={variant}", limit=2, time_limit=30)
            assert other.stats["nodes"] <= plain.stats["nodes"], (puzzle, variant)


def test_givens_that_break_a_run_are_unsatisfiable() -> None:
    puzzle = Puzzle.from_grid([[[None, 5]] + [4, 3]])
    for variant in VARIANTS:
        result = kakuro.solve(puzzle, f"backtrack:variant={variant}")
        assert result.status is Status.UNSATISFIABLE
        assert result.stats["nodes"] == 0


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("variant", VARIANTS)
def test_time_limit_is_honoured(variant: str, hard: Puzzle) -> None:
    with timed() as t:
        result = kakuro.solve(hard, f"backtrack:variant={variant}", time_limit=0.2)
    assert result.status is Status.UNKNOWN and t.quiet(result.time - 0.2) < 0.8, (result.time, t)
