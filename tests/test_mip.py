"""The `mip` backend (issue 30): both models on HiGHS and SCIP solve the examples, count as gac
does on generated puzzles (unique, several solutions, none), fall back to the assignment rows
where a run's combinations cannot be listed, honour time limits, refuse a missing SCIP
clearly, and give no wrong answer on a sample of the shared puzzles. Skipped as a whole when
highspy is not installed (the `test` extra installs it)."""

from __future__ import annotations

import importlib.util

import pytest

if importlib.util.find_spec("highspy") is None:
    pytest.skip("highspy is not installed (pip install highspy, or the 'test' extra)", allow_module_level=True)

import kakuro
from kakuro import Puzzle, Status
from kakuro.availability import Engine
from kakuro.errors import BackendUnavailableError
from kakuro.generate import cazenave, classic
from kakuro.solvers import mip
from kakuro.solvers.mip import MODELS, build_program
from tests.backend_checks import interrupted_after, solves_the_examples
from tests.conftest import hard_for_gac, shared_set
from tests.timing import timed

HAS_SCIP = importlib.util.find_spec("pyscipopt") is not None
NO_SCIP = pytest.mark.skipif(not HAS_SCIP, reason="pyscipopt is not installed (pip install pyscipopt)")
SPECS = [f"mip:model={m}" for m in MODELS] + [
    pytest.param(f"mip:model={m},solver=scip", marks=NO_SCIP) for m in MODELS
]


@pytest.mark.parametrize("spec", SPECS)
def test_solves_the_examples(spec: str) -> None:
    solves_the_examples(spec, {"num_vars", "num_constraints", "nodes", "lp_iterations", "build_time"})


def generated() -> list[Puzzle]:
    """Small puzzles of every kind (the assignment model on SCIP takes up to seconds on each):
    Cazenave grids with several solutions, unsatisfiable ones whose totals agree, a classic
    grid with several solutions and a unique one."""
    return (cazenave(4, 6, 100, count=1, seed=9) + cazenave(5, 6, 70, count=1, seed=4)
            + cazenave(4, 5, 100, count=2, seed=3, unsatisfiable=True)
            + classic(5, 5, density=0.25, count=1, seed=5, unique=False)
            + classic(6, 6, density=0.3, count=2, seed=7)[1:])


@pytest.fixture(scope="module")
def reference() -> dict[str, tuple[int, bool]]:
    return {p.id or str(i): (c.count, c.exhausted) for i, p in enumerate(generated())
            for c in [kakuro.count_solutions(p, "gac", limit=2, time_limit=60)]}


@pytest.mark.parametrize("spec", SPECS)
def test_counts_agree_with_gac(spec: str, reference: dict[str, tuple[int, bool]]) -> None:
    kinds = set()
    for i, puzzle in enumerate(generated()):
        count = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=60)
        assert (count.count, count.exhausted) == reference[puzzle.id or str(i)], (puzzle.id, count)
        kinds.add(count.bound)
    assert kinds == {"exactly 0", "exactly 1", "at least 2"}  # the sample has each kind


def test_combinations_model_is_tighter_and_smaller_where_runs_have_one_combination() -> None:
    """A run of 2 summing to 3 has one combination: no selector, each of its values once."""
    puzzle = kakuro.read("#   3\\  4\\\n\\3  _   _\n\\4  _   _\n")[0]
    tight, loose = build_program(puzzle, "combinations"), build_program(puzzle, "assignment")
    assert [len(pairs) for pairs in tight.cell_columns] == [2, 1, 1, 2]  # {1, 2} & {1, 2}, {1, 2} & {1, 3}, ...
    assert tight.num_cols == 6  # the cells' columns only: no selector
    assert loose.num_cols == 4 * 9
    assert kakuro.count_solutions(puzzle, "mip", limit=2, time_limit=30).unique


