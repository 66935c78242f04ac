"""The local search that makes a filling's puzzle unique (kakuro.generate.unique): the clues it
loads into the engine propagate exactly as a freshly built puzzle, and what it returns is a
filling whose puzzle two complete backends find unique."""

from __future__ import annotations

import random

import numpy as np
import pytest

import kakuro
from kakuro import KakuroError
from kakuro.clock import Deadline
from kakuro.combos import combination_library, combinations, range_mask
from kakuro.engine import local_search, propagate, state
from kakuro.engine.compile import callable_from_python
from kakuro.generate.classic_grids import layout, puzzle_of, random_filling
from kakuro.generate.unique import UniqueFilling, unique_filling, warm_up


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()


def layout_and_filling(size: int, seed: int, longest: int = 5) -> tuple[kakuro.Puzzle, list[int]]:
    """A random layout's puzzle and the filling it was made from (cell order)."""
    rng = random.Random(seed)
    black = layout(size, size, 0.3, longest, rng)
    filling = None
    while filling is None:
        filling = random_filling(black, rng)
    puzzle = puzzle_of(black, filling, {}, "t")
    return puzzle, [filling[(r - 1, c - 1)] for r, c in puzzle.cells]


def black_of(puzzle: kakuro.Puzzle) -> list[list[bool]]:
    """The interior layout of a generated puzzle (True = black, clue cells included)."""
    grid = puzzle.to_grid()
    return [[not isinstance(grid[r + 1][c + 1], int) for c in range(puzzle.cols - 1)] for r in range(puzzle.rows - 1)]


def puzzle_of_values(layout_puzzle: kakuro.Puzzle, values) -> kakuro.Puzzle:
    """The puzzle whose clues are the run sums of `values` on the layout of `layout_puzzle`."""
    filling = {(r - 1, c - 1): v for (r, c), v in zip(layout_puzzle.cells, values)}
    return puzzle_of(black_of(layout_puzzle), filling, {}, "u")


def test_the_library_holds_every_table() -> None:
    bounds, masks = combination_library(9)
    for length in range(1, 10):
        for total in range(46):
            first, last = bounds[length, total]
            assert tuple(masks[first:last]) == combinations(length, total), (length, total)
    assert not masks.flags.writeable


def test_retargeted_clues_propagate_like_a_new_puzzle() -> None:
    """One state serves every filling of a layout: after `retarget` root GAC gives the domains a
    state built from scratch for that filling's puzzle gives."""
    puzzle, _ = layout_and_filling(9, 4)
    bounds, masks = combination_library(5)
    st = local_search.layout_state(puzzle, bounds)
    rng = random.Random(1)
    for _ in range(5):
        other = random_filling(black_of(puzzle), rng)
        values = [other[(r - 1, c - 1)] for r, c in puzzle.cells]
        fresh = puzzle_of_values(puzzle, values)
        callable_from_python(local_search.retarget)(st, np.array(values, dtype=np.int64), bounds, masks, range_mask((1, 9)))
        assert [int(t) for t in st.runs[:, state.TARGET]] == [run.total for run in fresh.groups]
        assert propagate.root_propagate(st)
        assert st.dom.tolist() == propagate.root_domains(fresh)


@pytest.mark.parametrize("size, seed, longest", [(7, 0, 5), (11, 1, 5), (13, 3, 9)])
def test_the_filling_found_is_the_only_solution(size: int, seed: int, longest: int) -> None:
    puzzle, values = layout_and_filling(size, seed, longest)
    found = unique_filling(puzzle, values, seed=seed, max_moves=50_000)
    assert isinstance(found, UniqueFilling) and found.moves > 0
    unique = puzzle_of_values(puzzle, found.values)
    assert unique.check(unique.solution(found.values)) == []
    for backend in ("cpsat", "gac"):
        count = kakuro.count_solutions(unique, backend, limit=2)
        assert count.unique and list(count.solutions[0].values) == list(found.values), backend
    assert unique_filling(puzzle, values, seed=seed, max_moves=50_000) == found  # reproducible


def test_out_of_moves_or_time_is_none() -> None:
    puzzle, values = layout_and_filling(20, 3)
    assert unique_filling(puzzle, values, seed=0, max_moves=3) is None
    assert unique_filling(puzzle, values, seed=0, max_moves=10**9, deadline=Deadline.after(0.0)) is None


def test_bad_input_is_refused() -> None:
    puzzle, values = layout_and_filling(7, 0)
    with pytest.raises(KakuroError, match="all different"):
        unique_filling(puzzle, [1] * puzzle.size, seed=0, max_moves=10)
    with pytest.raises(KakuroError, match="all different"):
        unique_filling(puzzle, values[:-1], seed=0, max_moves=10)
    with pytest.raises(KakuroError, match="in range"):
        unique_filling(puzzle, [v + 9 for v in values], seed=0, max_moves=10)
    given = kakuro.Puzzle.all_white([3, 7], [4, 6], values=(1, 9), givens={(0, 0): 1})
    with pytest.raises(KakuroError, match="givens"):
        unique_filling(given, [1, 2, 3, 4], seed=0, max_moves=10)
