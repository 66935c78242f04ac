"""The compiled engine: GAC against the pure-Python reference, forward checking against a plain
reimplementation of Cazenave's rules, exact undo, the clock and the deadline."""

from __future__ import annotations

import contextlib
import itertools
import random
import time

import numpy as np
import pytest

import kakuro
from kakuro import KakuroError, Puzzle
from kakuro.clock import Deadline
from kakuro.combos import (
    combinations,
    count_combinations,
    feasible_values,
    range_mask,
    values_of,
)
from kakuro.engine import compile, montecarlo, propagate, state, tree
from kakuro.engine.compile import callable_from_python
from kakuro.generate import cazenave
from tests.conftest import (
    TWO_SOLUTIONS,
    UNSATISFIABLE,
    hard_for_gac,
    shared_set,
)
from tests.reference import gac_fixpoint, initial_domains
from tests.timing import timed

set_value = callable_from_python(state.set_value)
undo = callable_from_python(state.undo)
select_variable = callable_from_python(state.select_variable)
random_value = callable_from_python(state.random_value)
revise_run = callable_from_python(propagate.revise_run)
revise_sum = callable_from_python(propagate.revise_sum)


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    compile.ensure(*(f"{k}:{s}" for k in ("root", "depth_first", "sampling", "nested") for s in ("fc", "gac")))


def one_run(length: int, total: int, values: tuple[int, int]) -> Puzzle:
    """A puzzle made of a single across run."""
    return Puzzle.from_grid([[[None, total]] + [0] * length], values=values)


def fresh(puzzle: Puzzle, consistency: str) -> state.State:
    st = state.build_state(puzzle, consistency)
    state.arm(st, None, 0)
    return st


def restrict(st: state.State, cell: int, mask: int) -> None:
    st.dom[cell] = mask
    st.size[cell] = bin(mask).count("1")


# --------------------------------------------------------------------- GAC
@pytest.mark.parametrize("values", [(1, 9), (1, 6), (0, 7), (2, 14)])
def test_revise_run_matches_feasible_values_on_random_runs(values: tuple[int, int]) -> None:
    rng = random.Random(sum(values))
    lo, hi = values
    full = range_mask(values)
    for _ in range(400):
        length = rng.randint(1, min(7, hi - lo + 1))
        chosen = rng.sample(range(lo, hi + 1), length)
        total = sum(chosen) if rng.random() < 0.8 else rng.randint(sum(sorted(chosen)[:1]), sum(chosen) + 5)
        try:
            puzzle = one_run(length, total, values)
        except kakuro.InvalidPuzzleError:
            continue
        st = fresh(puzzle, "gac")
        domains = []
        for c in range(length):
            if rng.random() < 0.25:
                v = chosen[c] if rng.random() < 0.7 else rng.randint(lo, hi)
                if set_value(st, c, v):
                    domains.append(1 << v)
                    continue
            mask = full & rng.getrandbits(hi + 1) | (1 << chosen[c] if rng.random() < 0.6 else 0)
            mask &= full
            if st.val[c] < 0:
                restrict(st, c, mask)
            domains.append(int(st.dom[c]))
        expected = feasible_values(total, domains, values)
        ok = revise_run(st, 0)
        if not ok:
            assert expected == [0] * length, (total, domains)
            continue
        assert [int(d) for d in st.dom] == expected, (total, domains)


