"""The `dimacs` backend end to end with the stand-in SAT program tests/solvers/fake_sat.py (and
with a real SAT solver where one is on PATH): answers, counts against gac, each fault of a
program (missing, not executable, crashing, hanging, garbage, silent, lying, flooding) giving
one clear line and the right status, a path with spaces in a quoted spec, and Ctrl-C on
`kakuro solve` killing the program and what it started."""

from __future__ import annotations

import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.errors import BackendUnavailableError
from kakuro.options import spec_value
from kakuro.solvers import dimacs
from tests.backend_checks import as_from_a_terminal, counts_agree_with_gac, kinds_of_puzzles, one_line
from tests.conftest import EXAMPLES, ROOT, hard_for_gac, shared_set, tree_env
from tests.test_cli import run
from tests.timing import timed

FAKE = ROOT / "tests" / "solvers" / "fake_sat.py"
REAL = next((name for name in dimacs.DEFAULT_SOLVERS if shutil.which(name)), None)
"""The SAT program `dimacs` runs by default here, if any."""
needs_real = pytest.mark.skipif(REAL is None, reason=f"no SAT solver on PATH (looked for {', '.join(dimacs.DEFAULT_SOLVERS)})")


def fake(mode: str = "ok", *extra: str) -> str:
    """The spec of the stand-in in `mode`, run by this interpreter (it has PySAT)."""
    return f"dimacs:cmd={spec_value(shlex.join([sys.executable, str(FAKE), f'--mode={mode}', *extra]))}"


# ------------------------------------------------------------------------- answers
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.name)
def test_solves_the_examples_with_the_stand_in(path: Path) -> None:
    for puzzle in kakuro.read(path):
        result = kakuro.solve(puzzle, fake(), time_limit=60)
        assert result.status is Status.SOLVED, result.message
        assert result.stats["calls"] == 1 and result.stats["num_clauses"] > 0 and "conflicts" in result.stats


def test_counts_agree_with_gac_on_generated_puzzles() -> None:
    kinds = {count.bound for count in counts_agree_with_gac(fake(), "each kind")}
    assert {"exactly 0", "exactly 1", "at least 2"} <= kinds  # unsatisfiable, unique and multi-solution ones


@needs_real
def test_a_real_solver_on_path_is_the_default_and_counts_like_gac() -> None:
    assert kakuro.backend_info("dimacs")[0].available
    for puzzle in kinds_of_puzzles()[:6]:
        ours = kakuro.count_solutions(puzzle, "dimacs", limit=2, time_limit=60)
        gac = kakuro.count_solutions(puzzle, "gac", limit=2, time_limit=60)
        assert (ours.count, ours.exhausted) == (gac.count, gac.exhausted), puzzle.id


@needs_real
@pytest.mark.timed  # a bound on wall time
def test_the_time_limit_holds_on_a_hard_instance() -> None:
    hard = kakuro.read(ROOT / "instances" / "hard" / "empty-16x16-v17.jsonl")[0]
    with timed() as t:
        result = kakuro.solve(hard, "dimacs", time_limit=0.5)
    assert result.status in (Status.UNKNOWN, Status.SOLVED) and t.quiet(result.time - 0.5) < 1.0, (result.time, t)
    if result.status is Status.UNKNOWN:
        assert result.message == "time limit reached"


def test_a_sample_of_the_shared_puzzles_is_solved_without_a_wrong_answer() -> None:
    puzzles = shared_set("janko")[::140]  # 8 of janko's 999: a program started per puzzle
    spec = "dimacs" if REAL else fake()
    results = [kakuro.solve(p, spec, time_limit=60) for p in puzzles]
    assert [r.status for r in results] == [Status.SOLVED] * len(puzzles), [r.message for r in results]


