"""The `choco` backend (issue 10): run compilation by brute force, every model agrees with
CP-SAT, time limits, options and stats. Skipped as a whole when pychoco is not installed
(`pip install -e ".[test]"` installs it, as the `choco` extra does)."""

from __future__ import annotations

import itertools

import pytest

try:
    import pychoco  # noqa: F401
except ImportError:
    pytest.skip("pychoco is not installed (pip install pychoco, or the 'choco' extra)", allow_module_level=True)

import kakuro
from kakuro import KakuroError, Puzzle, Status
from kakuro.combos import permutation_table, run_automaton
from kakuro.errors import BackendOptionError
from kakuro.solvers.choco import MODELS, SEARCHES, precompile
from tests.backend_checks import unavailable_without
from tests.conftest import shared_data_or_skip
from tests.timing import timed

SPECS = [f"choco:model={m}" for m in MODELS]


def brute_force(length: int, total: int, values: tuple[int, int]) -> set[tuple[int, ...]]:
    lo, hi = values
    return {s for s in itertools.product(range(lo, hi + 1), repeat=length) if len(set(s)) == length and sum(s) == total}


def accepted(length: int, total: int, values: tuple[int, int]) -> set[tuple[int, ...]]:
    """The words of `length` that the run automaton accepts, by running it on every word."""
    spec = run_automaton(length, total, values)
    step = {(s, v): t for s, v, t in spec.transitions}
    assert len(step) == len(spec.transitions), "the automaton is not deterministic"
    words = set()
    for word in itertools.product(range(values[0], values[1] + 1), repeat=length):
        state = 0
        for v in word:
            state = step.get((state, v))
            if state is None:
                break
        else:
            if state in spec.finals:
                words.add(word)
    return words


@pytest.mark.parametrize("values", [(1, 9), (0, 5), (3, 8)])
def test_tables_and_automata_hold_exactly_the_permutations(values: tuple[int, int]) -> None:
    lo, hi = values
    for length in range(1, 5):
        for total in range(lo * length, hi * length + 1):
            expected = brute_force(length, total, values)
            table = permutation_table(length, total, values)
            rows = {tuple(r) for r in table.tolist()}
            assert len(rows) == len(table) and rows == expected, (length, total)
            assert accepted(length, total, values) == expected, (length, total)


def test_nine_cell_run_is_every_ordering_and_small_automaton() -> None:
    table = permutation_table(9, 45)
    assert table.shape == (362880, 9) and len({tuple(r) for r in table[::997].tolist()}) == len(table[::997])
    assert (table.sum(axis=1) == 45).all() and (table.min(axis=1) == 1).all()
    spec = run_automaton(9, 45)
    assert len(spec.states) == 2**9 and len(spec.finals) == 1
    assert all(len(run_automaton(n, t).states) <= 2**9
               for n in range(1, 10) for t in range(n * (n + 1) // 2, 46 - (9 - n) * (10 - n) // 2))


@pytest.mark.parametrize("spec", SPECS)
def test_fixtures_agree_with_cpsat(spec: str, two_solutions: Puzzle, unsatisfiable: Puzzle, cazenave: Puzzle) -> None:
    for puzzle in (two_solutions, unsatisfiable, cazenave):
        mine = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=20)
        reference = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=20)
        assert (mine.status, mine.count, mine.exhausted) == (reference.status, reference.count, reference.exhausted)
        assert kakuro.solve(puzzle, spec, time_limit=20).status is reference.status


@pytest.fixture(scope="module")
def shared_sample() -> list[Puzzle]:
    """Every ifilot puzzle (givens, several with many solutions) and a slice of each other set."""
    folder = shared_data_or_skip()
    sample = kakuro.read(folder / "ifilot_cx16.jsonl")
    janko = kakuro.read(folder / "janko.jsonl")
    sample += janko[::111] + [janko[256]]  # janko-257 has two solutions
    for name in ("krazydad", "simonis_easy", "gecode_nikoli"):
        sample += kakuro.read(folder / f"{name}.jsonl")[::60]
    return sample


@pytest.mark.parametrize("spec", SPECS)
def test_shared_sample_agrees_with_cpsat(spec: str, shared_sample: list[Puzzle]) -> None:
    for puzzle in shared_sample:
        reference = kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)
        mine = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert (mine.count, mine.exhausted) == (reference.count, reference.exhausted), puzzle.id


