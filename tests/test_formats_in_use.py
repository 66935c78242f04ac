"""Puzzle files people already have: the "R,C" course format (.txt, .kak, Board.json),
kakuros.com-style `.kakuro` grids, picat-style grids with comment lines, detection by content,
puzz.link URLs written and read back alike, and skipping bad puzzles.

Every fixture here was written for these tests (the 5x5 puzzle is the project's own
`kakuro.generate.classic(5, 5, unique=True, seed=1)`); none is copied from another project.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro
from kakuro import InvalidPuzzleError, KakuroError, Puzzle, PuzzleFormatError
from kakuro.formats import SkippedPuzzleWarning, dumps
from kakuro.puzzle import max_sum, min_sum

GRID = [
    ["#", [9, None], [11, None], [30, None], "#"],
    [[None, 21], 0, 0, 0, "#"],
    [[None, 9], 0, 0, 0, [8, None]],
    ["#", [None, 17], 0, 0, 0],
    ["#", [None, 11], 0, 0, 0],
]
"""The fixture puzzle: exactly one solution, 7 5 9 / 2 1 6 / 2 8 7 / 3 7 1 by rows."""
PUZZLE = Puzzle.from_grid(GRID)

COURSE = """5,5 
*,C9,C11,C30,*
F21,?,?,?,*

F9,?,?,?,C8
*,F17,?,?,?
*,F11,?,?,? 
"""  # noqa: W291  # the trailing blanks are the point of this fixture
"""The fixture in the course layout, with the blanks real files have (a trailing space, a
blank line between rows)."""

KAKUROS_STYLE = r"""# A 5x5 made for the tests, in the style of the kakuros.com grids

