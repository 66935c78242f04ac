"""Every solution the checker rejects is WRONG: in the library (`Status.WRONG` with the
checker's reasons), on the command line (exit 3), and in a compare campaign, local or on Dask
(`JobStatus.WRONG`, counted as wrong, exit 3). A backend cannot talk its way past the check by
changing the Puzzle object it is given, and a value too long to print is reported, not a crash.

The backends (`test-bad`, `test-mutate`) are at the end of tests/compare_backends.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import kakuro
from kakuro import cli as kakuro_cli
from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import Backend, Instance, Job, Limits
from kakuro.compare.worker import Reply
from kakuro.outcome import Enumeration, Status
from kakuro.puzzle import Puzzle
from kakuro.records.files import read_results
from kakuro.records.record import JobStatus
from kakuro.records.verdict import Witnesses, judge
from kakuro.registry import import_plugin, register, registry_restored
from kakuro.report import ALL, sections, summarize
from kakuro.solution import Solution
from kakuro.solver import EnumeratingSolver
from tests.conftest import UNSATISFIABLE
from tests.test_compare import BACKENDS_FILE, restore_registry, run  # noqa: F401 (restore_registry: a fixture)

REASONS = {
    "given": "was given 1 but holds",
    "sum": "sums to",
    "repeat": "repeats",
    "range": "outside 1..9",
    "length": "a solution needs 9 values, one per white cell; got 8",
    "huge": "an integer of about 5,000 digits",
}
"""`test-bad`'s kinds of broken solution, and the checker's words for each."""
MAX_MESSAGE = 1000
"""Characters a WRONG message stays under here (five reasons of about 60 characters)."""


@pytest.fixture(scope="module", autouse=True)
def test_backends(restore_registry):  # noqa: F811 (the fixture imported above)
    """test-bad and test-mutate registered in this process, for this module only."""
    return import_plugin(BACKENDS_FILE)


def latin() -> Puzzle:
    """A fresh 3x3 all-white puzzle with one given (1 at the top left): backends may spoil it."""
    return Puzzle.all_white([6, 6, 6], [6, 6, 6], values=(1, 9), givens={(0, 0): 1}, id="latin")


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("wrong") / "latin.jsonl"
    kakuro.write([latin()], path)
    return path


# --------------------------------------------------------------------- library
@pytest.mark.parametrize("kind", list(REASONS))
def test_a_rejected_solution_is_wrong_with_the_reason(kind: str) -> None:
    puzzle = latin()
    result = kakuro.solve(puzzle, f"test-bad:kind={kind}", time_limit=10)
    assert result.status is Status.WRONG and result.solution is None and not result.solved
    assert result.message.startswith("the checker rejected the solution: ") and REASONS[kind] in result.message
    assert len(result.message) < MAX_MESSAGE
    assert result.rejected is not None  # kept for inspection, as returned
    if kind == "length":
        assert len(result.rejected) == puzzle.size - 1
    else:
        assert puzzle.check(Solution(puzzle, result.rejected))


@pytest.mark.parametrize("how", ["total", "groups", "givens"])
def test_a_backend_that_changes_the_puzzle_is_still_wrong(how: str) -> None:
    puzzle = latin()
    result = kakuro.solve(puzzle, f"test-mutate:how={how}", time_limit=10)
    assert result.status is Status.WRONG and REASONS["sum"] in result.message
    assert puzzle.check(Solution(puzzle, result.rejected))  # the backend changed its copy, not the caller's puzzle
    for later in ("cpsat", "sat"):  # so later solves of the same object stay right
        solved = kakuro.solve(puzzle, later, time_limit=10)
        assert solved.solved and latin().check(Solution(latin(), solved.solution.values)) == []


def test_a_value_of_5000_digits_is_checked_with_a_short_message() -> None:
    puzzle = latin()
    for value in (10**4999, -(10**4999)):
        problems = puzzle.check(Solution(puzzle, (1, 2, 3, 2, 3, 1, 3, 1, value)))
        assert problems and all(len(p) < 120 for p in problems), problems
        assert "integer of about 5,000 digits, outside 1..9" in problems[0]
    grid = [[None] * 4] + [[None, 1, 2, 3], [None, 2, 3, 1], [None, 3, 10**4999, 10**4999]]
    assert any("repeats an integer of about 5,000 digits" in p for p in puzzle.check(grid))


def test_counting_a_solution_twice_or_a_bad_one_is_wrong(puzzle_file: Path, capsys) -> None:
    good = [1, 2, 3, 2, 3, 1, 3, 1, 2]

    class Twice(EnumeratingSolver):
        def _count(self, puzzle, opts, limit, deadline, seed):
            return Enumeration([good, list(good)], exhausted=True)

    class Bad(EnumeratingSolver):
        def _count(self, puzzle, opts, limit, deadline, seed):
            return Enumeration([good, good[:-1] + [4]], exhausted=True)

    with registry_restored():
        register("test-twice")(Twice)
        register("test-bad-count")(Bad)
        twice = kakuro.count_solutions(latin(), "test-twice")
        bad = kakuro.count_solutions(latin(), "test-bad-count")
        code = kakuro_cli.main(["count", str(puzzle_file), "-b", "test-twice"])
    out = capsys.readouterr().out
    assert code == kakuro_cli.EXIT_WRONG and len(out.strip().splitlines()) == 1 and "latin: wrong" in out
    assert twice.status is Status.WRONG and "twice" in twice.message and twice.rejected == tuple(good)
    assert bad.status is Status.WRONG and REASONS["sum"] in bad.message and bad.rejected == tuple(good[:-1] + [4])


def test_the_command_line_says_wrong_in_one_line_and_exits_3(puzzle_file: Path, capsys) -> None:
    code = kakuro_cli.main(["solve", str(puzzle_file), "-b", "test-bad:kind=repeat"])
    out, err = capsys.readouterr()
    assert code == kakuro_cli.EXIT_WRONG == 3
    assert len(out.strip().splitlines()) == 1 and "latin: wrong" in out and REASONS["repeat"] in out and err == ""


def test_a_wrong_answer_is_the_worst_exit_code_over_several_puzzles(tmp_path: Path, capsys) -> None:
    path = tmp_path / "three.jsonl"  # unsatisfiable (exit 5); spoiled (wrong); no given to spoil: test-bad raises (1)
    kakuro.write([kakuro.read(UNSATISFIABLE)[0], latin(), Puzzle.all_white([4, 4], [4, 4], values=(1, 9))], path)
    code = kakuro_cli.main(["solve", str(path), "--all", "-b", "test-bad:kind=given"])
    out = capsys.readouterr().out
    assert "unsatisfiable" in out and "latin: wrong" in out and ": error" in out
    assert code == kakuro_cli.EXIT_WRONG != kakuro_cli.EXIT_UNSATISFIABLE


# --------------------------------------------------------------------- compare
def test_the_verdict_records_a_worker_wrong_with_the_reason() -> None:
    puzzle = latin()
    job = Job(Instance.of("latin.jsonl", 0, puzzle), Backend("cpsat", "cpsat", "cpsat"), 0, 0, Limits(5.0, 1.0))
    bad = (1, 2, 3, 2, 3, 1, 3, 1, 9)
    status, message = judge(job, Attempt("reply", Reply(Status.WRONG, values=bad, message="worker said so")), Witnesses())
    assert status is JobStatus.WRONG and message.startswith("the checker rejected the solution: ")
    assert "sums to" in message  # the parent's own check, not the worker's word
    status, message = judge(job, Attempt("reply", Reply(Status.WRONG, message="worker said so")), Witnesses())
    assert (status, message) == (JobStatus.WRONG, "worker said so")


def _campaign(puzzle_file: Path, out: Path, *extra: str) -> int:
    argv = [str(puzzle_file), "--import", BACKENDS_FILE, "--time-limit", "10", "-j", "1", "-o", str(out), *extra]
    for kind in REASONS:
        argv += ["-b", f"test-bad:kind={kind}"]
    return run(argv)


def _check_campaign(code: int, out: Path) -> None:
    records = read_results(out)
    assert code == 3
    assert sorted(r.backend.partition("=")[2] for r in records) == sorted(REASONS)
    for record in records:
        kind = record.backend.partition("=")[2]
        assert record.status is JobStatus.WRONG, (kind, record.status, record.message)
        assert record.message.startswith("the checker rejected the solution: ") and REASONS[kind] in record.message
    rows = [row for section in sections(records) for row in summarize(section) if row.group == ALL]
    assert sum(row.counts["wrong"] for row in rows) == len(REASONS)
    assert sum(row.counts["error"] + row.counts["solved"] for row in rows) == 0


def test_a_campaign_records_every_rejected_solution_wrong_and_exits_3(puzzle_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "local.jsonl"
    _check_campaign(_campaign(puzzle_file, out), out)


def test_the_same_on_dask(puzzle_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "dask.jsonl"
    _check_campaign(_campaign(puzzle_file, out, "--dask", "local"), out)


def test_a_copy_shares_nothing_a_backend_could_change() -> None:
    puzzle = latin()
    copy = puzzle.copy()
    assert copy == puzzle and copy.groups == puzzle.groups and copy.givens == puzzle.givens
    object.__setattr__(copy.groups[0], "total", 7)
    object.__delattr__(copy.groups[1], "cells")
    assert puzzle.groups[0].total == 6 and puzzle.groups[1].cells == latin().groups[1].cells
    assert puzzle.check(puzzle.solution([1, 2, 3, 2, 3, 1, 3, 1, 2])) == []
