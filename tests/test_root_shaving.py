"""`bounded` shaving (the default of `gac` and `auto`): it stops where it is seen to remove
nothing, and removes what `fixpoint` removes where shaving pays."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import Status
from kakuro.generate import cazenave
from kakuro.generate.sudoku_grids import sudoku
from kakuro.reasoning import root
from kakuro.reasoning.root import reduce
from tests.random_puzzles import random_puzzles


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    kakuro.get_solver("gac").ensure_warm()


def test_shaving_that_removes_nothing_stops_early() -> None:
    """On an empty Cazenave grid no value can be shaved: a full pass probes every value of
    every cell, the bounded one stops after a budget's worth of run revisions."""
    empty = cazenave(10, 11, 100, count=1, seed=4)[0]
    full = reduce(empty, "fixpoint")
    bounded = reduce(empty, "bounded")
    assert full.removed_shaving == bounded.removed_shaving == 0 and not full.cut
    assert bounded.cut and bounded.domains == full.domains
    assert bounded.probes * 5 < full.probes


def test_a_sudoku_is_bounded_by_the_same_rule() -> None:
    """One budget for every puzzle (`shaving_budget`), the Sudoku family included: on an empty
    Sudoku no value can be shaved, and the bounded pass stops early there too (the Killer that
    needs a larger budget than a Kakuro's: tests/test_sudoku_generate.py)."""
    empty = sudoku(9, 1.0, seed=1)
    full = reduce(empty, "fixpoint")
    bounded = reduce(empty, "bounded")
    assert full.removed_shaving == bounded.removed_shaving == 0 and not full.cut
    assert bounded.cut and bounded.domains == full.domains and bounded.probes < full.probes


def test_a_budget_of_nothing_means_no_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    empty = cazenave(8, 9, 100, count=1, seed=4)[0]
    monkeypatch.setattr(root, "DRY_REVISIONS_PER_RUN", 0)
    assert reduce(empty, "bounded").probes == reduce(empty, "fixpoint").probes


def test_bounded_shaving_removes_what_the_full_pass_removes() -> None:
    """Where shaving removes values (the removals come within the budget), bounded and
    fixpoint leave the same domains."""
    shaved = 0
    for puzzle in random_puzzles(seed=5, count=40):
        full, bounded = reduce(puzzle, "fixpoint"), reduce(puzzle, "bounded")
        assert (bounded.wiped_out, bounded.solved) == (full.wiped_out, full.solved), puzzle
        if not full.wiped_out:
            assert bounded.domains == full.domains, puzzle
        shaved += full.removed_shaving > 0
    assert shaved >= 3


def test_a_cut_root_still_gives_checked_answers() -> None:
    """The search starts from the domains a cut shaving left: its answers agree with CP-SAT's."""
    for puzzle in cazenave(7, 8, 100, count=2, seed=11) + cazenave(7, 9, 90, count=2, seed=11):
        got = kakuro.count_solutions(puzzle, "gac", limit=2, time_limit=30)
        expected = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        assert (got.count, got.exhausted) == (expected.count, expected.exhausted), puzzle.id
        assert got.status is Status.SOLVED
    assert kakuro.solve(puzzle, "gac", time_limit=30).stats["shaving_cut"] is True


def test_the_count_of_values_refutes_only_what_has_no_solution() -> None:
    """Whatever `values_refutation` refutes, CP-SAT finds no solution for; it refutes every
    unsatisfiable Cazenave grid whose sums add up, and leaves every random puzzle with a
    solution alone."""
    counted = 0
    unsat = cazenave(5, 6, 100, count=4, seed=2, unsatisfiable=True)
    puzzles = random_puzzles(seed=23, count=40) + unsat + cazenave(5, 6, 100, count=4, seed=2) + \
        cazenave(4, 6, 100, count=4, seed=2)
    for puzzle in puzzles:
        got = reduce(puzzle, "none", counting=True)
        if "across runs but in" in got.refutation:
            counted += 1
            assert kakuro.count_solutions(puzzle, "cpsat", limit=1, time_limit=30).count == 0, puzzle.id
        if puzzle.meta.get("unsatisfiable"):
            assert got.wiped_out, puzzle.id
    assert counted >= 4
    assert not any(reduce(puzzle, "none").wiped_out for puzzle in unsat)  # the count is asked for: off by default
