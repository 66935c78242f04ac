"""Positions count from 1 in every message a person reads (issue 40, item 6): the checker's
sentences, the refusals of a puzzle being built or read, the command line and the explanations
name a cell `r1c1` and a line `row 1` the same way. A Sudoku's top-left cell is r1c1; a
Kakuro's clue row and column are row 0 and column 0 around its white cells, which so count from
1 too (the explanation's names, `kakuro.values.position_name`). Each test feeds a mistake and
reads the message; before, they said "cell (0, 1)", "row 0", "column 0", "down run at (0, 1)"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import kakuro
from kakuro import Puzzle
from kakuro.cli import main
from kakuro.cli.exits import EXIT_WRONG
from kakuro.deduction.names import cell_name, group_name
from kakuro.errors import InvalidPuzzleError, PuzzleFormatError
from kakuro.values import position_name
from tests.conftest import EXAMPLES

SUDOKU = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
"""A solved 4x4 Sudoku."""
ZERO_BASED = re.compile(r"\(\d+, \d+\)|\brow 0\b|\bcolumn 0\b|\bbox 0\b|\bcage 0\b|\br0c|c0\b")
"""What a position counted from 0, or written as a Python tuple, looks like in a message."""


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_the_one_naming_rule() -> None:
    assert position_name((0, 0), border=False) == "r1c1"  # a Sudoku's top-left cell
    assert position_name((1, 1)) == "r1c1"  # a Kakuro's first cell inside its clue row and column
    assert position_name((2, 5), border=False) == "r3c6"


def test_the_checker_names_sudoku_cells_and_lines_from_1() -> None:
    puzzle = Puzzle.sudoku(SUDOKU)
    problems = puzzle.check([[2, 1, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, None]])
    assert "cell r4c4 is missing a digit" in problems and "cell r1c1 was given 1 but holds 2" in problems
    assert "column 1 repeats 2" in problems and not any(ZERO_BASED.search(p) for p in problems), problems
    killer = Puzzle.killer([(3, [(0, 0), (0, 1)])], size=4, givens=SUDOKU)
    assert any(p.startswith("cage at r1c1 sums to") for p in killer.check([[2, 2, 3, 4], *SUDOKU[1:]]))


def test_the_checker_names_a_kakuro_run_as_the_explanation_does() -> None:
    puzzle = kakuro.read(EXAMPLES / "puzzlink-6x5.txt")[0]
    grid = kakuro.solve(puzzle, "cpsat").solution.to_grid()
    first = puzzle.groups[0]
    r, c = puzzle.cells[first.cells[0]]
    grid[r][c] = grid[r][c] % 9 + 1
    problems = puzzle.check(grid)
    assert f"{group_name(puzzle, 0)} sums to" in " ".join(problems), problems  # "the down 29 in 5 at r1c2 ..."
    assert cell_name(puzzle, first.cells[0]) == f"r{r}c{c}" and r >= 1 and c >= 1
    assert not any(ZERO_BASED.search(p) for p in problems), problems


@pytest.mark.parametrize(("build", "said"), [
    (lambda: Puzzle.sudoku([[1, 1, 0, 0], *[[0] * 4] * 3]), "row 1: the given 1 appears twice"),
    (lambda: Puzzle.sudoku([[0, 0, 0, 0], [0, 0, 0, 5], *[[0] * 4] * 2]), "cell r2c4: 5 is not 0 (empty) or a digit 1..4"),
    (lambda: Puzzle.sudoku([[0] * 4, [0] * 3, *[[0] * 4] * 2]), "row 2 has 3 cells"),
    (lambda: Puzzle.killer([(3, [(0, 0), (0, 1)]), (4, [(0, 1), (1, 1)])]), "cage 2: cell r1c2 is in cage 1 too"),
    (lambda: Puzzle.from_grid([["#", [4, None], [3, None]], [[None, 3], 0, 0], ["#", 0, 0]]),
     "cell r2c1 is in an across run that has no clue"),
    (lambda: Puzzle.from_grid([["#", [3, None]], [[None, 3], "x"]]), "cell r1c1: 'x' is not '#'"),
])
def test_a_puzzle_that_cannot_be_built_names_the_place_from_1(build, said: str) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        build()
    assert said in str(caught.value) and not ZERO_BASED.search(str(caught.value)), str(caught.value)


def test_a_file_names_line_and_column_and_the_place_from_1(tmp_path: Path) -> None:
    path = tmp_path / "repeat.sdm"
    path.write_text("44" + "." * 14 + "\n", encoding="utf-8")
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(path)
    assert str(caught.value).startswith(f"{path}:1:") and "row 1: the given 4 appears twice" in str(caught.value)


def test_the_command_line_says_r1c1_where_check_and_hint_find_a_mistake(tmp_path: Path, capsys) -> None:
    puzzle_file = tmp_path / "four.sdm"
    puzzle_file.write_text("1234341221434321\n", encoding="utf-8")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps([[2, 1, 3, 4], *SUDOKU[1:]]), encoding="utf-8")
    code, out, _ = run(capsys, "check", puzzle_file, wrong)
    assert code == EXIT_WRONG and "cell r1c1 was given 1 but holds 2" in out and not ZERO_BASED.search(out), out
    letter = tmp_path / "letter.json"
    letter.write_text(json.dumps([[None, None, None, None], [None, None, "x", None], [None] * 4, [None] * 4]))
    kakuro.write([Puzzle.sudoku([[0] * 4] * 4)], tmp_path / "empty.sdm")
    code, _, err = run(capsys, "hint", tmp_path / "empty.sdm", "--progress", letter)
    assert code == 1 and "the grid holds 'x' at r2c3" in err
