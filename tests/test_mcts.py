"""The Monte-Carlo family of issue 4 (flat, uct, and the `strategy` / `selection` options of
sampling, flat, uct and nmcs): only valid answers, reproducible with a seed, time limits.
Most specs name `consistency=fc`, the papers' forward checking, under which the searches have
real work to do (the default, `gac`, decides most of these grids at the root)."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.engine import compile, playout
from kakuro.engine.compile import callable_from_python
from kakuro.generate import cazenave
from kakuro.native.searches import start
from kakuro.native.settings import Strength
from tests.conftest import hard_for_gac
from tests.timing import timed

ALGORITHMS = ["sampling", "flat", "flat:playouts=3", "uct", "uct:playouts=20,c=0.4", "nmcs:level=1", "nmcs"]
PLAYING = [
    f"strategy={strategy},selection={selection}"
    for strategy in ("priority", "naive", "max-inference")
    for selection in ("priority", "values", "cells")
]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    compile.ensure(*(f"{k}:fc" for k in ("root", "sampling", "nested", "flat", "uct")))


def with_options(spec: str, extra: str) -> str:
    return f"{spec},{extra}" if ":" in spec else f"{spec}:{extra}"


GRIDS = cazenave(6, 7, 50, count=2, seed=11) + cazenave(8, 9, 50, count=2, seed=12)


@pytest.mark.parametrize("spec", ["flat:consistency=fc", "flat:consistency=gac", "nmcs:level=1,consistency=fc",
                                  "flat:playouts=1,consistency=fc"])
def test_priority_flat_and_nested_solve_8x8_half_holes(spec: str) -> None:
    """The issue's target: with `priority`, flat and nested searches solve the 50 %-holes grids."""
    for p in cazenave(8, 9, 50, count=5, seed=21):
        result = kakuro.solve(p, spec, time_limit=10, seed=3)
        assert result.status is Status.SOLVED, (p.id, spec, result.message)
        assert p.check(result.solution) == []


@pytest.mark.parametrize("playing", PLAYING)
@pytest.mark.parametrize("algorithm", ["sampling:consistency=fc", "flat:playouts=3,consistency=fc",
                                       "uct:playouts=30,consistency=fc", "nmcs:level=1,consistency=fc"])
def test_every_configuration_returns_only_valid_solutions(algorithm: str, playing: str) -> None:
    spec = with_options(algorithm, playing)
    for p in GRIDS:
        result = kakuro.solve(p, spec, time_limit=0.3, seed=1)
        assert result.status in (Status.SOLVED, Status.UNKNOWN), (p.id, spec)
        if result.solved:
            assert p.check(result.solution) == [], (p.id, spec)


@pytest.mark.parametrize("spec", ["flat:consistency=fc", "uct:consistency=fc", "flat:consistency=gac", "uct:consistency=gac"])
def test_flat_and_uct_solve_easy_grids(spec: str) -> None:
    for p in cazenave(5, 6, 60, count=3, seed=5):
        result = kakuro.solve(p, spec, time_limit=10, seed=2)
        assert result.status is Status.SOLVED, (p.id, spec, result.message)
        assert p.check(result.solution) == []


