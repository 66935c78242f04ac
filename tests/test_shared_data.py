"""All 1,398 real published puzzles of ../shared/data: they load, the checker accepts the
stored solutions and rejects corrupted ones, and CP-SAT solves every SWEEP_EVERY-th one (every
one with KAKURO_SWEEP_ALL=1), each answer checked."""

from __future__ import annotations

import json

import pytest

import kakuro
from kakuro import Status
from tests.conftest import SWEEP_EVERY, shared_data_or_skip, shared_set

SETS = {"janko": 999, "simonis_easy": 172, "krazydad": 200, "gecode_nikoli": 10, "ifilot_cx16": 17}


@pytest.fixture(scope="module")
def shared() -> dict[str, list[kakuro.Puzzle]]:
    return {name: shared_set(name) for name in SETS}


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


@pytest.mark.slow
def test_cpsat_solves_the_shared_puzzles(shared) -> None:
    # Every SWEEP_EVERY-th puzzle of each set, in this process (the test workers already keep
    # every core busy; a pool of fresh interpreters here only paid their start and read the sets
    # again), each answer checked: about 20 ms of CP-SAT search a puzzle.
    solver = kakuro.get_solver("cpsat")
    swept, failures = 0, []
    for puzzle in (p for ps in shared.values() for p in ps[::SWEEP_EVERY]):
        result = solver.solve(puzzle, time_limit=60, seed=0)
        if result.status is not Status.SOLVED or puzzle.check(result.solution):
            failures.append((puzzle.id, result.status.value, result.message))
        swept += 1
    assert swept == sum(len(range(0, n, SWEEP_EVERY)) for n in SETS.values())
    assert failures == []
