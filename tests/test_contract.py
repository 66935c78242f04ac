"""The contract every registered backend meets; a new backend runs it by registering.

Golden puzzles: Cazenave 2010 Table 1 (its Table 2 solution checks), the puzz.link vector of
issue 2 (exactly one solution), a puzzle with two solutions, an unsatisfiable one. Complete
backends must prove unsatisfiability and count solutions; incomplete ones must stop at the
time limit and never claim a wrong answer. Each budget beyond time (`kakuro.Budget`) is
honoured (a run stops at it, saying so, or answers within it) or refused in one line.
"""

from __future__ import annotations

import pytest

import kakuro
from kakuro import BackendOptionError, Budget, Puzzle, Status, UnsupportedOperationError
from kakuro.cli.present import budget_text
from kakuro.limits import BUDGETS
from kakuro.native_solver import NativeSolver
from kakuro.shipped import is_shipped
from tests.conftest import AVAILABLE, hard_for_gac
from tests.test_solver import puzzle_state
from tests.timing import timed

TIME_SLACK = 1.0
"""Seconds a backend may overrun its limit in these tests (process start-up noise included), as on
an idle core (`tests.timing`: divided by the machine's slowdown)."""


GIVE_UP = 1.0
"""Seconds an incomplete backend gets on a satisfiable golden puzzle before it may give up: the
native searches solve them in milliseconds, and `sahs` (a metaheuristic) rarely solves the
Cazenave grid in any time, so a longer limit only waited."""


def solver_class(name: str):
    return kakuro.get_solver(name).__class__


def solve_golden(name: str, puzzle: Puzzle) -> kakuro.Result:
    """Solve a satisfiable golden puzzle: complete backends must solve it (30 s), incomplete
    ones may give up at `GIVE_UP`; any solution must pass the checker."""
    complete = solver_class(name).complete
    result = kakuro.solve(puzzle, name, time_limit=30 if complete else GIVE_UP, seed=1)
    expected = {Status.SOLVED} if complete else {Status.SOLVED, Status.UNKNOWN}
    assert result.status in expected, result.message
    if result.solved:
        assert puzzle.check(result.solution) == []
    return result


@pytest.mark.parametrize("name", AVAILABLE)
def test_solves_the_golden_grid(name: str, cazenave: Puzzle) -> None:
    """Complete backends must solve it; an incomplete one may give up at its limit."""
    result = solve_golden(name, cazenave)
    assert result.time > 0 and result.backend.startswith(name)


@pytest.mark.parametrize("name", AVAILABLE)
def test_solves_an_easy_puzzle(name: str, two_solutions: Puzzle) -> None:
    result = kakuro.solve(two_solutions, name, time_limit=10, seed=1)
    assert result.status is Status.SOLVED, result.message
    assert two_solutions.check(result.solution) == []


@pytest.mark.parametrize("name", AVAILABLE)
def test_solves_the_puzzlink_vector(name: str, puzzlink: Puzzle) -> None:
    """Complete backends solve it and find exactly one solution; an incomplete one may give up."""
    complete = solver_class(name).complete
    solve_golden(name, puzzlink)
    if complete:
        count = kakuro.count_solutions(puzzlink, name, limit=2, time_limit=30)
        assert count.count == 1 and count.unique


@pytest.mark.parametrize("name", AVAILABLE)
def test_same_seed_same_answer(name: str, two_solutions: Puzzle, cazenave: Puzzle) -> None:
    cls = solver_class(name)
    if not cls.supports_seed:
        pytest.skip(f"{name} does not take a seed")
    for puzzle, limit in ((two_solutions, 10), (cazenave, 30 if cls.complete else GIVE_UP)):
        first = kakuro.solve(puzzle, name, time_limit=limit, seed=5)
        if first.status is Status.UNKNOWN:
            continue  # an incomplete search gave up: the path to its limit is not comparable
        second = kakuro.solve(puzzle, name, time_limit=30, seed=5)
        assert first.status is second.status
        assert first.solution == second.solution


@pytest.mark.timed  # a bound on wall time in one process: the parallel tests' load would break it
@pytest.mark.parametrize("name", AVAILABLE)
def test_unsatisfiable_puzzle(name: str, unsatisfiable: Puzzle) -> None:
    cls = solver_class(name)
    kakuro.get_solver(name).ensure_warm()  # imports and compiled kernels are no part of the limit
    with timed() as t:
        result = kakuro.solve(unsatisfiable, name, time_limit=1.0, seed=1)
    if cls.complete:
        assert result.status is Status.UNSATISFIABLE, result.message
    else:
        assert result.status in (Status.UNKNOWN, Status.UNSATISFIABLE), result.message
    assert result.solution is None
    assert t.quiet(t.wall - 1.0) < TIME_SLACK, t


@pytest.mark.timed  # a bound on wall time in one process: the parallel tests' load would break it
@pytest.mark.parametrize("name", AVAILABLE)
def test_time_limit_is_honoured_on_a_hard_puzzle(name: str, hard: Puzzle) -> None:
    cls = solver_class(name)
    if not cls.supports_time_limit:
        pytest.skip(f"{name} does not take a time limit")
    kakuro.get_solver(name).ensure_warm()
    with timed() as t:
        result = kakuro.solve(hard, name, time_limit=0.3, seed=1)
    assert t.quiet(t.wall - 0.3) < TIME_SLACK, t
    assert result.status in (Status.SOLVED, Status.UNKNOWN, Status.UNSATISFIABLE)
    if result.solved:
        assert hard.check(result.solution) == []


