"""The family search (`kakuro.engine.family`) and its compiled answer check
(`kakuro.engine.verify`): counts to 2 agree with a complete backend on random Sudoku 4x4 to
16x16, Jigsaw, Sudoku X and Killer (X) grids (unsatisfiable ones included), every answer passes
`puzzle.check`, the compiled check agrees with `puzzle.check` on good and broken answers, a
batch gives what one-by-one gives, and a search stops at its deadline, its budget and Ctrl-C."""

from __future__ import annotations

import functools
import random
import signal
import time

import numpy as np
import pytest

import kakuro
from kakuro import Puzzle
from kakuro.clock import Deadline
from kakuro.engine.compile import ensure
from kakuro.engine.family import CODE, COUNT, FAILS, NODES, TIME, solve_givens
from kakuro.engine.family_state import LOCKED, NotFamilyError, family_refusal, family_state, shape_key
from kakuro.engine.layout import EXHAUSTED, LIMIT, STOPPED
from kakuro.engine.many import UNCHECKED, givens_rows, search, shape_of, solve_same_shape
from kakuro.engine.verify import check_rows, rules_of
from kakuro.generate.sudoku_grids import emptied, full_grid, killer
from tests.conftest import AVAILABLE
from tests.timing import timed

REFERENCE = next((name for name in ("cpsat", "sat") if name in AVAILABLE), None)
needs_reference = pytest.mark.skipif(REFERENCE is None,
                                     reason="needs cpsat (pip install ortools) or sat (pip install python-sat)")


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    ensure("family", "verify")


def jigsaw(n: int, givens: dict[int, int] | int, seed: int = 0) -> Puzzle:
    """An n x n (n odd) Jigsaw whose regions are the broken diagonals r - c = k (mod n): rows,
    columns and regions all hold 1 + (r + c) mod n once each, so that grid solves it. `givens`,
    or how many random ones (`random_givens`)."""
    regions = [[(r, c) for r in range(n) for c in range(n) if (r - c) % n == k] for k in range(n)]
    if isinstance(givens, int):
        givens = random_givens(Puzzle.jigsaw([[0] * n for _ in range(n)], regions), givens, seed)
    return Puzzle.jigsaw(rows_of(n, givens), regions)


def sudoku_x(n: int, count: int, seed: int) -> Puzzle:
    """A Sudoku X with `count` random givens."""
    return Puzzle.sudoku(rows_of(n, random_givens(Puzzle.sudoku([[0] * n for _ in range(n)], diagonals=True), count, seed)),
                         diagonals=True)


def rows_of(n: int, givens: dict[int, int]) -> list[list[int]]:
    return [[givens.get(r * n + c, 0) for c in range(n)] for r in range(n)]


def random_givens(empty: Puzzle, count: int, seed: int) -> dict[int, int]:
    """`count` random givens of the empty puzzle `empty`, none repeated in a group (the puzzle
    may still have no solution)."""
    rng = random.Random(seed)
    n = empty.rows
    givens: dict[int, int] = {}
    for cell in rng.sample(range(n * n), count):
        taken = {givens.get(c) for g in empty.groups if cell in g.cells for c in g.cells}
        free = [v for v in range(1, n + 1) if v not in taken]
        if free:
            givens[cell] = rng.choice(free)
    return givens


