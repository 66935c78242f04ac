"""Sudoku X (issue 43): `Puzzle.sudoku(grid, diagonals=True)` (and Killer X, Jigsaw X), whose
two main diagonals hold every digit once; the `diagonals: yes` line of its formats, its
picture's shaded diagonals, unique generation, and the explanation naming the diagonals."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import kakuro
from kakuro import InvalidPuzzleError, Puzzle, PuzzleFormatError
from kakuro.certificates.document import written
from kakuro.cli import main
from kakuro.formats import dumps
from kakuro.generate.family_grids import x_grid
from kakuro.generate.sudoku_grids import killer, sudoku
from kakuro.generate.unique_sudoku import unique_killer, unique_sudoku
from kakuro.render import DIAGONAL, PAPER, Box, layout

CHECKER = "sat"
"""Another engine than the generator's `gac` confirms uniqueness."""
X_LINE = "7........6.2....7...16..3...38.........1..8..........6..6.......9..85..4......7.."
"""A unique Sudoku X (`unique_sudoku(9, seed=7, diagonals=True)`), as one line: without its
diagonals it has many solutions."""


def grid_of(line: str) -> list[list[int]]:
    n = int(len(line) ** 0.5)
    return [[0 if ch == "." else int(ch) for ch in line[r * n:(r + 1) * n]] for r in range(n)]


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --------------------------------------------------------------------- the puzzle
def test_the_diagonals_are_two_more_groups() -> None:
    puzzle = Puzzle.sudoku(grid_of(X_LINE), diagonals=True)
    plain = Puzzle.sudoku(grid_of(X_LINE))
    assert puzzle.kind == "sudoku-x" and puzzle.diagonals and len(puzzle.groups) == len(plain.groups) + 2
    main_diagonal, anti = puzzle.groups[27:29]
    assert (main_diagonal.name, anti.name) == ("main diagonal", "anti-diagonal")
    assert [puzzle.cells[c] for c in main_diagonal.cells] == [(i, i) for i in range(9)]
    assert [puzzle.cells[c] for c in anti.cells] == [(i, 8 - i) for i in range(9)]
    assert puzzle != plain and puzzle.digest() != plain.digest() and plain.kind == "sudoku"
    assert kakuro.count_solutions(puzzle, "gac", limit=2).unique
    assert kakuro.count_solutions(plain, "gac", limit=2).count == 2  # the diagonals make it unique


def test_check_names_a_diagonal_that_repeats_a_digit() -> None:
    plain = Puzzle.sudoku([[0] * 4 for _ in range(4)])
    grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]  # a Sudoku; its main diagonal is 1 4 4 1
    assert plain.check(grid) == []
    problems = Puzzle.sudoku([[0] * 4 for _ in range(4)], diagonals=True).check(grid)
    assert problems == ["main diagonal repeats 4", "anti-diagonal repeats 1"]


def test_killer_x_and_jigsaw_x_are_kinds_too() -> None:
    killer_x = Puzzle.killer([(3, [(0, 0), (0, 1)])], size=4, diagonals=True)
    jigsaw_x = Puzzle.jigsaw([[0] * 4 for _ in range(4)], [[(r, c) for c in range(4)] for r in range(4)], diagonals=True)
    assert (killer_x.kind, jigsaw_x.kind) == ("killer-x", "jigsaw-x")
    assert "<Puzzle killer-x 4x4, boxes 2x2, 1 cages" in repr(killer_x) and "<Puzzle jigsaw-x 4x4" in repr(jigsaw_x)


@pytest.mark.parametrize("bad", [1, "yes", None])
def test_diagonals_must_be_true_or_false(bad: object) -> None:
    with pytest.raises(InvalidPuzzleError, match="diagonals must be True or False"):
        Puzzle.sudoku([[0] * 4 for _ in range(4)], diagonals=bad)  # type: ignore[arg-type]


def test_a_kakuro_has_no_diagonals() -> None:
    kakuro_puzzle = Puzzle.all_white([3], [1, 2], values=(1, 2))
    assert kakuro_puzzle.kind == "kakuro" and not kakuro_puzzle.diagonals
    with pytest.raises(InvalidPuzzleError, match="belong to a Sudoku-family puzzle"):
        dataclasses.replace(kakuro_puzzle, diagonals=True)


# --------------------------------------------------------------------- files
@pytest.mark.parametrize(("puzzle", "fmt"), [
    (Puzzle.sudoku(grid_of(X_LINE), diagonals=True, id="x"), "sudoku"),
    (Puzzle.sudoku(grid_of(X_LINE), diagonals=True), "sudoku-grid"),
    (Puzzle.sudoku([[0] * 6 for _ in range(6)], (2, 3), diagonals=True), "sudoku-grid"),
    (Puzzle.killer([(3, [(0, 0), (0, 1)]), (7, [(3, 2), (3, 3)])], size=4, diagonals=True), "killer"),
    (Puzzle.jigsaw([[0] * 4 for _ in range(4)], [[(r, c) for c in range(4)] for r in range(4)], diagonals=True), "jigsaw"),
    (Puzzle.jigsaw([[0] * 4 for _ in range(4)], [[(r, c) for c in range(4)] for r in range(4)], diagonals=True), "sudoku"),
])
def test_formats_say_diagonals_yes_and_round_trip(puzzle: Puzzle, fmt: str) -> None:
    text = dumps(puzzle, fmt)
    assert "diagonals: yes" in text
    back = kakuro.read(text)
    assert back == [puzzle] and back[0].kind == puzzle.kind and back[0].id == puzzle.id
    header, certified = written(puzzle)  # a certificate's puzzle: a format gives it back exactly
    assert certified == puzzle


