"""All 1,398 real published puzzles of ../shared/data: they load, the checker accepts the
stored solutions and rejects corrupted ones, and CP-SAT solves every SWEEP_EVERY-th one (every
one with KAKURO_SWEEP_ALL=1), each answer checked."""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

import kakuro
from kakuro import Status
from tests.conftest import SWEEP_EVERY, shared_data_or_skip

SETS = {"janko": 999, "simonis_easy": 172, "krazydad": 200, "gecode_nikoli": 10, "ifilot_cx16": 17}


@pytest.fixture(scope="module")
def shared() -> dict[str, list[kakuro.Puzzle]]:
    folder = shared_data_or_skip()
    return {name: kakuro.read(folder / f"{name}.jsonl") for name in SETS}


@pytest.fixture(scope="module")
def stored_solutions(shared) -> dict[str, list[list[object]]]:
    """Every known solution by puzzle id: from the sets themselves and computed_solutions.jsonl."""
    folder = shared_data_or_skip()
    known = {p.id: [list(r) for r in p.meta["solution"]] for ps in shared.values() for p in ps if "solution" in p.meta}
    for line in (folder / "computed_solutions.jsonl").read_text().splitlines():
        record = json.loads(line)
        known.setdefault(record["id"], record["solution"])
    return known


def test_every_set_loads_completely(shared) -> None:
    assert {name: len(ps) for name, ps in shared.items()} == SETS
    assert sum(len(ps) for ps in shared.values()) == 1398


def test_stored_solutions_pass_and_corruptions_fail(shared, stored_solutions) -> None:
    for puzzle in (p for ps in shared.values() for p in ps):
        grid = stored_solutions[puzzle.id]
        assert puzzle.check(grid) == [], puzzle.id
        r, c = puzzle.cells[len(puzzle.cells) // 2]
        corrupted = [list(row) for row in grid]
        lo, hi = puzzle.values
        corrupted[r][c] = lo if grid[r][c] != lo else lo + 1
        assert puzzle.check(corrupted) != [], puzzle.id


PARTS = 4
"""Slices of each set for the CP-SAT sweep, so that its worker processes stay evenly busy."""


@functools.cache
def _read(name: str) -> list[kakuro.Puzzle]:
    return kakuro.read(shared_data_or_skip() / f"{name}.jsonl")


def _cpsat_sweep(name: str, part: int) -> tuple[int, list[tuple[str, str, str]]]:
    """CP-SAT (the default one-worker model) on every PARTS-th puzzle of set `name` from `part`
    on, each answer checked: (puzzles solved and checked, failures). Runs in a worker process."""
    solver = kakuro.get_solver("cpsat")
    swept, failures = 0, []
    for puzzle in _read(name)[::SWEEP_EVERY][part::PARTS]:
        result = solver.solve(puzzle, time_limit=60, seed=0)
        if result.status is not Status.SOLVED or puzzle.check(result.solution):
            failures.append((puzzle.id, result.status.value, result.message))
        swept += 1
    return swept, failures


@pytest.mark.slow
def test_cpsat_solves_the_shared_puzzles(shared) -> None:
    # Every puzzle, one CP-SAT search at a time per process; the sweep is CP-SAT's own search
    # time (about 20 ms a puzzle), spread over the machine's cores (spawned, so no state of this
    # process is shared).
    workers = max(1, min(PARTS, len(os.sched_getaffinity(0))))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = [pool.submit(_cpsat_sweep, name, part) for name in SETS for part in range(PARTS)]
        outcomes = [part.result() for part in parts]
    assert sum(swept for swept, _ in outcomes) == sum(len(ps[::SWEEP_EVERY]) for ps in shared.values())
    assert [failure for _, failures in outcomes for failure in failures] == []
