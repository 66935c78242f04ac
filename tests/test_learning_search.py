"""The learning search (restarts, dom/wdeg, phase saving, conflict learning) counts exactly: on
random puzzles with zero to hundreds of solutions it finds the same solutions as the plain
depth-first search, under settings that stress every part (a restart after every conflict, a
nogood store reduced to almost nothing, random values); no learned nogood excludes a known
solution, and learning keeps real puzzles' solutions; time limits and the seed are honoured."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

import pytest

import kakuro
from kakuro import Puzzle
from kakuro.engine import compile, nogoods, propagate, state, tree
from kakuro.engine.plan import pause_at, plan_for
from kakuro.generate import cazenave, classic
from kakuro.native_solver import implied_sums
from tests.conftest import hard_for_gac, shared_set
from tests.random_puzzles import random_puzzles
from tests.timing import timed

SETTINGS = [
    {},  # Luby restarts, dom/wdeg, phase saving, learning
    {"implied": True},  # and the implied sums: the backends' defaults
    {"implied": True, "restarts": "luby", "unit": 1, "keep": 1},
    {"restarts": "luby", "unit": 1, "keep": 1},  # restart at every conflict, reduce hard
    {"restarts": "geometric", "unit": 2, "values": "random", "phase": False},
    {"restarts": "none", "order": "dom"},
    {"order": "dom/activity", "unit": 2},
    {"learning": False},
    {"learning": False, "restarts": "luby", "unit": 3, "values": "random"},
]
LIMIT = 400


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    compile.ensure("root:gac", "depth_first:gac", "learning:learn", "learning:gac")


def count_plain(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution by the plain search (LIMIT of them when there are more)."""
    st = state.build_state(puzzle, "gac")
    state.arm(st, None, 0)
    if not propagate.root_propagate(st):
        return set()
    code, found = tree.run_depth_first(st, "ascending", LIMIT)
    assert code in (state.EXHAUSTED, state.LIMIT)
    return {tuple(s) for s in found}


def count_learning(puzzle: Puzzle, seed: int, learning: bool = True, store: int = 1 << 12, implied: bool = False,
                 **settings: object) -> list[tuple[int, ...]]:
    sums = implied_sums(puzzle) if implied else ()
    st = state.build_state(puzzle, "gac", learning=True, store=store, sums=sums) if learning else state.build_state(puzzle, "gac")
    state.arm(st, None, seed)
    if not propagate.root_propagate(st):
        return []
    code, found = tree.run_learning_search(st, LIMIT, learning=learning, **settings)
    assert code == state.EXHAUSTED
    return [tuple(s) for s in found]


def small_puzzles() -> list[Puzzle]:
    puzzles = random_puzzles(seed=7, count=60)
    puzzles += classic(8, 8, 0.2, count=6, seed=5, unique=False)  # closed blocks: implied sums
    puzzles += cazenave(4, 6, 100, count=4, seed=3)  # empty grids: many solutions
    puzzles += cazenave(5, 7, 60, count=4, seed=4)
    return puzzles


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "plan-defaults")
def test_the_same_solutions_as_depth_first(settings: dict) -> None:
    seen_solutions = 0
    for k, puzzle in enumerate(small_puzzles()):
        expected = count_plain(puzzle)
        if len(expected) >= LIMIT:
            continue
        found = count_learning(puzzle, seed=k, **settings)
        assert len(found) == len(set(found)), puzzle.id  # no solution twice
        assert set(found) == expected, (puzzle.id, len(found), len(expected))
        assert all(puzzle.check(puzzle.solution(list(s))) == [] for s in found)
        seen_solutions += len(found)
    assert seen_solutions > 500  # the sample has puzzles with many solutions
    assert sum(len(implied_sums(p)) for p in small_puzzles()) > 300  # and sums to imply


