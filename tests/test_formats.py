"""File formats: round trips, detection, error positions, and no crash on any input."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro
import kakuro.formats
from kakuro import KakuroError, Puzzle, PuzzleFormatError
from kakuro.formats import FORMATS, dumps, simonis, text
from kakuro.formats import puzzlink as puzzlink_format
from kakuro.formats.solution import read_solution

WIDE = Puzzle.all_white([30, 33], [31, 32], values=(1, 20), givens={(0, 0): 12}, id="wide", meta={"source": "made here"})
"""A Cazenave grid over 1..20 with a given: what the URL format cannot hold."""

SIMONIS_SAMPLE = """\
% A small puzzle in the syntax of Simonis' files (made here, not taken from them).
% id: sample
/* a block
   comment */
data(generated,7,-,3,3,
[](
[](x/x, 4/x, 3/x),
   [](x/3, x, x),
   [](x/4, x, x)
))
"""


VECTOR = "https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"
"""The puzz.link test vector of issue 2 (also the `puzzlink` fixture)."""


def puzzles_for(format: str, cazenave: Puzzle, puzzlink_puzzle: Puzzle) -> list[Puzzle]:
    """Puzzles with ids and metadata that `format` can hold."""
    named = Puzzle.from_grid(puzzlink_puzzle.to_grid(), id="puzzlink, named", meta={"source": "tests"})
    chosen = [cazenave, named]
    return chosen if format == "puzzlink" else [*chosen, WIDE]


# --------------------------------------------------------------------- round trips
@pytest.mark.parametrize("format", ["text", "jsonl", "simonis", "puzzlink"])
def test_round_trip_keeps_puzzles_and_ids(format: str, cazenave: Puzzle, puzzlink: Puzzle) -> None:
    original = puzzles_for(format, cazenave, puzzlink)
    written = dumps(original, format)
    back = kakuro.read(written)  # the format is detected from the content
    assert back == original
    assert [p.id for p in back] == [p.id for p in original]
    assert [p.values for p in back] == [p.values for p in original]
    assert [dict(p.givens) for p in back] == [dict(p.givens) for p in original]
    assert back[0].meta.get("source") == original[0].meta["source"]
    assert dumps(back, format) == written


@pytest.mark.parametrize("format", ["text", "jsonl", "simonis", "puzzlink"])
def test_files_are_detected_by_extension(format: str, tmp_path: Path, cazenave: Puzzle, puzzlink: Puzzle) -> None:
    original = puzzles_for(format, cazenave, puzzlink)
    path = kakuro.write(original, tmp_path / f"puzzles{FORMATS[format].EXTENSIONS[0]}")
    assert kakuro.read(path) == original
    with pytest.raises(KakuroError, match="already exists"):
        kakuro.write(original, path)


def test_written_files_get_the_usual_permissions(tmp_path: Path, cazenave: Puzzle) -> None:
    """A new file gets what the umask allows (not mkstemp's owner-only mode); a replaced file
    keeps its own mode."""
    umask = os.umask(0o022)
    try:
        path = kakuro.write(cazenave, tmp_path / "new.txt")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        path.chmod(0o600)
        kakuro.write(cazenave, path, overwrite=True)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(umask)


def test_simonis_syntax(cazenave: Puzzle) -> None:
    [puzzle] = kakuro.read(SIMONIS_SAMPLE)
    assert puzzle.id == "sample"
    assert puzzle.to_grid() == [["#", [4, None], [3, None]], [[None, 3], 0, 0], [[None, 4], 0, 0]]
    without_comments = re.sub(r"%.*\n", "", SIMONIS_SAMPLE)
    assert kakuro.read(without_comments)[0].id == "generated-7"
    written = simonis.dumps([cazenave])
    assert "data(generated,1,-,6,6," in written.splitlines()
    assert "[](x/18, x, x, x, x, x)" in written


def test_shared_simonis_set_round_trips(shared_data: Path) -> None:
    puzzles = kakuro.read(shared_data / "simonis_easy.jsonl")
    written = simonis.dumps(puzzles)
    assert written.count("data(generated,") == len(puzzles) == 172
    back = simonis.parse(written)
    assert back == puzzles and [p.id for p in back] == [p.id for p in puzzles]


def test_shared_janko_puzzles_round_trip_through_every_format(janko: list[Puzzle]) -> None:
    puzzles = janko[:100]
    for format in ("text", "jsonl", "simonis", "puzzlink"):
        assert kakuro.read(dumps(puzzles, format), format=format) == puzzles, format


def test_puzzlink_vector(puzzlink: Puzzle, puzzlink_url: str) -> None:
    # puzz.link counts the cells inside the clue frame: 6 columns, 5 rows -> a 7 x 6 grid here
    assert (puzzlink.rows, puzzlink.cols) == (6, 7)
    assert puzzlink.clues[(1, 1)] == (23, 12) and puzzlink.clues[(0, 2)] == (29, None)
    assert puzzlink.clues[(3, 6)] == (3, None) and puzzlink.clues[(5, 1)] == (None, 16)
    assert puzzlink_format.url(puzzlink) == puzzlink_url == VECTOR
    count = kakuro.count_solutions(puzzlink, "cpsat", limit=2)
    assert count.count == 1 and count.unique


@pytest.mark.parametrize(
    "url",
    [
        "http://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG",
        "https://pzv.jp/p.html?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG",
        "https://pzprxs.vercel.app/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG",
        "p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG",
        "https://puzz.link/p?kakuro/6/5/Dclh4t9fl30p0gl0alJeC3BgG",  # older pzprjs: 0 for no clue
        "  # id: vector\n  https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG  \n",
    ],
)
def test_puzzlink_prefixes_and_old_encoding(url: str, puzzlink: Puzzle) -> None:
    assert kakuro.read(url) == [puzzlink]


def test_puzzlink_long_white_runs_and_empty_clue_cells() -> None:
    puzzle = Puzzle.all_white([45, 45], [3] * 9, values=(1, 9))
    url = puzzlink_format.url(puzzle)
    assert kakuro.read(url) == [puzzle]
    assert url.split("/")[-1].startswith("zl")  # an 18-cell white stretch: 'z' (16) then 'l' (2)


@pytest.mark.parametrize(
    ("puzzle", "message"),
    [
        (WIDE, "values 1..20"),
        (Puzzle.from_grid([["#", [3, None]], [[None, 1], 1], ["#", [None, None]]]), "given digits"),
        (Puzzle.from_grid([["#", [None, 3], 0, 0]], values=(1, 9)), "first row or column"),
    ],
)
def test_puzzlink_refuses_what_a_url_cannot_hold(puzzle: Puzzle, message: str) -> None:
    with pytest.raises(KakuroError, match=message):
        puzzlink_format.url(puzzle)


def test_text_render_of_a_solved_grid_reads_as_a_solution(cazenave: Puzzle) -> None:
    solution = kakuro.solve(cazenave, "cpsat").solution
    grid = cazenave.to_grid()
    for (r, c), v in zip(cazenave.cells, solution.values):
        grid[r][c] = v
    assert cazenave.check(read_solution("\n".join(text.render_grid(grid, solved=True)) + "\n")) == []
    assert cazenave.check(read_solution(json.dumps({"solution": solution.to_grid()}))) == []


# --------------------------------------------------------------------- errors and positions
def error_of(source: str | bytes, **kwargs: object) -> PuzzleFormatError:
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(source, **kwargs)  # type: ignore[arg-type]
    return caught.value


def test_bad_text_token_is_located() -> None:
    error = error_of("#   3\\  3\\\n\\3  _   _\n\\3  ?   _\n")
    assert (error.line, error.column, error.text) == (3, 5, "?")
    assert "<text>:3:5" in str(error)


def test_error_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("#  3\\\n\\3 _ oops\n")
    error = error_of(path)
    assert (error.file, error.line, error.column) == (str(path), 2, 6)
    assert str(error).startswith(f"{path}:2:6:")


@pytest.mark.parametrize("number", ["３", "٣", "1_0", "+5", "-3", "0x1", "1e1", "٣\\"])
def test_only_ascii_digits_are_numbers(number: str) -> None:
    error = error_of(f"#  3\\  {number}\\\n\\3 _ _\n")
    assert (error.line, error.column) == (1, 8)


@pytest.mark.parametrize("number", ["３", "٣", "1_0", "+5"])
def test_only_ascii_digits_in_every_format(number: str) -> None:
    assert error_of(f"values: 1..{number}\n#  3\\\n\\3 _\n").line == 1
    assert error_of(f"data(generated,1,-,{number},2,[]([](x/x,x)))").line == 1
    assert error_of(f"https://puzz.link/p?kakuro/{number}/5/Dclh4t9fl3-p-gl-alJeC3BgG").column == 28
    assert error_of(f'{{"grid": [["#", [{number}, null]]]}}').line == 1


def test_wrong_row_length_is_located() -> None:
    error = error_of("#   3\\  3\\\n\\3  _   _\n\\3  _   _  _\n")
    assert (error.line, error.column, error.text) == (3, 12, "_")  # the first extra cell
    assert error.message == "this row has 4 cells, the first row has 3"
    error = error_of("#   3\\  3\\\n\\3  _   _\n\\3  _\n")
    assert (error.line, error.column) == (3, 6)  # where the missing cell should be


def test_invalid_puzzle_is_located_at_the_cell() -> None:
    # the white cell at row 2, column 3 continues a run whose clue is missing
    error = error_of("#   3\\  #\n\\3  _   _\n\\3  _   _\n")
    assert (error.line, error.column) == (2, 9)
    assert "no clue" in error.message and error.message.startswith("invalid puzzle")


def test_invalid_puzzle_is_located_in_simonis_and_puzzlink() -> None:
    error = error_of("data(generated,1,-,2,3,\n[](\n[](x/x, x/5, x/x),\n   [](x/3, x, x)))")
    assert (error.line, error.column) == (3, 9)  # the clue x/5, whose run is empty
    error = error_of("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3Bg-")
    assert (error.line, error.column) == (1, 56)  # the missing across clue of the last row


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        ('{"grid": [["#", [3, null]], [[null, 3], 0]]}\n{"grid": [}\n', 2, 11),
        ('{"grid": [["#"]], "values": [1]}\n', 1, 1),
        ('{"grid": [["#"]], "rows": 7}\n', 1, 1),
        ('{"grid": NaN}\n', 1, 1),
        ("[1, 2]\n", 1, 1),
    ],
)
def test_bad_json_lines(source: str, line: int, column: int) -> None:
    error = error_of(source, format="jsonl")
    assert (error.line, error.column) == (line, column)


@pytest.mark.parametrize(
    ("source", "line", "column", "message"),
    [
        ("data(generated,1,-,2,2,\n[](\n[](x/x, 3/4),\n   [](x/3, x)\n)).\n", 3, 9, "no white cell"),
        ("data(generated,1,-,3,2,\n[](\n[](x/x, 3/x),\n   [](x/3, x)\n)).\n", 1, 20, "3 rows"),
        ("data(generated,1,-,2,3,\n[](\n[](x/x, 3/x),\n   [](x/3, x)\n)).\n", 3, 1, "2 cells"),
        ("data(generated,1,-,2,2,\n[](\n[](x/x, 3/x),\n   [](x/3, y)\n)).\n", 4, 12, "a cell"),
        ("data(generated,1,-,2,2,\n[](\n[](x/x, 3/x),\n   [](x/3, x)\n))\ndata(", 6, 1, "expected '.'"),
        ("data(generated,1,-,2,2,\n[](\n[](x/x, 3/x),\n   [](x/3, x", 4, 13, "ends inside"),
        ("data(generated,1,-,2,2, /* open\n", 1, 25, "never ends"),
        ("data(generated,1,-,2,2,\n[](\n[](x/x, 3/x) ;\n", 3, 14, "unexpected character"),
    ],
)
def test_bad_simonis_facts(source: str, line: int, column: int, message: str) -> None:
    error = error_of(source, format="simonis")
    assert (error.line, error.column) == (line, column)
    assert message in error.message


@pytest.mark.parametrize(
    ("url", "column", "message"),
    [
        ("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3Bg!", 56, "not a clue character"),
        ("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgGG", 57, "after the last clue"),
        ("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3Bg", 56, "ends before the clue of the run along row 4"),
        ("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-az", 49, "past the last cell"),
        ("https://puzz.link/p?kakuro/6/5/Dc", 34, "ends after 1 of the 30 cells"),
        ("https://puzz.link/p?kakuro/60/50/Dc", 34, "cannot describe"),
        ("https://puzz.link/p?sudoku/6/5/Dclh4t9fl3-p-gl-alJeC3BgG", 21, "not a Kakuro URL"),
        ("https://puzz.link/p?kakuro/6/5", 28, "COLS/ROWS/BODY"),
        ("https://puzz.link/p?kakuro/0/5/Dclh4t9fl3-p-gl-alJeC3BgG", 28, "number of columns"),
        ("https://puzz.link/p?kakuro/6/5000/Dclh4t9fl3-p-gl-alJeC3BgG", 30, "number of rows"),
    ],
)
def test_bad_puzzlink_urls(url: str, column: int, message: str) -> None:
    error = error_of(url, format="puzzlink")
    assert (error.line, error.column) == (1, column)
    assert message in error.message


def test_oversized_input_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(kakuro.formats, "MAX_INPUT_BYTES", 100)
    big = "#  3\\\n\\3 _\n" + "\n" * 200
    assert "limit is 100" in error_of(big).message
    path = tmp_path / "big.txt"
    path.write_text(big)
    assert "limit is 100" in error_of(path).message
    assert "limit is 100" in error_of(big.encode()).message


def test_empty_and_binary_inputs() -> None:
    assert "no puzzle" in error_of("\n \n").message
    assert "not UTF-8" in error_of(b"#  3\\\n\xff\xfe").message
    assert "NUL" in error_of(b"#\x00").message


# --------------------------------------------------------------------- no input crashes the reader
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT_SEED = "id: t\nvalues: 1..9\n#   3\\  4\\\n\\3  _   _\n\\4  _   1\n"
JSON_SEED = json.dumps({"id": "j", "grid": [["#", [3, None], [4, None]], [[None, 3], 0, 0], [[None, 4], 0, 1]], "values": [1, 9]})
SIMONIS_SEED = "% id: s\ndata(generated,1,-,3,3,\n[](\n[](x/x, 3/x, 4/x),\n   [](x/3, x, x),\n   [](x/4, x, 1)\n)).\n"
PUZZLINK_SEED = "# id: p\n" + VECTOR + "\n"
COURSE_SEED = "3,3\n*,C3,C4\nF3,?,?\nF4,?,1\n"
BOARD_JSON_SEED = json.dumps([COURSE_SEED, {"id": "b", "height": 3, "width": 3, "cells": "*,C3,C4\nF3,?,?\nF4,?,1"}])
KAKUROS_SEED = "# a comment line\n\n\\   3\\  4\\\n\\3  ___ ___\n\\4  ___ 1\n"
SUDOKU_SEED = "# id: s\n1...2...3..4...1\n"
SUDOKU_GRID_SEED = "box: 2x2\n1 . | . .\n----+----\n. 2 | . .\n. . | 3 .\n. . | . 4\n"
KILLER_SEED = "id: k\na:1 a | b b\nc c | d d\n----+----\ne e | f f\ng g | h h\na=3 b=7 c=3 d=7\ne=3 f=7 g=3 h=7\n"
PIECES = ["\\", "#", "_", "x", "/", "(", ")", "[", "]", "[]", "{", "}", ",", ":", ".", "-", "\n", " ", "0", "9",
          "99999999", "３", "٣", "1_0", "+5", '"', "null", "data(", "?kakuro/", "%", "/*", "\x00", "\ufeff", "\r"]


def check_reader(source: str | bytes) -> None:
    """`kakuro.read` either returns puzzles or raises PuzzleFormatError; nothing else."""
    try:
        puzzles = kakuro.read(source)
    except PuzzleFormatError as exc:
        assert str(exc)
    else:
        assert puzzles and all(isinstance(p, Puzzle) for p in puzzles)


@st.composite
def mutations(draw: st.DrawFn, seed: str) -> str:
    chars = list(seed)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(chars)))
        kind = draw(st.sampled_from(("insert", "delete", "replace")))
        piece = draw(st.sampled_from(PIECES) | st.characters())
        if kind == "insert":
            chars[at:at] = list(piece)
        elif kind == "delete":
            del chars[at : at + draw(st.integers(1, 5))]
        else:
            chars[at : at + 1] = list(piece)
    return "".join(chars)


@FUZZ
@given(st.text())
def test_any_text_gives_puzzles_or_a_format_error(source: str) -> None:
    check_reader(source + "\n")  # the newline keeps a short text from being taken for a path


@FUZZ
@given(st.binary())
def test_any_bytes_give_puzzles_or_a_format_error(source: bytes) -> None:
    check_reader(source)


@FUZZ
@given(st.sampled_from([TEXT_SEED, JSON_SEED, SIMONIS_SEED, PUZZLINK_SEED, COURSE_SEED, BOARD_JSON_SEED,
                        KAKUROS_SEED, SUDOKU_SEED, SUDOKU_GRID_SEED, KILLER_SEED]).flatmap(mutations))
def test_mutated_puzzles_give_puzzles_or_a_format_error(source: str) -> None:
    check_reader(source)
    check_reader(source.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join), st.sampled_from(sorted(FORMATS)))
def test_each_reader_gives_puzzles_or_a_format_error(source: str, format: str) -> None:
    with contextlib.suppress(PuzzleFormatError):
        kakuro.read(source + "\n", format=format)


def test_the_seeds_are_valid() -> None:
    for seed in (TEXT_SEED, JSON_SEED, SIMONIS_SEED, PUZZLINK_SEED, COURSE_SEED, KAKUROS_SEED, SUDOKU_SEED,
                 SUDOKU_GRID_SEED, KILLER_SEED):
        assert len(kakuro.read(seed)) == 1
    assert len(kakuro.read(BOARD_JSON_SEED)) == 2
