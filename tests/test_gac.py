"""The `gac` backend: its root propagation against brute-force enumeration of every run, its
shaving against brute-force solution sets, and its answers against CP-SAT and the shared data."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.combos import values_of
from kakuro.reasoning.root import SHAVING, reduce
from tests.conftest import hard_for_gac, shared_data_or_skip, shared_set
from tests.random_puzzles import random_puzzles
from tests.reference import gac_fixpoint, initial_domains
from tests.timing import timed

SETS = ("janko", "simonis_easy", "krazydad", "gecode_nikoli", "ifilot_cx16")
SEVERAL = {"janko-257", "ifilot-cx16-001", "ifilot-cx16-019", "ifilot-cx16-061", "ifilot-cx16-065"}
"""The shared puzzles with more than one solution (../shared/data/README.md); all others have one."""


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    kakuro.get_solver("gac").ensure_warm()


# --------------------------------------------------------------------- brute force
def run_supports(total: int, domains: Sequence[int]) -> list[int]:
    """Per cell, the values it takes in some tuple of distinct values within the domains
    summing to `total`: every such tuple is enumerated."""
    support = [0] * len(domains)
    chosen: list[int] = []

    def extend(j: int, rest: int) -> None:
        if j == len(domains):
            if rest == 0:
                for k, v in enumerate(chosen):
                    support[k] |= 1 << v
            return
        for v in values_of(domains[j]):
            if v not in chosen and v <= rest:
                chosen.append(v)
                extend(j + 1, rest - v)
                chosen.pop()

    extend(0, total)
    return support


def brute_gac(puzzle: Puzzle, domains: list[int]) -> list[int] | None:
    """The fixpoint of `run_supports` over all runs; None on a wipe-out."""
    return gac_fixpoint(puzzle, domains, run_supports)


def all_solutions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every solution, by plain enumeration with checks on completed runs."""
    lo, hi = puzzle.values
    values = [0] * puzzle.size
    found: list[tuple[int, ...]] = []

    def ok(cell: int) -> bool:
        for r in puzzle.cell_groups[cell]:
            run = puzzle.groups[r]
            placed = [values[c] for c in run.cells if c <= cell]
            if len(set(placed)) < len(placed) or sum(placed) > run.total:
                return False
            if len(placed) == len(run.cells) and sum(placed) != run.total:
                return False
        return True

    def extend(cell: int) -> None:
        if cell == puzzle.size:
            found.append(tuple(values))
            return
        choices = [puzzle.givens[cell]] if cell in puzzle.givens else range(lo, hi + 1)
        for v in choices:
            values[cell] = v
            if ok(cell):
                extend(cell + 1)

    extend(0)
    return found


def small_puzzles() -> list[Puzzle]:
    return random_puzzles(seed=5, count=40)


# --------------------------------------------------------------------- root GAC
def test_root_gac_matches_brute_force_on_every_run(cazenave, two_solutions, unsatisfiable, puzzlink) -> None:
    for puzzle in [*small_puzzles(), cazenave, two_solutions, unsatisfiable, puzzlink]:
        expected = brute_gac(puzzle, initial_domains(puzzle))
        got = reduce(puzzle, "none")
        if got.refutation:  # the whole-grid count, beyond any run: right only when nothing fits
            assert got.wiped_out and all_solutions(puzzle) == [], puzzle
            continue
        if expected is None:
            assert got.wiped_out, puzzle
            continue
        assert not got.wiped_out, puzzle
        assert list(got.domains) == expected, puzzle
        assert got.removed_shaving == 0 and got.probes == 0
        initial = sum(bin(d).count("1") for d in initial_domains(puzzle))
        assert got.removed_gac == initial - sum(bin(d).count("1") for d in expected)


# --------------------------------------------------------------------- shaving
@pytest.mark.parametrize("shaving", ["once", "fixpoint"])
def test_shaving_removes_only_unsupported_values(shaving: str) -> None:
    shaved_some = 0
    for puzzle in small_puzzles():
        solutions = all_solutions(puzzle)
        gac = reduce(puzzle, "none")
        shaved = reduce(puzzle, shaving)
        if not solutions:
            assert shaved.wiped_out or not shaved.solved, puzzle
            continue
        assert not shaved.wiped_out, puzzle
        for cell in range(puzzle.size):
            used = 0
            for s in solutions:
                used |= 1 << s[cell]
            assert used & shaved.domains[cell] == used, (puzzle, cell)  # no solution value removed
            assert shaved.domains[cell] & gac.domains[cell] == shaved.domains[cell]
        removed = sum(bin(a).count("1") - bin(b).count("1") for a, b in zip(gac.domains, shaved.domains))
        assert removed == shaved.removed_shaving
        shaved_some += removed > 0
        if shaved.solved:
            assert solutions == [tuple(d.bit_length() - 1 for d in shaved.domains)]
    assert shaved_some >= 3  # the sample exercises shaving beyond GAC