def test_runs_too_wide_to_tabulate_fall_back_to_sums() -> None:
    """Runs of 10 over 1..30 have hundreds of thousands of combinations: written as the
    assignment model's rows, and the puzzle is still solved and counted."""
    puzzle = Puzzle.all_white([150, 160], [31] * 10, values=(1, 30))
    program = build_program(puzzle, "combinations")
    assert program.untabulated_runs == 2
    result = kakuro.solve(puzzle, "mip", time_limit=60)
    assert result.status is Status.SOLVED and result.stats["untabulated_runs"] == 2
    assert puzzle.check(result.solution) == []


@pytest.mark.parametrize("spec", SPECS)
def test_a_run_without_a_combination_is_unsatisfiable(spec: str) -> None:
    puzzle = kakuro.read("#   3\\  3\\\n\\3  _   _\n\\3  3   _\n")[0]  # a given 3 in runs of two cells summing to 3
    counted = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
    assert (counted.status, counted.count, counted.exhausted) == (Status.UNSATISFIABLE, 0, True)


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("spec", SPECS)
def test_time_limit_is_honoured_on_a_hard_instance(spec: str) -> None:
    """The unsatisfiable 16x16 grid over 1..17: HiGHS on the combinations model refutes it at the
    root in about 1 s, the other variants take longer."""
    hard = hard_for_gac(16)
    for call in (kakuro.solve, kakuro.count_solutions):
        with timed() as t:
            result = call(hard, spec, time_limit=0.3)
        assert result.status in (Status.UNKNOWN, Status.UNSATISFIABLE), result.message
        assert t.quiet(t.wall - 0.3 - mip.GRACE) < 0.7, (call.__name__, t)  # the grace is a wait, not work


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_a_search_stopped_at_its_limit_is_unknown_never_unsatisfiable() -> None:
    result = kakuro.solve(hard_for_gac(16), "mip:model=assignment", time_limit=0.5)
    assert result.status is Status.UNKNOWN and result.message == "time limit reached"
    assert "num_vars" in result.stats


def test_scip_is_refused_clearly_when_pyscipopt_is_missing(monkeypatch: pytest.MonkeyPatch, two_solutions: Puzzle) -> None:
    monkeypatch.setattr(mip, "SCIP", Engine("pyscipopt_not_installed", pip="pyscipopt"))
    with pytest.raises(BackendUnavailableError, match="pip install pyscipopt"):
        kakuro.solve(two_solutions, "mip:solver=scip", time_limit=10)
    assert kakuro.solve(two_solutions, "mip", time_limit=10).solved  # HiGHS is unaffected


@pytest.fixture(scope="module")
def janko_with_gac() -> list[tuple[Puzzle, kakuro.Count]]:
    """Every 200th janko puzzle and janko-257 (two solutions), each with gac's count: counted once."""
    janko = shared_set("janko")
    return [(puzzle, kakuro.count_solutions(puzzle, "gac", limit=2, time_limit=30))
            for puzzle in janko[::200] + [janko[256]]]


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["mip", pytest.param("mip:solver=scip", marks=NO_SCIP)])
def test_shared_sample_has_no_wrong_answer(spec: str, janko_with_gac: list[tuple[Puzzle, kakuro.Count]]) -> None:
    for puzzle, reference in janko_with_gac:
        count = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert count.status is not Status.WRONG and (count.count, count.exhausted) == (
            reference.count, reference.exhausted), puzzle.id


@pytest.mark.timed  # SIGINT to a child mid-search, the seconds to its exit bounded
def test_ctrl_c_stops_a_solve_without_a_limit() -> None:
    """HiGHS's own Python layer would catch Ctrl-C and wait: the solve runs in a child that the
    interrupted parent kills, and KeyboardInterrupt reaches the caller at once."""
    seconds, done = interrupted_after("mip:model=assignment", size=16)
    assert done.stdout.strip() == "interrupted", done.stderr[-1500:]
    assert seconds < 1.5
