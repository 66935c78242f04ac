"""Human-technique explanations: each technique on a board built for it, the deduction's order,
soundness and replay on the shared puzzles, the agreement of levels 1-4 with GAC, the rating,
JSON, hints, and pictures of a step."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import kakuro
from kakuro import KakuroError, Puzzle
from kakuro.combos import combinations, mask_of, range_mask
from kakuro.deduction import (
    SEVERAL,
    SOLVED,
    TECHNIQUES,
    UNSATISFIABLE,
    Explanation,
    explain,
    hint,
)
from kakuro.deduction.board import Board
from kakuro.deduction.combination_rules import (
    combination_digits,
    combination_placement,
    intersection,
    required_digit,
    unique_combination,
)
from kakuro.deduction.deduce import RULES, Deduction
from kakuro.deduction.hints import MISTAKE, STEP, UNSOLVABLE
from kakuro.deduction.hints import SOLVED as HINT_SOLVED
from kakuro.deduction.picture import hardest_step, step_marks
from kakuro.deduction.rating import rate
from kakuro.deduction.regions import region_arithmetic
from kakuro.deduction.replay import replay, unsound_removals
from kakuro.deduction.singles import last_cell, naked_single
from kakuro.deduction.subsets import hidden_subset, naked_subset
from kakuro.deduction.trace import Removal, Step, explanation_from_dict
from kakuro.engine.propagate import root_domains
from kakuro.generate import classic, grade
from kakuro.generate.classic_grids import LEVELS_OF_GRADE
from kakuro.reasoning.implied import MAX_SUM_CELLS, RegionSum, region_sums
from kakuro.render import STRUCK, to_svg
from tests.conftest import SWEEP_EVERY, shared_data_or_skip, shared_set

SETS = ("janko", "simonis_easy", "krazydad", "gecode_nikoli", "ifilot_cx16")

def board(text: str, **cells: str) -> tuple[Board, Puzzle]:
    """The board of a puzzle with some candidates set: `r1c2="12"` gives r1c2 {1,2}."""
    puzzle = kakuro.read(text)[0]
    b = Board(puzzle)
    for name, digits in cells.items():
        row, col = name[1:].split("c")
        b.cands[puzzle.index[(int(row), int(col))]] = mask_of(int(d) for d in digits)
    return b, puzzle


def at(puzzle: Puzzle, name: str) -> int:
    row, col = name[1:].split("c")
    return puzzle.index[(int(row), int(col))]


def across(puzzle: Puzzle, row: int) -> int:
    return next(r for r, run in enumerate(puzzle.groups) if run.direction == "across" and run.clue[0] == row)


def four_cell_puzzle() -> str:
    """A row of four cells summing to 10 over two rows, so every cell is in two runs."""
    return """
#    3\\  3\\  7\\  7\\
\\10  _    _    _    _
\\10  _    _    _    _
"""


# --------------------------------------------------------------------- the catalogue
def test_the_deduction_tries_the_techniques_in_the_catalogue_order() -> None:
    assert [rule.technique for rule in RULES] == [t.name for t in TECHNIQUES]
    levels = [t.level for t in TECHNIQUES]
    assert levels == sorted(levels) and set(levels) == set(range(1, 8))


def test_the_documented_names_import_and_import_kakuro_stays_light() -> None:
    """`kakuro.explain` is the function, `kakuro.deduction` the package (importable by dotted
    name, submodules too), and `import kakuro` brings in neither numpy nor numba."""
    script = (
        "import sys, kakuro\n"
        "assert kakuro.explain is kakuro.deduction.explain, kakuro.explain\n"
        "assert kakuro.deduction.TECHNIQUES and kakuro.deduction.Step and callable(kakuro.deduction.hint)\n"
        "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))\n"
        "import kakuro.deduction.hints as hints\n"
        "assert hints.hint.__module__ == 'kakuro.deduction.hints'\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


# --------------------------------------------------------------------- each technique
INTERSECTION = """
#   4\\  3\\
\\3  _    _
\\4  _    _
"""


def test_unique_combination_keeps_the_one_digit_set() -> None:
    b, p = board(INTERSECTION)
    found = unique_combination(b, across(p, 1))
    assert found is not None and found.technique == "unique-combination"
    assert found.removals == {at(p, "r1c1"): range_mask((1, 9)) & ~mask_of([1, 2]),
                              at(p, "r1c2"): range_mask((1, 9)) & ~mask_of([1, 2])}
    assert "{1,2}" in found.reason


def test_intersection_of_across_and_down_digits() -> None:
    b, p = board(INTERSECTION)
    found = intersection(b, at(p, "r1c1"))
    assert found is not None
    assert b.cands[at(p, "r1c1")] & ~found.removals[at(p, "r1c1")] == mask_of([1])
    assert "only 1 is in both" in found.reason


def test_naked_single_and_last_cell() -> None:
    b, p = board(four_cell_puzzle(), r1c1="1", r1c2="2", r1c3="3")
    found = naked_single(b, at(p, "r1c1"))
    assert found is not None and found.removals == {at(p, "r1c4"): mask_of([1]), at(p, "r2c1"): mask_of([1])}
    last = last_cell(b, across(p, 1))
    assert last is not None and b.cands[at(p, "r1c4")] & ~last.removals[at(p, "r1c4")] == mask_of([4])
    assert naked_single(b, at(p, "r1c4")) is None  # not placed yet


def test_combination_digits_keep_what_fitting_combinations_use() -> None:
    text = """
