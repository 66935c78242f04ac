"""Combination tables that know the givens (issue #27, item 13).

A run's table holds only the combinations containing every given digit of the run, enumerated
over the values the givens leave; a run without givens keeps its (length, total) table. So a
wide Cazenave grid with few holes (45x45 over 1..62, 10 % empty: trillions of combinations per
(length, total), a handful per run once the givens are in) can be tabulated and solved.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuro import get_solver, read
from kakuro.combos import (
    combinations,
    combinations_within,
    count_combinations_within,
    count_run_combinations,
    mask_of,
    run_combinations,
    run_table_sizes,
    run_tables,
)
from kakuro.engine.build import range_refusal, tables_fit, tables_refusal
from kakuro.generate import cazenave
from kakuro.outcome import Status
from kakuro.puzzle import Puzzle

INSTANCES = Path(__file__).resolve().parent.parent / "instances"


def brute_force(length: int, total: int, values: tuple[int, int], given: set[int]) -> tuple[int, ...]:
    """The definition: every `length`-set of values summing to `total` that holds the givens."""
    lo, hi = values
    return tuple(sorted(mask_of(s) for s in itertools.combinations(range(lo, hi + 1), length)
                        if sum(s) == total and given <= set(s)))


@st.composite
def one_row(draw: st.DrawFn) -> tuple[Puzzle, set[int]]:
    """A 1 x n all-white puzzle over lo..hi with some distinct givens; its row is run 0."""
    lo = draw(st.integers(0, 3))
    hi = draw(st.integers(lo + 1, lo + 11))
    n = draw(st.integers(1, min(7, hi - lo + 1)))
    digits = draw(st.permutations(range(max(lo, 1), hi + 1)))
    placed = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    givens = {(0, j): digits[j] for j in range(min(n, len(digits))) if placed[j]}
    low = sum(range(lo, lo + n))
    high = sum(range(hi - n + 1, hi + 1))
    total = draw(st.integers(low, high))
    columns = [givens.get((0, j), hi) for j in range(n)]  # one-cell column runs: any value of the range
    return Puzzle.all_white([total], columns, values=(lo, hi), givens=givens), set(givens.values())


@settings(max_examples=300, deadline=None)
@given(one_row())
def test_run_table_is_the_definition(case: tuple[Puzzle, set[int]]) -> None:
    puzzle, digits = case
    row = next(r for r in puzzle.groups if r.direction == "across")
    expected = brute_force(len(row), row.total, puzzle.values, digits)
    assert run_combinations(puzzle, row) == expected
    assert count_run_combinations(puzzle, row) == len(expected)
    offsets, masks = run_tables(puzzle)
    r = puzzle.groups.index(row)
    assert tuple(int(m) for m in masks[offsets[r]:offsets[r + 1]]) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 16) - 1), st.integers(0, 6), st.integers(0, 90))
def test_combinations_within_a_mask_is_the_definition(allowed: int, length: int, total: int) -> None:
    values = [v for v in range(16) if allowed >> v & 1]
    expected = tuple(sorted(mask_of(s) for s in itertools.combinations(values, length) if sum(s) == total))
    assert combinations_within(length, total, allowed) == expected
    assert count_combinations_within(length, total, allowed) == len(expected)


def test_givens_leave_few_combinations() -> None:
    # a row of 5 over 1..9 summing to 25 with 9 and 8 given: the rest is 3 of 1..7 summing to 8
    puzzle = Puzzle.all_white([25], [9, 8, 1, 2, 3], values=(1, 9), givens={(0, 0): 9, (0, 1): 8})
    row = next(r for r in puzzle.groups if r.direction == "across")
    given = mask_of([8, 9])
    assert run_combinations(puzzle, row) == tuple(sorted(given | mask_of(s) for s in [(1, 2, 5), (1, 3, 4)]))
    assert len(combinations(5, 25, (1, 9))) > 2


@pytest.mark.parametrize("name", ["classic/unique-10x10.jsonl", "hard/loose-30x30.jsonl", "hard/empty-12x12-v13.jsonl"])
def test_a_puzzle_without_givens_keeps_its_tables(name: str) -> None:
    for puzzle in read(INSTANCES / name):
        assert not puzzle.givens
        offsets, masks = run_tables(puzzle)
        for r, run in enumerate(puzzle.groups):
            old = combinations(len(run), run.total, puzzle.values)
            assert run_combinations(puzzle, run) is old
            assert tuple(int(m) for m in masks[offsets[r]:offsets[r + 1]]) == old


@pytest.mark.parametrize("backend", ["gac", "sat", "nmcs"])
def test_a_wide_grid_with_few_holes_is_solved_through_its_tables(backend: str) -> None:
    # 14x14 over 1..62 with 10 % holes: a (length, total) table of a row has trillions of
    # combinations, so gac, nmcs and sat's combination encoding refused the grid; with the
    # givens in, a run has at most a few thousand. (The 45x45 grid of the issue builds its
    # tables too, 380,000 combinations, but no backend measured solves it within two minutes;
    # the 16x16 and 20x20 were solved as well, at 3 and 4 times sat's CPU for the 14x14.)
    puzzle = cazenave(14, 62, 10, seed=1)[0]
    assert range_refusal(puzzle) is not None  # without the givens, the tables would be refused
    assert max(count_run_combinations(puzzle, run) for run in puzzle.groups) < 20_000
    result = get_solver(backend).solve(puzzle, time_limit=120, seed=1)
    assert result.status is Status.SOLVED
    assert result.solution is not None and puzzle.check(result.solution) == []


def test_auto_still_hands_a_wide_range_to_cpsat_when_only_the_givens_tables_fit() -> None:
    # measured: cpsat is the faster on most such grids (kakuro.solvers.auto.WIDE_RANGE_BACKEND)
    puzzle = cazenave(14, 62, 10, seed=1)[0]
    assert range_refusal(puzzle) is not None
    result = get_solver("auto").solve(puzzle, time_limit=120, seed=1)
    assert result.status is Status.SOLVED and result.stats["path"] == "cpsat"


def test_tables_fit_only_where_no_count_could_refuse() -> None:
    """`tables_fit` spares a solve counting its tables; it must never say so where the count
    would refuse, and it must say so on the range of published puzzles (1..9)."""
    fits, refused = [], []
    for width in range(4, 41):
        k = width // 2  # runs of half the range with the middle total: the largest tables
        middle = k * (width + 1) // 2
        puzzle = Puzzle.all_white([middle] * k, [middle] * k, values=(1, width))
        counted = tables_refusal(run_table_sizes(puzzle, givens=False))
        assert (range_refusal(puzzle) is None) == (counted is None), width
        if tables_fit(puzzle):
            assert counted is None, width
            fits.append(width)
        refused += [width] if counted is not None else []
    assert 9 in fits and refused and max(fits) < min(refused)
