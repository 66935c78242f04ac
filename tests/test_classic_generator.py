"""The classic generator: layouts as specified, consistent clues, determinism, and unique puzzles
certified by two complete backends; the difficulty grade."""

from __future__ import annotations

import random

import pytest

import kakuro
from kakuro import KakuroError
from kakuro.generate import GRADES, classic, grade
from kakuro.generate.classic_grids import layout, runs_of, white_cells
from kakuro.reasoning import rdv, root


def hidden(puzzle: kakuro.Puzzle) -> list[list[object]]:
    return [list(row) for row in puzzle.meta["solution"]]


@pytest.mark.parametrize("size, density, longest", [(8, 0.3, 5), (12, 0.2, 9), (15, 0.4, 4), (30, 0.3, 5)])
def test_layouts_are_symmetric_connected_and_runs_have_two_to_longest_cells(size: int, density: float, longest: int) -> None:
    rng = random.Random(size)
    for _ in range(5):
        black = layout(size, size, density, longest, rng)
        height, width = len(black), len(black[0])
        assert all(black[r][c] == black[height - 1 - r][width - 1 - c] for r in range(height) for c in range(width))
        runs = runs_of(black)
        assert all(2 <= len(run) <= longest for run in runs)
        covered = [c for run in runs for c in run]
        whites = white_cells(black)
        assert sorted(covered) == sorted(whites * 2)  # every white cell in exactly one across and one down run
        assert all(not all(row) for row in black) and all(not all(col) for col in zip(*black))
        seen, stack = {whites[0]}, [whites[0]]
        while stack:
            r, c = stack.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in set(whites) and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        assert len(seen) == len(whites)


def test_non_unique_puzzles_are_consistent_and_deterministic() -> None:
    puzzles = classic(12, 14, density=0.3, count=3, seed=5, unique=False)
    assert puzzles == classic(12, 14, density=0.3, count=3, seed=5, unique=False)
    assert classic(12, 14, density=0.3, count=1, seed=5, unique=False) == puzzles[:1]
    assert len({p.digest() for p in puzzles}) == 3
    for p in puzzles:
        assert (p.rows, p.cols) == (12, 14) and not p.givens and not p.is_all_white
        assert p.check(hidden(p)) == []
        assert p.meta["generator"] == "classic" and "grade" not in p.meta


@pytest.mark.parametrize("size, seed", [(6, 0), (8, 1), (10, 2), (12, 3)])
def test_unique_puzzles_are_certified_by_two_complete_backends(size: int, seed: int) -> None:
    puzzle = classic(size, size, seed=seed)[0]
    assert puzzle.check(hidden(puzzle)) == []
    for backend in ("cpsat", "gac"):
        count = kakuro.count_solutions(puzzle, backend, limit=2)
        assert count.unique, backend
        assert count.solutions[0].to_grid() == hidden(puzzle)
    assert puzzle.meta["grade"] == grade(puzzle) and puzzle.meta["grade"] in GRADES


def test_grades_follow_the_reasoning_that_solves() -> None:
    for puzzle in classic(9, 9, count=3, seed=11):
        g = grade(puzzle)
        assert (g == "rdv") == rdv.reduce_domains(puzzle).solved
        if g == "gac":
            assert root.reduce(puzzle, "none").solved
        if g in ("gac+shaving", "search"):
            assert not root.reduce(puzzle, "none").solved
    multi = kakuro.Puzzle.all_white([3, 3], [3, 3], values=(1, 2))  # two solutions: no reasoning fixes a cell
    assert grade(multi) == "search"


@pytest.mark.parametrize("size, wanted", [(8, "rdv"), (10, "gac"), (12, "gac+shaving"), (20, "gac+shaving")])
def test_a_grade_can_be_asked_for(size: int, wanted: str) -> None:
    puzzles = classic(size, size, seed=4, count=2, grade=wanted)
    for puzzle in puzzles:
        assert grade(puzzle) == puzzle.meta["grade"] == puzzle.meta["target_grade"] == wanted
        assert puzzle.id.endswith(wanted)
        assert kakuro.count_solutions(puzzle, "cpsat", limit=2).unique
    if wanted == "gac+shaving":  # found by the search itself, not by drawing until one turns up
        assert all(p.meta["attempts"] <= 2 for p in puzzles)
        assert not any(root.reduce(p, "none").solved for p in puzzles)


@pytest.mark.parametrize("kwargs", [dict(rows=2, cols=8), dict(rows=8, cols=121), dict(rows=8, cols=8, density=0.9),
                                    dict(rows=8, cols=8, longest=10), dict(rows=8, cols=8, longest=3),
                                    dict(rows=8, cols=8, count=0),
                                    dict(rows=8, cols=8, seed=-1), dict(rows=8, cols=8, time_limit=0),
                                    dict(rows=8, cols=8, grade="search"), dict(rows=8, cols=8, grade="gac", unique=False)])
def test_bad_parameters_are_refused(kwargs: dict) -> None:
    with pytest.raises(KakuroError):
        classic(**kwargs)


def test_a_time_limit_that_is_too_short_raises() -> None:
    with pytest.raises(KakuroError, match="time limit"):
        classic(30, 30, seed=1, time_limit=0.01)


def test_metadata_survives_a_json_lines_round_trip(tmp_path) -> None:
    puzzle = classic(7, 7, seed=2)[0]
    path = kakuro.write([puzzle], tmp_path / "one.jsonl")
    (back,) = kakuro.read(path)
    assert back == puzzle
    for key in ("grade", "generator", "moves", "black_share", "seed"):
        assert back.meta[key] == puzzle.meta[key]


def test_unique_puzzles_repeat_for_a_seed() -> None:
    """The search draws from seeded generators and ends after a number of moves, so the same
    seed makes the same puzzle on any machine."""
    first = classic(10, 10, seed=7, count=2)
    again = classic(10, 10, seed=7, count=2)
    assert first == again
    assert [p.meta["moves"] for p in first] == [p.meta["moves"] for p in again]
    assert first[0] != first[1]


@pytest.mark.parametrize("size, density, longest, seed", [(14, 0.2, 9, 2), (16, 0.4, 4, 1), (25, 0.3, 5, 1)])
def test_unique_puzzles_across_densities_and_run_lengths(size: int, density: float, longest: int, seed: int) -> None:
    """Seed 2 for the 14x14 grid: its puzzle has a run of the longest 9 cells and is found at the
    first attempt (0.1 s of CPU; seed 1's, three attempts, took 2.3 s and its longest run was 8)."""
    puzzle = classic(size, size, density=density, longest=longest, seed=seed)[0]
    assert puzzle.check(hidden(puzzle)) == []
    assert max(len(run.cells) for run in puzzle.groups) <= longest
    assert root.reduce(puzzle, "fixpoint").solved  # the search's certificate, recomputed
    assert kakuro.count_solutions(puzzle, "cpsat", limit=2).unique
