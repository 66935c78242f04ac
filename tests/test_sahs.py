"""Reducing Domain Values pre-computation and Self-Adaptive Harmony Search."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.combos import mask_of, values_of
from kakuro.reasoning.rdv import reduce_domains
from tests.conftest import shared_set


def test_reduction_intersects_run_digit_sets() -> None:
    # The paper's Fig. 3 cell (1, 2): across 11 over 2 cells, down 8 over 3 cells. Its
    # neighbour (1, 3) is pinned to 9 by a one-cell run, so 11 forces 2; the rest of the
    # down run then sums to 6 without 2: {1, 5}.
    puzzle = Puzzle.from_grid([
        ["#", "#", [8, None], [9, None]],
        ["#", [None, 11], 0, 0],
        ["#", "#", 0, "#"],
        ["#", "#", 0, "#"],
    ])
    domains = reduce_domains(puzzle).domains
    assert domains[puzzle.index[(1, 2)]] == mask_of([2])
    assert domains[puzzle.index[(2, 2)]] == domains[puzzle.index[(3, 2)]] == mask_of([1, 5])


def test_unique_number_is_forced_only_when_required() -> None:
    # Row 12 over 2 cells: combinations {3,9} {4,8} {5,7}; nothing is required, so nothing is forced.
    open_row = Puzzle.all_white([12], [3, 9], values=(1, 9))
    reduction = reduce_domains(open_row)
    assert reduction.solved and [values_of(d)[0] for d in reduction.domains] == [3, 9]
    free = Puzzle.from_grid([["#", [12, None], [8, None]], [[None, 9], 0, 0], [[None, 11], 0, 0]])
    domains = reduce_domains(free).domains
    assert all(d & (d - 1) for d in domains)  # nothing fixed: no digit is required anywhere


def test_reduction_is_sound_on_janko(janko: list[Puzzle]) -> None:
    solved = 0
    for puzzle in janko:
        reduction = reduce_domains(puzzle)
        assert not reduction.wiped_out, puzzle.id
        solution = puzzle.meta["solution"]
        for cell, (r, c) in enumerate(puzzle.cells):
            assert reduction.domains[cell] >> solution[r][c] & 1, (puzzle.id, (r, c))
        solved += reduction.solved
    assert solved >= 700  # measured: 733 of 999 solved by the reduction alone


def test_wipe_out_is_a_proof_of_unsatisfiability(unsatisfiable: Puzzle) -> None:
    assert reduce_domains(unsatisfiable).wiped_out
    assert kakuro.solve(unsatisfiable, "sahs", time_limit=1).status is Status.UNSATISFIABLE


@pytest.mark.parametrize("bandwidth", ["increasing", "decreasing"])
def test_sahs_converges_where_the_reduction_stalls(bandwidth: str) -> None:
    krazydad = shared_set("krazydad")
    open_ones = [p for p in krazydad if p.rows == 7 and not reduce_domains(p).solved][:2]
    assert open_ones
    for puzzle in open_ones:
        result = kakuro.solve(puzzle, "sahs", time_limit=20, seed=3, bandwidth=bandwidth)
        assert result.status is Status.SOLVED, (puzzle.id, result.stats)
        assert puzzle.check(result.solution) == [] and result.stats["iterations"] > 0


def test_paper_fitness_can_call_an_invalid_grid_solved_and_the_checker_catches_it() -> None:
    # Rows and columns of 12 over 3 cells: all 4s has zero paper fitness but repeats digits.
    puzzle = Puzzle.all_white([12, 12, 12], [12, 12, 12], values=(1, 9))
    statuses = set()
    for seed in range(20):
        paper = kakuro.solve(puzzle, "sahs", time_limit=2, seed=seed, fitness="paper")
        statuses.add(paper.status)
        if paper.status is Status.WRONG:
            assert "checker rejected" in paper.message and paper.solution is None
        strict = kakuro.solve(puzzle, "sahs", time_limit=2, seed=seed)
        assert strict.status in (Status.SOLVED, Status.UNKNOWN)
        if strict.solved:
            assert puzzle.check(strict.solution) == []
    assert Status.WRONG in statuses


def test_root_solved_puzzles_need_no_iterations() -> None:
    puzzle = Puzzle.all_white([3], [1, 2], values=(1, 9))
    result = kakuro.solve(puzzle, "sahs", time_limit=10)
    assert result.solved and result.stats["root_solved"] and result.stats["iterations"] == 0
    assert mask_of(result.solution.values) == mask_of([1, 2])