#   #   3\\  7\\
#  \\10  _    _
"""
    b, p = board(text, r1c2="123", r1c3="78")
    found = combination_digits(b, across(p, 1))
    assert found is not None and found.removals == {at(p, "r1c2"): mask_of([1])}


def test_required_digit_with_one_place_left() -> None:
    b, p = board(four_cell_puzzle(), r1c1="1234", r1c2="234", r1c3="234", r1c4="234")
    found = required_digit(b, across(p, 1))
    assert found is not None and found.removals == {at(p, "r1c1"): mask_of([2, 3, 4])}


def test_naked_and_hidden_pairs() -> None:
    b, p = board(four_cell_puzzle(), r1c1="12", r1c2="12", r1c3="1234", r1c4="1234")
    naked = naked_subset(b, across(p, 1))
    assert naked is not None and naked.removals == {at(p, "r1c3"): mask_of([1, 2]), at(p, "r1c4"): mask_of([1, 2])}
    assert "naked pair" in naked.reason
    b, p = board(four_cell_puzzle(), r1c1="1234", r1c2="1234", r1c3="34", r1c4="34")
    hidden = hidden_subset(b, across(p, 1))
    assert hidden is not None and hidden.removals == {at(p, "r1c1"): mask_of([3, 4]), at(p, "r1c2"): mask_of([3, 4])}


def test_combination_placement_sees_what_fitting_alone_misses() -> None:
    text = """