def test_revise_sum_keeps_exactly_the_values_some_sum_uses() -> None:
    """An implied sum (values need not differ) against brute force over random domains; a
    wipe-out changes nothing."""
    rng = random.Random(5)
    puzzle = one_run(7, 28, (1, 9))
    checked = 0
    for _ in range(600):
        cells = rng.sample(range(7), rng.randint(1, 6))
        domains = [rng.getrandbits(10) & 0b1111111110 or 1 << rng.randint(1, 9) for _ in cells]
        total = rng.randint(0, 56)
        st = state.build_state(puzzle, "gac", learning=True, sums=[(cells, total)])
        state.arm(st, None, 0)
        for c, d in zip(cells, domains):
            restrict(st, c, d)
        before = [int(d) for d in st.dom]
        expected = [0] * len(cells)
        for combo in itertools.product(*(values_of(d) for d in domains)):
            if sum(combo) == total:
                for j, v in enumerate(combo):
                    expected[j] |= 1 << v
        ok = revise_sum(st, st.info[state.SUMS_FROM])
        if 0 in expected:
            assert not ok and [int(d) for d in st.dom] == before, (cells, domains, total)
        else:
            assert ok and [int(st.dom[c]) for c in cells] == expected, (cells, domains, total)
            checked += expected != domains
    assert checked > 50  # the sample prunes often


def test_a_plain_gac_state_compiles_no_implied_sums() -> None:
    """Only a learning state has implied sums: the run propagator of a plain gac state (root
    GAC, shaving, every playout: the first kernel a cold solve compiles) types none of
    `revise_sum` (tests/test_learning_search.py checks that a learning state's reaches it)."""
    revise_run(fresh(one_run(3, 6, (1, 9)), "gac"), 0)  # types revise_run (the twin) for a plain state
    typed = [sig[0] for sig in propagate.revise_sum.overloads]
    assert not any(compile.instance_of(t, state.GacState) for t in typed), typed


def python_gac(puzzle: Puzzle) -> list[int] | None:
    """Fixpoint of `feasible_values` over the runs, givens as one-value domains."""
    return gac_fixpoint(puzzle, initial_domains(puzzle), lambda total, domains: feasible_values(total, domains, puzzle.values))


def small_puzzles() -> list[Puzzle]:
    puzzles = []
    for k, (size, values, holes) in enumerate([(3, 4, 100), (4, 5, 100), (4, 6, 70), (5, 7, 50), (5, 9, 100), (6, 7, 80)]):
        puzzles += cazenave(size, values, holes, count=3, seed=k)
    for k in range(6):  # unsatisfiable variants: one column sum moved by one
        p = cazenave(4, 6, 60, seed=100 + k)[0]
        rows = [r.total for r in p.groups if r.direction == "across"]
        cols = [r.total for r in p.groups if r.direction == "down"]
        cols[0] += 1
        givens = {(p.cells[c][0] - 1, p.cells[c][1] - 1): v for c, v in p.givens.items()}
        with contextlib.suppress(kakuro.InvalidPuzzleError):
            puzzles.append(Puzzle.all_white(rows, cols, values=p.values, givens=givens))
    return puzzles


def test_root_gac_matches_the_python_fixpoint() -> None:
    for puzzle in small_puzzles() + [kakuro.read(t)[0] for t in (TWO_SOLUTIONS, UNSATISFIABLE)]:
        assert propagate.root_domains(puzzle, "gac") == python_gac(puzzle), puzzle.id


def test_root_gac_matches_on_real_puzzles(shared_puzzles) -> None:
    for puzzle in shared_puzzles[::10]:
        assert propagate.root_domains(puzzle, "gac") == python_gac(puzzle), puzzle.id


def test_gac_during_search_matches_the_python_fixpoint() -> None:
    """After random assignments, the kernel's domains are the GAC fixpoint of the puzzle with
    those assignments as givens (or both detect the wipe-out)."""
    rng = random.Random(3)
    for puzzle in small_puzzles()[:12]:
        st = fresh(puzzle, "gac")
        if not propagate.root_propagate(st):
            continue
        givens = dict(puzzle.givens)
        for _ in range(puzzle.size):
            free = [c for c in range(puzzle.size) if st.val[c] < 0]
            if not free:
                break
            c = rng.choice(free)
            v = rng.choice(values_of(int(st.dom[c])))
            ok = propagate.assign(st, c, v)
            givens[c] = v
            grid_givens = {(puzzle.cells[k][0] - 1, puzzle.cells[k][1] - 1): d for k, d in givens.items()}
            rows = [r.total for r in puzzle.groups if r.direction == "across"]
            cols = [r.total for r in puzzle.groups if r.direction == "down"]
            expected = python_gac(Puzzle.all_white(rows, cols, values=puzzle.values, givens=grid_givens))
            if not ok:
                assert expected is None
                break
            assert [int(d) for d in st.dom] == expected


