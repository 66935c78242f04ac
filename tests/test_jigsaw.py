"""Jigsaw Sudoku (issue 43): `Puzzle.jigsaw(givens, regions)` with one clear error for regions
that do not tile the grid, its file formats (the region map and the one-line givens + labels),
pictures with thick region borders, random tilings and unique Jigsaws, and the explanation,
the hint and the certificate on them."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import kakuro
from kakuro import InvalidPuzzleError, Puzzle, PuzzleFormatError
from kakuro.certificates.document import written
from kakuro.cli import main
from kakuro.deduction import SOLVED, hint
from kakuro.deduction.hints import STEP
from kakuro.formats import dumps
from kakuro.generate.family_grids import jigsaw_layout, random_regions
from kakuro.generate.sudoku_grids import jigsaw
from kakuro.generate.unique_sudoku import unique_jigsaw
from kakuro.render import INK, Line, layout

CHECKER = "sat"
"""Another engine than the generator's `gac` confirms uniqueness."""

REGIONS_4 = [[(0, 0), (0, 1), (0, 2), (1, 0)], [(0, 3), (1, 1), (1, 2), (1, 3)],
             [(2, 0), (2, 1), (3, 0), (3, 1)], [(2, 2), (2, 3), (3, 2), (3, 3)]]
"""A 4x4 tiling whose top two regions are not boxes::

    a a a b
    a b b b
    c c d d
    c c d d
"""
GIVENS_4 = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 3], [0, 0, 0, 2]]
LINE_9 = ("4....7...5.6......7..3.86......9..2........713.....25.............4..3..1.3...8.."
          "111122222111132224555133324555633334556677344588677449888677949886679949886677999")
"""A unique 9x9 Jigsaw as one line (`unique_jigsaw(9, seed=9)`): its givens, then its regions."""