def test_without_the_line_a_file_is_the_plain_puzzle() -> None:
    assert kakuro.read(X_LINE)[0].kind == "sudoku"
    assert kakuro.read("# diagonals: no\n" + X_LINE)[0].kind == "sudoku"
    both = kakuro.read("# diagonals: yes\n" + X_LINE + "\n" + X_LINE + "\n")
    assert [p.kind for p in both] == ["sudoku-x", "sudoku"]  # a comment belongs to the line after it


@pytest.mark.parametrize(("text", "where"), [
    ("# diagonals: sure\n" + X_LINE, "<text>:1:14"),
    ("diagonals: 1\n1 . . .\n. . . .\n. . . .\n. . . .\n", "<text>:1:12"),
    ("diagonals: yes\n1 . . .\n. . . .\n. . 1 .\n. . . .\n", "<text>:4:5"),
])
def test_format_errors_name_line_and_column(text: str, where: str) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(text)
    message = str(caught.value)
    assert message.startswith(where), message
    assert "diagonals must be yes or no" in message or "main diagonal: the given 1 appears twice" in message


# --------------------------------------------------------------------- pictures
def test_render_shades_the_diagonals() -> None:
    _, _, shapes = layout(Puzzle.sudoku([[0] * 4 for _ in range(4)], diagonals=True))
    fills = {(int(s.y // s.size), int(s.x // s.size)): s.fill for s in shapes if isinstance(s, Box)}
    crossing = {(i, i) for i in range(4)} | {(i, 3 - i) for i in range(4)}
    assert {cell for cell, fill in fills.items() if fill == DIAGONAL} == crossing
    assert {fill for cell, fill in fills.items() if cell[0] != cell[1] and cell[0] + cell[1] != 3} == {PAPER}
    _, _, plain = layout(Puzzle.sudoku([[0] * 4 for _ in range(4)]))
    assert all(s.fill == PAPER for s in plain if isinstance(s, Box))


# --------------------------------------------------------------------- generating
def test_x_grids_keep_the_diagonals_and_differ_by_seed() -> None:
    first = x_grid(9, seed=1)
    empty = Puzzle.sudoku([[0] * 9 for _ in range(9)], diagonals=True)
    assert empty.check(first) == [] and x_grid(9, seed=1) == first and x_grid(9, seed=2) != first
    assert empty.check(sudoku(9, 0.5, seed=3, diagonals=True).to_grid()) != []  # holes: missing digits only
    made = sudoku(9, 0.5, seed=3, diagonals=True)
    assert made.kind == "sudoku-x" and len(made.givens) == 81 - 40 and kakuro.solve(made, "gac").solution is not None
    assert killer(6, seed=2, largest=4, box=(2, 3), diagonals=True).kind == "killer-x"


def test_unique_sudoku_x_and_killer_x_are_unique() -> None:
    puzzle = unique_sudoku(9, seed=5, diagonals=True)
    assert puzzle.kind == "sudoku-x" and puzzle.meta["generator"] == "sudoku-x-unique"
    count = kakuro.count_solutions(puzzle, CHECKER, limit=2)
    assert (count.count, count.exhausted) == (1, True)
    cages = unique_killer(4, seed=3, diagonals=True)
    assert cages.kind == "killer-x" and kakuro.count_solutions(cages, CHECKER, limit=2).unique


def test_generate_sudoku_diagonals_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "generate", "sudoku", "--diagonals", "--unique", "--seed", "2")
    made = kakuro.read(out)[0]
    assert code == 0 and made.kind == "sudoku-x" and kakuro.count_solutions(made, CHECKER, limit=2).unique
    code, out, _ = run(capsys, "generate", "jigsaw", "--size", "6", "--diagonals", "--unique")
    assert code == 0 and kakuro.read(out)[0].kind == "jigsaw-x"
    code, out, _ = run(capsys, "generate", "sudoku", "--size", "6", "--box", "2x3")  # one line cannot hold 2x3 boxes
    assert code == 0 and kakuro.read(out)[0].box == (2, 3)


# --------------------------------------------------------------------- explaining
def test_explain_names_the_diagonals_and_solves() -> None:
    puzzle = Puzzle.sudoku(grid_of(X_LINE), diagonals=True)
    explanation = kakuro.explain(puzzle)
    assert explanation.status == "solved" and explanation.solution is not None
    assert puzzle.check(explanation.solution) == []
    sentences = [step.sentence for step in explanation.steps]
    assert any("the main diagonal" in s for s in sentences) and any("the anti-diagonal" in s for s in sentences)
    assert all(puzzle.kind in kakuro.deduction.techniques.BY_NAME[s.technique].kinds for s in explanation.steps)
    assert explanation.rating.name in ("singles", "intersections", "subsets", "placement in a group", "contradiction")
