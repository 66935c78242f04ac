"""Explaining Sudoku and Killer Sudoku (issue 32): each technique on a board built for it, the
names players use, soundness and replay on generated puzzles (9x9 at several emptiness levels,
16x16, Killer 9x9), the rule of 45's sums, the rating, JSON, hints, pictures and the CLI."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import kakuro
from kakuro import KakuroError, Puzzle
from kakuro.cli import main
from kakuro.combos import mask_of, values_of
from kakuro.deduction import SEVERAL, SOLVED, STOPPED, Explanation, explain, hint
from kakuro.deduction.board import Board, cell_name, group_name
from kakuro.deduction.cage_sums import cage_sums, rule_of_45
from kakuro.deduction.combination_rules import combination_placement, intersection, unique_combination
from kakuro.deduction.deduce import Deduction
from kakuro.deduction.hints import MISTAKE, STEP, hint_to_dict
from kakuro.deduction.hints import SOLVED as HINT_SOLVED
from kakuro.deduction.page import page
from kakuro.deduction.picture import step_marks
from kakuro.deduction.replay import replay, unsound_removals
from kakuro.deduction.singles import last_cell, naked_single
from kakuro.deduction.subsets import hidden_subset, naked_subset
from kakuro.deduction.sudoku_rules import hidden_single, locked_candidates
from kakuro.deduction.techniques import BY_NAME, SUDOKU_LEVEL_NAMES
from kakuro.deduction.text import hint_lines
from kakuro.deduction.trace import explanation_from_dict
from kakuro.engine.propagate import root_domains
from kakuro.generate.sudoku_grids import full_grid, killer, sudoku
from kakuro.render import CAGE, to_svg
from tests.conftest import EXAMPLES

HARD_LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""A 9x9 from Norvig's essay ("hardest" list); it has one solution."""


def empty(size: int = 9, box: tuple[int, int] | None = None) -> Puzzle:
    return Puzzle.sudoku([[0] * size for _ in range(size)], box)


def group(puzzle: Puzzle, name: str) -> int:
    """The index of the group a player calls `name` ("row 1", "box 5", "the 17-cage at r1c1")."""
    return next(r for r in range(len(puzzle.groups)) if group_name(puzzle, r) == name)


def cell(puzzle: Puzzle, name: str) -> int:
    row, col = name[1:].split("c")
    return puzzle.index[(int(row) - 1, int(col) - 1)]


def with_candidates(puzzle: Puzzle, **cells: str) -> Board:
    """The board of `puzzle` with some candidates set: `r1c2="12"` gives r1c2 {1,2}."""
    b = Board(puzzle)
    for name, digits in cells.items():
        b.cands[cell(puzzle, name)] = mask_of(int(d) for d in digits)
    return b


def without(board: Board, digit: int, *names: str) -> Board:
    for name in names:
        board.cands[cell(board.puzzle, name)] &= ~(1 << digit)
    return board


def removed(board: Board, finding: object) -> dict[str, list[int]]:
    """A finding's removals by cell name."""
    return {cell_name(board.puzzle, c): values_of(m) for c, m in finding.removals.items()}  # type: ignore[attr-defined]


# --------------------------------------------------------------------- names
def test_cells_and_groups_are_named_as_players_name_them() -> None:
    p = empty()
    assert cell_name(p, 0) == "r1c1" and cell_name(p, 80) == "r9c9"
    names = [group_name(p, r) for r in range(len(p.groups))]
    assert names[:2] == ["row 1", "row 2"] and "column 9" in names
    box5 = p.groups[group(p, "box 5")]
    assert {p.cells[c] for c in box5.cells} == {(r, c) for r in range(3, 6) for c in range(3, 6)}
    six = empty(6, (2, 3))
    box4 = six.groups[group(six, "box 4")]  # reading order: two boxes per band
    assert min(six.cells[c] for c in box4.cells) == (2, 3)
    k = Puzzle.killer([(17, [(1, 3), (1, 2)])])
    assert group_name(k, len(k.groups) - 1) == "the 17-cage at r2c3"  # named by its top-left cell


