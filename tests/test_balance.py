"""The balance check (`kakuro.engine.balance`): an open region whose across runs' residuals and
down runs' residuals add up differently is a wipe-out, explained by the fixed cells of its runs."""

from __future__ import annotations

import numpy as np
import pytest

import kakuro
from kakuro.engine import balance
from kakuro.engine.build import build_state, load_domains
from kakuro.engine.compile import callable_from_python
from kakuro.engine.layout import FAILED, UNBALANCED
from kakuro.generate import cazenave, classic

# a 3x3 block, every clue 15 (the magic square 2 7 6 / 9 5 1 / 4 3 8 fills it)
BLOCK = kakuro.Puzzle.from_grid([
    ["#", [15, None], [15, None], [15, None]],
    [[None, 15], 0, 0, 0],
    [[None, 15], 0, 0, 0],
    [[None, 15], 0, 0, 0],
])


def check(puzzle: kakuro.Puzzle, fixed: dict[tuple[int, int], int]) -> tuple[bool, balance.Balance, np.ndarray]:
    """`balanced` over every component of `puzzle` with the cells of `fixed` given their value
    and every other cell open (1..9): (its answer, the buffers, the state's info)."""
    st = build_state(puzzle, "gac")
    full = sum(1 << v for v in range(1, 10))
    load_domains(st, [1 << fixed[p] if p in fixed else full for p in puzzle.cells])
    b = balance.balance_buffers(st, True)
    callable_from_python(balance.colour_runs)(st, b)
    return bool(callable_from_python(balance.balanced)(st, b, 0, True)), b, st.info


def border(x13: int) -> dict[tuple[int, int], int]:
    """The block's last row and column fixed as in the magic square, but (1, 3) = `x13`."""
    return {(1, 3): x13, (2, 3): 1, (3, 1): 4, (3, 2): 3, (3, 3): 8}


def test_an_open_block_whose_runs_disagree_is_unbalanced_and_explained_by_its_border() -> None:
    # open 2x2 block: its across runs want 15-7 + 15-1 = 22, its down runs 15-4 + 15-3 = 23
    ok, b, info = check(BLOCK, border(7))
    assert not ok and info[FAILED] == UNBALANCED
    cause = {BLOCK.cells[c] for c in b.cause[:b.counters[balance.CAUSES]]}
    assert cause == {(1, 3), (2, 3), (3, 1), (3, 2)}  # (3, 3) lies in no run of the block
    runs = {BLOCK.groups[r].clue for r in b.part_runs[:b.counters[balance.PARTS]]}
    assert runs == {(1, 0), (2, 0), (0, 1), (0, 2)}


def test_a_block_whose_runs_agree_is_balanced() -> None:
    assert check(BLOCK, border(6))[0]  # 9 + 14 = 11 + 12


def test_the_check_is_off_where_a_cell_lies_in_one_run() -> None:
    lone = kakuro.Puzzle.from_grid([["#", "#", "#"], [[None, 3], 0, 0]])  # two cells, no down run
    ok, b, _ = check(lone, {})
    assert ok and b.counters[balance.ON] == 0
    sudoku = kakuro.Puzzle.sudoku([[0] * 4 for _ in range(4)])
    assert balance.balance_buffers(build_state(sudoku, "gac"), True).counters[balance.ON] == 0


@pytest.fixture(scope="module")
def loose() -> list[kakuro.Puzzle]:
    """Loose 30x30 classic grids, where the check cuts (drawn when a test needs them, not when
    every test worker collects this file)."""
    return classic(30, 30, density=0.25, count=6, seed=3101, unique=False)


@pytest.fixture(scope="module")
def small() -> list[kakuro.Puzzle]:
    """Small Cazenave grids, satisfiable or not."""
    return cazenave(4, 5, 100, count=4, seed=3) + cazenave(5, 6, 100, count=3, seed=3, unsatisfiable=True)


@pytest.mark.parametrize("backend", ["gac", "gac:learning=false"])
def test_answers_are_the_same_with_and_without_the_check_and_it_cuts(backend: str, loose: list[kakuro.Puzzle],
                                                                     small: list[kakuro.Puzzle]) -> None:
    """Up to two solutions of loose 30x30 grids (where the check cuts), and the counts of small
    Cazenave grids (one region until whole rows are fixed), satisfiable or not. Without
    learning and without the check, one of the 30x30 grids takes longer than 10 s: there only
    the check's answer is compared with the learning search's."""
    found = 0
    for puzzle in loose + small:
        limit = 2 if puzzle in loose else 3000
        on = kakuro.count_solutions(puzzle, backend, limit=limit)
        reference = "gac:balance=false" if puzzle in loose else backend + ("," if ":" in backend else ":") + "balance=false"
        off = kakuro.count_solutions(puzzle, reference, limit=limit)
        assert (on.count, on.exhausted, on.status) == (off.count, off.exhausted, off.status), puzzle.id
        assert off.stats.get("unbalanced", 0) == 0
        found += int(on.stats.get("unbalanced", 0))
    assert found > 0  # the check cut: the answers above were reached by different searches


def test_a_loose_grid_the_search_found_hard_is_solved_with_the_check(loose: list[kakuro.Puzzle]) -> None:
    """The first loose 30x30 grid of seed 3101 without learning: undecided in 10 s without the
    check (1.4 M fails, measured), solved in about 1,400 fails with it."""
    result = kakuro.solve(loose[0], "gac:learning=false", time_limit=10)
    assert result.status is kakuro.Status.SOLVED and result.stats["unbalanced"] > 0