def test_gac_models_solve_most_shared_puzzles_at_the_root(shared_sample: list[Puzzle]) -> None:
    janko = [p for p in shared_sample if p.id.startswith("janko")]
    for spec in ("choco:model=table", "choco:model=regular", "choco:model=mdd"):
        results = [kakuro.solve(p, spec, time_limit=30) for p in janko]
        assert all(r.solved for r in results)
        assert sum(r.stats["root_solved"] for r in results) >= len(janko) // 2, spec
        assert {"nodes", "fails", "backtracks", "search_time", "build_time", "num_vars"} <= set(results[0].stats)


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_time_limit_is_honoured_in_search_and_counting(hard: Puzzle) -> None:
    for call in (kakuro.solve, kakuro.count_solutions):
        with timed() as t:
            result = call(hard, "choco:model=decomposition", time_limit=0.4)
        assert result.status is Status.UNKNOWN and t.wall > 0.3 and t.quiet(t.wall - 0.4) < 1.0, (call.__name__, t)
    assert not kakuro.count_solutions(hard, "choco:model=decomposition", time_limit=0.2).exhausted


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_time_limit_stops_building_a_large_table(hard: Puzzle) -> None:
    """The 1..10 grid needs two tables of 9! rows (seconds to move into Choco): the deadline
    stops the building, and nothing half-built is cached."""
    with timed() as t:
        result = kakuro.solve(hard, "choco:model=table", time_limit=0.2)
    assert result.status is Status.UNKNOWN and "building" in result.message
    assert t.quiet(t.wall - 0.2) < 1.0, t


@pytest.mark.parametrize("model", ["regular", "mdd"])
def test_gac_models_refute_the_hard_grid_at_the_root(model: str, hard: Puzzle) -> None:
    result = kakuro.solve(hard, f"choco:model={model}", time_limit=20)
    assert result.status is Status.UNSATISFIABLE and result.stats["nodes"] == 0


@pytest.mark.parametrize("search", sorted(SEARCHES))
def test_every_search_strategy_solves_and_counts(search: str, cazenave: Puzzle, two_solutions: Puzzle) -> None:
    result = kakuro.solve(cazenave, f"choco:model=decomposition,search={search}", time_limit=20, seed=3)
    assert result.solved, result.message
    count = kakuro.count_solutions(two_solutions, f"choco:model=decomposition,search={search}", limit=5, time_limit=20)
    assert (count.count, count.exhausted) == (2, True)


def test_seed_drives_random_search(cazenave: Puzzle) -> None:
    """The grid has many solutions: seeds lead random search to different ones, reproducibly."""
    found = {seed: kakuro.solve(cazenave, "choco:model=decomposition,search=random", seed=seed, time_limit=20).solution
             for seed in (1, 2, 3, 4)}
    assert len(set(found.values())) > 1
    assert kakuro.solve(cazenave, "choco:model=decomposition,search=random", seed=2, time_limit=20).solution == found[2]


def test_options_are_validated() -> None:
    with pytest.raises(BackendOptionError):
        kakuro.get_solver("choco:model=sat")
    with pytest.raises(BackendOptionError):
        kakuro.get_solver("choco:algo=GAC3rm")
    assert kakuro.get_solver("choco:model=table,algo=STR2+").spec == "choco:model=table,algo=STR2+"


def test_str2_table_algorithm(cazenave: Puzzle, two_solutions: Puzzle) -> None:
    assert kakuro.solve(cazenave, "choco:model=table,algo=STR2+", time_limit=20).solved
    assert kakuro.count_solutions(two_solutions, "choco:model=table,algo=STR2+", limit=5).count == 2


def test_oversized_runs_are_refused_with_a_clear_error() -> None:
    wide = Puzzle.all_white([55], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], values=(1, 10))  # a 10-cell row: 10! orderings
    with pytest.raises(KakuroError, match="permutations, more than"):
        kakuro.solve(wide, "choco:model=table")
    assert kakuro.solve(wide, "choco:model=regular", time_limit=20).solved


def test_precompile_builds_every_run_of_a_range(two_solutions: Puzzle) -> None:
    assert set(precompile((1, 5))) == {"table", "regular", "mdd"}
    assert kakuro.count_solutions(two_solutions, "choco:model=mdd", limit=5).count == 2


def test_listed_as_unavailable_without_pychoco(monkeypatch: pytest.MonkeyPatch) -> None:
    info = unavailable_without(monkeypatch, "pychoco", "choco")
    assert not info.available and "pip install pychoco" in info.reason


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_a_diagram_too_large_to_build_within_a_limit_is_refused_at_once() -> None:
    """Choco builds an MDD in one call that no time limit stops: 16-cell runs over 1..17 (an
    empty 16x16 Cazenave grid) would take minutes, so the mdd model refuses them and names
    the models that work."""
    puzzle = kakuro.read("instances/hard/empty-16x16-v17.jsonl")[0]
    with timed() as t, pytest.raises(KakuroError, match="model=regular or model=decomposition"):
        kakuro.solve(puzzle, "choco", time_limit=10)
    assert t.quiet(t.wall) < 10, t