# --------------------------------------------------------------------- each technique
def test_hidden_single_places_a_digit_with_one_place_left() -> None:
    p = empty(4)
    b = without(Board(p), 3, "r1c2", "r1c3", "r1c4")
    found = hidden_single(b, group(p, "row 1"))
    assert found is not None and removed(b, found) == {"r1c1": [1, 2, 4]}
    assert found.reason == "in row 1, 3 can only go in r1c1"
    assert hidden_single(Board(p), group(p, "row 1")) is None


def test_hidden_single_leaves_cages_to_their_combinations() -> None:
    p = Puzzle.killer([(3, [(0, 0), (0, 1)])], size=4)
    b = without(Board(p), 1, "r1c2")
    assert hidden_single(b, len(p.groups) - 1) is None  # a cage's digits depend on its sum


def test_pointing_removes_a_digit_from_the_rest_of_the_line() -> None:
    p = empty()
    b = without(Board(p), 5, "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3", "r1c3")
    found = locked_candidates(b, group(p, "box 1"))
    assert found is not None and found.technique == "locked-candidates"
    assert removed(b, found) == {f"r1c{c}": [5] for c in range(4, 10)}
    assert found.reason == ("in box 1, 5 can only go in r1c1 and r1c2, which all lie in row 1 (pointing), "
                            "so no other cell of row 1 can be 5")


def test_box_line_reduction_removes_a_digit_from_the_rest_of_the_box() -> None:
    p = empty()
    b = without(Board(p), 5, *(f"r1c{c}" for c in range(3, 10)))
    found = locked_candidates(b, group(p, "row 1"))
    assert found is not None and "(box/line reduction)" in found.reason
    assert removed(b, found) == {f"r{r}c{c}": [5] for r in (2, 3) for c in (1, 2, 3)}


def test_a_cage_locks_its_digits_into_the_line_it_lies_in() -> None:
    p = Puzzle.killer([(17, [(0, 0), (0, 1)])])
    cage = len(p.groups) - 1
    b = Board(p)
    found = locked_candidates(b, cage)
    assert found is not None and removed(b, found) == {f"r1c{c}": [8] for c in range(3, 10)}
    assert found.reason.startswith("every combination of the 17-cage at r1c1 that fits its cells holds 8")
    assert found.groups == (cage, group(p, "row 1"))
    assert locked_candidates(Board(empty()), group(empty(), "row 1")) is None


def test_subsets_in_a_row() -> None:
    p = empty(4)
    b = with_candidates(p, r1c1="12", r1c2="12")
    naked = naked_subset(b, group(p, "row 1"))
    assert naked is not None and removed(b, naked) == {"r1c3": [1, 2], "r1c4": [1, 2]}
    assert naked.reason.endswith("(a naked pair), so the row's other cells cannot")
    b = with_candidates(p, r1c1="123", r1c2="124", r1c3="34", r1c4="34")
    hidden = hidden_subset(b, group(p, "row 1"))
    assert hidden is not None and removed(b, hidden) == {"r1c1": [3], "r1c2": [4]}
    assert hidden.reason.startswith("row 1 needs {1,2}, and only r1c1 and r1c2 can take them (a hidden pair)")


def test_exact_reasoning_on_one_group_and_the_last_cell() -> None:
    p = empty(4)
    b = with_candidates(p, r1c1="12", r1c2="12", r1c3="123")
    found = combination_placement(b, group(p, "row 1"))
    assert found is not None and removed(b, found) == {"r1c3": [1, 2], "r1c4": [1, 2, 3]}
    assert found.reason.startswith("no way to spread the digits 1..4 over the cells of row 1")
    b = with_candidates(p, r1c1="1", r1c2="2", r1c3="3")
    last = last_cell(b, group(p, "row 1"))
    assert last is not None and removed(b, last) == {"r1c4": [1, 2, 3]}
    assert last.reason == "the other cells of row 1 hold every digit but 4"