def spoiled(puzzle: Puzzle, seed: int) -> Puzzle:
    """`puzzle` with one given moved to another value no peer was given: often no solution."""
    rng = random.Random(seed)
    givens = dict(puzzle.givens)
    cell = rng.choice(sorted(givens))
    taken = {givens[c] for g in puzzle.groups if cell in g.cells for c in g.cells if c in givens and c != cell}
    free = [v for v in range(1, puzzle.values[1] + 1) if v not in taken]
    if free:
        givens[cell] = rng.choice(free)
    grid = [[givens.get(r * puzzle.cols + c, 0) for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    return Puzzle.sudoku(grid, puzzle.box)


def corpus() -> list[Puzzle]:
    """Random Sudoku 4x4, 6x6, 9x9, 16x16 (some with many solutions, some unique, some spoiled),
    Jigsaw 5x5 and 7x7 and Sudoku X 4x4 and 9x9 with random givens (solvable or not)."""
    out = []
    for size, box, shares in ((4, None, (0.5, 0.75, 0.9)), (6, (2, 3), (0.5, 0.7, 0.8)), (9, None, (0.55, 0.65, 0.75)),
                              (16, None, (0.5, 0.6))):
        for seed, share in enumerate(shares * 2):
            puzzle = emptied(full_grid(size, box, seed), share, seed, box)
            out.append(puzzle)
            if seed % 2:
                out.append(spoiled(puzzle, seed))
    for n, counts in ((5, (3, 5, 7)), (7, (8, 12, 16))):
        grid = {r * n + c: 1 + (r + c) % n for r in range(n) for c in range(n)}
        for seed, count in enumerate(counts):
            out.append(jigsaw(n, {cell: grid[cell] for cell in random.Random(seed).sample(sorted(grid), count)}))
            out.append(jigsaw(n, count // 2 + 1, seed))
    for n, counts in ((4, (1, 2, 3)), (9, (6, 10, 14))):
        for seed, count in enumerate(counts):
            out.append(sudoku_x(n, count, 100 + seed))
    for n, box, largest, diagonals in ((4, None, 3, False), (6, (2, 3), 4, False), (9, None, 5, False), (9, None, 9, False),
                                       (4, None, 2, True), (9, None, 4, True)):
        for seed in range(3):
            cages = killer(n, seed, largest, box, diagonals)
            out += [cages, killer_variant(cages, seed)]
    return out


def killer_variant(puzzle: Puzzle, seed: int) -> Puzzle:
    """`puzzle` (a Killer) with one cage's total one more or less (seed even: often no solution)
    or with a few givens of one of its solutions (seed odd)."""
    rng = random.Random(seed)
    n = puzzle.rows
    cages = [(g.total, [puzzle.cells[c] for c in g.cells]) for g in puzzle.cages]
    givens = [[0] * n for _ in range(n)]
    if seed % 2 == 0:
        k = rng.choice([k for k, (_, cells) in enumerate(cages) if len(cells) > 1])
        total, cells = cages[k]
        cages[k] = (total + 1 if total < sum(range(n - len(cells) + 1, n + 1)) else total - 1, cells)
    else:
        solution = kakuro.solve(puzzle, "cpsat" if REFERENCE == "cpsat" else "gac:family=false", time_limit=60).solution
        assert solution is not None
        for cell in rng.sample(range(n * n), n // 2):
            givens[cell // n][cell % n] = solution.values[cell]
    return Puzzle.killer(cages, n, givens, box=puzzle.box, diagonals=puzzle.diagonals)


@functools.cache
def reference_counts() -> tuple[tuple[Puzzle, int], ...]:
    """Each corpus puzzle with its count of solutions to 2 by the reference backend."""
    assert REFERENCE is not None
    counter = kakuro.get_solver(REFERENCE)
    out = []
    for puzzle in corpus():
        count = counter.count_solutions(puzzle, limit=2, time_limit=60)
        assert count.exhausted or count.count == 2, (puzzle, count)
        out.append((puzzle, count.count))
    return tuple(out)


def solve_one(puzzle: Puzzle, limit: int = 2, locked: bool = True) -> tuple[np.ndarray, np.ndarray]:
    batch = search(shape_of(puzzle, locked), puzzle, limit, Deadline())
    return batch.outcomes[0], batch.answers[0]


@needs_reference
@pytest.mark.parametrize("locked", [True, False])
def test_counts_to_two_agree_with_a_complete_backend_and_every_answer_is_valid(locked: bool) -> None:
    seen = set()
    for puzzle, expected in reference_counts():
        outcome, answers = solve_one(puzzle, 2, locked)
        assert outcome[COUNT] == expected, (puzzle, expected, outcome)
        assert outcome[CODE] == (LIMIT if expected == 2 else EXHAUSTED)
        for k in range(expected):
            assert puzzle.check(puzzle.solution(answers[k].tolist())) == [], (puzzle, k)
        if expected == 2:
            assert answers[0].tolist() != answers[1].tolist()
        seen.add(expected)
    assert seen == {0, 1, 2}, "the corpus has puzzles without a solution, with one, and with more"


@needs_reference
def test_a_batch_gives_what_one_by_one_gives() -> None:
    """Sudokus and Killers of one grid (each Killer its own cages) in one batch."""
    sudokus = [p for p, _ in reference_counts() if p.rows == 9 and p.box == (3, 3) and not p.diagonals]
    assert len(sudokus) >= 12 and sum(bool(p.cages) for p in sudokus) >= 6
    shape = shape_of(sudokus[0])
    together = solve_same_shape(shape, sudokus, limit=2, keep=2)
    assert together.batch.searched == len(sudokus)
    for i, puzzle in enumerate(sudokus):
        outcome, answers = solve_one(puzzle)
        assert together.batch.outcomes[i, :TIME].tolist() == outcome[:TIME].tolist()
        for k in range(2):
            if outcome[COUNT] > k:
                assert together.batch.answers[i, k].tolist() == answers[k].tolist()
                assert together.broken[i, k] == 0
            else:
                assert together.broken[i, k] == UNCHECKED


def test_the_compiled_check_agrees_with_puzzle_check() -> None:
    """On solutions and on solutions spoiled at random (values swapped, changed, out of range):
    valid exactly when `puzzle.check` finds nothing, and as many broken rules as it lists."""
    rng = random.Random(7)
    grids = [(full_grid(n, box, seed), box) for n, box in ((4, None), (6, (2, 3)), (9, None), (16, None)) for seed in range(3)]
    for grid, box in grids:
        puzzle = emptied(grid, 0.6, 1, box)
        n = len(grid)
        rules = rules_of(puzzle)
        givens = givens_rows([puzzle], n * n)
        answers = []
        for trial in range(60):
            values = [v for row in grid for v in row]
            for _ in range(trial % 4):
                a, b = rng.randrange(n * n), rng.randrange(n * n)
                if rng.random() < 0.5:
                    values[a], values[b] = values[b], values[a]
                else:
                    values[a] = rng.choice([0, n + 1, rng.randint(1, n)])
            answers.append(values)
        broken = check_rows(rules, np.repeat(givens, len(answers), axis=0), np.array(answers, dtype=np.int8))
        for values, count in zip(answers, broken):
            assert count == len(puzzle.check(puzzle.solution(values))), values
        assert (broken == 0).any() and (broken > 0).any()


def test_the_compiled_check_reads_cage_sums() -> None:
    puzzle = killer(9, seed=2)
    grid = full_grid(9, None, 2)
    values = [v for row in grid for v in row]
    rules = rules_of(puzzle)
    rows = np.zeros((2, 81), dtype=np.int8)
    answers = np.array([values, values], dtype=np.int8)
    cage = next(g for g in puzzle.cages if 2 <= len(g) <= 8)
    answers[1, cage.cells[0]] = min(set(range(1, 10)) - {values[c] for c in cage.cells})  # the cage's sum broken
    assert check_rows(rules, rows, answers).tolist() == [0, len(puzzle.check(puzzle.solution(answers[1].tolist())))]
    assert check_rows(rules, rows, answers)[1] > 0


def test_puzzles_the_search_does_not_take_are_refused_with_the_reason() -> None:
    assert family_refusal(Puzzle.sudoku([[0] * 4 for _ in range(4)])) is None
    assert family_refusal(killer(4, seed=1, largest=3)) is None
    wide = Puzzle.killer([(3, [(0, 0), (0, 1)])], 25)
    with pytest.raises(NotFamilyError, match="cages are over 25 values"):
        family_state(wide)
    assert family_refusal(Puzzle.sudoku([[0] * 25 for _ in range(25)])) is None
    kakuro_puzzle = Puzzle.all_white([6, 9, 8], [6, 9, 8], values=(1, 4))
    with pytest.raises(NotFamilyError, match="a Kakuro"):
        family_state(kakuro_puzzle)


def test_a_puzzle_of_another_shape_is_refused_by_the_batch() -> None:
    a = Puzzle.sudoku([[0] * 6 for _ in range(6)], (2, 3))
    b = Puzzle.sudoku([[0] * 6 for _ in range(6)], (3, 2))
    assert shape_key(a) != shape_key(b)
    with pytest.raises(ValueError, match="puzzle 1"):
        solve_same_shape(shape_of(a), [a, b])


def test_locked_candidates_spare_guesses_on_the_same_answers() -> None:
    """Pointing and claiming only remove candidates no solution uses: the same counts, the same
    answer where it is unique, and fewer guesses."""
    puzzles = [emptied(full_grid(9, None, seed), 0.55 + 0.05 * (seed % 3), seed) for seed in range(30)]
    st = family_state(puzzles[0])
    givens = givens_rows(puzzles, 81)
    with_locked = solve_givens(st, givens, limit=2, keep=2)
    st.spec[LOCKED] = 0
    without = solve_givens(st, givens, limit=2, keep=2)
    counts = with_locked.outcomes[:, COUNT]
    assert counts.tolist() == without.outcomes[:, COUNT].tolist()
    assert 1 in counts and 2 in counts
    unique = counts == 1
    assert with_locked.answers[unique, 0].tolist() == without.answers[unique, 0].tolist()
    assert with_locked.outcomes[:, NODES].sum() < without.outcomes[:, NODES].sum()
    assert with_locked.outcomes[:, FAILS].sum() <= without.outcomes[:, FAILS].sum()


EMPTY_9 = Puzzle.sudoku([[0] * 9 for _ in range(9)])
"""6.67e21 solutions: counting them never ends."""


def test_a_count_stops_at_the_deadline() -> None:
    st = family_state(EMPTY_9)
    with timed() as t:
        batch = solve_givens(st, np.zeros((3, 81), dtype=np.int8), limit=10**15, deadline=Deadline.after(0.2))
    assert batch.searched == 1
    assert batch.outcomes[0, CODE] == STOPPED and batch.outcomes[0, COUNT] > 1000
    assert batch.outcomes[1:, CODE].tolist() == [STOPPED, STOPPED] and batch.outcomes[1:, COUNT].tolist() == [0, 0]
    assert t.quiet(t.wall - 0.2) < 0.05, t


def test_each_puzzle_stops_at_its_budget_and_the_batch_goes_on() -> None:
    st = family_state(EMPTY_9)
    givens = np.zeros((3, 81), dtype=np.int8)
    givens[1] = [v for row in full_grid(9, None, 1) for v in row]
    with timed() as t:
        batch = solve_givens(st, givens, limit=10**15, budget=0.1)
    assert batch.searched == 3
    assert batch.outcomes[:, CODE].tolist() == [STOPPED, EXHAUSTED, STOPPED]
    assert batch.outcomes[:, COUNT].tolist()[1] == 1
    assert t.quiet(t.wall - 0.2) < 0.05, t


def test_ctrl_c_stops_the_search_and_raises_keyboard_interrupt() -> None:
    """The kernel holds the GIL, so the signal comes from the kernel's timer (SIGALRM, whose
    handler is Python's Ctrl-C handler), not from a thread."""
    st = family_state(EMPTY_9)
    before = signal.signal(signal.SIGALRM, signal.default_int_handler)
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            solve_givens(st, np.zeros((1, 81), dtype=np.int8), limit=10**15, deadline=Deadline.after(30))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert time.perf_counter() - start < 10