@pytest.mark.parametrize("name", AVAILABLE)
def test_counts_solutions_when_complete(name: str, two_solutions: Puzzle, unsatisfiable: Puzzle, cazenave: Puzzle) -> None:
    if not solver_class(name).complete:
        with pytest.raises(UnsupportedOperationError):
            kakuro.count_solutions(two_solutions, name)
        return
    two = kakuro.count_solutions(two_solutions, name, limit=5, time_limit=30)
    assert (two.count, two.exhausted, two.status) == (2, True, Status.SOLVED)
    assert len(set(two.solutions)) == 2 and all(two_solutions.check(s) == [] for s in two.solutions)
    capped = kakuro.count_solutions(two_solutions, name, limit=1, time_limit=30)
    assert (capped.count, capped.exhausted) == (1, False)
    none = kakuro.count_solutions(unsatisfiable, name, limit=2, time_limit=30)
    assert (none.count, none.exhausted, none.status) == (0, True, Status.UNSATISFIABLE)
    many = kakuro.count_solutions(cazenave, name, limit=2, time_limit=30)
    assert many.count == 2 and not many.exhausted and not many.unique


@pytest.mark.parametrize("name", AVAILABLE)
def test_leaves_the_puzzle_it_is_given_as_it_was(name: str, cazenave: Puzzle) -> None:
    """A shipped backend works on the caller's puzzle itself (`kakuro.shipped.is_shipped`: a
    plug-in gets a copy), so it must never change it, solving or counting, Kakuro or Sudoku."""
    cls = solver_class(name)
    assert is_shipped(cls)
    sudoku = Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], meta={"tags": ["x"]})
    for puzzle in (cazenave, sudoku):
        before = puzzle_state(puzzle)
        kakuro.solve(puzzle, name, time_limit=30 if cls.complete else GIVE_UP, seed=1)
        if cls.complete:
            kakuro.count_solutions(puzzle, name, limit=3, time_limit=30)
        assert puzzle_state(puzzle) == before


@pytest.fixture(scope="module")
def needs_search() -> Puzzle:
    """An unsatisfiable 12x12 grid over 1..13 that root reasoning does not refute: every
    complete backend needs thousands of nodes or dozens of conflicts for it."""
    return hard_for_gac(12)


def held_to(answer: kakuro.Result | kakuro.Count, name: str, key: str, bound: int, exact: bool) -> None:
    """`answer`, from a run given a budget of `bound` `name` (counted in its stats' `key`), was
    stopped by it, saying so with its count (at most `bound` when the engine stops `exact`ly;
    not an answer the template found past the budget), or it answered within it."""
    used = answer.stats.get(key)
    assert isinstance(used, int) and not isinstance(used, bool), (name, answer.stats)
    if answer.status in (Status.SOLVED, Status.UNSATISFIABLE) and getattr(answer, "exhausted", True):
        assert answer.stopped_by is None and used <= bound, answer
        return
    assert answer.status in (Status.UNKNOWN, Status.SOLVED), answer  # a count: SOLVED, not exhausted
    assert answer.stopped_by == name and answer.message.startswith(f"stopped by its budget of {name}"), answer
    if exact:
        assert used <= bound, answer


@pytest.mark.parametrize("name", AVAILABLE)
def test_each_budget_is_honoured_or_refused_in_one_line(name: str, needs_search: Puzzle, two_solutions: Puzzle) -> None:
    """A budget the backend declares (`Solver.budgets_for` its options) stops the search of a
    puzzle that needs one, saying which budget and what it counted (the native engine exactly
    at the bound), and leaves a puzzle it decides within the budget answered; any other budget
    is refused in one line before anything runs. `kakuro backends NAME` names what it honours."""
    cls = solver_class(name)
    solver = kakuro.get_solver(name)
    honoured = solver.budgets_for(solver.settings)
    assert set(honoured) <= set(BUDGETS) and set(honoured) <= set(cls.budgets)
    info = kakuro.backend_info(name)[0]
    assert all(budget in budget_text(info) for budget in honoured), budget_text(info)
    limit = 30 if cls.complete else 3
    for budget_name in BUDGETS:
        tight = Budget(**{budget_name: 2})
        if budget_name not in honoured:
            with pytest.raises(BackendOptionError) as refused:
                kakuro.solve(needs_search, name, time_limit=limit, seed=1, budget=tight)
            said = str(refused.value)
            assert "\n" not in said and repr(name) in said and f"budget of {budget_name}" in said, said
            if cls.complete:
                with pytest.raises(BackendOptionError):
                    kakuro.count_solutions(needs_search, name, time_limit=limit, budget=tight)
            continue
        key, exact = honoured[budget_name], issubclass(cls, NativeSolver)
        stopped = kakuro.solve(needs_search, name, time_limit=limit, seed=1, budget=tight)
        assert stopped.status is Status.UNKNOWN, stopped  # it needs more than 2 of either
        held_to(stopped, budget_name, key, 2, exact)
        if cls.complete:
            held_to(kakuro.count_solutions(needs_search, name, limit=2, time_limit=limit, budget=tight),
                    budget_name, key, 2, exact)
            roomy = Budget(**{budget_name: 10**6})
            counted = kakuro.count_solutions(two_solutions, name, limit=5, time_limit=limit, budget=roomy)
            assert (counted.count, counted.exhausted, counted.stopped_by) == (2, True, None), counted
            held_to(counted, budget_name, key, 10**6, exact)
        answered = kakuro.solve(two_solutions, name, time_limit=limit, seed=1, budget=Budget(**{budget_name: 10**6}))
        assert answered.status is Status.SOLVED and two_solutions.check(answered.solution) == []
        held_to(answered, budget_name, key, 10**6, exact)