def test_a_naked_single_leaves_every_group_of_its_cell() -> None:
    p = Puzzle.killer([(17, [(0, 0), (0, 1)])])
    b = with_candidates(p, r1c1="9")
    found = naked_single(b, cell(p, "r1c1"))
    assert found is not None and found.reason == ("r1c1 holds 9, so no other cell of row 1, column 1, box 1 and "
                                                  "the 17-cage at r1c1 can be 9")
    assert len(found.removals) == 8 + 8 + 4  # the cage's other cell, r1c2, is in row 1


def test_cage_combinations_carry_over_from_kakuro() -> None:
    p = Puzzle.killer([(3, [(0, 0), (0, 1)]), (17, [(1, 0), (2, 0)])])
    b = Board(p)
    three, seventeen = len(p.groups) - 2, len(p.groups) - 1
    found = unique_combination(b, three)
    assert found is not None and found.reason.startswith("the 3-cage at r1c1 has one combination, {1,2}")
    cross = intersection(b, cell(p, "r2c1"))
    assert cross is not None and removed(b, cross) == {"r2c1": list(range(1, 8))}
    assert "the 17-cage at r2c1" in cross.reason and seventeen in cross.groups


# --------------------------------------------------------------------- the rule of 45
RULE_OF_45 = Puzzle.killer([(36, [(0, c) for c in range(8)]), (11, [(0, 8), (1, 8)])])
"""Row 1: eight cells in a 36-cage, the ninth in an 11-cage that reaches into row 2."""


def test_innies_and_outies_of_a_row() -> None:
    sums = {(s.kind, s.lines): s for s in cage_sums(RULE_OF_45)}
    innie, outie = sums[("innies", "row 1")], sums[("outies", "row 1")]
    assert (innie.cells, innie.total) == ((cell(RULE_OF_45, "r1c9"),), 9)
    assert (outie.cells, outie.total) == ((cell(RULE_OF_45, "r2c9"),), 2)
    b = Board(RULE_OF_45)
    found = rule_of_45(b, innie)
    assert found is not None and removed(b, found) == {"r1c9": list(range(1, 9))}
    assert found.reason.startswith("row 1 holds 45, and the cages inside it sum to 36, so its cells outside "
                                   "those cages, r1c9, sum to 45 - 36 = 9 (innies)")
    found = rule_of_45(b, outie)
    assert found is not None and removed(b, found) == {"r2c9": [1, *range(3, 10)]}
    assert "sum to 47 - 45 = 2 (outies)" in found.reason
    assert cage_sums(empty()) == []


@pytest.mark.parametrize("seed", range(4))
def test_every_innie_and_outie_sum_holds_in_the_solution(seed: int) -> None:
    puzzle = killer(9, seed=seed, largest=6)
    grid = full_grid(9, None, seed)
    sums = cage_sums(puzzle)
    assert sums and {s.kind for s in sums} == {"innies", "outies"}
    for s in sums:
        assert sum(grid[r][c] for r, c in map(puzzle.cells.__getitem__, s.cells)) == s.total, s


# --------------------------------------------------------------------- whole puzzles
CASES = [
    *(("sudoku", 9, share, seed) for share in (0.4, 0.5, 0.6, 0.7) for seed in range(3)),
    *(("sudoku", 16, 0.5, seed) for seed in range(2)),
    *(("killer", 9, largest, seed) for largest, seed in ((3, 0), (6, 6), (6, 11), (9, 0), (9, 9))),
]


