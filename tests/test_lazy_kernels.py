"""A first solve compiles only what the puzzle needs: shaving's kernel (gac, auto) and a
Monte-Carlo game's (nmcs) wait until root propagation leaves the puzzle open, so a cold
`kakuro solve` of a puzzle root GAC decides does not pay their compilation; a stream of puzzles
(`solve_many`, what `kakuro solve` runs) loads the Sudoku family's kernels only for a batch of
Sudoku."""

from __future__ import annotations

from typing import Any

import pytest

import kakuro
from kakuro import Puzzle, Status, family_search
from kakuro.generate import classic
from kakuro.native import searches
from kakuro.native.settings import FAMILY_KERNELS, FAMILY_SEARCH_KERNEL, SHAVE_KERNEL
from kakuro.solvers import montecarlo

DECIDED_BY_GAC = "instances/examples/puzzlink-6x5.txt"


def recording(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[str, ...]]:
    """The kernels `module` compiles mid-solve from now on (`compile_off_clock`, which still runs)."""
    asked: list[tuple[str, ...]] = []
    real = module.compile_off_clock

    def compile_off_clock(kernels: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(tuple(kernels))
        return real(kernels, *args, **kwargs)

    monkeypatch.setattr(module, "compile_off_clock", compile_off_clock)
    return asked


@pytest.mark.parametrize("backend", ["gac", "auto"])
def test_shaving_is_compiled_only_for_a_puzzle_gac_leaves_open(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    solver = kakuro.get_solver(backend)
    assert SHAVE_KERNEL in solver.lazy_kernels(solver.settings)
    asked = recording(monkeypatch, searches)
    decided = kakuro.read(DECIDED_BY_GAC)[0]
    assert solver.solve(decided, time_limit=10).status is Status.SOLVED
    assert asked == []
    loose = classic(9, 9, density=0.25, count=1, seed=5, unique=False)[0]
    assert solver.solve(loose, time_limit=30).status is Status.SOLVED
    assert asked[:1] == [(SHAVE_KERNEL,)]  # then the search's own, met after shaving


def test_nmcs_compiles_its_game_only_for_an_open_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    solver = kakuro.get_solver("nmcs")
    asked = recording(monkeypatch, montecarlo)
    assert solver.solve(kakuro.read(DECIDED_BY_GAC)[0], time_limit=10).status is Status.SOLVED
    assert asked == []
    loose = classic(9, 9, density=0.25, count=1, seed=5, unique=False)[0]
    assert solver.solve(loose, time_limit=30).status is Status.SOLVED
    assert asked == [("nested:gac",)]


def test_a_stream_loads_the_family_kernels_only_for_a_batch_of_sudoku(monkeypatch: pytest.MonkeyPatch) -> None:
    """`kakuro solve` of one Kakuro loaded the family's search and check after its answer, and
    of one Sudoku the check its single search does not run (the template checks the answer)."""
    warmed: list[tuple[str, ...]] = []
    monkeypatch.setattr(family_search, "warm", lambda *kernels: warmed.append(kernels))
    asked = recording(monkeypatch, family_search)
    kakuro_puzzle = kakuro.read(DECIDED_BY_GAC)[0]
    assert [r.status for r in kakuro.solve_many([kakuro_puzzle, kakuro_puzzle], "auto")] == [Status.SOLVED] * 2
    assert warmed == asked == []
    empty = Puzzle.sudoku([[0] * 4 for _ in range(4)], (2, 2))
    assert [r.status for r in kakuro.solve_many([empty] * 3, "auto", time_limit=10)] == [Status.SOLVED] * 3
    assert asked == [(FAMILY_SEARCH_KERNEL,)]  # the first puzzle's search, by `Solver.solve`
    assert warmed and set(warmed) == {FAMILY_KERNELS}  # before each batch's clock (loaded once: `ensure`)
