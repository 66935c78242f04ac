"""Cazenave's generator: deterministic, consistent sums, the asked holes, a valid hidden grid."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import KakuroError
from kakuro.generate import cazenave


def hidden_grid(puzzle: kakuro.Puzzle) -> list[list[int]]:
    return [list(row[1:]) for row in puzzle.meta["solution"][1:]]


def test_same_seed_same_puzzles_and_prefixes_agree() -> None:
    first = cazenave(6, 8, 70, count=5, seed=42)
    assert first == cazenave(6, 8, 70, count=5, seed=42)
    assert [p.id for p in first] == [p.id for p in cazenave(6, 8, 70, count=5, seed=42)]
    assert cazenave(6, 8, 70, count=2, seed=42) == first[:2]
    assert cazenave(6, 8, 70, count=5, seed=43) != first
    assert len({p.digest() for p in first}) == 5


def test_global_random_state_is_untouched() -> None:
    import random

    random.seed(1)
    expected = random.random()
    random.seed(1)
    cazenave(5, 6, 50, count=3, seed=7)
    assert random.random() == expected


@pytest.mark.parametrize("size,values,holes", [(1, 1, 100), (3, 3, 0), (5, 7, 40), (8, 9, 100), (10, 11, 55.5), (12, 30, 90)])
def test_grids_are_valid_and_sums_consistent(size: int, values: int, holes: float) -> None:
    for puzzle in cazenave(size, values, holes, count=3, seed=size):
        grid = hidden_grid(puzzle)
        assert puzzle.is_all_white and puzzle.size == size * size
        assert puzzle.values == (1, values)
        for row in grid:
            assert len(set(row)) == size and all(1 <= v <= values for v in row)
        for column in zip(*grid):
            assert len(set(column)) == size
        across = [r.total for r in puzzle.groups if r.direction == "across"]
        down = [r.total for r in puzzle.groups if r.direction == "down"]
        assert across == [sum(row) for row in grid]
        assert down == [sum(column) for column in zip(*grid)]
        assert puzzle.check(puzzle.meta["solution"]) == []
        empty = size * size - len(puzzle.givens)
        assert empty == round(holes / 100 * size * size)
        for cell, digit in puzzle.givens.items():
            r, c = puzzle.cells[cell]
            assert grid[r - 1][c - 1] == digit
        assert puzzle.meta["generator"] == "cazenave" and puzzle.meta["seed"] == size
        assert (puzzle.meta["size"], puzzle.meta["values"], puzzle.meta["holes"]) == (size, values, holes)


def test_holes_are_spread_over_the_grid() -> None:
    emptied = set()
    for puzzle in cazenave(6, 7, 50, count=20, seed=3):
        emptied |= {c for c in range(puzzle.size) if c not in puzzle.givens}
    assert len(emptied) == 36


def test_generated_puzzles_round_trip_through_jsonl(tmp_path) -> None:
    puzzles = cazenave(5, 6, 60, count=3, seed=1)
    path = tmp_path / "cazenave.jsonl"
    kakuro.write(puzzles, path)
    back = kakuro.read(path)
    assert back == puzzles
    assert [p.meta["solution"] for p in back] == [p.meta["solution"] for p in puzzles]


@pytest.mark.parametrize(
    "args",
    [(0, 5, 50), (6, 5, 50), (6, 63, 50), (6, 7, -1), (6, 7, 101), (6, 7, "50"), (6.0, 7, 50), (True, 7, 50)],
)
def test_bad_parameters_are_refused(args) -> None:
    with pytest.raises(KakuroError):
        cazenave(*args)


def test_bad_count_and_seed_are_refused() -> None:
    with pytest.raises(KakuroError, match="count"):
        cazenave(4, 5, 50, count=0)
    with pytest.raises(KakuroError, match="seed"):
        cazenave(4, 5, 50, seed=-1)
