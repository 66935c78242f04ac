"""The native backends (fc, sampling, nmcs) against CP-SAT: satisfiability and solution counts
on generated Cazenave grids and on the real krazydad and janko puzzles; time limits, seeds,
value ranges and warm-up."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import KakuroError, Puzzle, Status
from kakuro.engine import compile
from kakuro.generate import cazenave
from tests.conftest import hard_for_gac, shared_set
from tests.timing import timed

FC = "fc:consistency=fc,values=random"
"""The paper's forward checking, named explicitly (the backend's defaults are stronger)."""
COMPLETE = [FC, "fc:consistency=fc,values=ascending", "fc:consistency=gac,values=random", "fc:values=ascending,consistency=gac",
            "gac", "gac:restarts=none,learning=false,order=dom,phase=false,balance=false",
            "gac:restarts=none,learning=false,order=dom,phase=false", "gac:learning=false,restarts=geometric",
            "rdv", "auto", "auto:search=native", "auto:search=sat"]
INCOMPLETE = [
    "sampling:consistency=fc",
    "sampling:consistency=gac",
    "nmcs:level=1,consistency=fc",
    "nmcs:consistency=fc",
    "nmcs:consistency=gac",
    "nmcs:level=3,consistency=gac",
]
RANDOMIZED = [FC, "fc:consistency=gac,values=random", "sampling:consistency=fc", "nmcs:level=1,consistency=fc",
              "nmcs:level=2,consistency=gac"]

@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    compile.ensure(*(f"{k}:{s}" for k in ("root", "depth_first", "sampling", "nested") for s in ("fc", "gac")))


def unsatisfiable_variant(p: Puzzle) -> Puzzle | None:
    """The same grid with one column sum raised by one (rows and columns then disagree)."""
    rows = [r.total for r in p.groups if r.direction == "across"]
    cols = [r.total for r in p.groups if r.direction == "down"]
    cols[-1] += 1
    givens = {(p.cells[c][0] - 1, p.cells[c][1] - 1): v for c, v in p.givens.items()}
    try:
        return Puzzle.all_white(rows, cols, values=p.values, givens=givens, id=f"{p.id}-unsat")
    except kakuro.InvalidPuzzleError:
        return None


def generated(cases: list[tuple[int, int, float]], seed: int) -> list[Puzzle]:
    puzzles = []
    for k, (size, values, holes) in enumerate(cases):
        for p in cazenave(size, values, holes, count=2, seed=seed + k):
            puzzles.append(p)
            # an empty grid whose totals disagree is hard to refute for every native search
            variant = unsatisfiable_variant(p) if size <= 4 or holes <= 80 else None
            if variant is not None:
                puzzles.append(variant)
    return puzzles


EASY = generated([(3, 3, 100), (3, 5, 100), (4, 5, 100), (4, 6, 60), (5, 6, 50), (5, 9, 40), (6, 7, 50)], seed=1)
"""Grids any native backend (even the paper's forward checking) decides in well under a second."""
HARDER = generated([(5, 7, 100), (6, 7, 100), (6, 8, 80), (7, 9, 70)], seed=50)
"""Grids for the run-level (gac) variants."""


@pytest.fixture(scope="module")
def cpsat_counts() -> dict[str, tuple[int, bool]]:
    out = {}
    for p in EASY + HARDER:
        c = kakuro.count_solutions(p, "cpsat", limit=2, time_limit=60, seed=0)
        assert c.status is not Status.UNKNOWN, p.id
        out[p.id] = (c.count, c.exhausted)
    return out


@pytest.mark.parametrize("spec", COMPLETE)
def test_complete_backends_count_like_cpsat_on_generated_grids(spec: str, cpsat_counts) -> None:
    puzzles = EASY + (HARDER if "gac" in spec or spec.startswith(("auto", "rdv")) else [])
    for p in puzzles:
        c = kakuro.count_solutions(p, spec, limit=2, time_limit=30, seed=1)
        assert (c.count, c.exhausted) == cpsat_counts[p.id], p.id
        solved = kakuro.solve(p, spec, time_limit=30, seed=1)
        assert solved.status is (Status.SOLVED if c.count else Status.UNSATISFIABLE), p.id


@pytest.mark.parametrize("spec", INCOMPLETE)
def test_incomplete_backends_agree_with_cpsat_on_satisfiability(spec: str, cpsat_counts) -> None:
    puzzles = EASY + (HARDER if "gac" in spec or spec.startswith("nmcs") else [])
    for p in puzzles:
        satisfiable = cpsat_counts[p.id][0] > 0
        # an incomplete search runs out every limit on a grid without a solution: 50 ms is
        # thousands of compiled samples, each answer checked, at a quarter of the CPU of 0.2 s
        result = kakuro.solve(p, spec, time_limit=10 if satisfiable else 0.05, seed=2)
        if satisfiable:
            assert result.status is Status.SOLVED, (p.id, result.status, result.message)
        else:
            assert result.status in (Status.UNKNOWN, Status.UNSATISFIABLE), p.id


# --------------------------------------------------------------------- real puzzles
@pytest.fixture(scope="module")
def real() -> dict[str, list[Puzzle]]:
    return {name: shared_set(name) for name in ("krazydad", "janko")}


def expected_count(p: Puzzle) -> int:
    """Known facts of ../shared/data: all unique except janko-257 (two solutions)."""
    return 2 if p.id == "janko-257" else 1


def test_a_sample_of_real_puzzles_agrees_with_cpsat(real) -> None:
    sample = real["krazydad"][::10] + real["janko"][::50] + [p for p in real["janko"] if p.id == "janko-257"]
    for p in sample:
        cp = kakuro.count_solutions(p, "cpsat", limit=2, time_limit=60, seed=0)
        fc = kakuro.count_solutions(p, "fc:consistency=gac", limit=2, time_limit=60, seed=0)
        assert (fc.count, fc.exhausted) == (cp.count, cp.exhausted), p.id
        assert set(fc.solutions) == set(cp.solutions), p.id
        for spec in ("sampling:consistency=gac", "nmcs:consistency=gac", "nmcs:level=1,consistency=gac"):
            result = kakuro.solve(p, spec, time_limit=10, seed=0)
            assert result.status is Status.SOLVED, (p.id, spec)
            assert result.solution in cp.solutions, (p.id, spec)


def test_the_papers_forward_checking_solves_small_real_puzzles(real) -> None:
    for p in [p for p in real["krazydad"] if "6x6" in p.id][::5]:
        result = kakuro.solve(p, FC, time_limit=20, seed=0)
        assert result.status is Status.SOLVED, p.id
        assert result.solution.to_grid() == [list(row) for row in p.meta["solution"]], p.id


def test_fc_gac_counts_every_krazydad_and_janko_puzzle(real) -> None:
    """The full cross-check: 1,199 puzzles, counted up to two (about 2 s)."""
    solver = kakuro.get_solver("fc:consistency=gac")
    wrong = []
    for p in real["krazydad"] + real["janko"]:
        c = solver.count_solutions(p, limit=2, time_limit=60, seed=0)
        expected = expected_count(p)
        if c.count != expected or c.exhausted != (expected == 1):
            wrong.append((p.id, c.count, c.exhausted, c.status))
        elif expected == 1 and c.solutions[0].to_grid() != [list(row) for row in p.meta["solution"]]:
            wrong.append((p.id, "another solution"))
    assert wrong == []


# --------------------------------------------------------------------- limits, seeds, ranges

@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("spec", COMPLETE[:1] + COMPLETE[2:3] + INCOMPLETE)
def test_a_short_time_limit_is_honoured(spec: str, hard: Puzzle) -> None:
    puzzle = hard_for_gac() if "gac" in spec else hard
    with timed() as t:
        result = kakuro.solve(puzzle, spec, time_limit=0.2, seed=1)
    assert result.status is Status.UNKNOWN, result.message
    assert t.quiet(result.time - 0.2) < 0.05 + 0.1, (result.time, t)  # the 50 ms promise, plus slack for scheduling
    assert t.quiet(t.wall - 0.2) < 0.05 + 0.5, t  # building the state and checking included


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_counting_honours_the_time_limit(hard: Puzzle) -> None:
    with timed() as t:
        c = kakuro.count_solutions(hard, FC, limit=2, time_limit=0.2)
    assert (c.status, c.count, c.exhausted) == (Status.UNKNOWN, 0, False)
    assert t.quiet(c.time - 0.2) < 0.15, (c.time, t)


@pytest.mark.parametrize("spec", RANDOMIZED)
def test_a_seed_reproduces_the_run(spec: str) -> None:
    puzzle = cazenave(5, 6, 100, seed=9)[0]
    first = kakuro.solve(puzzle, spec, time_limit=30, seed=4)
    second = kakuro.solve(puzzle, spec, time_limit=30, seed=4)
    assert first.status is Status.SOLVED
    assert first.solution == second.solution
    assert dict(first.stats) == dict(second.stats)


def test_different_seeds_sample_differently() -> None:
    puzzle = cazenave(5, 6, 100, seed=9)[0]
    stats = {tuple(sorted(kakuro.solve(puzzle, "sampling:consistency=fc", time_limit=30, seed=s).stats.items()))
             for s in range(4)}
    assert len(stats) > 1


def test_stats_use_the_shared_vocabulary(cazenave: Puzzle) -> None:
    fc = kakuro.solve(cazenave, FC, seed=1).stats
    assert {"nodes", "fails", "assignments", "root_solved"} <= set(fc) and "propagations" not in fc
    gac = kakuro.solve(cazenave, "fc:consistency=gac", seed=1).stats
    assert gac["propagations"] > 0
    nmcs = kakuro.solve(cazenave, "nmcs", time_limit=10, seed=1).stats
    assert {"samples", "assignments", "restarts"} <= set(nmcs) and "nodes" not in nmcs


def test_a_range_starting_at_zero_is_supported() -> None:
    grid = [[0, 3, 5], [4, 1, 0], [2, 0, 4]]
    rows, cols = [sum(r) for r in grid], [sum(c) for c in zip(*grid)]
    puzzle = Puzzle.all_white(rows, cols, values=(0, 5))
    cp = kakuro.count_solutions(puzzle, "cpsat", limit=10)
    for spec in (FC, "fc:consistency=gac"):
        c = kakuro.count_solutions(puzzle, spec, limit=10)
        assert (c.count, c.exhausted) == (cp.count, cp.exhausted) and cp.count >= 1
    for spec in ("sampling:consistency=fc", "nmcs:consistency=fc", "nmcs:consistency=gac"):
        assert kakuro.solve(puzzle, spec, time_limit=10, seed=0).solved


def test_wide_ranges_need_fc_and_gac_says_so() -> None:
    puzzle = cazenave(4, 62, 60, seed=3)[0]
    for spec in (FC, "nmcs:consistency=fc"):
        result = kakuro.solve(puzzle, spec, time_limit=10, seed=0)
        assert result.solved, spec
    # the paper's forward checking rarely hits wide sums at random: sampling only has to run
    assert kakuro.solve(puzzle, "sampling:consistency=fc", time_limit=0.2, seed=0).status in (Status.SOLVED, Status.UNKNOWN)
    empty = Puzzle.all_white([150] * 8, [150] * 8, values=(1, 62))
    for spec in ("nmcs:consistency=gac", "nmcs", "fc"):  # the defaults are gac: they say so too
        with pytest.raises(KakuroError, match="consistency=fc"):
            kakuro.solve(empty, spec, time_limit=1)


def test_options_are_validated() -> None:
    for bad in ("nmcs:level=0", "nmcs:level=9", "fc:values=descending", "sampling:consistency=ac3", "fc:level=2"):
        with pytest.raises(kakuro.BackendOptionError):
            kakuro.get_solver(bad)
    assert kakuro.get_solver("nmcs:level=1,consistency=fc").spec == "nmcs:level=1,consistency=fc"
    assert kakuro.get_solver("nmcs:level=1,consistency=gac").spec == "nmcs:level=1"  # the default is not repeated


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_warm_up_is_paid_once() -> None:
    kakuro.get_solver("fc").ensure_warm()  # paid here, if no test before paid it: the others share it
    for name in ("fc", "sampling", "nmcs"):
        with timed() as t:
            kakuro.get_solver(name).ensure_warm()
        assert t.quiet(t.wall) < 0.1, (name, t)