@cache
def puzzle_of(kind: str, size: int, x: float, seed: int) -> tuple[Puzzle, list[list[int]], Explanation]:
    """A generated puzzle, the full grid it came from (one of its solutions) and its explanation."""
    made = sudoku(size, x, seed=seed) if kind == "sudoku" else killer(size, seed=seed, largest=int(x))
    return made, full_grid(size, None, seed), explain(made)


@pytest.mark.parametrize(("kind", "size", "x", "seed"), CASES)
def test_generated_puzzles_are_explained_soundly_and_replay(kind: str, size: int, x: float, seed: int) -> None:
    """Before a `search` choice no removal takes the full grid's digit; replaying the steps
    reaches the explanation's solution, a valid one; a puzzle with one solution is solved by
    deduction alone; only the techniques meant for the kind are used."""
    puzzle, grid, e = puzzle_of(kind, size, x, seed)
    recorded = puzzle.solution([grid[r][c] for r, c in puzzle.cells])
    chosen = next((k for k, s in enumerate(e.steps) if s.technique == "search"), len(e.steps))
    assert unsound_removals(e.steps[:chosen], recorded) == []
    final = [d.bit_length() - 1 for d in replay(puzzle, e.steps)]
    assert e.solution is not None and list(e.solution.values) == final and puzzle.check(e.solution) == []
    unique = kakuro.count_solutions(puzzle, "gac", limit=2).count == 1
    assert e.status == (SOLVED if unique else SEVERAL)
    if unique:
        assert e.solution == recorded
    assert all(puzzle.kind in BY_NAME[s.technique].kinds for s in e.steps)
    assert e.rating.level == max(s.level for s in e.steps)


def test_the_sweep_meets_every_technique_of_the_family() -> None:
    """The puzzles above use every Sudoku and Killer technique before any search choice (so the
    soundness sweep checks each of them)."""
    used: set[str] = set()
    for case in CASES + [("sudoku", 9, 0.75, 1)]:
        e = puzzle_of(*case)[2]
        chosen = next((k for k, s in enumerate(e.steps) if s.technique == "search"), len(e.steps))
        used.update(s.technique for s in e.steps[:chosen])
    family = {t for t, technique in BY_NAME.items() if "killer" in technique.kinds} - {"search"}
    assert family - used <= {"required-digit", "hidden-subset"}, family - used


def test_a_contradiction_names_the_group_it_empties() -> None:
    e = explain(sudoku(9, 0.7, seed=0))
    step = next(s for s in e.steps if s.technique == "contradiction")
    assert "exact reasoning on each row, column and box would" in step.sentence
    assert "unable to hold every digit once" in step.sentence


def test_levels_one_to_four_reach_at_least_arc_consistency_on_every_group() -> None:
    """Up to level 4 (exact reasoning on each group), the candidates left are within the
    engine's root GAC, for a Sudoku, a 16x16 and a Killer."""
    for puzzle in (sudoku(9, 0.7, seed=1), sudoku(16, 0.66, seed=1), killer(9, seed=9)):
        b = Board(puzzle)
        list(Deduction(b, up_to=4).steps())
        root = root_domains(puzzle, "gac")
        assert root is not None and all(d & ~g == 0 for d, g in zip(b.cands, root)), puzzle.id


def test_kakuro_and_sudoku_get_their_own_techniques() -> None:
    kakuro_rules = {r.technique for r in Deduction(Board(kakuro.read("#  3\\ 4\\\n\\7 _ _\n")[0])).rules}
    sudoku_rules = {r.technique for r in Deduction(Board(empty(4))).rules}
    killer_rules = {r.technique for r in Deduction(Board(RULE_OF_45)).rules}
    assert {"hidden-single", "locked-candidates"} & kakuro_rules == set()
    assert {"intersection", "combination-digits", "required-digit", "region-arithmetic"} & sudoku_rules == set()
    assert killer_rules == kakuro_rules | sudoku_rules


