"""The shared representation: construction rules and the checker."""

from __future__ import annotations

import pytest

from kakuro import InvalidPuzzleError, InvalidSolutionError, Puzzle
from tests.conftest import CAZENAVE_TABLE2


def interior_grid(values: list[list[int]]) -> list[list[object]]:
    """A solution grid in the JSON-lines layout for an all-white puzzle."""
    return [["#"] * (len(values[0]) + 1)] + [["#"] + list(row) for row in values]


def test_all_white_grid_has_row_and_column_runs(cazenave: Puzzle) -> None:
    assert cazenave.size == 25 and len(cazenave.groups) == 10
    assert cazenave.is_all_white
    across = [r.total for r in cazenave.groups if r.direction == "across"]
    down = [r.total for r in cazenave.groups if r.direction == "down"]
    assert sorted(across) == sorted([18, 26, 28, 26, 21])
    assert sorted(down) == sorted([24, 25, 20, 26, 24])
    assert all(len(m) == 2 for m in cazenave.cell_groups)


def test_cazenave_table2_is_a_valid_solution(cazenave: Puzzle) -> None:
    assert cazenave.check(interior_grid(CAZENAVE_TABLE2)) == []
    solution = cazenave.solution([v for row in CAZENAVE_TABLE2 for v in row])
    assert cazenave.check(solution) == []
    assert solution.to_grid() == interior_grid(CAZENAVE_TABLE2)
    assert solution[(1, 2)] == 7


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda g: g[1].__setitem__(1, 10), "outside 1..9"),
        (lambda g: g[1].__setitem__(1, 0), "outside 1..9"),
        (lambda g: g[1].__setitem__(1, None), "missing"),
        (lambda g: g[1].__setitem__(1, "7"), "missing"),
        (lambda g: g[1].__setitem__(1, 7), "repeats 7"),
        (lambda g: g[1].__setitem__(1, 2), "sums to 19"),
    ],
)
def test_check_names_each_broken_rule(cazenave: Puzzle, change, expected: str) -> None:
    grid = interior_grid(CAZENAVE_TABLE2)
    change(grid)
    problems = cazenave.check(grid)
    assert any(expected in p for p in problems), problems


def test_check_rejects_malformed_shapes(cazenave: Puzzle) -> None:
    assert "rows" in cazenave.check([[1, 2]])[0]
    assert cazenave.check("12345") != []
    assert cazenave.check(interior_grid(CAZENAVE_TABLE2)[:-1]) != []


def test_check_reports_changed_given() -> None:
    puzzle = Puzzle.all_white([3, 3], [3, 3], values=(1, 9), givens={(0, 0): 1})
    assert puzzle.check([["#", "#", "#"], ["#", 1, 2], ["#", 2, 1]]) == []
    problems = puzzle.check([["#", "#", "#"], ["#", 2, 1], ["#", 1, 2]])
    assert any("was given 1" in p for p in problems)


def test_solution_length_is_checked(cazenave: Puzzle) -> None:
    with pytest.raises(InvalidSolutionError):
        cazenave.solution([1, 2, 3])


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ([["#", "#"], ["#", 0]], "belongs to no run"),
        ([["#", "#", "#"], ["#", 0, 0], [[None, 3], 0, 0]], "no clue"),
        ([["#", [3, 4]], ["#", "#"]], "no white cell"),
        ([["#", [10, None]], ["#", 0]], "sum to 1..9"),
        ([[[None, 50]] + [0] * 10], "only 9 distinct values"),
        ([["#", [3, None], [4, None]], [[None, 7], 1, 1]], "appears twice"),
        ([["#", [10, None]], [[None, 10], 10]], "outside 1..9"),
        ([["#", "?"]], "is not"),
        ([["#", "#"], ["#"]], "row 1 has 1 cells, the first \\(clue\\) row 2"),
        ([], "non-empty"),
    ],
)
def test_invalid_puzzles_are_refused_with_a_precise_message(grid, message: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=message):
        Puzzle.from_grid(grid)


def test_wide_value_range() -> None:
    puzzle = Puzzle.all_white([30 * 31 // 2], [1] * 30, values=(1, 30))
    assert puzzle.values == (1, 30) and len(puzzle.groups[0]) == 30 or len(puzzle.groups[-1]) == 30
    with pytest.raises(InvalidPuzzleError):
        Puzzle.all_white([3, 3], [3, 3], values=(1, 63))


def test_puzzle_is_immutable_and_hashable(cazenave: Puzzle) -> None:
    with pytest.raises(AttributeError):
        cazenave.rows = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        cazenave.givens[0] = 1  # type: ignore[index]
    copy = Puzzle.from_grid(cazenave.to_grid(), values=cazenave.values)
    assert copy == cazenave and hash(copy) == hash(cazenave) and copy.digest() == cazenave.digest()


def test_one_cell_segment_needs_no_clue() -> None:
    # (2, 1) is alone across (black to its left and right) but lies in the down run of column 1.
    puzzle = Puzzle.from_grid([["#", [4, None], [3, None]], [[None, 4], 0, 0], ["#", 0, "#"]])
    assert len(puzzle.groups) == 3
    assert puzzle.cell_groups[puzzle.index[(2, 1)]] != ()


def test_puzzle_pickles(cazenave: Puzzle) -> None:
    import pickle

    copy = pickle.loads(pickle.dumps(cazenave))
    assert copy == cazenave and copy.id == cazenave.id and copy.meta == cazenave.meta
    solution = cazenave.solution([v for row in CAZENAVE_TABLE2 for v in row])
    assert pickle.loads(pickle.dumps(solution)) == solution
