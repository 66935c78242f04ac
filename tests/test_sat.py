"""The `sat` backend: its encodings, its agreement with `cpsat`, its time limit, its options."""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import kakuro
from kakuro import BackendOptionError, BackendUnavailableError, Puzzle, Status
from kakuro.clock import Deadline
from kakuro.combos import combinations, feasible_values, mask_of, range_mask, values_of
from kakuro.reasoning import pysat_search
from kakuro.reasoning.cnf import ENCODINGS, encode
from kakuro.reasoning.pysat_search import SOLVER_NAMES, enumerate_with_sat, solve_with_sat
from tests.conftest import shared_set
from tests.random_puzzles import random_puzzles
from tests.timing import timed

TIME_SLACK = 1.0
"""Seconds past the limit, as on an idle core (`tests.timing`)."""


def single_run(total: int, givens: dict[int, int], length: int, values: tuple[int, int] = (1, 9)) -> Puzzle:
    """One across run of `length` cells with clue `total` (cell i given givens[i] if present)."""
    grid = [[[None, total]] + [givens.get(i, 0) for i in range(length)]]
    return Puzzle.from_grid(grid, values=values)


def unit_propagate(clauses: list[list[int]]) -> set[int] | None:
    """The literals unit propagation fixes (None on a conflict): an independent, naive one."""
    fixed: set[int] = set()
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(lit in fixed for lit in clause):
                continue
            free = [lit for lit in clause if -lit not in fixed]
            if not free:
                return None
            if len(free) == 1:
                fixed.add(free[0])
                changed = True
    return fixed


def counting_hard(n: int = 15) -> Puzzle:
    """An n x n all-white grid, values 1..n+1, every row and column individually feasible, but
    rows leave out 1..n and columns 2..n+1, so value 1 appears n-1 times by rows and n times
    by columns: unsatisfiable by a counting (pigeonhole-like) argument that is hard for
    resolution. CaDiCaL ran over 30 s on n = 15 here."""
    full = sum(range(1, n + 2))
    return Puzzle.all_white([full - k for k in range(1, n + 1)], [full - k for k in range(2, n + 2)], values=(1, n + 1))