# ------------------------------------------------------------------------- faults
@pytest.mark.parametrize(("mode", "status", "words"), [
    ("crash", Status.ERROR, "crashed (killed by signal SIGSEGV)"),
    ("garbage", Status.ERROR, "printed no 's' answer line (exit code 10)"),
    ("silent", Status.ERROR, "printed no 's' answer line (exit code 0)"),
    ("wrong", Status.ERROR, "answered SATISFIABLE but the model gives cell 0 no value"),
    ("noend", Status.ERROR, "'v' lines that do not end with 0"),
    ("lie-exit", Status.ERROR, "answered SATISFIABLE but ended with exit code 20 (10 expected)"),
    ("unknown", Status.UNKNOWN, "answered s UNKNOWN"),
    ("flood", Status.SOLVED, ""),  # 100 MB of comments: read, dropped, the answer kept
])
def test_a_misbehaving_program_gives_one_line_and_the_right_status(cazenave: Puzzle, mode: str, status: Status,
                                                                   words: str) -> None:
    result = kakuro.solve(cazenave, fake(mode), time_limit=60)
    assert result.status is status and words in one_line(result.message or "-"), result.message
    if status is Status.ERROR:
        assert "fake_sat.py" in result.message  # the program is named


def test_a_flood_of_answer_lines_is_cut_and_an_error(cazenave: Puzzle, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dimacs, "MAX_ANSWER_BYTES", 1 << 20)
    before = psutil.Process().memory_info().rss
    result = kakuro.solve(cazenave, fake("vflood"), time_limit=60)
    assert result.status is Status.ERROR and "bytes of answer lines; they were cut" in one_line(result.message)
    assert psutil.Process().memory_info().rss - before < 50 << 20  # 100 MB printed, not held


