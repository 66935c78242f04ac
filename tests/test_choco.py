"""The `choco` backend (issue 10): run compilation by brute force, every model agrees with
CP-SAT, time limits, options and stats. Skipped as a whole when pychoco is not installed
(`pip install -e ".[test]"` installs it, as the `choco` extra does)."""

from __future__ import annotations

import itertools
import subprocess
import sys
import time

import pytest

try:
    import pychoco  # noqa: F401
except ImportError:
    pytest.skip("pychoco is not installed (pip install pychoco, or the 'choco' extra)", allow_module_level=True)

import kakuro
from kakuro import KakuroError, Puzzle, Status
from kakuro.combos import combinations, permutation_table, run_automaton
from kakuro.errors import BackendOptionError
from kakuro.solvers.choco import MODELS, SEARCHES, build_model, model_size, precompile
from tests.backend_checks import unavailable_without
from tests.conftest import ROOT, shared_set, tree_env
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
    sample = shared_set("ifilot_cx16")
    janko = shared_set("janko")
    sample += janko[::111] + [janko[256]]  # janko-257 has two solutions
    for name in ("krazydad", "simonis_easy", "gecode_nikoli"):
        sample += shared_set(name)[::60]
    return sample


@pytest.fixture(scope="module")
def shared_with_cpsat(shared_sample: list[Puzzle]) -> list[tuple[Puzzle, kakuro.Count]]:
    """`shared_sample`, each puzzle with cpsat's count: counted once for every model."""
    return [(puzzle, kakuro.count_solutions(puzzle, "cpsat", limit=2, time_limit=30)) for puzzle in shared_sample]


@pytest.mark.parametrize("spec", SPECS)
def test_shared_sample_agrees_with_cpsat(spec: str, shared_with_cpsat: list[tuple[Puzzle, kakuro.Count]]) -> None:
    for puzzle, reference in shared_with_cpsat:
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
    stops the building. On a loaded machine the child building it may not answer in time and is
    killed: then the message cannot say which phase it was in."""
    with timed() as t:
        result = kakuro.solve(hard, "choco:model=table", time_limit=0.2)
    assert result.status is Status.UNKNOWN and result.message.startswith("time limit reached"), result
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
    with pytest.raises(KakuroError, match="has 3,628,800 orderings, more than the 2,000,000 a table holds; use model=mdd"):
        kakuro.solve(wide, "choco:model=table")
    assert kakuro.solve(wide, "choco:model=regular", time_limit=20).solved


def test_precompile_builds_every_run_of_a_range(two_solutions: Puzzle) -> None:
    assert set(precompile((1, 5))) == {"table", "regular", "mdd"}
    assert kakuro.count_solutions(two_solutions, "choco:model=mdd", limit=5).count == 2


def test_listed_as_unavailable_without_pychoco(monkeypatch: pytest.MonkeyPatch) -> None:
    info = unavailable_without(monkeypatch, "pychoco", "choco")
    assert not info.available and "pip install pychoco" in info.reason


# --------------------------------------------------------------------- models too large (issue 40)
LIBRARY_CALLS = """
import resource, sys, time
import kakuro
from kakuro.generate import cazenave
for case in sys.argv[1:]:
    size, values, spec = case.split()
    puzzle = cazenave(int(size), int(values), 100, count=1, seed=0)[0]
    kakuro.get_solver(spec).ensure_warm()
    started = time.process_time()
    try:
        result = kakuro.solve(puzzle, spec, time_limit=1)
        said = f"{result.status.name} {result.message}"
    except kakuro.KakuroError as exc:
        said = f"refused: {exc}"
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
    print(f"RESULT {case.replace(' ', '/')} {time.process_time() - started:.2f} {grown} {said}", flush=True)
