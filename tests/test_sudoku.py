"""Sudoku and Killer Sudoku in the shared representation (issue 32): construction, the
errors of bad input, the checker, the engine's groups per cell, formats and generators."""

from __future__ import annotations

import pickle
import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import kakuro
from kakuro import InvalidPuzzleError, Puzzle, PuzzleFormatError
from kakuro.engine.build import build_state
from kakuro.formats import dumps, read, read_lazily
from kakuro.generate.sudoku_grids import emptied, full_grid, killer, sudoku

HARD_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""A 9x9 from Norvig's essay ("hardest" list); it has one solution."""


def grid_of(line: str) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in line[r * 9:(r + 1) * 9]] for r in range(9)]


def test_a_sudoku_is_cells_in_rows_columns_and_boxes() -> None:
    puzzle = Puzzle.sudoku(grid_of(HARD_LINE))
    assert (puzzle.kind, puzzle.size, len(puzzle.groups), puzzle.values, puzzle.box) == ("sudoku", 81, 27, (1, 9), (3, 3))
    assert all(len(groups) == 3 for groups in puzzle.cell_groups)
    assert all(not g.stated and g.total == 45 for g in puzzle.groups)
    assert puzzle.givens[0] == 4 and puzzle.cages == ()


@pytest.mark.parametrize(("side", "box"), [(4, None), (6, (2, 3)), (6, (3, 2)), (16, None), (25, None)])
def test_full_grids_of_every_shape_are_solutions(side: int, box: tuple[int, int] | None) -> None:
    grid = full_grid(side, box, seed=3)
    puzzle = emptied(grid, 1.0, box=box)
    solution = puzzle.solution([v for row in grid for v in row])
    assert puzzle.check(solution) == []
    assert solution.to_grid() == grid


def test_check_names_the_group_a_digit_repeats_in() -> None:
    grid = full_grid(9, seed=1)
    puzzle = emptied(grid, 1.0)
    values = [v for row in grid for v in row]
    values[0], values[1] = values[1], values[0]  # rows stay permutations; two columns and maybe boxes break
    problems = puzzle.check(puzzle.solution(values))
    assert any(p.startswith("column 1 repeats") for p in problems), problems  # counted from 1, as players do


@pytest.mark.parametrize(("make", "words"), [
    (lambda: Puzzle.sudoku([[0] * 9] * 8), "square"),
    (lambda: Puzzle.sudoku([[0] * 6] * 6), "no square boxes"),
    (lambda: Puzzle.sudoku([[0] * 6] * 6, box=(4, 2)), "do not tile"),
    (lambda: Puzzle.sudoku([[10] + [0] * 8] + [[0] * 9] * 8), "not 0 (empty) or a digit 1..9"),
    (lambda: Puzzle.sudoku([[1, 1, 0, 0]] + [[0] * 4] * 3), "row 1: the given 1 appears twice"),
    (lambda: Puzzle.killer([(30, [(0, 0), (0, 1)])]), "cage at r1c1 (sum 30): 2 distinct values from 1..9 sum to 3..17"),
    (lambda: Puzzle.killer([(3, [(0, 0), (0, 1)]), (4, [(0, 1), (1, 1)])]), "cage 2: cell r1c2 is in cage 1 too"),
    (lambda: Puzzle.killer([(3, [(0, 0), (9, 0)])]), "not a cell (row, col) of the 9x9 grid"),
])
def test_bad_input_gets_one_clear_error(make, words: str) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        make()
    assert words in str(caught.value)


def test_a_killer_adds_its_cages_to_the_sudoku() -> None:
    puzzle = killer(9, seed=2)
    assert puzzle.kind == "killer" and puzzle.cages
    assert sorted(c for cage in puzzle.cages for c in cage.cells) == list(range(81))  # cages tile the grid
    assert max(len(groups) for groups in puzzle.cell_groups) == 4
    assert pickle.loads(pickle.dumps(puzzle)) == puzzle
    cages = [(c.total, [puzzle.cells[i] for i in c.cells]) for c in puzzle.cages]
    assert Puzzle.killer(cages[::-1]) == puzzle  # the same cages in another order
    assert Puzzle.killer(cages[1:]) != puzzle