# ----------------------------------------------------------------------------- encoding
@pytest.mark.parametrize("seed", range(4))
def test_unit_propagation_on_one_run_is_exactly_gac(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        length = rng.randint(1, 9)
        total = rng.choice([t for t in range(1, 46) if combinations(length, t)])
        digits = values_of(rng.choice(combinations(length, total)))
        rng.shuffle(digits)
        givens = {i: digits[i] for i in rng.sample(range(length), rng.randint(0, length - 1))}
        enc = encode(single_run(total, givens, length))
        fixed = unit_propagate(enc.clauses)
        assert fixed is not None
        kept = [mask_of(v for v in range(1, 10) if -enc.var(c, v) not in fixed) for c in range(length)]
        domains = [1 << givens[c] if c in givens else range_mask((1, 9)) for c in range(length)]
        assert kept == feasible_values(total, domains), (length, total, givens)


def test_unit_propagation_refutes_givens_outside_every_combination() -> None:
    # 3 cells summing to 7 are {1,2,4}: a given 3 contradicts the run at the root
    enc = encode(single_run(7, {0: 3}, 3))
    assert unit_propagate(enc.clauses) is None


def test_value_variables_come_first_and_decode(cazenave: Puzzle) -> None:
    enc = encode(cazenave)
    listed = list(enc.value_vars())
    assert [v for v, _, _ in listed] == list(range(1, cazenave.size * 9 + 1))
    assert all(enc.var(cell, value) == v for v, cell, value in listed)
    assert enc.num_vars > cazenave.size * 9 and enc.num_clauses == len(enc.clauses)
    model = [enc.var(c, 1 + c % 9) for c in range(cazenave.size)]
    assert enc.decode(model) == [1 + c % 9 for c in range(cazenave.size)]
    with pytest.raises(ValueError):
        enc.decode([])


def test_wide_value_ranges_encode_and_solve() -> None:
    puzzle = Puzzle.all_white([1 + 12, 20 + 30], [1 + 20, 12 + 30], values=(1, 30))
    for encoding in ENCODINGS:
        result = kakuro.solve(puzzle, f"sat:encoding={encoding}")
        assert result.status is Status.SOLVED and puzzle.check(result.solution) == []


def test_unknown_encoding_is_refused(cazenave: Puzzle) -> None:
    with pytest.raises(BackendOptionError):
        encode(cazenave, "ladder")
    with pytest.raises(BackendOptionError):
        kakuro.get_solver("sat:encoding=ladder")


def test_stats_report_encoding_sizes_and_search(cazenave: Puzzle) -> None:
    result = kakuro.solve(cazenave, "sat")
    enc = encode(cazenave)
    assert result.stats["num_vars"] == enc.num_vars and result.stats["num_clauses"] == enc.num_clauses
    assert {"conflicts", "decisions", "build_time"} <= set(result.stats)
    kissat = kakuro.solve(cazenave, "sat:solver=kissat404")
    assert kissat.solved and "conflicts" not in kissat.stats  # Kissat reports none: missing, not 0


# ----------------------------------------------------------------------------- agreement with cpsat
def _count(puzzle: Puzzle, backend: str) -> tuple[int, bool]:
    found = kakuro.count_solutions(puzzle, backend, limit=2, time_limit=None if backend.startswith("sat") else 30)
    assert found.status is not Status.ERROR, found.message
    return found.count, found.exhausted


@pytest.fixture(scope="module")
def random_with_cpsat() -> list[tuple[Puzzle, tuple[int, bool]]]:
    """The random puzzles the backends are checked on, each with cpsat's count: counted once."""
    return [(puzzle, _count(puzzle, "cpsat")) for puzzle in random_puzzles(seed=11, count=25)]


@pytest.mark.parametrize("backend", ["sat", "sat:encoding=pb", "sat:solver=glucose4", "sat:solver=kissat404"])
def test_counts_agree_with_cpsat_on_random_puzzles(backend: str, random_with_cpsat) -> None:
    for puzzle, reference in random_with_cpsat:
        assert _count(puzzle, backend) == reference, puzzle.to_grid()


def test_counts_agree_with_cpsat_on_shared_puzzles(janko: list[Puzzle]) -> None:
    sample = janko[::111] + [p for p in janko if p.id == "janko-257"]  # janko-257 has two solutions
    sample += shared_set("ifilot_cx16")  # givens, several solutions
    for puzzle in sample:
        assert _count(puzzle, "sat") == _count(puzzle, "cpsat"), puzzle.id


# ----------------------------------------------------------------------------- time limit
@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minisat22"])
def test_time_limit_stops_every_solver(solver: str) -> None:
    sat = kakuro.get_solver(f"sat:solver={solver}")
    sat.ensure_warm()  # the import is no part of the limit
    with timed() as t:
        result = sat.solve(counting_hard(), time_limit=0.5)
    assert t.quiet(t.wall - 0.5) < TIME_SLACK, t
    assert result.status is Status.UNKNOWN and result.solution is None and result.message == "time limit reached"
    # the encoding takes 0.07 s, but a child starved on a loaded machine may not finish it in 0.5 s:
    # then its sizes are unknown and absent (the tests below stop the child on either side of it)
    assert set(result.stats) in ({"num_vars", "num_clauses", "build_time"}, set()), result.stats


@dataclass(frozen=True)
class UntilFile(Deadline):
    """A deadline that passes once `marker` exists (polled every 10 ms): a kill at a known step."""

    marker: Path = Path("/nonexistent")

    def remaining(self) -> float:
        return 0.0 if self.marker.exists() else 0.01

    def expired(self) -> bool:
        return self.marker.exists()


def test_a_run_killed_while_solving_keeps_the_encoding_sizes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Killed at its limit after the encoding was built (in the child, once the solver starts),
    the run reports the encoding's sizes: what it knows."""
    import pysat.solvers

    real, marker, here = pysat.solvers.Solver, tmp_path / "solving", os.getpid()

    def solver_that_says_it_started(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != here:  # in the forked child, after it sent the sizes
            marker.touch()
        return real(*args, **kwargs)

    monkeypatch.setattr(pysat.solvers, "Solver", solver_that_says_it_started)
    for run in (lambda: solve_with_sat(counting_hard(), UntilFile(marker=marker)),
                lambda: enumerate_with_sat(counting_hard(), 2, UntilFile(marker=marker))):
        marker.unlink(missing_ok=True)
        result = run()
        assert isinstance(result.stats["num_vars"], int) and result.stats["num_vars"] > 0
        assert isinstance(result.stats["num_clauses"], int) and result.stats["num_clauses"] > 0


def test_a_run_killed_while_encoding_has_no_sizes_and_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed before the encoding exists, the run knows no sizes: they are absent (not 0, not a
    KeyError anywhere), the answer is UNKNOWN at the time limit, also through the backend."""
    monkeypatch.setattr(pysat_search, "encoded", lambda *args: time.sleep(600))  # in the child: never built
    result = kakuro.get_solver("sat").solve(counting_hard(), time_limit=0.3)
    assert (result.status, result.message) == (Status.UNKNOWN, "time limit reached")
    assert "num_vars" not in result.stats and "num_clauses" not in result.stats
    counted = kakuro.count_solutions(counting_hard(), "sat", limit=2, time_limit=0.3)
    assert (counted.status, counted.count) == (Status.UNKNOWN, 0) and "num_vars" not in counted.stats


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_counting_honours_the_time_limit() -> None:
    with timed() as t:
        found = kakuro.count_solutions(counting_hard(), "sat", limit=2, time_limit=0.5)
    assert t.quiet(t.wall - 0.5) < TIME_SLACK, t
    assert (found.status, found.count, found.exhausted) == (Status.UNKNOWN, 0, False)


# ----------------------------------------------------------------------------- options
def test_solver_names_match_pysat() -> None:
    from pysat.solvers import SolverNames

    assert set(SOLVER_NAMES) == {k for k in vars(SolverNames) if not k.startswith("_")}


def test_aliases_and_unknown_solvers_are_refused() -> None:
    with pytest.raises(BackendOptionError, match="cadical195"):
        kakuro.get_solver("sat:solver=g4")


def test_a_solver_needing_a_missing_package_says_so(cazenave: Puzzle) -> None:
    import importlib.util

    if importlib.util.find_spec("pycryptosat") is not None:
        pytest.skip("pycryptosat is installed")
    with pytest.raises(BackendUnavailableError, match="pip install pycryptosat"):
        kakuro.solve(cazenave, "sat:solver=cryptosat")