\    9\  11\  30\     \
\21  ___ ___ ___     \
\9   ___ ___ ___    8\
\    \17 ___ ___ _____
\    \11 ___ ___ _____
"""

PICAT_STYLE = r"""# Kakuro from the tests, as picat examples write it
# id: picat-style
x   9\  11\ 30\ x
\21 _   _   _   x
\9  _   _   _   8\
x   \17 _   _   _
x   \11 _   _   _
"""


def course_with_given() -> str:
    return COURSE.replace("F9,?,?,?,C8", "F9,2,?,?,C8")


# --------------------------------------------------------------------- the R,C course format
def test_course_text_reads_the_fixture() -> None:
    [puzzle] = kakuro.read(COURSE)
    assert puzzle == PUZZLE
    assert kakuro.count_solutions(puzzle, "gac").unique
    [given] = kakuro.read(course_with_given())
    assert given.givens == {PUZZLE.index[(2, 1)]: 2}


def test_course_round_trip_and_several_puzzles_per_file() -> None:
    written = dumps([PUZZLE, PUZZLE], "course")
    assert written.splitlines()[:2] == ["5,5", "*,C9,C11,C30,*"]
    assert kakuro.read(written, format="course") == [PUZZLE, PUZZLE]
    wide = Puzzle.all_white([30, 33], [31, 32], values=(1, 20))
    with pytest.raises(KakuroError, match="1..9"):
        dumps([wide], "course")


@pytest.mark.parametrize("name", ["puzzle.kak", "puzzle.txt", "puzzle.dat", "puzzle"])
def test_course_files_are_recognised_by_content(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(COURSE)
    assert kakuro.read(path) == [PUZZLE]


def test_a_kak_file_in_the_text_format_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "ours.kak"
    path.write_text(dumps([PUZZLE], "text"))
    assert kakuro.read(path) == [PUZZLE]
    written = kakuro.write([PUZZLE], tmp_path / "written.kak")
    assert kakuro.read(written) == [PUZZLE]


def test_board_json_lists_of_texts_and_of_objects(tmp_path: Path) -> None:
    rows = "\n".join(COURSE.splitlines()[1:])
    boards = [COURSE, {"id": "board-2", "width": 5, "height": 5, "cells": rows, "notations": "ignored"}]
    path = tmp_path / "Board.json"
    path.write_text(json.dumps(boards, indent=2))
    first, second = kakuro.read(path)
    assert first == second == PUZZLE
    assert (first.id, second.id) == (None, "board-2")


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (COURSE.replace("C11", "D11"), 2, 6, "unknown cell"),
        (COURSE.replace("F17,?,?,?", "F17,?,?"), 6, 1, "4 cells, the size says 5"),
        ("\n".join(COURSE.splitlines()[:5]) + "\n", 5, None, "the size says 5 rows, the file ends after 3"),
        (COURSE.replace("F21", "F3"), 3, 1, "invalid puzzle"),
    ],
)
def test_course_errors_name_line_and_column(text: str, line: int, column: int | None, message: str) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(text, format="course")
    assert (caught.value.line, caught.value.column) == (line, column)
    assert message in caught.value.message


def test_board_json_errors_name_the_board() -> None:
    text = json.dumps([COURSE, COURSE.replace("C8", "Q8"), {"cells": "*"}], indent=1)
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(text)
    assert caught.value.line == 3 and "board 2 of the list, its line 5 column 10" in caught.value.message
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert kakuro.read(text, skip_bad=True) == [PUZZLE]
    assert [w.category for w in seen] == [SkippedPuzzleWarning] * 2
    assert 'board 3 of the list' in str(seen[1].message)


# --------------------------------------------------------------------- text grids from elsewhere
def test_kakuros_style_grid_with_comment_and_underscore_runs(tmp_path: Path) -> None:
    assert kakuro.read(KAKUROS_STYLE) == [PUZZLE]
    path = tmp_path / "5x5.kakuro"
    path.write_text(KAKUROS_STYLE)
    assert kakuro.read(path) == [PUZZLE]


def test_picat_style_comments_before_the_grid() -> None:
    [puzzle] = kakuro.read(PICAT_STYLE)
    assert puzzle == PUZZLE and puzzle.id == "picat-style"


def test_a_row_that_starts_with_a_black_cell_is_not_a_comment() -> None:
    grid = "#   3\\  4\\\n\\3  _   _\n\\4  _   _\n"
    assert kakuro.read("# made for the tests\n" + grid)[0].to_grid()[0] == ["#", [3, None], [4, None]]
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(grid + "# 3\\ oops _\n")
    assert (caught.value.line, caught.value.column) == (4, 6)


def test_grammar_of_run_messages() -> None:
    with pytest.raises(InvalidPuzzleError, match="is in a down run that has no clue"):
        Puzzle.from_grid([["#", "#", "#"], [[None, 3], 0, 0], [[None, 4], 0, 0]])
    with pytest.raises(InvalidPuzzleError, match="is in an across run that has no clue"):
        Puzzle.from_grid([["#", [3, None], [4, None]], ["#", 0, 0], ["#", 0, 0]])


# --------------------------------------------------------------------- detection by content
def test_a_txt_file_holding_a_puzzlink_url(tmp_path: Path, puzzlink: Puzzle, puzzlink_url: str) -> None:
    path = tmp_path / "url.txt"
    path.write_text(puzzlink_url + "\n")
    assert kakuro.read(path) == [puzzlink]


def test_a_txt_file_holding_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    path.write_text(dumps([PUZZLE], "jsonl"))
    assert kakuro.read(path) == [PUZZLE]


def test_a_specific_extension_still_decides(tmp_path: Path) -> None:
    path = tmp_path / "wrong.jsonl"
    path.write_text(COURSE)
    with pytest.raises(PuzzleFormatError, match="not valid JSON"):
        kakuro.read(path)


# --------------------------------------------------------------------- puzz.link, both ways
ISSUE_EXAMPLE = {"grid": [["#", "#", "#"], ["#", [None, 5], 0], ["#", "#", "#"]]}


def test_the_issue_example_round_trips() -> None:
    [puzzle] = kakuro.read(json.dumps(ISSUE_EXAMPLE))
    url = dumps([puzzle], "puzzlink").strip()
    assert url.endswith("/2/2/-5k..-")
    assert kakuro.read(url) == [puzzle]


def test_one_cell_with_an_across_clue_and_old_zero_clues() -> None:
    [puzzle] = kakuro.read("https://puzz.link/p?kakuro/3/1/k..-7")
    assert puzzle.to_grid() == [["#", "#", "#", "#"], [[None, 7], 0, "#", "#"]]
    assert kakuro.solve(puzzle, "gac").solution.values == (7,)
    assert kakuro.read("https://puzz.link/p?kakuro/3/1/k..07") == [puzzle]


def test_a_run_without_a_sum_is_refused_clearly() -> None:
    url = "https://puzz.link/p?kakuro/2/1/l---"  # two white cells in a row, no sum for the row
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(url)
    assert caught.value.column == len(url)
    assert "no sum" in caught.value.message and "puzz.link allows" in caught.value.message


@st.composite
def expressible_puzzles(draw: st.DrawFn) -> Puzzle:
    """Puzzles puzz.link can hold: values 1..9, no givens, clues only outside the white cells,
    every run of two or more cells with a sum, one-cell runs with or without one."""
    rows, cols = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    white = [[r > 0 and c > 0 and draw(st.booleans()) for c in range(cols)] for r in range(rows)]
    grid: list[list[object]] = [[0 if white[r][c] else "#" for c in range(cols)] for r in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if white[r][c]:
                continue
            halves: list[int | None] = [None, None]
            for half, (dr, dc) in ((0, (1, 0)), (1, (0, 1))):
                length = 0
                while (r + dr * (length + 1) < rows and c + dc * (length + 1) < cols
                       and white[r + dr * (length + 1)][c + dc * (length + 1)]):
                    length += 1
                if length >= 2 or (length == 1 and draw(st.booleans())):
                    halves[half] = draw(st.integers(min_sum(length, (1, 9)), max_sum(length, (1, 9))))
            if halves != [None, None]:
                grid[r][c] = halves
    try:
        return Puzzle.from_grid(grid)
    except InvalidPuzzleError:  # e.g. a lone white cell whose runs both went without a sum
        assume(False)
        raise


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(expressible_puzzles())
def test_puzzlink_write_then_read_gives_the_same_puzzle(puzzle: Puzzle) -> None:
    assert kakuro.read(dumps([puzzle], "puzzlink"), format="puzzlink") == [puzzle]


# --------------------------------------------------------------------- bad puzzles: named, skippable
def bad_jsonl() -> str:
    good = dumps([PUZZLE], "jsonl")
    return good + '{"id": "broken", "grid": [["#", 0]]}\n' + "not json\n" + good


def test_jsonl_errors_name_the_line() -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(bad_jsonl())
    assert caught.value.line == 2 and str(caught.value).startswith("<text>:2:")


def test_skip_bad_skips_lines_with_a_warning_each() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        puzzles = kakuro.read(bad_jsonl(), skip_bad=True)
    assert puzzles == [PUZZLE, PUZZLE]
    assert [str(w.message).split(": ")[0] for w in seen] == ["<text>:2", "<text>:3:1"]
    assert all(w.category is SkippedPuzzleWarning for w in seen)
    errors: list[PuzzleFormatError] = []
    assert kakuro.read(bad_jsonl(), skip_bad=errors.append) == [PUZZLE, PUZZLE]
    assert [e.line for e in errors] == [2, 3]


def test_skip_bad_in_text_blocks_and_simonis_facts() -> None:
    text = dumps([PUZZLE], "text") + "\n#  3\\ oops\n\\3 _\n\n" + dumps([PUZZLE], "text")
    errors: list[PuzzleFormatError] = []
    assert kakuro.read(text, skip_bad=errors.append) == [PUZZLE, PUZZLE]
    assert [e.line for e in errors] == [7]
    facts = dumps([PUZZLE, PUZZLE, PUZZLE], "simonis").replace("x/21", "x/zz", 1).replace("x/21", "x/21", 1)
    errors = []
    assert len(kakuro.read(facts, format="simonis", skip_bad=errors.append)) == 2 and len(errors) == 1


def test_skip_bad_cannot_skip_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(PuzzleFormatError, match="not UTF-8"):
        kakuro.read(path, skip_bad=True)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert kakuro.read("not json\n", format="jsonl", skip_bad=True) == []