def test_the_engine_gives_each_cell_all_its_groups() -> None:
    puzzle = killer(9, seed=2)
    st = build_state(puzzle, "gac")
    for c, groups in enumerate(puzzle.cell_groups):
        row = st.cell_runs[c]
        assert list(row[: len(groups)]) == list(groups) and np.all(row[len(groups):] == -1)
    assert build_state(kakuro.read(HARD_LINE)[0], "fc").cell_runs.shape[1] == 3


@pytest.mark.parametrize("backend", ["gac", "fc"])
def test_the_native_engine_solves_a_hard_9x9(backend: str) -> None:
    puzzle = read(HARD_LINE + "\n")[0]
    result = kakuro.solve(puzzle, backend, time_limit=20)
    assert result.solved and puzzle.check(result.solution) == []
    assert "".join(str(v) for row in result.solution.to_grid() for v in row).startswith("4")


# --------------------------------------------------------------------- formats
@pytest.mark.parametrize(("puzzle", "fmt"), [
    (sudoku(9, 0.5, seed=4), "sudoku"),
    (sudoku(16, 0.66, seed=4), "sudoku"),
    (sudoku(9, 0.5, seed=4), "sudoku-grid"),
    (emptied(full_grid(6, (2, 3), 1), 0.5, box=(2, 3), id="six"), "sudoku-grid"),
    (killer(9, seed=4), "killer"),
    (Puzzle.killer([(3, [(0, 0), (0, 1)])], size=4, givens=[[0, 0, 3, 0]] + [[0] * 4] * 3, box=(2, 2), id="k4"), "killer"),
])
def test_formats_round_trip_and_are_detected(puzzle: Puzzle, fmt: str) -> None:
    text = dumps(puzzle, fmt)
    (back,) = read(text)
    assert back == puzzle and back.id == puzzle.id and back.kind == puzzle.kind


def test_sixteen_by_sixteen_lines_use_letters_for_ten_and_up() -> None:
    line = dumps(Puzzle.sudoku(full_grid(16, seed=0)), "sudoku").strip()
    assert len(line) == 256 and set(line) == set("123456789ABCDEFG")


@pytest.mark.parametrize(("text", "where", "words"), [
    (HARD_LINE[:-1] + "x\n", "<text>:1:81", "'x' is not a digit of a 9x9 Sudoku"),
    (HARD_LINE[:-1] + "\n", "<text>:1:1", "n x n characters"),
    ("4" + HARD_LINE[1:4] + "4" + HARD_LINE[5:] + "\n", "<text>:1:5", "row 1: the given 4 appears twice"),
    ("1 2 3 4\n. . . .\n. . . .\n. . . . .\n", "<text>:4:9", "a Sudoku grid is square"),
    ("a a b b\nc c d d\ne e f f\ng g h h\na=3 b=5 c=7 d=7 e=3 f=4 g=99 h=5\n", "<text>:4:1", "cage at r4c1 (sum 99)"),
    ("a a b b\nc c d d\ne e f f\ng g h h\na=3 b=5 c=7 d=7 e=3 f=4 g=4\n", "<text>:4:5", "cage h has no sum"),
])
def test_format_errors_name_line_and_column(text: str, where: str, words: str) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        read(text)
    assert str(caught.value).startswith(where) and words in str(caught.value), str(caught.value)


def test_a_format_refuses_a_puzzle_it_cannot_hold(tmp_path) -> None:
    with pytest.raises(kakuro.KakuroError, match="formats for it: killer"):
        dumps(killer(9, seed=1), "text")
    with pytest.raises(kakuro.KakuroError, match="holds sudoku, sudoku-x, jigsaw and jigsaw-x puzzles, not a kakuro"):
        dumps(kakuro.read(HARD_LINE)[0].__class__.all_white([3, 3], [3, 3], values=(1, 2)), "sudoku")


