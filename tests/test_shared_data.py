"""All 1,398 real published puzzles of ../shared/data: they load, CP-SAT solves each one,
the checker accepts every answer and the stored solutions, and rejects corrupted ones."""

from __future__ import annotations

import json

import pytest

import kakuro
from kakuro import Status
from tests.conftest import shared_data_or_skip

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


@pytest.mark.slow
def test_cpsat_solves_every_shared_puzzle(shared) -> None:
    solver = kakuro.get_solver("cpsat")
    failures = []
    for puzzle in (p for ps in shared.values() for p in ps):
        result = solver.solve(puzzle, time_limit=60, seed=0)
        if result.status is not Status.SOLVED or puzzle.check(result.solution):
            failures.append((puzzle.id, result.status, result.message))
    assert failures == []
