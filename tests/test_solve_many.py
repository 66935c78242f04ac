"""`kakuro.solve_many`: a stream of puzzles gives, in order, the Result `solve` gives each one
(every backend, a default that loops over `solve`); `gac` and `auto` search Sudoku-family
puzzles in batches through the family search with its state kept per shape, each answer
checked; options are parsed once, at the call; a broken answer is WRONG, never SOLVED; the
command line's `solve --all` goes through it."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import kakuro
from kakuro import BackendOptionError, Puzzle, Status
from kakuro.engine import many
from kakuro.family_search import shape_for
from kakuro.formats import write
from kakuro.generate.sudoku_grids import emptied, full_grid, killer
from kakuro.generate.unique_sudoku import unique_sudoku
from kakuro.records.files import read_results
from tests.conftest import AVAILABLE, ROOT

REFERENCE = next((name for name in ("cpsat", "sat") if name in AVAILABLE), None)


def stream() -> list[Puzzle]:
    """Sudoku 9x9 (unique, several solutions, none), a 4x4 and a 6x6 between them (shapes
    change), a Jigsaw, an X, Killers (alone and among Sudokus of their grid) and a Kakuro (which
    the family search does not take)."""
    nines = [unique_sudoku(9, seed=s) for s in range(3)]
    unsat = Puzzle.sudoku([[1, 2, 3, 4, 5, 6, 7, 8, 0], [0] * 8 + [9]] + [[0] * 9 for _ in range(7)])  # r1c9 has no value
    loose = emptied(full_grid(9, None, 3), 0.8, 3)
    four = Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    six = emptied(full_grid(6, (2, 3), 1), 0.5, 1, (2, 3))
    regions = [[(r, c) for r in range(5) for c in range(5) if (r - c) % 5 == k] for k in range(5)]
    jigsaw = Puzzle.jigsaw([[1, 0, 0, 0, 0]] + [[0] * 5 for _ in range(4)], regions)
    x = Puzzle.sudoku([[0] * 9 for _ in range(9)], diagonals=True)
    kakuro_puzzle = Puzzle.all_white([6, 15, 24], [12, 15, 18], values=(1, 9))
    return [*nines, unsat, four, nines[0], loose, six, six, jigsaw, killer(4, seed=1, largest=3), x, nines[1],
            kakuro_puzzle, nines[2], *nines, killer(9, seed=1, largest=4), nines[0], killer(9, seed=2, largest=4)]


@pytest.mark.parametrize("backend", ["gac", "auto", "gac:family=false", "fc"])
def test_each_result_is_what_solve_gives(backend: str) -> None:
    puzzles = stream()
    results = list(kakuro.solve_many(puzzles, backend, time_limit=60))
    assert len(results) == len(puzzles)
    solver = kakuro.get_solver(backend)
    for puzzle, result in zip(puzzles, results):
        alone = solver.solve(puzzle, time_limit=60)
        assert result.status == alone.status, (puzzle, result, alone)
        assert result.backend == alone.backend
        if result.solved:
            assert puzzle.check(result.solution) == []
            assert result.solution.puzzle is puzzle
        if kakuro.count_solutions(puzzle, "gac:family=false", limit=2).unique:
            assert result.solution == alone.solution
        assert result.time > 0
    assert [r.status for r in results].count(Status.UNSATISFIABLE) == 1


def test_gac_and_auto_take_the_family_to_its_search_and_keep_its_state_per_shape() -> None:
    """Killers share their grid's state (their cages are each puzzle's own)."""
    puzzles = stream()
    family = [p for p in puzzles if p.kind != "kakuro"]
    for backend in ("gac", "auto"):
        for puzzle, result in zip(puzzles, kakuro.solve_many(puzzles, backend)):
            assert (result.stats.get("path") == "family") == (puzzle in family), (puzzle, result.stats)
        alone = kakuro.solve(puzzles[0], backend)
        assert alone.stats["path"] == "family" and alone.stats["nodes"] >= 0
    assert "path" not in kakuro.solve(puzzles[0], "gac:family=false").stats
    assert shape_for(puzzles[0]) is shape_for(puzzles[1]) is shape_for(puzzles[-1]) is not None
    assert shape_for(puzzles[0]) is not shape_for(puzzles[4])


@pytest.mark.skipif(REFERENCE is None, reason="needs cpsat (pip install ortools) or sat (pip install python-sat)")
def test_family_counts_agree_with_another_engine() -> None:
    """gac and auto count Sudoku-family puzzles with the family search: the same bound as an
    engine that shares nothing with it."""
    for puzzle in stream():
        expected = kakuro.count_solutions(puzzle, REFERENCE, limit=3, time_limit=60)
        for backend in ("gac", "auto"):
            found = kakuro.count_solutions(puzzle, backend, limit=3, time_limit=60)
            assert (found.count, found.exhausted, found.status) == (expected.count, expected.exhausted, expected.status)
            assert set(found.solutions) == set(expected.solutions) or expected.count == 3


def test_every_backend_works_through_the_default_loop() -> None:
    puzzles = [unique_sudoku(4, seed=s) for s in range(3)]
    for backend in ("sampling", "backtrack", *([REFERENCE] if REFERENCE else [])):
        results = list(kakuro.solve_many(puzzles, backend, time_limit=30, seed=1))
        assert [r.status for r in results] == [Status.SOLVED] * 3
        assert all(p.check(r.solution) == [] for p, r in zip(puzzles, results))


def test_options_are_parsed_once_at_the_call_and_puzzles_are_read_lazily() -> None:
    def endless() -> Iterator[Puzzle]:
        for seed in itertools.count():
            yield emptied(full_grid(9, None, seed), 0.6, seed)

    def never() -> Iterator[Puzzle]:
        raise AssertionError("read before the options were checked")
        yield  # pragma: no cover

    with pytest.raises(BackendOptionError, match="no option 'famly'"):
        kakuro.solve_many(never(), "gac", famly=False)
    with pytest.raises(BackendOptionError, match="option 'family' takes true or false"):
        kakuro.solve_many(never(), "auto", family="perhaps")
    first = list(itertools.islice(kakuro.solve_many(endless(), "gac"), 5))
    assert [r.status for r in first] == [Status.SOLVED] * 5
    results = kakuro.solve_many([unique_sudoku(4, seed=0), "not a puzzle"], "gac")  # type: ignore[list-item]
    assert next(results).solved
    with pytest.raises(TypeError, match="expected a Puzzle"):
        next(results)


def test_a_puzzle_stops_at_its_time_limit_and_the_stream_goes_on() -> None:
    """A near-empty 25x25 grid needs hundreds of guesses: with a limit of a microsecond it stops
    at the first look at the clock (every 16 guesses and puzzles), and the next puzzle is solved."""
    open_grid = Puzzle.sudoku([[1] + [0] * 24] + [[0] * 25 for _ in range(24)])
    done = unique_sudoku(4, seed=0)
    results = list(kakuro.solve_many([done, open_grid, open_grid, done], "gac", time_limit=1e-6))
    assert [r.status for r in results] == [Status.SOLVED, Status.UNKNOWN, Status.UNKNOWN, Status.SOLVED]
    assert all(r.message == "time limit reached" for r in results[1:3])
    assert all(r.stats["nodes"] > 0 for r in results[1:3])
    results = list(kakuro.solve_many([open_grid, done], "gac", time_limit=60))
    assert [r.status for r in results] == [Status.SOLVED, Status.SOLVED]


def test_an_answer_that_breaks_a_rule_is_wrong_never_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that answers a broken grid (two values swapped): the compiled check rejects it
    and `Puzzle.check` words the WRONG result, as the template does."""
    search = many.solve_givens

    def broken(*args: object, **kwargs: object) -> many.Batch:
        batch = search(*args, **kwargs)  # type: ignore[arg-type]
        batch.answers[:, 0, [0, 1]] = batch.answers[:, 0, [1, 0]]
        return batch

    puzzles = [emptied(full_grid(9, None, s), 0.5, s) for s in range(6)]
    list(kakuro.solve_many(puzzles[:1], "gac"))  # the shape's state built before the search is broken
    monkeypatch.setattr(many, "solve_givens", broken)
    results = list(kakuro.solve_many(puzzles, "gac"))
    assert [r.status for r in results[1:]] == [Status.WRONG] * 5
    for puzzle, result in zip(puzzles[1:], results[1:]):
        assert result.solution is None and result.message.startswith("the checker rejected the solution")
        assert puzzle.check(puzzle.solution(list(result.rejected))) != []  # type: ignore[arg-type]