def stored_nogoods(st: state.LearningState) -> list[list[tuple[int, int]]]:
    """The learned nogoods in the store (not found solutions' ones) as (cell, mask) pairs."""
    out, o = [], 0
    while o < st.info[state.NG_TOP]:
        length, lbd = int(st.ng_store[o + nogoods.LENGTH]), int(st.ng_store[o + nogoods.LBD])
        pairs = st.ng_store[o + nogoods.HEADER : o + nogoods.HEADER + 2 * length].tolist()
        if lbd != nogoods.PERMANENT:
            out.append(list(zip(pairs[::2], pairs[1::2])))
        o += nogoods.HEADER + 2 * length
    return out


def test_no_learned_nogood_excludes_the_recorded_solution() -> None:
    """Every nogood learned before the first solution (so none depends on a found solution's
    nogood) lets the filling the hard set's grids were made from through: some cell of it
    takes a value of its mask, with and without the implied sums. The direct check of
    learning's soundness: a wrong explanation or analysis shows here even where it happens
    not to cut a solution off."""
    hard = Path(__file__).resolve().parent.parent / "instances" / "hard"
    puzzles = kakuro.read(hard / "loose-30x30.jsonl") + kakuro.read(hard / "empty-16x16-v17.jsonl")
    checked = 0
    for puzzle in puzzles:
        rows = puzzle.meta["solution"]
        values = [rows[r][c] for r, c in puzzle.cells]
        assert puzzle.check(puzzle.solution(values)) == []
        for seed, sums in itertools.product(range(2), ((), implied_sums(puzzle))):
            st = state.build_state(puzzle, "gac", learning=True, sums=sums)
            state.arm(st, time.perf_counter() + 10, seed)
            assert propagate.root_propagate(st)
            tree.run_learning_search(st, 1)
            for nogood in stored_nogoods(st):
                assert any(mask >> values[c] & 1 for c, mask in nogood), (puzzle.id, seed, nogood)
                checked += 1
    assert checked > 1000  # enough nogoods were learned to mean something


def test_a_small_store_still_counts_exactly() -> None:
    """A store of 1,024 words fills after a few dozen nogoods and forces reductions in the
    middle of the search (a restart after every conflict); found solutions' nogoods survive
    them."""
    deleted = 0
    puzzles = random_puzzles(seed=8, count=100) + cazenave(5, 6, 80, count=3, seed=11)
    for puzzle in puzzles:
        expected = count_plain(puzzle)
        if len(expected) > 60:
            continue
        for seed in range(4):
            st = state.build_state(puzzle, "gac", learning=True, store=1024)
            state.arm(st, None, seed)
            if not propagate.root_propagate(st):
                assert not expected
                break
            # without the balance check, which spares these puzzles most of their conflicts
            code, found = tree.run_learning_search(st, LIMIT, unit=1, keep=1, values="random", balance=False)
            assert code == state.EXHAUSTED
            assert {tuple(s) for s in found} == expected and len(found) == len(expected)
            deleted += int(st.info[state.DELETED])
    assert deleted > 20  # the store was reduced


def test_a_store_too_small_for_the_solutions_grows() -> None:
    """When the found solutions' nogoods would fill more than half the store, the search stops
    at the solution (FILLED) and its driver grows the store: it never drops one (which would
    count a solution twice) and counts every solution (it stopped at 12 of 60 with FULL before)."""
    puzzle = cazenave(5, 6, 80, count=1, seed=11)[0]  # 60 solutions
    expected = count_plain(puzzle)
    st = state.build_state(puzzle, "gac", learning=True, store=64)
    state.arm(st, None, 0)
    assert propagate.root_propagate(st)
    code, found = tree.run_learning_search(st, LIMIT, unit=4, keep=2)
    assert code == state.EXHAUSTED
    assert len(found) == len(set(map(tuple, found))) == len(expected) == 60
    assert {tuple(s) for s in found} == expected
    assert st.ng_store.shape[0] > 64 and st.info[state.NG_KEPT] <= st.ng_store.shape[0] // 2