"""
TOO_LARGE = [
    (15, 16, "choco:model=regular", "use model=mdd or model=decomposition"),
    (16, 17, "choco:model=regular", "use model=decomposition"),
    (16, 17, "choco", "use model=decomposition"),
    (15, 16, "choco:model=table", "use model=mdd or model=decomposition"),
]
"""Empty grids (size, values) whose model `spec` cannot build, and the model its refusal names."""


@pytest.fixture(scope="module")
def too_large_called() -> subprocess.CompletedProcess[str]:
    """`LIBRARY_CALLS` on every case of TOO_LARGE, in order, in one child process."""
    return subprocess.run([sys.executable, "-c", LIBRARY_CALLS, *(f"{size} {values} {spec}" for size, values, spec, _
                                                                  in TOO_LARGE)],
                          cwd=ROOT, env=tree_env(), capture_output=True, text=True, timeout=600)


@pytest.mark.timed  # a bound on CPU time, with a wall-clock timeout on the child
@pytest.mark.parametrize(("size", "values", "spec", "instead"), TOO_LARGE)
def test_a_model_too_large_for_choco_is_refused_at_once_and_the_caller_lives(
        size: int, values: int, spec: str, instead: str, too_large_called: subprocess.CompletedProcess[str]) -> None:
    """Issue 40: `regular` on an empty 15x15 grid over 1..16 ran 40 s and 4.6 GB with a 1 s
    limit, and on the 16x16 over 1..17 Java's OutOfMemoryError ended the calling process (exit
    99); the mdd model listed automata for seconds before refusing. The library calls run in one
    child process, which must live through all of them and print each result: a refusal in one
    line, naming the model to use, after milliseconds of CPU and no model built."""
    done = too_large_called
    lines = [line for line in done.stdout.splitlines() if line.startswith(f"RESULT {size}/{values}/{spec} ")]
    assert done.returncode == 0 and len(lines) == 1, (done.returncode, done.stderr[-2000:])
    _, _, cpu, peak, said = lines[0].split(" ", 4)
    assert said.startswith("refused: choco's") and said.endswith(instead), said
    # CPU seconds, MB: nothing was built (the Java engine alone peaks at 0.9-1.3 GB; a model at tens of GB)
    assert float(cpu) < 0.5 and int(peak) < 2048, lines[0]


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
def test_a_model_too_large_to_build_here_is_built_in_a_child_killed_at_the_limit() -> None:
    """The mdd model of an empty 15x15 grid over 1..16 fits Choco but compiles diagrams of
    245,760 transitions each, in calls no limit stops (about 2 s a run): built in a child, the
    solve stops at the limit and this process does none of the work."""
    from kakuro.generate import cazenave

    puzzle = cazenave(15, 16, 100, count=1, seed=0)[0]
    assert not model_size(puzzle, "mdd").in_process
    kakuro.get_solver("choco").ensure_warm()
    cpu = time.process_time()
    with timed() as t:
        result = kakuro.solve(puzzle, "choco", time_limit=0.5)
    assert result.status is Status.UNKNOWN and "time limit" in result.message
    assert time.process_time() - cpu < 0.5  # the child built it
    assert t.quiet(t.wall - 0.5 - 0.5) < 1.0, t  # past the limit and the grace: slack, as on an idle core


DIES = """
import os, sys
import kakuro, kakuro.solvers.choco as choco
from kakuro.generate import cazenave
def dies(*args, **kwargs):
    os._exit(99)  # as Java's OutOfMemoryError ends the process it is in
choco.build_model = dies
puzzle = cazenave(15, 16, 100, count=1, seed=0)[0]
print("RESULT", kakuro.solve(puzzle, "choco", time_limit=30).message, flush=True)
count = kakuro.count_solutions(puzzle, "choco", time_limit=30)
print("RESULT", count.status.name, count.message, flush=True)
"""


def test_java_dying_while_building_a_large_model_leaves_the_caller_alive() -> None:
    """A model estimated too large to build here is built in a child: Java ending the process it
    is in (out of memory: exit 99, injected) ends the child; the caller gets an ERROR in one line."""
    done = subprocess.run([sys.executable, "-c", DIES], cwd=ROOT, env=tree_env(), capture_output=True, text=True,
                          timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and len(lines) == 2, (done.returncode, done.stderr[-2000:])
    for line in lines:
        assert "exit code 99" in line and "Java may have run out of memory" in line and "\n" not in line, line
    assert lines[1].startswith("RESULT ERROR")


def test_model_sizes_match_what_choco_builds() -> None:
    """The estimate's bounds hold what the builders make: the automata's states and transitions,
    and the tables' rows (with givens, only their orderings)."""
    from kakuro.combos import automaton_bounds, range_mask

    for values in ((1, 9), (1, 12)):
        for length in range(1, 8):
            for total in range(length, length * values[1] + 1):
                spec = run_automaton(length, total, values)
                states, transitions = automaton_bounds(length, total, range_mask(values))
                assert len(spec.states) <= states and len(spec.transitions) <= transitions, (length, total)
                if len(combinations(length, total, values)) == 1:
                    assert (len(spec.states), len(spec.transitions)) == (states, transitions)
    for puzzle in (kakuro.read("instances/examples/puzzlink-6x5.txt")[0], *kakuro.read("instances/classic/unique-10x10.jsonl")):
        size = model_size(puzzle, "table")
        assert size.in_process and not size.refused
        built = build_model(puzzle, "table")
        assert built is not None
        built.close()
    wide = kakuro.read("instances/cazenave/10x10-v11-h50.jsonl")[0]  # 10-cell runs over 1..11: 10! orderings
    assert "3,628,800 orderings" in model_size(wide, "table").refused
    with pytest.raises(KakuroError, match="permutations, more than"):
        build_model(wide, "table")