@pytest.mark.parametrize(
    "spec",
    ["flat:consistency=fc", "uct:consistency=fc", "flat:strategy=max-inference,selection=cells,consistency=fc",
     "uct:strategy=max-inference,selection=values,consistency=fc",
     "nmcs:level=1,strategy=max-inference,selection=values,consistency=fc",
     "sampling:strategy=naive,selection=cells,consistency=fc"],
)
def test_a_seed_reproduces_the_run(spec: str) -> None:
    puzzle = cazenave(5, 6, 80, seed=9)[0]
    first = kakuro.solve(puzzle, spec, time_limit=10, seed=4)
    second = kakuro.solve(puzzle, spec, time_limit=30, seed=4)
    assert first.status is Status.SOLVED, first.message
    assert first.solution == second.solution
    assert dict(first.stats) == dict(second.stats)


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize(
    "spec",
    ["flat:consistency=fc", "uct:consistency=fc", "flat:consistency=gac", "uct:consistency=gac",
     "flat:strategy=naive,selection=values,consistency=fc", "uct:strategy=max-inference,selection=cells,consistency=fc",
     "nmcs:strategy=naive,selection=cells,consistency=fc", "sampling:strategy=max-inference,selection=values,consistency=fc"],
)
def test_a_short_time_limit_is_honoured(spec: str, hard: Puzzle) -> None:
    if "consistency=gac" in spec:  # run-level reasoning refutes `hard` at the root
        hard = hard_for_gac()
    with timed() as t:
        result = kakuro.solve(hard, spec, time_limit=0.2, seed=1)
    assert result.status is Status.UNKNOWN, result.message
    assert t.quiet(result.time - 0.2) < 0.05 + 0.1, (result.time, t)  # the 50 ms promise, plus slack for scheduling
    assert t.quiet(t.wall - 0.2) < 0.05 + 0.5, t


def test_options_are_validated() -> None:
    for bad in ("flat:playouts=0", "uct:c=-1", "uct:strategy=greedy", "nmcs:selection=rows", "flat:level=2"):
        with pytest.raises(kakuro.BackendOptionError):
            kakuro.get_solver(bad)
    spec = "uct:playouts=50,c=0.4,strategy=naive,selection=cells"
    assert kakuro.get_solver(spec).spec.startswith("uct:")


def test_max_inference_plays_forced_cells() -> None:
    """After one move under max-inference no free cell is left with a single value."""
    puzzle = cazenave(6, 7, 60, seed=2)[0]
    st, decided = start(puzzle, Strength.FC, kakuro.Limits(kakuro.Deadline.after(10)), 1, ("samples",))
    assert decided is None
    playout.configure(st, "max-inference", "cells")
    move = callable_from_python(playout.choose_move)(st)
    if callable_from_python(playout.play_move)(st, move):
        assert not ((st.size == 1) & (st.val < 0)).any()


def test_defaults_keep_cazenaves_playout() -> None:
    """Default options give the same runs as before the options existed (priority, priority)."""
    puzzle = cazenave(6, 7, 80, seed=4)[0]
    for name in ("sampling", "nmcs"):
        plain = kakuro.solve(puzzle, f"{name}:consistency=fc", time_limit=30, seed=6)
        explicit = kakuro.solve(puzzle, f"{name}:consistency=fc,strategy=priority,selection=priority", time_limit=30, seed=6)
        assert plain.solution == explicit.solution and dict(plain.stats) == dict(explicit.stats)


@pytest.mark.timed  # a bound on wall time, as on an idle core (`tests.timing`), over two workers
def test_root_parallel_nmcs_returns_valid_solutions_and_honours_the_limit(hard: Puzzle) -> None:
    for p in cazenave(8, 9, 66, count=3, seed=5):
        result = kakuro.solve(p, "nmcs:workers=2,consistency=fc", time_limit=10, seed=0)
        assert result.status is Status.SOLVED and p.check(result.solution) == []
        assert result.stats["workers"] == 2
    with timed() as t:
        result = kakuro.solve(hard, "nmcs:workers=2,level=1,consistency=fc", time_limit=0.2, seed=1)
    assert result.status is Status.UNKNOWN
    assert t.quiet(result.time - 0.2) < 0.05 + 0.1 and t.quiet(t.wall - 0.2) < 0.05 + 0.5, (result.time, t)


def test_uct_does_not_replay_proven_losses() -> None:
    """Every line of this small unsatisfiable grid wipes out within two moves, which root
    forward checking cannot see: UCT marks those moves lost, so a game ends after a handful
    of assignments instead of spending its whole playout budget replaying them."""
    puzzle = Puzzle.all_white([4, 4], [3, 5], values=(1, 3), id="unsat-2x2")
    result = kakuro.solve(puzzle, "uct:playouts=1000,consistency=fc", time_limit=0.2, seed=1)
    assert result.status is Status.UNKNOWN and not result.stats["root_solved"]
    games = result.stats["restarts"] + 1
    assert result.stats["assignments"] / games < 100