def test_combinations_are_counted_without_listing_them() -> None:
    for values in [(1, 9), (0, 7), (2, 14)]:
        for length in range(0, 7):
            for total in range(0, 60):
                assert count_combinations(length, total, values) == len(combinations(length, total, values))
    assert count_combinations(8, 150, (1, 62)) > 1_000_000


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_gac_refuses_huge_tables_and_fc_takes_any_range() -> None:
    wide = Puzzle.all_white([200] * 8, [200] * 8, values=(1, 62))
    with timed() as t, pytest.raises(KakuroError, match="consistency=fc"):
        state.build_state(wide, "gac")
    assert t.quiet(t.wall) < 1.0, t  # refused before listing a million combinations
    st = fresh(wide, "fc")
    assert propagate.root_propagate(st)
    assert int(st.dom[0]) == range_mask((1, 62))


# --------------------------------------------------------------------- forward checking
class PaperFC:
    """Cazenave's forward checking, written plainly over Python sets."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.p = puzzle
        lo, hi = puzzle.values
        self.dom = [set(range(lo, hi + 1)) for _ in range(puzzle.size)]
        self.val: list[int | None] = [None] * puzzle.size
        self.ok = True
        for run in puzzle.groups:
            for c in run.cells:
                self.dom[c] = {v for v in self.dom[c] if v <= run.total}
                self.ok &= bool(self.dom[c])
        for c, v in sorted(puzzle.givens.items()):
            if self.ok:
                self.assign(c, v)

    def assign(self, cell: int, value: int) -> bool:
        if value not in self.dom[cell] or self.val[cell] is not None:
            self.ok = False
            return False
        self.val[cell] = value
        self.dom[cell] = {value}
        for r in self.p.cell_groups[cell]:
            run = self.p.groups[r]
            assigned = [self.val[c] for c in run.cells if self.val[c] is not None]
            free = [c for c in run.cells if self.val[c] is None]
            if not free:
                if sum(assigned) != run.total:
                    self.ok = False
                    return False
                continue
            maxval = run.total - sum(assigned)
            for c in free:
                self.dom[c] = {v for v in self.dom[c] if v != value and v <= maxval}
                if not self.dom[c]:
                    self.ok = False
                    return False
        return True

    def masks(self) -> list[int]:
        return [sum(1 << v for v in d) for d in self.dom]


def test_forward_checking_is_the_papers() -> None:
    rng = random.Random(11)
    puzzles = small_puzzles() + cazenave(5, 30, 90, count=3, seed=5) + [Puzzle.all_white([3, 9], [5, 7], values=(0, 8))]
    for puzzle in puzzles:
        for _ in range(5):
            st = fresh(puzzle, "fc")
            ref = PaperFC(puzzle)
            assert propagate.root_propagate(st) == ref.ok
            if not ref.ok:
                break
            assert [int(d) for d in st.dom] == ref.masks()
            while ref.ok:
                free = [c for c in range(puzzle.size) if ref.val[c] is None]
                if not free:
                    break
                c = rng.choice(free)
                v = rng.choice(sorted(ref.dom[c]))
                assert propagate.assign(st, c, v) == ref.assign(c, v)
                if ref.ok:
                    assert [int(d) for d in st.dom] == ref.masks()
                    assert [int(x) if x >= 0 else None for x in st.val] == ref.val


# --------------------------------------------------------------------- undo
MUTABLE = ("dom", "val", "size", "runs")


@pytest.mark.parametrize("consistency", ["fc", "gac"])
def test_undo_restores_the_state_exactly(consistency: str) -> None:
    rng = random.Random(5)
    for puzzle in small_puzzles():
        st = fresh(puzzle, consistency)
        if not propagate.root_propagate(st):
            continue
        before = {name: getattr(st, name).copy() for name in MUTABLE}
        info = st.info[[state.TRAIL, state.NFREE]].copy()
        marks = []
        for _ in range(puzzle.size):
            free = [c for c in range(puzzle.size) if st.val[c] < 0]
            if not free:
                break
            marks.append((int(st.info[state.TRAIL]), {name: getattr(st, name).copy() for name in MUTABLE}))
            c = rng.choice(free)
            if not propagate.assign(st, c, rng.choice(values_of(int(st.dom[c])))):
                break
        for mark, snapshot in reversed(marks[1:]):
            undo(st, mark)
            for name in MUTABLE:
                np.testing.assert_array_equal(getattr(st, name), snapshot[name])
        undo(st, 0)
        for name in MUTABLE:
            np.testing.assert_array_equal(getattr(st, name), before[name])
        np.testing.assert_array_equal(st.info[[state.TRAIL, state.NFREE]], info)
        sizes = [state.ASSIGNED if st.val[c] >= 0 else bin(int(st.dom[c])).count("1") for c in range(puzzle.size)]
        assert st.size.tolist() == sizes


# --------------------------------------------------------------------- choices, clock, deadline
def test_select_variable_takes_the_smallest_domain_lowest_index_first() -> None:
    st = fresh(cazenave(4, 6, 100)[0], "fc")
    propagate.root_propagate(st)
    restrict(st, 9, 0b1100)
    restrict(st, 5, 0b0110)
    assert select_variable(st) == 5
    set_value(st, 5, 2)
    assert select_variable(st) == 9


def test_random_values_are_uniform_and_seeded() -> None:
    st = fresh(cazenave(3, 3, 100)[0], "fc")
    state.arm(st, None, 7)
    draws = [random_value(st, 0b1011010) for _ in range(4000)]
    counts = {v: draws.count(v) for v in (1, 3, 4, 6)}
    assert set(draws) == {1, 3, 4, 6} and min(counts.values()) > 850
    state.arm(st, None, 7)
    assert [random_value(st, 0b1011010) for _ in range(50)] == draws[:50]


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_kernel_clock_is_the_perf_counter_clock() -> None:
    offset = state.kernel_clock_offset()
    assert abs(offset) < 0.005  # CLOCK_MONOTONIC on Linux: the same clock
    # read back to back: the closest of a few readings (a busy machine may preempt between two)
    assert min(abs(state.clock_ns() * 1e-9 + offset - time.perf_counter()) for _ in range(5)) < 0.005


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("consistency", ["fc", "gac"])
@pytest.mark.parametrize("search", ["depth_first", "sampling", "nested1", "nested3"])
def test_deadline_stops_every_kernel_within_50_ms(search: str, consistency: str, hard: Puzzle) -> None:
    puzzle = hard if consistency == "fc" else hard_for_gac()
    st = state.build_state(puzzle, consistency)
    state.arm(st, Deadline.after(10).end, 1)
    assert propagate.root_propagate(st)
    with timed() as t:
        deadline = Deadline.after(0.2)
        state.arm(st, deadline.end, 1)
        if search == "depth_first":
            code, _ = tree.run_depth_first(st, "random", 1)
        elif search == "sampling":
            code = montecarlo.run(st, "sampling")
        else:
            code = montecarlo.run(st, "nested", level=int(search[-1]))
        late = time.perf_counter() - deadline.end
    assert code == state.STOPPED
    assert t.quiet(late) < 0.05 + 0.1, (late, t)  # 50 ms, plus slack for scheduling


@pytest.fixture(scope="module")
def shared_puzzles() -> list[Puzzle]:
    return shared_set("krazydad") + shared_set("janko")