def test_the_compiled_check_is_what_accepts_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path checks each answer against the puzzle's own rules: a check that rejects
    everything makes every answer go to `Puzzle.check`, which accepts the good ones."""
    calls = []
    check = many.check_rows

    def rejecting(rules: many.Rules, givens: np.ndarray, answers: np.ndarray, own: many.OwnGroups) -> np.ndarray:
        calls.append(len(answers))
        return check(rules, givens, answers, own) + 1

    puzzles = [emptied(full_grid(9, None, s), 0.5, s) for s in range(4)]
    monkeypatch.setattr(many, "check_rows", rejecting)
    results = list(kakuro.solve_many(puzzles, "gac"))
    assert [r.status for r in results] == [Status.SOLVED] * 4
    assert sum(calls) >= 3  # all but the first, which went through solve


def test_solve_all_on_the_command_line_goes_through_solve_many(tmp_path: Path) -> None:
    puzzles = [emptied(full_grid(9, None, s), 0.55, s) for s in range(5)]
    path = tmp_path / "many.sdm"
    write(puzzles, path)
    run = subprocess.run([sys.executable, "-m", "kakuro", "solve", str(path), "--all", "-b", "gac", "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["status"] for r in records] == ["solved"] * 5
    assert all(r["stats"]["path"] == "family" for r in records)
    for puzzle, record in zip(puzzles, records):
        assert puzzle.check(record["solution"]) == []


def test_a_puzzle_the_family_search_gives_up_on_goes_to_the_backends_own_search() -> None:
    """This 25x25 grid sends the family's depth-first search into a heavy tail (1.5 million
    guesses in 20 s, no answer); after GUESSES it goes to the run-level search, which solves it
    in a fraction of a second, in solve and in solve_many alike."""
    tail = emptied(full_grid(25, None, 0), 0.55, 0)
    easy = emptied(full_grid(25, None, 1), 0.55, 1)
    alone = kakuro.solve(tail, "gac", time_limit=120)
    assert alone.solved and "path" not in alone.stats and alone.stats["nodes"] > 0
    results = list(kakuro.solve_many([easy, tail, easy], "gac", time_limit=120))
    assert [r.status for r in results] == [Status.SOLVED] * 3
    assert [r.stats.get("path") for r in results] == ["family", None, "family"]
    assert results[1].backend == "gac" and results[1].time > 0
    assert tail.check(results[1].solution) == []


def test_compare_over_sudoku_files_runs_through_the_family_search(tmp_path: Path) -> None:
    """A campaign's worker solves a Sudoku with gac and auto through the family search (its
    state kept per grid in the worker), as the records' stats say."""
    path = tmp_path / "nines.sdm"
    write([emptied(full_grid(9, None, s), 0.6, s) for s in range(3)], path)
    out = tmp_path / "results.jsonl"
    done = subprocess.run([sys.executable, "-m", "kakuro.compare", str(path), "-b", "gac", "-b", "auto", "-j", "1",
                           "--time-limit", "20", "-o", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    records = read_results(out)
    assert len(records) == 6 and {r.status.value for r in records} == {"SOLVED"}
    assert {r.stats.get("path") for r in records} == {"family"}