def from_line(line: str) -> tuple[list[list[int]], list[list[tuple[int, int]]]]:
    """The givens and regions of a one-line Jigsaw, read here (not by kakuro's reader)."""
    n = int((len(line) // 2) ** 0.5)
    givens = [[0 if ch == "." else int(ch) for ch in line[r * n:(r + 1) * n]] for r in range(n)]
    regions: dict[str, list[tuple[int, int]]] = {}
    for i, label in enumerate(line[n * n:]):
        regions.setdefault(label, []).append(divmod(i, n))
    return givens, list(regions.values())


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --------------------------------------------------------------------- the puzzle
def test_a_jigsaw_is_rows_columns_and_its_regions() -> None:
    puzzle = Puzzle.jigsaw(GIVENS_4, REGIONS_4)
    assert puzzle.kind == "jigsaw" and puzzle.box is None and not puzzle.diagonals and not puzzle.cages
    assert [g.name for g in puzzle.groups] == [*(f"row {k}" for k in range(1, 5)), *(f"column {k}" for k in range(1, 5)),
                                                "region at r1c1", "region at r1c4", "region at r3c1", "region at r3c3"]
    assert [sorted(puzzle.cells[c] for c in g.cells) for g in puzzle.boxes] == [sorted(r) for r in REGIONS_4]
    solution = kakuro.solve(puzzle, "gac").solution
    assert solution is not None and puzzle.check(solution) == []
    boxed = puzzle.solution([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])  # rows, columns and 2x2 boxes hold
    assert "region at r1c1 repeats 3" in puzzle.check(boxed)


def test_the_same_regions_in_any_order_are_the_same_puzzle() -> None:
    puzzle = Puzzle.jigsaw(GIVENS_4, REGIONS_4)
    shuffled = Puzzle.jigsaw(GIVENS_4, [list(reversed(r)) for r in reversed(REGIONS_4)])
    boxed = Puzzle.sudoku(GIVENS_4)
    assert shuffled == puzzle and shuffled.digest() == puzzle.digest() and hash(shuffled) == hash(puzzle)
    assert boxed != puzzle and boxed.digest() != puzzle.digest()
    back = pickle.loads(pickle.dumps(puzzle))
    assert back == puzzle and back.kind == "jigsaw" and back.box is None


@pytest.mark.parametrize(("regions", "words"), [
    ([REGIONS_4[0], [(0, 3), (1, 1), (1, 2), (0, 2)], *REGIONS_4[2:]], "region 2: cell r1c3 is in region 1 too"),
    ([REGIONS_4[0][:3], REGIONS_4[1], REGIONS_4[2], REGIONS_4[3]],
     "region 1 (region at r1c1) has 3 cells; each region of a 4x4 Jigsaw has 4; cell r2c1 is in no region"),
    ([*REGIONS_4[:3], [(2, 2), (2, 3), (3, 2), (4, 3)]], "region 4: (4, 3) is not a cell (row, col) of the 4x4 grid"),
    (REGIONS_4[:3], "a 4x4 Jigsaw has 4 regions of 4 cells, not 3; cell r3c3 is in no region"),
    ([[(0, 0), (0, 0), (0, 1), (0, 2)], *REGIONS_4[1:]], "region 1: cell r1c1 is listed twice"),
    ([*REGIONS_4, []], "region 5: [] is not a list of cells"),
    ("a a a b", "regions must be a list of regions"),
])
def test_regions_that_do_not_tile_get_one_clear_error(regions: object, words: str) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        Puzzle.jigsaw(GIVENS_4, regions)  # type: ignore[arg-type]
    assert words in str(caught.value)


def test_a_region_need_not_be_connected_and_a_layout_out_of_order_is_refused() -> None:
    apart = [[(0, 0), (0, 3), (3, 0), (3, 3)], [(0, 1), (0, 2), (1, 0), (1, 3)],
             [(1, 1), (1, 2), (2, 1), (2, 2)], [(2, 0), (2, 3), (3, 1), (3, 2)]]
    puzzle = Puzzle.jigsaw([[0] * 4 for _ in range(4)], apart)
    assert puzzle.kind == "jigsaw" and len(puzzle.boxes) == 4
    jumbled = puzzle.regions[4:8] + puzzle.regions[:4] + puzzle.regions[8:]
    with pytest.raises(InvalidPuzzleError, match="rows, columns, boxes .* in that order"):
        Puzzle(4, 4, puzzle.cells, {}, {}, (1, 4), regions=jumbled)


# --------------------------------------------------------------------- files
@pytest.mark.parametrize("fmt", ["jigsaw", "sudoku"])
def test_formats_round_trip_and_are_detected_by_content(fmt: str, tmp_path: Path) -> None:
    puzzle = Puzzle.jigsaw(*from_line(LINE_9), id="nine", meta={"source": "test"})
    text = dumps(puzzle, fmt)
    back = kakuro.read(text)
    assert back == [puzzle] and back[0].id == "nine" and dict(back[0].meta) == {"source": "test"}
    path = kakuro.write(puzzle, tmp_path / f"p.{'jigsaw' if fmt == 'jigsaw' else 'sdm'}")
    assert kakuro.read(path) == [puzzle]


def test_the_one_line_jigsaw_is_givens_then_labels() -> None:
    puzzle = kakuro.read(LINE_9)[0]
    assert puzzle.kind == "jigsaw" and puzzle == Puzzle.jigsaw(*from_line(LINE_9))
    assert dumps(puzzle, "sudoku").strip() == LINE_9
    lower = LINE_9[:81] + LINE_9[81:].translate(str.maketrans("123456789", "abcdefghi"))
    assert kakuro.read(lower) == [puzzle]  # any labels


@pytest.mark.parametrize(("text", "where", "words"), [
    (LINE_9[:81] + "2" + LINE_9[82:], "<text>:1:82", "region '2' has 10 cells; each region of a 9x9 Jigsaw has 9"),
    (LINE_9[:81] + "." + LINE_9[82:], "<text>:1:82", "a region label is a digit or a letter"),
    (LINE_9[:161] + "A", "<text>:1:135", "region '9' has 8 cells"),
    ("a:1 a a b\na b b b\nc c d d\nc c d d:5\n", "<text>:4:7", "cell r4c4: 5 is not 0 (empty) or a digit 1..4"),
    ("a a a b\na b b b\nc c d d\nc c d c\n", "<text>:3:1", "region 'c' has 5 cells"),
    ("box: 2x2\na a a b\na b b b\nc c d d\nc c d d\n", "<text>:1:1", "a Jigsaw has regions, not boxes"),
    ("diagonals: maybe\na a a b\na b b b\nc c d d\nc c d d\n", "<text>:1:12", "diagonals must be yes or no"),
    ("a a a b\na b . b\nc c d d\nc c d d\n", "<text>:2:5", "a cell is a region name"),
])
def test_format_errors_name_line_and_column(text: str, where: str, words: str) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(text)
    assert where in str(caught.value) and words in str(caught.value), str(caught.value)


def test_a_jigsaw_goes_only_into_formats_that_hold_it(tmp_path: Path) -> None:
    puzzle = Puzzle.jigsaw(GIVENS_4, REGIONS_4)
    with pytest.raises(kakuro.KakuroError, match="formats for it: jigsaw, sudoku"):
        dumps(puzzle, "sudoku-grid")
    assert "12 runs" in dumps(puzzle, "minizinc")  # the export holds every group: 4 rows, 4 columns, 4 regions
    header, back = written(puzzle)  # a certificate's puzzle: a format that gives it back exactly
    assert header["format"] == "jigsaw" and back == puzzle


# --------------------------------------------------------------------- pictures
def test_render_draws_thick_borders_between_regions() -> None:
    puzzle = Puzzle.jigsaw(GIVENS_4, REGIONS_4)
    _, _, shapes = layout(puzzle)
    thick = {(s.x1, s.y1, s.x2, s.y2) for s in shapes if isinstance(s, Line) and s.width == 3 and s.colour == INK}
    frame = {(0, 0, 160, 0), (0, 160, 160, 160), (0, 0, 0, 160), (160, 0, 160, 160)}
    inner = thick - frame
    assert frame <= thick
    # between r1c1|r2c1 (a) and r2c2 (b): the edge below r1c2, r1c3 and right of r2c1 ...
    assert (40, 40, 80, 40) in inner and (40, 40, 40, 80) in inner and (120, 0, 120, 40) in inner
    assert (0, 80, 40, 80) in inner and (80, 80, 80, 120) in inner and (80, 120, 80, 160) in inner
    assert (40, 80, 40, 120) not in inner and (0, 40, 40, 40) not in inner  # inside regions c and a
    assert len(inner) == 10


# --------------------------------------------------------------------- generating
@pytest.mark.parametrize("size", [4, 5, 6, 7, 8, 9])
def test_random_regions_tile_the_grid_connected(size: int) -> None:
    regions = random_regions(size, seed=size)
    cells = sorted(cell for region in regions for cell in region)
    assert cells == [(r, c) for r in range(size) for c in range(size)] and all(len(r) == size for r in regions)
    for region in regions:
        seen, todo = {region[0]}, [region[0]]
        while todo:
            r, c = todo.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if near in region and near not in seen:
                    seen.add(near)
                    todo.append(near)
        assert len(seen) == size
    assert random_regions(size, seed=size) == regions and random_regions(size, seed=size + 100) != regions


def test_a_jigsaw_layout_has_a_full_grid_over_its_regions() -> None:
    regions, grid = jigsaw_layout(7, seed=3)
    puzzle = Puzzle.jigsaw(grid, regions)
    assert len(puzzle.givens) == 49 and puzzle.check(puzzle.solution(list(puzzle.givens.values()))) == []
    assert sum(len({r for r, _ in region}) > 1 for region in regions) >= 4  # not the rows it started from


def test_a_unique_jigsaw_is_unique_and_minimal() -> None:
    puzzle = unique_jigsaw(6, seed=4)
    assert puzzle.kind == "jigsaw" and puzzle.meta["minimal"] == "yes"
    count = kakuro.count_solutions(puzzle, CHECKER, limit=2)
    assert (count.count, count.exhausted) == (1, True)
    regions = [[puzzle.cells[c] for c in g.cells] for g in puzzle.boxes]
    for cell in list(puzzle.givens)[:4]:  # each given is needed
        grid = [[puzzle.givens.get(r * 6 + c, 0) for c in range(6)] for r in range(6)]
        grid[cell // 6][cell % 6] = 0
        assert kakuro.count_solutions(Puzzle.jigsaw(grid, regions), CHECKER, limit=2).count == 2
    fresh = jigsaw(8, 0.5, seed=1)
    assert len(fresh.givens) == 32 and kakuro.solve(fresh, "gac").solution is not None


def test_generate_jigsaw_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "generate", "jigsaw", "--size", "5", "--unique", "--seed", "2")
    made = kakuro.read(out)[0]
    assert code == 0 and made.kind == "jigsaw" and made.rows == 5
    assert kakuro.count_solutions(made, CHECKER, limit=2).unique
    code, out, _ = run(capsys, "generate", "jigsaw", "--size", "6", "--count", "2", "-o", tmp_path / "two.jigsaw")
    assert code == 0 and [p.kind for p in kakuro.read(tmp_path / "two.jigsaw")] == ["jigsaw", "jigsaw"]


# --------------------------------------------------------------------- explaining
def test_explain_and_hint_name_the_regions() -> None:
    puzzle = Puzzle.jigsaw(*from_line(LINE_9))
    explanation = kakuro.explain(puzzle)
    assert explanation.status == SOLVED and explanation.solution is not None
    assert puzzle.check(explanation.solution) == []
    sentences = " ".join(step.sentence for step in explanation.steps)
    assert "the region at r" in sentences and "box" not in sentences
    locked = [step.sentence for step in explanation.steps if step.technique == "locked-candidates"]
    assert any(s.startswith("In the region at") and "(pointing)" in s for s in locked)
    assert any("(region/line reduction)" in s for s in locked)
    found = hint(puzzle)
    assert found.kind == STEP and found.value is not None


def test_solve_count_explain_render_and_certify_a_jigsaw_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "nine.sdm"
    path.write_text(LINE_9 + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and "solved" in out
    code, out, _ = run(capsys, "count", path)
    assert code == 0 and "exactly 1 solution" in out
    code, out, _ = run(capsys, "render", path, "-o", tmp_path / "nine.svg")
    assert code == 0 and (tmp_path / "nine.svg").read_text().count('stroke-width="3"') > 4
    code, out, _ = run(capsys, "certify", path, "-o", tmp_path / "certificates")
    assert code == 0 and "exactly 1 solution, certified" in out
    (certificate,) = (tmp_path / "certificates").iterdir()
    code, out, _ = run(capsys, "verify", certificate)
    assert code == 0 and "exactly 1 solution, certified" in out