def test_shaving_fixpoint_is_singleton_arc_consistent() -> None:
    """Every value left by shaving=fixpoint survives (brute-force) GAC once assigned, and every
    value it removed does not."""
    for puzzle in small_puzzles():
        gac = reduce(puzzle, "none")
        shaved = reduce(puzzle, "fixpoint")
        if shaved.wiped_out:
            continue
        domains = list(shaved.domains)
        for cell in range(puzzle.size):
            if domains[cell] & (domains[cell] - 1) == 0:
                continue
            for v in values_of(domains[cell]):
                trial = domains[:cell] + [1 << v] + domains[cell + 1 :]
                assert brute_gac(puzzle, trial) is not None, (puzzle, cell, v)
        for cell in range(puzzle.size):
            for v in values_of(gac.domains[cell] & ~domains[cell]):
                trial = domains[:cell] + [1 << v] + domains[cell + 1 :]
                assert brute_gac(puzzle, trial) is None, (puzzle, cell, v)


# --------------------------------------------------------------------- answers
@pytest.mark.parametrize("shaving", SHAVING)
def test_counts_agree_with_cpsat(shaving: str, cazenave, two_solutions, unsatisfiable, puzzlink) -> None:
    solver = kakuro.get_solver("gac", shaving=shaving)
    for puzzle in [*random_puzzles(seed=17, count=30), cazenave, two_solutions, unsatisfiable, puzzlink]:
        expected = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        got = solver.count_solutions(puzzle, limit=2, time_limit=30)
        assert (got.count, got.exhausted, got.status) == (expected.count, expected.exhausted, expected.status), puzzle
        result = solver.solve(puzzle, time_limit=30)
        assert result.status is (Status.SOLVED if expected.count else Status.UNSATISFIABLE), puzzle
        assert result.stats["root_solved"] == (result.stats["nodes"] == 0)


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_time_limit_stops_the_search() -> None:
    """An unsatisfiable empty grid whose totals agree: neither GAC nor the totals check sees
    it, so the search runs until the limit."""
    puzzle = hard_for_gac()
    for shaving in SHAVING:
        with timed() as t:
            result = kakuro.solve(puzzle, f"gac:shaving={shaving}", time_limit=0.2)
        assert result.status is Status.UNKNOWN and t.quiet(result.time - 0.2) < 0.8, (shaving, result.time, t)


def test_options_are_validated(two_solutions: Puzzle) -> None:
    with pytest.raises(kakuro.BackendOptionError):
        kakuro.solve(two_solutions, "gac:shaving=twice")
    with pytest.raises(ValueError):
        reduce(two_solutions, "twice")


@pytest.mark.slow
def test_every_shared_puzzle_has_its_recorded_solution_count() -> None:
    """Counts up to two on all 1,398 shared puzzles: two for the five with several solutions
    (CP-SAT agrees, checked here), one for every other (as the data's README records, from
    CP-SAT), and that one is the stored solution."""
    folder = shared_data_or_skip()
    stored = {
        r["id"]: r["solution"] for r in map(json.loads, (folder / "computed_solutions.jsonl").read_text().splitlines())
    }
    solver = kakuro.get_solver("gac")
    wrong = []
    root_solved = {}
    for name in SETS:
        puzzles = shared_set(name)
        root_solved[name] = 0
        for puzzle in puzzles:
            count = solver.count_solutions(puzzle, limit=2, time_limit=30)
            root_solved[name] += bool(count.stats["root_solved"])
            expected = 2 if puzzle.id in SEVERAL else 1
            if count.count != expected or count.status is not Status.SOLVED:
                wrong.append((puzzle.id, count.count, count.status))
            elif expected == 1:
                solution = puzzle.meta.get("solution") or stored[puzzle.id]
                if count.solutions[0].to_grid() != [list(row) for row in solution]:
                    wrong.append((puzzle.id, "another solution"))
            elif kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30).count != 2:
                wrong.append((puzzle.id, "cpsat disagrees"))
    assert wrong == []
    # the target: gac with shaving solves at least 95% of janko with no search
    assert root_solved["janko"] >= 0.95 * 999