#   #   #   8\\  8\\  8\\
#   #  \\8   _    _    _
"""
    b, p = board(text, r1c3="12", r1c4="12", r1c5="1345")
    run = across(p, 1)
    assert combination_digits(b, run) is None  # {1,3,4} fits at a glance
    found = combination_placement(b, run)
    assert found is not None and found.removals == {at(p, "r1c5"): mask_of([1, 3, 4])}
    assert "{1,2,5}" in found.reason


def test_region_sums_hold_in_every_solution() -> None:
    for puzzle in classic(12, 12, seed=3, count=2) + classic(15, 15, seed=5, count=1, grade="gac+shaving"):
        solution = puzzle.meta["solution"]
        values = [solution[r][c] for r, c in puzzle.cells]
        sums = region_sums(puzzle)
        assert sums
        for found in sums:
            assert sum(values[c] for c in found.cells) == found.total, found


LONE_CELLS = """
#      4\\     11\\    #      16\\    4\\
\\4     _      _      \\4     _      _
\\16    _      _      _      _      _
#      4\\     _      #      _      #
\\4     _      _      \\4     _      _
#      _      \\4     _      _      #
"""
"""Six cells in one run only: the blocks holding them have no sums."""

Found = tuple[tuple[int, ...], int, str, tuple[int, ...], str, int, int]


def region_sums_by_definition(puzzle: Puzzle) -> set[Found]:
    """(cells, total, kind, block, lines, first, last) of the outies and innies of every connected
    group of cells of every band of consecutive rows (columns), straight from the definition."""
    found: set[Found] = set()
    for axis, lines, along in ((0, "rows", "across"), (1, "columns", "down")):
        numbers = {position[axis] for position in puzzle.cells}
        for first in numbers:
            last = first
            while last in numbers:
                band = {c for c, position in enumerate(puzzle.cells) if first <= position[axis] <= last}
                while band:
                    block, todo = set(), [band.pop()]
                    while todo:
                        c = todo.pop()
                        block.add(c)
                        row, col = puzzle.cells[c]
                        for near in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                            if puzzle.index.get(near) in band:
                                band.remove(puzzle.index[near])
                                todo.append(puzzle.index[near])
                    if any(len(puzzle.cell_groups[c]) != 2 for c in block):
                        continue
                    runs = {r for c in block for r in puzzle.cell_groups[c]}
                    clues = sum(puzzle.groups[r].total for r in runs if puzzle.groups[r].direction == along)
                    crossing = [r for r in runs if puzzle.groups[r].direction != along]
                    inside = [r for r in crossing if set(puzzle.groups[r].cells) <= block]
                    outies = {c for r in crossing for c in puzzle.groups[r].cells} - block
                    innies = block - {c for r in inside for c in puzzle.groups[r].cells}
                    where = (tuple(sorted(block)), lines, first, last)
                    if 0 < len(outies) <= MAX_SUM_CELLS:
                        total = sum(puzzle.groups[r].total for r in crossing) - clues
                        found.add((tuple(sorted(outies)), total, "outies", *where))
                    if 0 < len(innies) <= MAX_SUM_CELLS and inside:
                        total = clues - sum(puzzle.groups[r].total for r in inside)
                        found.add((tuple(sorted(innies)), total, "innies", *where))
                last += 1
    return found


def test_region_sums_match_the_definition() -> None:
    puzzles = [kakuro.read(LONE_CELLS)[0]]
    for density in (0.2, 0.3, 0.45):
        puzzles += classic(9, 11, density=density, seed=11, count=2, unique=False)
    for puzzle in puzzles:
        expected = region_sums_by_definition(puzzle)
        sums = region_sums(puzzle)
        keys = [(found.cells, found.total) for found in sums]
        assert len(set(keys)) == len(keys)  # one of each (cells, total) is kept
        assert set(keys) == {(cells, total) for cells, total, *_ in expected}
        assert {(f.cells, f.total, f.kind, f.block, f.lines, f.first, f.last) for f in sums} <= expected


def test_region_sums_stop_at_the_time_limit_with_what_they_found() -> None:
    puzzle = classic(20, 20, density=0.25, seed=3, unique=False)[0]
    every = region_sums(puzzle)
    asked = 0

    def expired() -> bool:
        nonlocal asked
        asked += 1
        return asked > 40

    assert region_sums(puzzle, lambda: True) == []
    partial = region_sums(puzzle, expired)
    assert 0 < len(partial) < len(every) and partial == every[: len(partial)]  # a sound beginning


def test_region_arithmetic_restricts_the_cells_to_their_sum() -> None:
    b, p = board(four_cell_puzzle())
    a, z = at(p, "r1c1"), at(p, "r2c4")  # no run in common: equal values allowed
    found = region_arithmetic(b, RegionSum((a, z), 3, (a, z), "rows", 1, 2, "outies", (), ()))
    assert found is not None and found.removals == {a: range_mask((1, 9)) & ~mask_of([1, 2]),
                                                   z: range_mask((1, 9)) & ~mask_of([1, 2])}


# --------------------------------------------------------------------- whole deductions
def test_a_puzzle_with_two_solutions_needs_a_choice(two_solutions: Puzzle) -> None:
    e = explain(two_solutions)
    assert e.status == SEVERAL and e.rating.level == 7
    choice = next(s for s in e.steps if s.technique == "search")
    assert choice.assumption is not None and "more than one solution" in choice.sentence
    assert e.solution is not None and two_solutions.check(e.solution) == []


def test_an_unsatisfiable_puzzle_ends_in_a_wipe_out(unsatisfiable: Puzzle, hard: Puzzle) -> None:
    for puzzle in (unsatisfiable, hard):
        e = explain(puzzle)
        assert e.status == UNSATISFIABLE and e.solution is None
        assert 0 in replay(puzzle, e.steps)
        assert "no candidate" in e.steps[-1].sentence or "no combination" in e.steps[-1].sentence


def test_a_puzzle_that_needs_a_contradiction(tmp_path: Path) -> None:
    puzzle = classic(10, 10, seed=0, count=1, rating=6)[0]
    solution = puzzle.meta["solution"]
    e = explain(puzzle)
    assert e.status == SOLVED and e.rating.level == 6 and puzzle.meta["rating"] == e.rating.score
    contradictions = [s for s in e.steps if s.technique == "contradiction"]
    assert len(contradictions) == e.rating.count
    for step in contradictions:
        tried = step.assumption
        assert tried is not None and step.removed == (Removal(tried.cell, (tried.value,)),)
        assert solution[puzzle.cells[tried.cell][0]][puzzle.cells[tried.cell][1]] != tried.value
        assert "no way to reach its sum" in step.sentence


def test_the_shared_puzzles_are_explained_soundly_and_replay() -> None:
    """On every SWEEP_EVERY-th shared puzzle (every one with KAKURO_SWEEP_ALL=1): every removal
    keeps the recorded solution's value (before a `search` choice), replaying the steps from the
    puzzle reaches the recorded solution (a valid one after a choice), deduction alone solves
    every puzzle with one solution, and the rating agrees with `grade`."""
    data = shared_data_or_skip()
    computed = {r["id"]: r["solution"] for r in map(json.loads, (data / "computed_solutions.jsonl").read_text().splitlines())}
    count = total = 0
    for name in SETS:
        records = [json.loads(line) for line in (data / f"{name}.jsonl").read_text().splitlines()]
        total += len(records)
        for puzzle, record in list(zip(shared_set(name), records))[::SWEEP_EVERY]:
            grid = record.get("solution") or computed[record["id"]]
            recorded = puzzle.solution([grid[r][c] for r, c in puzzle.cells])
            e = explain(puzzle)
            chosen = next((k for k, s in enumerate(e.steps) if s.technique == "search"), len(e.steps))
            assert unsound_removals(e.steps[:chosen], recorded) == [], puzzle.id
            final = [d.bit_length() - 1 for d in replay(puzzle, e.steps)]
            assert e.solution is not None and list(e.solution.values) == final, puzzle.id
            if e.status == SOLVED:
                assert final == list(recorded.values), puzzle.id
            else:
                assert e.status == SEVERAL and puzzle.check(e.solution) == [], puzzle.id
            low, high = LEVELS_OF_GRADE.get(grade(puzzle), (7, 7))  # "search": several solutions here
            assert low <= e.rating.level <= high, (puzzle.id, grade(puzzle), e.rating)
            count += 1
    assert total == 1398 and count == sum(len(range(0, n, SWEEP_EVERY)) for n in (999, 172, 200, 10, 17))


def test_levels_one_to_four_reach_exactly_arc_consistency() -> None:
    """The fixpoint of the techniques up to combination placement is the engine's root GAC,
    so a puzzle `grade` calls rdv or gac never needs level 5, and one that needs shaving does."""
    puzzles = [p for name in SETS for p in shared_set(name)]
    sample = puzzles[::25] + [p for p in puzzles if p.id in ("janko-169", "janko-257")]
    for puzzle in sample:
        b = Board(puzzle)
        list(Deduction(b, up_to=4).steps())
        assert b.cands == root_domains(puzzle, "gac"), puzzle.id
        level = explain(puzzle).rating.level
        assert (level >= 5) == (grade(puzzle) in ("gac+shaving", "search")), puzzle.id


def test_the_rating_scale() -> None:
    def steps(*techniques: str) -> list[Step]:
        return [Step(t, "", (), (), ()) for t in techniques]

    assert rate([]).score == 0.0
    one = rate(steps("naked-single", "contradiction", "naked-single"))
    assert (one.level, one.technique, one.count, one.score) == (6, "contradiction", 1, 6.1)
    assert rate(steps("combination-digits", "intersection", "required-digit")).technique == "required-digit"
    assert [rate(steps(*["naked-subset"] * n)).score for n in (1, 2, 3, 4, 7, 8, 255, 256, 1000)] == \
        [3.1, 3.2, 3.2, 3.3, 3.3, 3.4, 3.8, 3.9, 3.9]


def test_json_round_trip_and_a_tampered_trace(cazenave: Puzzle) -> None:
    e = explain(cazenave)
    data = json.loads(json.dumps(e.to_dict()))
    assert data["rating"]["score"] == e.rating.score and len(data["steps"]) == len(e.steps)
    assert data["steps"][0]["cells"][0] == list(cazenave.cells[e.steps[0].cells[0]])
    again = explanation_from_dict(cazenave, data)
    assert again == e and isinstance(again, Explanation)
    twice = (e.steps[0], e.steps[0])
    with pytest.raises(KakuroError, match="step 2"):
        replay(cazenave, twice)
    data["steps"][0]["cells"] = [[0, 0]]
    with pytest.raises(KakuroError, match="not a white cell"):
        explanation_from_dict(cazenave, data)


def test_wide_value_ranges_are_refused_with_a_reason() -> None:
    wide = Puzzle.all_white([200] * 6, [200] * 6, values=(1, 62))
    with pytest.raises(KakuroError, match="human-sized"):
        explain(wide)


# --------------------------------------------------------------------- hints
@pytest.fixture(scope="module")
def generated() -> Puzzle:
    return classic(10, 10, seed=2, count=1)[0]


def progress_of(puzzle: Puzzle, cells: int, change: dict[int, int] | None = None) -> list[list]:
    """The puzzle's solution with only its first `cells` white cells filled (then `change`)."""
    solution = puzzle.meta["solution"]
    grid: list[list] = [[None if isinstance(v, int) else v for v in row] for row in solution]
    for k, (r, c) in enumerate(puzzle.cells):
        if k < cells:
            grid[r][c] = solution[r][c]
    for k, value in (change or {}).items():
        r, c = puzzle.cells[k]
        grid[r][c] = value
    return grid


