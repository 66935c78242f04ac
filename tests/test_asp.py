"""The `asp` backend (clingo, issue 30): both models solve the examples and the shared
puzzles, count as `gac` does on generated puzzles (unsatisfiable and multi-solution ones
included), accept wide value ranges, honour time limits and Ctrl-C. Skipped as a whole when
clingo is not installed (`pip install clingo`, or the `test` extra)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

try:
    import clingo  # noqa: F401
except ImportError:
    pytest.skip("clingo is not installed (pip install clingo, or the 'test' extra)", allow_module_level=True)

import kakuro
from kakuro import Puzzle, Status
from kakuro.solvers.asp import MAX_RUN_COMBINATIONS, MODELS, build_program
from tests.backend_checks import (
    counts_agree_with_gac,
    interrupted_after,
    janko_sample_is_solved,
    limit_is_honoured,
    solves_the_examples,
    unavailable_without,
    wide_range_puzzle,
)
from tests.conftest import hard_for_gac

SPECS = [f"asp:model={m}" for m in MODELS]


def test_combinations_is_the_default() -> None:
    assert kakuro.get_solver("asp").full_spec == "asp:model=combinations"


@pytest.mark.parametrize("spec", SPECS)
def test_solves_the_examples(spec: str) -> None:
    solves_the_examples(spec, {"num_vars", "num_constraints", "decisions", "conflicts", "build_time"})


@pytest.mark.parametrize("spec", SPECS)
def test_counts_agree_with_gac_on_generated_puzzles(spec: str) -> None:
    assert {count.count for count in counts_agree_with_gac(spec)} == {0, 1, 2}  # unsatisfiable, unique, several


@pytest.mark.parametrize("spec", SPECS)
def test_janko_sample_has_no_wrong_answer(spec: str) -> None:
    janko_sample_is_solved(spec)


def test_wide_runs_keep_a_sum_in_the_combinations_model() -> None:
    """A 12-cell run over 1..40 has millions of combinations: that run keeps `#sum`."""
    puzzle = wide_range_puzzle()
    built = build_program(puzzle, "combinations")
    assert built is not None and built[1] == 2
    for spec in SPECS:
        count = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert count.status is Status.SOLVED and count.count == 2, (spec, count)
    assert kakuro.solve(puzzle, "asp", time_limit=30).stats["sum_runs"] == 2
    assert MAX_RUN_COMBINATIONS < 5_596_530


def test_combinations_model_refutes_the_hard_grid_at_once(hard: Puzzle) -> None:
    result = kakuro.solve(hard, "asp", time_limit=30)
    assert result.status is Status.UNSATISFIABLE and result.stats["decisions"] == 0


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("spec", SPECS)
def test_time_limit_is_honoured_on_a_hard_instance(spec: str) -> None:
    limit_is_honoured(spec)



@pytest.mark.timed  # SIGINT to a child mid-search, the seconds to its exit bounded
def test_ctrl_c_stops_a_solve_without_a_limit() -> None:
    seconds, done = interrupted_after("asp")
    assert done.stdout.strip() == "interrupted", done.stderr[-1500:]
    assert seconds < 1.5  # the interrupt, and the interpreter exit (about 0.5 s with Z3 or clingo loaded)


GROUNDING = 60
"""`hard_for_gac(60)`: an empty 60x60 grid over 1..61, whose program clingo grounds in about 5.5 s of CPU
(one call that neither a deadline nor Ctrl-C stops)."""


@pytest.fixture(scope="module")
def long_grounding() -> Puzzle:
    """`hard_for_gac(GROUNDING)`, made once (about 0.4 s of CPU)."""
    return hard_for_gac(GROUNDING)


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("call", [kakuro.solve, kakuro.count_solutions])
def test_time_limit_stops_a_long_grounding(call: Callable[..., Any], long_grounding: Puzzle) -> None:
    """Issue 40: grounding ignored the limit (13 s for 1 s): it runs in a child killed at the
    limit, and this process does none of it."""
    puzzle = long_grounding
    kakuro.get_solver("asp").ensure_warm()
    assert build_program(puzzle, "combinations") is not None  # its runs' tables counted once, off the clock
    started, cpu = time.perf_counter(), time.process_time()
    result = call(puzzle, "asp", time_limit=0.5)  # the grounding takes 13 s: any limit stops it
    assert result.status is Status.UNKNOWN
    assert call is kakuro.count_solutions or result.message == "time limit reached while grounding"
    assert time.process_time() - cpu < 0.5  # writing the program only; the child grounds
    assert time.perf_counter() - started < 0.5 + 0.5 + 1.0  # the limit, the grace, slack for a loaded machine


@pytest.mark.timed  # SIGINT to a child mid-grounding, the seconds to its exit bounded
def test_ctrl_c_stops_a_long_grounding() -> None:
    """Issue 40: Ctrl-C waited for the grounding to end (9 s)."""
    seconds, done = interrupted_after("asp", GROUNDING)
    assert done.stdout.strip() == "interrupted", done.stderr[-1500:]
    assert seconds < 1.5


def test_a_small_program_is_grounded_here_and_answer_sets_stream_from_a_child(monkeypatch: pytest.MonkeyPatch,
                                                                               two_solutions: Puzzle) -> None:
    """Both ways give the same answer: in this process (a small program) and in a child (the
    estimate forced over the bound), every answer set found kept."""
    import kakuro.solvers.asp as asp

    built = build_program(two_solutions, "combinations")
    assert built is not None and asp.grounding_seconds(two_solutions, built[0]) < asp.IN_PROCESS_GROUNDING
    here = kakuro.count_solutions(two_solutions, "asp", limit=5, time_limit=30)
    monkeypatch.setattr(asp, "IN_PROCESS_GROUNDING", -1.0)
    there = kakuro.count_solutions(two_solutions, "asp", limit=5, time_limit=30)
    assert (here.count, here.exhausted, set(here.solutions)) == (there.count, there.exhausted, set(there.solutions))
    assert there.count == 2 and there.exhausted and {"build_time", "decisions", "num_vars"} <= set(there.stats)


def test_listed_as_unavailable_without_clingo(monkeypatch: pytest.MonkeyPatch) -> None:
    info = unavailable_without(monkeypatch, "clingo", "asp")
    assert not info.available and "pip install clingo" in info.reason
