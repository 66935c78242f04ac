"""The `minizinc` backend through the real `minizinc` executable (Debian's package ships
Gecode; CI installs it): answers, counts against gac, the stats vocabulary, the time limit, an
unknown or unusable solver in one line, and Ctrl-C on `kakuro solve` killing MiniZinc and the
solver it started. Skipped, saying so, where the executable is absent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.errors import BackendOptionError
from tests.backend_checks import as_from_a_terminal, counts_agree_with_gac, one_line
from tests.conftest import EXAMPLES, ROOT, hard_for_gac, shared_set, tree_env
from tests.test_cli import run
from tests.timing import timed

INFO = kakuro.backend_info("minizinc")[0]
pytestmark = pytest.mark.skipif(not INFO.available, reason=f"minizinc is not available: {INFO.reason}")


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_solves_the_examples(path: Path) -> None:
    for puzzle in kakuro.read(path):
        result = kakuro.solve(puzzle, "minizinc", time_limit=60)
        assert result.status is Status.SOLVED, result.message
        for key in ("nodes", "fails", "propagations", "num_vars", "num_constraints", "build_time"):
            assert key in result.stats, key


def test_counts_agree_with_gac_on_generated_puzzles() -> None:
    kinds = {count.bound for count in counts_agree_with_gac("minizinc", "each kind")}
    assert {"exactly 0", "exactly 1", "at least 2"} <= kinds


def test_counting_by_blocking_agrees_too(monkeypatch: pytest.MonkeyPatch, two_solutions: Puzzle,
                                         unsatisfiable: Puzzle, cazenave: Puzzle) -> None:
    """The path of a solver without -n (MiniZinc's MIP ones): a run per solution, each blocked."""
    from kakuro.solvers import minizinc

    listed = minizinc.find_solver

    def without_n(argv: object, name: str, deadline: object) -> dict[str, object]:
        config = dict(listed(argv, name, deadline))  # type: ignore[arg-type]
        config["stdFlags"] = [f for f in config.get("stdFlags", []) if f != "-n"]  # type: ignore[attr-defined]
        return config

    monkeypatch.setattr(minizinc, "find_solver", without_n)
    assert kakuro.count_solutions(two_solutions, "minizinc", limit=3).bound == "exactly 2"
    assert kakuro.count_solutions(unsatisfiable, "minizinc", limit=3).bound == "exactly 0"
    assert kakuro.count_solutions(cazenave, "minizinc", limit=2).bound == "at least 2"


@pytest.mark.timed  # a bound on wall time
def test_the_time_limit_holds_on_a_hard_instance() -> None:
    hard = kakuro.read(ROOT / "instances" / "hard" / "empty-16x16-v17.jsonl")[0]
    with timed() as t:
        result = kakuro.solve(hard, "minizinc", time_limit=0.5)
    assert result.status is Status.UNKNOWN and t.quiet(result.time - 0.5) < 1.5, (result, t)


def test_a_sample_of_the_shared_puzzles_is_solved_without_a_wrong_answer() -> None:
    puzzles = shared_set("janko")[::140]  # 10 of 1,398
    results = [kakuro.solve(p, "minizinc", time_limit=60) for p in puzzles]
    assert [r.status for r in results] == [Status.SOLVED] * len(puzzles), [r.message for r in results]


@pytest.mark.parametrize(("solver", "words"), [
    ("no-such-solver", "MiniZinc has no solver 'no-such-solver' here; it lists: "),
    ("gist", "MiniZinc's solver 'gist' (Gecode Gist) is graphical; it lists: "),
])
def test_an_unknown_solver_is_one_line_naming_the_listed_ones(cazenave: Puzzle, solver: str, words: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BackendOptionError, match="gecode") as caught:
        kakuro.solve(cazenave, f"minizinc:solver={solver}")
    assert str(caught.value).startswith(words)
    code, _, err = run(capsys, "solve", EXAMPLES / "cazenave-2010-table1.txt", "-b", f"minizinc:solver={solver}")
    assert code != 0 and "it lists:" in one_line(err)


def test_a_listed_solver_that_cannot_start_is_an_error_in_one_line(cazenave: Puzzle) -> None:
    """MiniZinc lists SCIP (and CPLEX, Gurobi, Xpress) wherever it is installed; without the
    library it fails to load it."""
    from kakuro.solvers.minizinc import ENGINE, listed_solvers, short_name

    if "scip" not in {short_name(c) for c in listed_solvers(tuple(ENGINE.command()))}:
        pytest.skip("this MiniZinc does not list SCIP")
    result = kakuro.solve(cazenave, "minizinc:solver=scip", time_limit=30)
    if result.status is Status.SOLVED:
        pytest.skip("SCIP is installed here")
    assert result.status is Status.ERROR and "minizinc failed" in one_line(result.message)


def fake_minizinc(folder: Path, solvers_json: str) -> Path:
    """A `minizinc` in `folder` that runs the real one but answers `--solvers-json` with the
    shell commands `solvers_json`; `folder` is put first on PATH by the caller."""
    import shutil

    real = shutil.which("minizinc")
    assert real is not None
    path = folder / "minizinc"
    path.write_text(f'#!/bin/sh\nif [ "$1" = --solvers-json ]; then {solvers_json}; fi\nexec {real} "$@"\n')
    path.chmod(0o755)
    return path


@pytest.mark.timed  # a bound on wall time
def test_a_hanging_solver_listing_honours_the_time_limit_and_its_own(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cazenave: Puzzle) -> None:
    """Issue 40: a `minizinc --solvers-json` that hangs cost 31 s whatever the limit, then a
    traceback. The probe stops at the caller's limit (UNKNOWN) or at its own (unavailable)."""
    from kakuro.errors import BackendUnavailableError
    from kakuro.solvers import minizinc

    fake_minizinc(tmp_path, "sleep 600")
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    started = time.perf_counter()
    result = kakuro.solve(cazenave, "minizinc", time_limit=1)
    assert result.status is Status.UNKNOWN and "asking MiniZinc for its solvers" in result.message
    assert time.perf_counter() - started < 1 + 1.0  # the limit, slack for a loaded machine
    monkeypatch.setattr(minizinc, "PROBE_SECONDS", 0.5)
    started = time.perf_counter()
    with pytest.raises(BackendUnavailableError, match=r"^minizinc is unavailable: .*--solvers-json did not answer "
                                                      r"within 0.5 s$"):
        kakuro.solve(cazenave, "minizinc", time_limit=30)
    assert time.perf_counter() - started < 0.5 + 1.0


@pytest.mark.parametrize(("answer", "said"), [
    ("echo 'cannot read the solver configurations' >&2; exit 3", "failed (exit code 3): cannot read the solver"),
    ("echo 'not json'; exit 0", "failed (exit code 0): its output is not a JSON list"),
    ("kill -SEGV $$", "failed (killed by signal SIGSEGV)"),
])
def test_a_failing_solver_listing_is_unavailable_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             answer: str, said: str) -> None:
    """Issue 40: a failing `minizinc --solvers-json` ended `kakuro solve` with a traceback."""
    fake_minizinc(tmp_path, answer)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    code, _, err = run(capsys, "solve", EXAMPLES / "cazenave-2010-table1.txt", "-b", "minizinc")
    line = one_line(err)
    assert code != 0 and line.startswith("kakuro: minizinc is unavailable: ") and said in line, line


def test_ctrl_c_on_kakuro_solve_kills_minizinc_and_its_solver(tmp_path: Path) -> None:
    puzzle_file = tmp_path / "hard.jsonl"
    kakuro.write(hard_for_gac(16), puzzle_file)
    child = subprocess.Popen([sys.executable, "-m", "kakuro", "solve", str(puzzle_file), "-b", "minizinc",
                              "--time-limit", "600"], cwd=ROOT, env=tree_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_from_a_terminal)
    deadline = time.monotonic() + 60
    solver: list[psutil.Process] = []
    while not solver:  # MiniZinc started its solver (fzn-gecode): the search is on
        assert time.monotonic() < deadline and child.poll() is None, child.communicate()
        family = psutil.Process(child.pid).children(recursive=True)
        solver = [p for p in family if p.name().startswith("fzn-")]
        time.sleep(0.05)
    family = psutil.Process(child.pid).children(recursive=True)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130 and err.strip() == "kakuro: interrupted"
    for process in family:
        end = time.monotonic() + 5
        while process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < end, f"{process.name()} ({process.pid}) outlived kakuro"
            time.sleep(0.05)