def test_the_rating_uses_sudoku_words() -> None:
    e = explain(kakuro.read(HARD_LINE + "\n")[0])
    assert e.status == SOLVED and e.rating.name == SUDOKU_LEVEL_NAMES[e.rating.level]
    assert e.rating.level == 2 and e.rating.technique == "locked-candidates"
    assert str(e.rating).startswith("2.") and "intersections" in str(e.rating)


def test_a_large_sudoku_stops_at_the_time_limit_with_sound_steps() -> None:
    puzzle = sudoku(25, 0.66, seed=1)
    e = explain(puzzle, time_limit=0.2)
    assert e.status == STOPPED and e.solution is None and e.steps
    chosen = next((k for k, s in enumerate(e.steps) if s.technique == "search"), len(e.steps))
    assert unsound_removals(e.steps[:chosen], puzzle.solution([v for row in full_grid(25, None, 1) for v in row])) == []


# --------------------------------------------------------------------- JSON, pictures, hints
@pytest.mark.parametrize("puzzle", [sudoku(9, 0.6, seed=1), killer(9, seed=11, largest=6)], ids=["sudoku", "killer"])
def test_json_round_trip_and_a_tampered_group(puzzle: Puzzle) -> None:
    e = explain(puzzle)
    data = json.loads(json.dumps(e.to_dict()))
    assert explanation_from_dict(puzzle, data) == e
    first = data["steps"][0]["groups"][0]
    assert set(first) == {"group", "name", "total", "cells"} and first["group"] in ("row", "column", "box", "cage")
    first["cells"] = first["cells"][:-1]
    with pytest.raises(KakuroError, match="no group"):
        explanation_from_dict(puzzle, data)


def test_a_trace_written_before_the_groups_rename_still_reads() -> None:
    """Traces written before the sixteenth session name a step's groups "runs"."""
    puzzle = sudoku(9, 0.6, seed=1)
    e = explain(puzzle)
    data = json.loads(json.dumps(e.to_dict()))
    for step in data["steps"]:
        step["runs"] = step.pop("groups")
    assert explanation_from_dict(puzzle, data) == e


def test_a_step_picture_shades_the_groups_over_boxes_and_cages() -> None:
    puzzle = killer(9, seed=11, largest=6)
    e = explain(puzzle)
    index = next(k for k, s in enumerate(e.steps) if s.technique == "region-arithmetic")
    marks = step_marks(e, index)
    assert marks.clues == frozenset() and marks.cells == frozenset(e.steps[index].cells) and marks.struck
    svg = to_svg(puzzle, marks=marks)
    assert 'fill="#fff1b8"' in svg and CAGE in svg
    html = page(e)
    assert '"clues":[]' in html and "region-arithmetic" in html


def test_hints_on_a_sudoku() -> None:
    puzzle = kakuro.read(HARD_LINE + "\n")[0]
    found = hint(puzzle)
    assert found.kind == STEP and found.value is not None and found.unique is True
    assert found.message == f"{cell_name(puzzle, found.cell)} is {found.value}"  # type: ignore[arg-type]
    assert hint_lines(found, puzzle, 1)[0] == f"next: use {found.technique} (level 1, singles)"
    grid = puzzle.to_grid()
    grid[0][1] = 4  # the given 4 at r1c1 again
    mistake = hint(puzzle, grid)
    assert mistake.kind == MISTAKE and mistake.message == "r1c2 repeats the 4 of r1c1 in row 1"
    solved = kakuro.solve(puzzle, "gac").solution
    assert solved is not None and hint(puzzle, solved).kind == HINT_SOLVED
    assert hint_to_dict(puzzle, found)["step"]["groups"][0]["group"] in ("row", "column", "box")


@pytest.mark.parametrize("puzzle", [sudoku(9, 0.6, seed=3), killer(9, seed=1), kakuro.read(EXAMPLES / "puzzlink-6x5.txt")[0]],
                         ids=["sudoku", "killer", "kakuro"])