def test_learning_is_sound_on_real_puzzles(shared_data) -> None:
    """Every shared puzzle that needs search (after root GAC) keeps its recorded solution."""
    puzzles = shared_set("ifilot_cx16") + shared_set("gecode_nikoli")
    for puzzle in puzzles:
        found = count_learning(puzzle, seed=1, unit=2)
        assert found and all(puzzle.check(puzzle.solution(list(s))) == [] for s in found)
        assert len(found) == len(count_plain(puzzle)), puzzle.id


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_the_deadline_stops_the_learning_search() -> None:
    hard = hard_for_gac()
    st = state.build_state(hard, "gac", learning=True)
    state.arm(st, None, 1)
    assert propagate.root_propagate(st)
    with timed() as t:
        deadline = time.perf_counter() + 0.3
        state.arm(st, deadline, 1)
        code, _ = tree.run_learning_search(st, 1)
        late = time.perf_counter() - deadline
    assert code == state.STOPPED and t.quiet(late) < 0.15, (late, t)


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_a_forked_child_stops_the_search_through_the_shared_flag() -> None:
    """auto's race: the SAT child raises the stop flag of the native search, in this process."""
    from kakuro.isolation import discard, fork_child

    st = state.build_state(hard_for_gac(), "gac", learning=True)
    state.arm(st, None, 1)
    assert propagate.root_propagate(st)
    st = state.with_shared_stop(st)
    with timed() as t:
        child = fork_child(lambda: (time.sleep(0.5), state.request_stop(st.info)), ())
        try:
            code, _ = tree.run_learning_search(st, 1)
        finally:
            discard(child)
    assert code == state.STOPPED and t.wall > 0.4 and t.quiet(t.wall - 0.5) < 1.0, t  # the child sleeps 0.5 s


def test_the_seed_makes_runs_reproducible() -> None:
    puzzle = cazenave(7, 8, 100, seed=2)[0]
    runs = []
    for seed in (5, 5, 6):
        st = state.build_state(puzzle, "gac", learning=True)
        state.arm(st, None, seed)
        propagate.root_propagate(st)
        code, found = tree.run_learning_search(st, 1, values="random", phase=False)
        runs.append((found, int(st.info[state.NODES])))
    assert runs[0] == runs[1]
    assert runs[0][0][0] != runs[2][0][0] or runs[0][1] != runs[2][1]


def test_a_search_paused_at_restarts_goes_on_as_if_it_had_not_paused() -> None:
    """`pause_at`: paused at a restart and called again (as `auto`'s race resumes its head
    start), the search makes the very decisions of an unpaused one, to the same solution with
    the same counts."""
    puzzle = kakuro.read(Path(__file__).resolve().parent.parent / "instances" / "hard" / "loose-30x30.jsonl")[3]
    runs = []
    for pauses in (0, 3):
        st = state.build_state(puzzle, "gac", learning=True, sums=implied_sums(puzzle))
        state.arm(st, None, 1)
        assert propagate.root_propagate(st)
        plan = plan_for(st, unit=4)
        stops = 0
        for _ in range(pauses):
            pause_at(plan, time.perf_counter())  # at the next restart
            code, found = tree.run_learning_search(st, 1, plan)
            stops += code == state.STOPPED and not found
        pause_at(plan, None)
        code, found = tree.run_learning_search(st, 1, plan)
        assert stops == pauses and code == state.LIMIT
        runs.append((found, int(st.info[state.NODES]), int(st.info[state.FAILS]), int(st.info[state.RESTARTS])))
    assert runs[0] == runs[1] and runs[0][3] > 3  # it restarted past the pauses


def test_random_puzzles_of_other_seeds() -> None:
    rng = random.Random(99)
    for puzzle in random_puzzles(seed=rng.randrange(1 << 30), count=40):
        expected = count_plain(puzzle)
        if len(expected) < LIMIT:
            assert set(count_learning(puzzle, seed=3, unit=1, keep=3)) == expected