# --------------------------------------------------------------------- generators
def test_generated_sudokus_empty_the_share_asked_and_differ_by_seed() -> None:
    first, second = sudoku(16, 0.66, seed=1), sudoku(16, 0.66, seed=2)
    assert len(first.givens) == 256 - round(0.66 * 256)
    assert first != second and sudoku(16, 0.66, seed=1) == first


def test_render_draws_boxes_and_cages() -> None:
    from kakuro.render import CAGE, to_svg

    puzzle = killer(9, seed=3)
    svg = to_svg(puzzle)
    assert svg.count('stroke-width="3"') == 8  # 4 box borders across and 4 down
    sums = [line for line in svg.splitlines() if line.startswith("<text") and f'fill="{CAGE}"' in line]
    assert sorted(int(line.split(">")[1].split("<")[0]) for line in sums) == sorted(c.total for c in puzzle.cages)
    assert 'stroke-width="3"' not in to_svg(kakuro.read(HARD_LINE)[0].all_white([3, 3], [3, 3], values=(1, 2)))


# --------------------------------------------------------------------- big files, read lazily
def relabelled(count: int) -> str:
    """`count` one-line Sudokus: HARD_LINE with its digits relabelled (a different puzzle each)."""
    rng = random.Random(1)
    lines = []
    for _ in range(count):
        digits = rng.sample("123456789", 9)
        lines.append(HARD_LINE.translate(str.maketrans("123456789", "".join(digits))))
    return "\n".join(lines) + "\n"


BIG = 20_000
"""Puzzles in the big file below: building them all up front took 16 s and 480 MB (200,000, the
issue's 16 MB file, 166 s and 4.8 GB before the first solve)."""


def peak_bytes(work: Callable[[], object]) -> int:
    """The most memory Python held at once while `work` ran (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_big_sdm_file_is_read_lazily_and_a_puzzle_built_when_reached(tmp_path: Path) -> None:
    path, text = tmp_path / "big.sdm", relabelled(BIG)
    path.write_text(text)
    puzzles = read_lazily(path)
    assert peak_bytes(lambda: read_lazily(path)[BIG - 1]) < 8 * len(text)  # the text and a maker per line
    assert len(puzzles) == BIG and puzzles[-1] == read(text.splitlines()[-1])[0] and puzzles[0] == read(relabelled(1))[0]
    small = tmp_path / "small.sdm"
    small.write_text("# id: first\n" + relabelled(3) + HARD_LINE[:-1] + "x\n")  # a bad line at the end
    lazily = read_lazily(small)
    assert [p.id for p in lazily[:3]] == ["first", None, None] and lazily[:3] == read(relabelled(3))[:3]
    with pytest.raises(PuzzleFormatError, match=r"small.sdm:5:81: 'x' is not a digit"):
        list(lazily)  # raised when reached, as `read` raises it at once
    with pytest.raises(PuzzleFormatError, match=r"small.sdm:5:81"):
        read(small)


def test_solve_and_count_start_on_a_big_file_at_once_in_bounded_memory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kakuro.cli import main

    path = tmp_path / "big.sdm"
    path.write_text(relabelled(BIG))
    kakuro.get_solver("gac").ensure_warm()
    capsys.readouterr()
    for argv in (["solve", str(path), "-b", "gac"], ["count", str(path), "-b", "gac", "--index", str(BIG)]):
        assert peak_bytes(lambda argv=argv: main(argv)) < 8 * path.stat().st_size, argv
    out, err = capsys.readouterr()
    assert f"puzzle 1 of {BIG}" in err and out.splitlines()[0].startswith(f"{path}#1: solved in")
    assert f"{path}#{BIG}: exactly 1 solution" in out
    bad = tmp_path / "bad.sdm"
    bad.write_text(relabelled(2) + "12345\n")
    assert main(["solve", str(bad), "-b", "gac", "--all"]) == 1  # the two before it solved and printed
    out, err = capsys.readouterr()
    assert [line.split(": ")[0] for line in out.splitlines() if ": solved" in line] == [f"{bad}#1", f"{bad}#2"]
    assert f"{bad}:3:1" in err and "Traceback" not in err