def test_following_the_hints_solves_and_no_hint_is_about_a_digit_the_grid_has(puzzle: Puzzle) -> None:
    """A hint used to be the deduction's step on a given: "r6c4 holds 1, so no other cell of row 6,
    column 4 and box 5 can be 1, which places 5 in r5c4" (look at r6c4, a given), after 21 such
    steps. The grid's digits are what a player sees: a cell they leave with one candidate is a
    naked single at that cell, and no step of a hint is a digit the grid already has."""
    grid = puzzle.to_grid()
    for move in range(puzzle.size + 1):
        found = hint(puzzle, grid)
        if found.kind == HINT_SOLVED:
            break
        assert found.kind == STEP and found.step is not None and found.cell is not None and found.value is not None
        filled = {c for c, (r, col) in enumerate(puzzle.cells) if grid[r][col]}
        assert found.cell not in filled and found.cell in found.cells
        for step in (*found.reasons, found.step):
            assert not (step.technique == "naked-single" and step.cells[0] in filled), step.sentence
        if move == 0 and puzzle.kind == "sudoku":  # r5c4: its row, column and box hold every other digit
            assert found.reasons == () and found.cells[0] == found.cell == puzzle.cells.index((4, 3))
            assert found.step.sentence == "r5c4 can only be 5: row 5, column 4 and box 5 hold every other digit."
        r, col = puzzle.cells[found.cell]
        grid[r][col] = found.value
    assert found.kind == HINT_SOLVED


def test_a_cage_that_cannot_reach_its_sum_is_a_mistake() -> None:
    puzzle = Puzzle.killer([(17, [(0, 0), (0, 1)])])
    grid = puzzle.to_grid()
    grid[0][0], grid[0][1] = 9, 7
    found = hint(puzzle, grid)
    assert found.kind == MISTAKE
    assert found.message == "r1c2: the 17-cage at r1c1 cannot be right: it is full and sums to 16, not 17"


# --------------------------------------------------------------------- the command line
def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_explain_and_hint_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "hard.sdm").write_text(HARD_LINE + "\n")
    code, out, _ = run(capsys, "explain", tmp_path / "hard.sdm")
    lines = out.splitlines()
    assert code == 0 and " solved in " in lines[0] and lines[0].endswith("rating 2.3 (intersections: locked-candidates, 7 times)")
    assert any("[locked-candidates]" in line for line in lines) and lines[-1].startswith("techniques: naked-single")
    kakuro.write(killer(9, seed=11, largest=6), tmp_path / "cages.killer")
    for name in ("trace.json", "step.svg", "trace.html"):
        code, out, _ = run(capsys, "explain", tmp_path / "cages.killer", "-o", tmp_path / name)
        assert code == 0 and out == f"wrote {tmp_path / name}\n"
    assert json.loads((tmp_path / "trace.json").read_text())["status"] == "solved"
    code, out, _ = run(capsys, "hint", tmp_path / "hard.sdm", "--level", "2")
    assert code == 0 and out.splitlines()[0] == "next: use hidden-single (level 1, singles)"
    assert out.splitlines()[1].startswith("  look at r") and out.splitlines()[1].endswith(")")
    grid = kakuro.read(tmp_path / "hard.sdm")[0].to_grid()
    grid[0][1] = 4
    (tmp_path / "wrong.json").write_text(json.dumps(grid))
    code, out, _ = run(capsys, "hint", tmp_path / "hard.sdm", "--progress", tmp_path / "wrong.json")
    assert code == 3 and out == "mistake: r1c2 repeats the 4 of r1c1 in row 1\n"  # a wrong answer


def test_explain_time_limit_on_a_large_sudoku(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    kakuro.write(sudoku(25, 0.66, seed=1), tmp_path / "large.sdm")
    code, out, _ = run(capsys, "explain", tmp_path / "large.sdm", "--time-limit", "0.2")
    assert code == 4 and "stopped at the time limit after" in out.splitlines()[0]