@pytest.mark.timed  # a bound on wall time
def test_a_hanging_program_is_killed_at_the_limit_with_what_it_started(cazenave: Puzzle, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    with timed() as t:
        result = kakuro.solve(cazenave, fake("hang-family", f"--pidfile={pidfile}"), time_limit=1)
    assert result.status is Status.UNKNOWN and result.message == "time limit reached"
    assert t.quiet(t.wall - 1) < 1.5, t
    assert_gone(pidfile)


def assert_gone(pidfile: Path) -> None:
    for pid in map(int, pidfile.read_text().split()):
        deadline = time.monotonic() + 5  # an orphan is reaped by init shortly after the kill
        while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline, f"process {pid} outlived kakuro's kill"
            time.sleep(0.05)


@pytest.mark.parametrize(("cmd", "words"), [
    ("/nonexistent/kissat", "/nonexistent/kissat does not exist"),
    ("no-such-sat-solver", "no-such-sat-solver is not on PATH"),
    (str(EXAMPLES / "cazenave-2010-table1.txt"), "is not executable (chmod +x it)"),
    (str(EXAMPLES), "is a directory"),
])
def test_a_program_that_cannot_run_is_unavailable_in_one_line(cazenave: Puzzle, cmd: str, words: str) -> None:
    with pytest.raises(BackendUnavailableError, match=re.escape(words)):
        kakuro.solve(cazenave, f"dimacs:cmd={spec_value(cmd)}")
    info = kakuro.backend_info("dimacs")[0]  # the default is what the listing shows, unchanged
    assert info.available == (REAL is not None)


def test_without_a_solver_on_path_it_is_listed_unavailable_saying_why(monkeypatch: pytest.MonkeyPatch,
                                                                      cazenave: Puzzle) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    info = kakuro.backend_info("dimacs")[0]
    assert not info.available
    assert info.reason.startswith("none of kissat, cadical, cryptominisat5, lingeling, picosat is on PATH; install one")
    assert "install kissat" in info.reason and info.reason.endswith("or name a program with dimacs:cmd=PATH")
    # a program named explicitly still runs, from the spec or as an option of the call
    assert kakuro.solve(cazenave, fake(), time_limit=60).solved
    assert kakuro.solve(cazenave, "dimacs", cmd=f"{sys.executable} {FAKE}", time_limit=60).solved


def test_the_command_line_takes_a_quoted_path_with_spaces(tmp_path: Path, cazenave: Puzzle,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The command line in this process: the spec reaches it as one argument, as from a shell."""
    folder = tmp_path / "my solver, v2"
    folder.mkdir()
    program = folder / "fake sat"
    program.write_text(f"#!{sys.executable}\n" + FAKE.read_text())
    program.chmod(0o755)
    puzzle_file = tmp_path / "p.txt"
    kakuro.write(cazenave, puzzle_file)
    spec = f'dimacs:cmd="{program}"'
    code, out, err = run(capsys, "solve", puzzle_file, "-b", spec, "--time-limit", "60")
    assert code == 0 and "solved" in out, err
    assert kakuro.get_solver(spec).settings["cmd"] == str(program)
    code, _, err = run(capsys, "solve", puzzle_file, "-b", "dimacs:cmd=/nonexistent/kissat")
    assert code != 0 and "/nonexistent/kissat does not exist" in one_line(err)


def test_ctrl_c_on_kakuro_solve_kills_the_program_and_its_children(tmp_path: Path) -> None:
    puzzle_file = tmp_path / "hard.jsonl"
    kakuro.write(hard_for_gac(), puzzle_file)
    pidfile = tmp_path / "pids"
    child = subprocess.Popen(
        [sys.executable, "-m", "kakuro", "solve", str(puzzle_file), "-b", fake("hang-family", f"--pidfile={pidfile}"),
         "--time-limit", "600"],
        cwd=ROOT, env=tree_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=as_from_a_terminal)
    deadline = time.monotonic() + 30
    while not (pidfile.exists() and len(pidfile.read_text().split()) == 2):
        assert time.monotonic() < deadline and child.poll() is None, child.communicate()
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130 and err.strip() == "kakuro: interrupted"
    assert_gone(pidfile)


# ------------------------------------------------------------------------- a program's whole tree (issue 40)
def test_a_daemon_the_program_started_is_killed_when_it_ends(cazenave: Puzzle, tmp_path: Path) -> None:
    """Issue 40: a daemonised child of a `dimacs:cmd` program (double fork, a session of its
    own) outlived even a normal solve."""
    pidfile = tmp_path / "pids"
    result = kakuro.solve(cazenave, fake("ok", f"--pidfile={pidfile}", "--daemon=yes"), time_limit=60)
    assert result.solved and len(pidfile.read_text().split()) == 2
    assert_gone(pidfile)


@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP", "SIGKILL", "timeout"])
def test_killing_kakuro_kills_the_program_and_everything_it_started(tmp_path: Path, how: str) -> None:
    """Issue 40: the children of a `dimacs:cmd` program (a plain one and a daemon) outlived
    `timeout`, SIGTERM, SIGHUP and SIGKILL of kakuro (the program alone died with it)."""
    puzzle_file = tmp_path / "hard.jsonl"
    kakuro.write(hard_for_gac(), puzzle_file)
    pidfile = tmp_path / "pids"
    command = [sys.executable, "-m", "kakuro", "solve", str(puzzle_file), "-b",
               fake("hang-family", f"--pidfile={pidfile}", "--daemon=yes"), "--time-limit", "600"]
    if how == "timeout":  # coreutils' timeout; its alarm is rung (SIGALRM) once the family is up, not waited for
        command = ["timeout", "600", *command]
    child = subprocess.Popen(command, cwd=ROOT, env=tree_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and len(pidfile.read_text().split()) == 3):
        assert time.monotonic() < deadline and child.poll() is None, "the program never started its family"
        time.sleep(0.05)
    family = [psutil.Process(int(pid)) for pid in pidfile.read_text().split()]
    child.send_signal(signal.SIGALRM if how == "timeout" else getattr(signal, how))
    child.wait(timeout=60)
    assert how != "timeout" or child.returncode == 124  # timeout's own expiry: it sent kakuro SIGTERM
    for process in family:
        end = time.monotonic() + 10
        while process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < end, f"process {process.pid} outlived kakuro ({how})"
            time.sleep(0.05)