def test_hint_gives_the_next_placement_with_its_reasons(generated: Puzzle) -> None:
    solution = generated.meta["solution"]
    for filled in (0, generated.size // 2):
        found = hint(generated, progress_of(generated, filled))
        assert found.kind == STEP and found.step is not None and found.cell is not None and found.cell >= 0
        r, c = generated.cells[found.cell]
        assert found.message == f"r{r}c{c} is {solution[r][c]}"
        assert any(p.cell == found.cell for p in found.step.placed)
        assert all(step.removed for step in found.reasons)
    assert hint(generated, progress_of(generated, generated.size)).kind == HINT_SOLVED


def test_hint_finds_the_first_mistake(generated: Puzzle) -> None:
    solution = generated.meta["solution"]
    # the first cell that starts both its runs, given a digit some combination of each run holds
    k = next(k for k in range(generated.size)
             if all(generated.groups[r].cells[0] == k for r in generated.cell_groups[k]) and len(generated.cell_groups[k]) == 2)
    r, c = generated.cells[k]
    runs = [generated.groups[x] for x in generated.cell_groups[k]]
    wrong = next(v for v in range(1, 10) if v != solution[r][c]
                 and all(any(m >> v & 1 for m in combinations(len(run), run.total)) for run in runs))
    found = hint(generated, progress_of(generated, k, {k: wrong}))
    assert found.kind == MISTAKE and found.cell == k and "no solution has it" in found.message
    repeat = hint(generated, progress_of(generated, 0, {0: 5, generated.groups[generated.cell_groups[0][0]].cells[1]: 5}))
    assert repeat.kind == MISTAKE and "repeats the 5" in repeat.message
    assert hint(generated, progress_of(generated, 0, {3: 12})).message.endswith("outside 1..9")
    with pytest.raises(KakuroError, match="grid is 2 x 2, the puzzle 10 x 10"):
        hint(generated, [[None, None], [None, None]])


def test_hint_on_a_puzzle_without_solution(unsatisfiable: Puzzle) -> None:
    assert hint(unsatisfiable).kind == UNSOLVABLE


# --------------------------------------------------------------------- pictures
def test_a_step_picture_strikes_what_the_step_removes(generated: Puzzle) -> None:
    e = explain(generated)
    index = hardest_step(e)
    step = e.steps[index]
    assert step.level == e.rating.level
    marks = step_marks(e, index)
    assert {r.cell: sum(1 << v for v in r.values) for r in step.removed} == dict(marks.struck)
    svg = to_svg(generated, marks=marks)
    struck = sum(len(r.values) for r in step.removed)
    assert svg.count(f'stroke="{STRUCK}"') == struck
    assert svg.count('fill="#fff1b8"') == len(set(step.cells))
    with pytest.raises(KakuroError, match="no step"):
        step_marks(e, len(e.steps))
