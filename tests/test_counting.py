"""Counting reaches its limit or says why (issue 40): `count_solutions` returns `limit`
solutions, or `exhausted`, or a reason in `message`; never a solution twice, never a silent
early stop. Memory grows with the solutions found, not with the limit; the time limit holds
for the search and for the template's checking of what it found."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import kakuro
from kakuro import Puzzle, Solver, Status
from kakuro.clock import Deadline
from kakuro.engine import chunks, compile, nogoods, propagate, state, tree
from kakuro.engine.compile import callable_from_python
from kakuro.engine.plan import ASCENDING, plan_for
from kakuro.generate import cazenave
from kakuro.generate.sudoku_grids import emptied, full_grid
from kakuro.limits import Limits
from kakuro.native.searches import stop_reason
from kakuro.native.settings import Strength, TreeSearch
from kakuro.native_solver import enumerate_solutions
from kakuro.outcome import Enumeration
from kakuro.solver import CHECK_GRACE
from tests.conftest import ROOT
from tests.test_cli import run
from tests.timing import timed

NATIVE = ("gac", "fc", "rdv", "auto")
"""The complete native backends whose default search learns (and stored found solutions'
nogoods in a store that filled: 2,077 of the empty 6x6 grid's solutions at most)."""
COMPLETE = ("gac", "fc", "rdv", "backtrack", "auto", "cpsat", "sat", "choco", "csp", "mip", "asp", "smt", "minizinc")
SLOW_TO_ENUMERATE = {"mip": (4, 5, 100, 1)}
"""Backends that take seconds per hundred solutions get a smaller grid (cazenave's size,
values, holes, seed): mip's 272 solutions of the 4x4 grid over 1..6 took 17 s."""
HARD = ROOT / "instances" / "hard"
EMPTY_6X6 = ROOT / "instances" / "cazenave" / "empty-6x6-v7.jsonl"


def empty_6x6() -> Puzzle:
    return kakuro.read(EMPTY_6X6)[0]


@pytest.mark.parametrize("backend", NATIVE)
def test_the_native_searches_count_5000_solutions_of_an_empty_grid(backend: str) -> None:
    """The issue's case: gac and fc stopped at 2,077 solutions with no reason given."""
    found = kakuro.count_solutions(empty_6x6(), backend, limit=5000, time_limit=120)
    assert (found.status, found.count, found.exhausted, found.message) == (Status.SOLVED, 5000, False, "")


@pytest.mark.parametrize("backend", ("gac", "fc", "rdv", "backtrack"))
def test_a_huge_limit_costs_memory_by_the_solutions_found(backend: str) -> None:
    """limit=10**9 raised MemoryError (a buffer of 10**9 solutions sized up front, at once); now
    it answers at the time limit with what it found and checked, and says why it stopped."""
    puzzle = empty_6x6()
    kakuro.count_solutions(puzzle, backend, limit=2, time_limit=60)  # compiled before the clock
    found = kakuro.count_solutions(puzzle, backend, limit=10**9, time_limit=0.25)
    assert found.count < 10**9 and not found.exhausted and "time limit reached" in found.message, found
    # on a loaded machine the search may return after the checking grace too: then none is checked, and it says so
    assert (found.status is Status.SOLVED and found.count > 0) or (
        found.status is Status.UNKNOWN and "not checked in time" in found.message), found


def test_a_huge_limit_answers_within_the_time_limit() -> None:
    """The issue's bound: limit=10**9 with time_limit=2 answers within 3 s, its count checked.
    The block is CPU-bound throughout (the search until the limit, the checking until its
    grace), so its CPU time is its work: on an idle core the wall time, on a busy machine no
    more (a wall bound failed in CI at 3.2 s with no slowdown seen around the block). So it runs
    with the parallel tests: their load lowers the CPU time the block gets, never raises it."""
    puzzle = empty_6x6()
    kakuro.count_solutions(puzzle, "gac", limit=2, time_limit=60)
    with timed() as t:
        found = kakuro.count_solutions(puzzle, "gac", limit=10**9, time_limit=2)
    assert t.cpu - 2 - CHECK_GRACE < 0.5, t  # the limit, the checking's grace, then at most half a second
    assert t.wall < 30, t  # and it returns, however busy the machine
    # A loaded machine may leave every solution found unchecked by the deadline: not counted, and said.
    assert not found.exhausted and (found.count > 0 or "not checked in time" in found.message), found


@pytest.mark.parametrize("search", ("depth_first", "learning"))
def test_the_drivers_hand_solutions_out_in_chunks(search: str) -> None:
    """A search asked for 10**9 solutions holds a chunk of rows at a time: its allocations
    grow with the solutions it found (as lists, and their nogoods when it learns) plus a
    megabyte or two, however large the limit."""
    puzzle = empty_6x6()
    learning = search == "learning"
    compile.ensure("root:gac", "learning:learn" if learning else "depth_first:gac")  # before the deadline
    st = state.build_state(puzzle, "gac", learning=learning)
    state.arm(st, None, 0)
    assert propagate.root_propagate(st)
    state.arm(st, time.perf_counter() + 0.5, 0)
    tracemalloc.start()
    try:
        code, found = tree.run_learning_search(st, 10**9) if learning else tree.run_depth_first(st, "ascending", 10**9)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == state.STOPPED and len(found) > 100
    per_solution = 100 + 16 * puzzle.size  # a list of small ints, with room to spare
    if learning:  # and its nogood: at most half the store, whose watches take as much again, grown by doubling
        per_solution += 8 * 8 * (nogoods.HEADER + 2 * puzzle.size)
    first_store = 8 * 2 * state.nogood_store_size(puzzle.size) if learning else 0
    assert peak < len(found) * per_solution + 2 * chunks.SOLUTION_CHUNK + first_store
    assert len({tuple(s) for s in found}) == len(found)
    assert all(puzzle.check(puzzle.solution(s)) == [] for s in found[:: max(1, len(found) // 50)])


def counted_by_rows(puzzle: Puzzle, learning: bool, rows: int) -> tuple[Any, ...]:
    """Every solution of `puzzle` by the learning or the depth-first kernel, handed `rows`
    solution rows at a time (`chunks.drained`): (code, solutions, nodes, fails, trail entries left)."""
    n = puzzle.size
    st = state.build_state(puzzle, "gac", learning=learning, store=256)
    state.arm(st, None, 3)
    assert propagate.root_propagate(st)
    root = int(st.info[state.TRAIL])
    solutions = np.zeros((rows, n), dtype=np.int64)
    if learning:
        plan = plan_for(st)
        code, found = chunks.drained(lambda: tree.learning_search(st, plan, solutions, 10**6), st, solutions,
                                   lambda: nogoods.make_room(st))
    else:
        stack, position = np.zeros((3, n + 1), dtype=np.int64), np.zeros(tree.POSITION_SLOTS, dtype=np.int64)
        code, found = chunks.drained(
            lambda: tree.depth_first(st, tree.NO_CELLS, ASCENDING, solutions, stack, position, 10**6), st, solutions)
    return code, found, int(st.info[state.NODES]), int(st.info[state.FAILS]), int(st.info[state.TRAIL]) - root


@pytest.mark.parametrize("learning", (False, True))
def test_a_search_called_again_after_its_rows_fill_goes_on_where_it_was(learning: bool) -> None:
    """Handed out one row at a time (FILLED after each solution), both searches find the very
    solutions, in the same order and with the same counters, as with all rows at once, and
    end with the state undone."""
    puzzle = cazenave(4, 6, 100, count=1, seed=9)[0]  # 272 solutions
    one, many = counted_by_rows(puzzle, learning, 1), counted_by_rows(puzzle, learning, 1000)
    assert one == many and one[0] == state.EXHAUSTED and len(one[1]) == 272 and one[4] == 0


@pytest.mark.parametrize("backend", ("gac", "fc", "rdv"))
def test_the_loose_30x30_grid_counts_to_1100(backend: str) -> None:
    """The hostile pass's case: gac, fc and rdv stopped at 749-3,280 solutions when the store
    of found solutions' nogoods filled (and said nothing)."""
    puzzle = kakuro.read(HARD / "loose-30x30.jsonl")[0]
    found = kakuro.count_solutions(puzzle, backend, limit=1100, time_limit=120)
    assert (found.status, found.count, found.exhausted, found.message) == (Status.SOLVED, 1100, False, "")


def test_auto_never_returns_a_solution_twice_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`kakuro count FILE --limit 1100` with the default backend (auto) was WRONG: its search,
    stopped on a full store, was resumed in the race and found its last solution again. (The
    command runs in this process: the race and the template's check are the point, not a child's
    start-up.)"""
    code, out, err = run(capsys, "count", HARD / "loose-30x30.jsonl", "--limit", "1100")
    assert code == 0, out + err
    assert "at least 1100 solutions (stopped at --limit 1100)" in out and "wrong" not in out


@pytest.fixture(scope="module")
def sudoku() -> kakuro.Count:
    """A 9x9 Sudoku with thousands of solutions, every one found by SAT (an engine
    independent of the native ones)."""
    reference = kakuro.count_solutions(emptied(full_grid(9, None, 1), 0.7, 1), "sat", limit=20000, time_limit=120)
    assert reference.exhausted and reference.count > 2000
    return reference


@pytest.mark.parametrize("backend", ("auto", "gac", "fc", "rdv"))
def test_sudoku_counts_are_exact(backend: str, sudoku: kakuro.Count) -> None:
    """The Sudoku counted to the end (the hostile pass's had 7,302 solutions): SAT's count and
    its very solutions; and the empty 9x9 grid to 1,000."""
    reference = sudoku
    puzzle = reference.solutions[0].puzzle
    found = kakuro.count_solutions(puzzle, backend, limit=20000, time_limit=120)
    assert (found.status, found.count, found.exhausted) == (Status.SOLVED, reference.count, True)
    assert set(found.solutions) == set(reference.solutions)
    empty = Puzzle.sudoku([[0] * 9 for _ in range(9)])
    many = kakuro.count_solutions(empty, backend, limit=1000, time_limit=120)
    assert (many.status, many.count, many.exhausted, many.message) == (Status.SOLVED, 1000, False, "")


# --------------------------------------------------------------------- every complete backend
@pytest.fixture(scope="module")
def grids() -> dict[tuple[int, int, int, int], tuple[Puzzle, int]]:
    """Each test grid (cazenave's arguments) with its number of solutions: counted to the end
    by the native depth-first search and by SAT (independent engines), which must agree."""
    out = {}
    for args in {(4, 6, 100, 9), *SLOW_TO_ENUMERATE.values()}:
        size, values, holes, seed = args
        puzzle = cazenave(size, values, holes, count=1, seed=seed)[0]
        plain = enumerate_solutions(puzzle, Strength.GAC, 10**6, Limits(Deadline.after(60)), 0, ("nodes",))
        sat = kakuro.count_solutions(puzzle, "sat", limit=10**6, time_limit=60)
        assert plain.exhausted and sat.exhausted
        assert {tuple(s) for s in plain.solutions} == {s.values for s in sat.solutions} and len(plain.solutions) > 50
        out[args] = (puzzle, len(plain.solutions))
    return out


def usable(backend: str) -> None:
    """Skip, saying how to get it, when `backend` cannot run here."""
    info = kakuro.backend_info(backend)[0]
    if not info.available:
        pytest.skip(f"{backend} is not available: {info.reason}")


@pytest.mark.parametrize("backend", COMPLETE)
def test_every_complete_backend_counts_to_its_limit_or_says_why(backend: str, grids: Any) -> None:
    """Below the number of solutions a count stops at the limit; above it, it finishes with
    the exact number: min(limit, total) with `exhausted` set when it finished, each solution
    once; or, short of that, a reason in `message`."""
    usable(backend)
    puzzle, total = grids[SLOW_TO_ENUMERATE.get(backend, (4, 6, 100, 9))]
    for limit in (total // 3, total + 5):
        found = kakuro.count_solutions(puzzle, backend, limit=limit, time_limit=60)
        assert found.status in (Status.SOLVED, Status.UNKNOWN), (found.status, found.message)
        assert len(set(found.solutions)) == found.count  # the template makes a repeat WRONG
        if found.count < min(limit, total):
            assert found.message, (backend, limit, found.count)
        else:
            assert (found.count, found.exhausted) == (min(limit, total), limit > total), (backend, limit, found)


@pytest.mark.timed  # a bound on wall time
@pytest.mark.parametrize("backend", COMPLETE)
def test_every_complete_backend_says_why_it_stops_at_the_time_limit(backend: str) -> None:
    """Asked for more solutions than it can find in time (a quarter of a second: the search
    burns the whole limit), a count ends within a second of its limit (the checking of what it
    found included) and says why it stopped."""
    usable(backend)
    kakuro.count_solutions(cazenave(4, 6, 100, count=1, seed=9)[0], backend, limit=2, time_limit=60)  # one-time costs
    puzzle = kakuro.read(HARD / "loose-30x30.jsonl")[0]
    start = time.perf_counter()
    found = kakuro.count_solutions(puzzle, backend, limit=10**9, time_limit=0.25)
    assert time.perf_counter() - start < 0.25 + 1
    assert found.status in (Status.SOLVED, Status.UNKNOWN) and not found.exhausted
    assert found.message, backend


class HandsOutLate(Solver):
    """A complete backend that answers at its deadline with the `solutions` it was given."""

    name = "late"
    complete = True
    solutions: list[tuple[int, ...]] = []

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        while not limits.deadline.expired():
            time.sleep(0.01)
        return Enumeration(self.solutions[:limit], False, {})


@pytest.mark.timed  # a bound on wall time
def test_the_checking_of_found_solutions_keeps_to_the_time_limit() -> None:
    """Solutions handed over at the deadline are checked for CHECK_GRACE seconds more at the
    most (they took 210 s after a 20 s limit); those left unchecked are not counted, and the
    message says so."""
    puzzle = kakuro.read(HARD / "loose-30x30.jsonl")[0]  # a check takes about 0.65 ms
    found = enumerate_solutions(puzzle, Strength.GAC, 4000, Limits(Deadline.after(60)), 0, ("nodes",), tree=TreeSearch())
    HandsOutLate.solutions = [tuple(s) for s in found.solutions]
    assert len(HandsOutLate.solutions) == 4000
    start = time.perf_counter()
    counted = HandsOutLate().count_solutions(puzzle, limit=10**6, time_limit=0.5)
    assert time.perf_counter() - start < 0.5 + CHECK_GRACE + 0.5
    assert counted.status is Status.SOLVED and 0 < counted.count < 4000 and not counted.exhausted
    assert f"{4000 - counted.count} found but not checked" in counted.message
    assert all(puzzle.check(s) == [] for s in counted.solutions)


def test_a_backend_that_stops_early_without_a_reason_gets_one() -> None:
    """A backend that answers fewer than the limit, unfinished and silent, is not taken as
    a reached limit: the count says the backend gave no reason."""
    puzzle = cazenave(4, 6, 100, count=1, seed=9)[0]
    HandsOutLate.solutions = [s.values for s in kakuro.count_solutions(puzzle, "gac", limit=3).solutions]

    class Silent(HandsOutLate):
        def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
            return Enumeration(self.solutions, False, {})

    found = Silent().count_solutions(puzzle, limit=10)
    assert (found.count, found.exhausted) == (3, False) and "without saying why" in found.message


def test_memory_running_out_between_chunks_is_a_reason() -> None:
    """MemoryError while solutions are handed out stops the search (its state undone), keeps
    the solutions read before and names the reason."""
    puzzle = cazenave(4, 6, 100, count=1, seed=9)[0]
    st = state.build_state(puzzle, "gac")
    state.arm(st, None, 0)
    assert propagate.root_propagate(st)
    root = int(st.info[state.TRAIL])
    solutions = np.zeros((10, puzzle.size), dtype=np.int64)
    stack, position = np.zeros((3, puzzle.size + 1), dtype=np.int64), np.zeros(tree.POSITION_SLOTS, dtype=np.int64)

    def out_of_memory() -> None:
        raise MemoryError

    code, found = chunks.drained(lambda: tree.depth_first(st, tree.NO_CELLS, ASCENDING, solutions, stack, position, 10**6),
                               st, solutions, out_of_memory)
    assert code == state.OUT_OF_MEMORY and len(found) == 10 and int(st.info[state.TRAIL]) == root
    assert stop_reason(code, len(found)) == "memory ran out after 10 solutions"


def test_a_nogood_added_at_the_root_is_watched_on_literals_not_true_there() -> None:
    """After a reduction the store keeps the nogood being learned at the root; a literal the
    root made true must not be watched (its watch would never wake: a found solution's nogood
    would stop excluding it). Fewer than two literals not true: nothing is stored, a unit one
    is asserted, none left means no further solution."""
    puzzle = cazenave(4, 6, 100, count=1, seed=9)[0]
    add_at_root = callable_from_python(nogoods.add_at_root)
    st = state.with_learning(state.build_state(puzzle, "gac"))
    state.arm(st, None, 0)
    full = int(st.dom[0])
    st.dom[0] = st.dom[1] = 1 << 3  # cells 0 and 1 fixed to 3 at the root (as a reduction's units may)
    lits = {0: full & ~(1 << 3), 1: full & ~(1 << 3), 2: full & ~(1 << 1), 3: full & ~(1 << 2)}  # x = 3, 3, 1, 2

    def add(*cells: int) -> int:
        return int(add_at_root(st, np.array(cells, dtype=np.int64), np.array([lits[c] for c in cells], dtype=np.int64),
                               len(cells), nogoods.PERMANENT))

    o = add(0, 1, 2, 3)  # the first two are true at the root
    assert o >= 0 and sorted(st.ng_store[o + nogoods.HEADER : o + nogoods.HEADER + 4 : 2].tolist()) == [2, 3]
    assert st.info[state.NG_KEPT] == nogoods.HEADER + 2 * 4
    assert add(0, 1, 2) == nogoods.ASSERTED
    assert st.dom[2] == full & ~(1 << 1) and st.info[state.NG_COUNT] == 1  # x2 != 1 at the root, nothing stored
    assert add(0, 1) == nogoods.NO_LITERAL_LEFT
