"""Worker lifecycle (issue 27, items 4 and 7): a worker death is a CRASH at once, a warm-up that
ends the process is never a quiet success, nothing a job starts outlives it, and workers die
with the compare process; SIGHUP and SIGTERM stop a campaign like Ctrl-C.

Misbehaving backends come from tests/compare_backends.py (`--import`).
"""

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
from kakuro.records.files import read_results
from kakuro.records.record import JobStatus
from tests.conftest import EXAMPLES, ROOT
from tests.test_compare import BACKENDS_FILE, restore_registry, run  # noqa: F401 (restore_registry: a fixture)

# With the parallel tests: every signal goes to a process by its id (compare's, or a worker's),
# never to a group others share, and every bound is a status or a wait of seconds for what was
# killed to be gone (a kill takes effect whatever the load) or for a limit no job may reach.

LONG_LIMIT = 20.0
"""A limit no test here may wait for: a job that ends early proves it was not timed out."""


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lifecycle") / "caz.txt"
    kakuro.write(kakuro.read(EXAMPLES / "cazenave-2010-table1.txt"), path)
    return path


def running(pid: int) -> bool:
    """True while `pid` runs (a zombie does not)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def pids(path: Path) -> list[int]:
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def gone_within(pid_list: list[int], seconds: float) -> list[int]:
    """The pids still running after waiting up to `seconds` for them to end."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and any(running(p) for p in pid_list):
        time.sleep(0.05)
    return [p for p in pid_list if running(p)]


def kill_all(pid_list: list[int]) -> None:
    for pid in pid_list:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_worker_that_exits_with_status_0_is_a_crash_at_once(puzzle_file: Path, tmp_path: Path) -> None:
    """Item 4: pebble reports a worker exiting with 0 as nothing, so the job was a TIMEOUT after
    the whole limit plus grace, and --resume never ran it again."""
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    code = run([str(puzzle_file), "--import", BACKENDS_FILE, "-b", "test-exit0", "-b", "cpsat", "--repeat", "2",
                "--time-limit", str(LONG_LIMIT), "-j", "1", "--no-progress", "-o", str(out)])
    seconds = time.monotonic() - started
    records = read_results(out)
    assert code == 0
    exits = [r for r in records if r.backend == "test-exit0"]
    assert [r.status for r in exits] == [JobStatus.CRASH] * 2
    assert all("exited with code 0" in r.message for r in exits), exits[0].message
    assert [r.status for r in records if r.backend == "cpsat"] == [JobStatus.SOLVED] * 2  # the pool went on
    assert seconds < LONG_LIMIT  # not waited for the limit (twice, it was 2 x 21 s)


@pytest.mark.parametrize("backends", [["test-warmexit"], ["cpsat", "test-warmexit"]])
def test_a_warm_up_that_ends_the_process_is_a_crash_never_a_quiet_success(
        puzzle_file: Path, tmp_path: Path, backends: list[str]) -> None:
    """Item 4: the parent warmed up in its own process, so a warm-up calling os._exit(0)
    ended compare itself: exit 0, an empty results file, no job run. (In a subprocess: before
    the fix it ended the test session itself, with status 0.)"""
    out = tmp_path / "r.jsonl"
    child = _compare(puzzle_file, out, *backends, extra=("--time-limit", str(LONG_LIMIT), "-j", "1"))
    _, stderr = child.communicate(timeout=120)
    records = {r.backend: r for r in read_results(out)}
    assert set(records) == set(backends), (child.returncode, stderr)  # one record per job
    dead = records["test-warmexit"]
    assert dead.status is JobStatus.CRASH
    assert "exited with code 0" in dead.message and "warming up test-warmexit" in dead.message, dead.message
    if "cpsat" in records:
        assert records["cpsat"].status is JobStatus.SOLVED
    assert child.returncode == 0  # it ran to its end; the records say what happened


@pytest.mark.parametrize("isolate", [False, True], ids=["pool", "isolate"])
@pytest.mark.parametrize("how", ["session", "daemon"])
def test_nothing_a_job_starts_outlives_it(puzzle_file: Path, tmp_path: Path, how: str, isolate: bool) -> None:
    """Item 7: a child in a session of its own, or a daemon whose parent exited, outlived the
    job (into the next jobs, and past the campaign): the watch samples every 0.2 s."""
    pidfile, seen = tmp_path / "pids.txt", tmp_path / "seen.txt"
    argv = [str(puzzle_file), "--import", BACKENDS_FILE, "-b", f"test-leave:pidfile={pidfile},seen={seen},how={how}",
            "--repeat", "3", "-j", "1", "--no-progress", "-o", str(tmp_path / "r.jsonl"),
            *(["--isolate"] if isolate else [])]
    try:
        assert run(argv) == 0
        assert len(pids(pidfile)) == 3
        assert pids(seen) == []  # no job saw a child of an earlier job still running
        assert gone_within(pids(pidfile), 5.0) == []  # nor does any outlive the campaign
    finally:
        kill_all(pids(pidfile))


def _compare(puzzle_file: Path, out: Path, *specs: str, extra: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "kakuro.compare", str(puzzle_file), "--import", "tests/compare_backends.py",
               "--no-progress", "-o", str(out), *extra]
    for spec in specs:
        command += ["-b", spec]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(condition, child: subprocess.Popen[str], seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and child.poll() is None and not condition():
        time.sleep(0.05)
    assert child.poll() is None and condition(), "the campaign never got there"


def test_workers_die_with_a_killed_compare(puzzle_file: Path, tmp_path: Path) -> None:
    """Item 7: SIGKILL of compare left its workers running (no parent-death signal)."""
    pidfile = tmp_path / "pids.txt"

    def workers() -> list[int]:
        return [int(line.split()[0]) for line in pidfile.read_text().splitlines()] if pidfile.exists() else []

    child = _compare(puzzle_file, tmp_path / "r.jsonl", f"test-sleep:pidfile={pidfile}",
                     extra=("--repeat", "2", "-j", "2", "--time-limit", "60"))
    try:
        _wait_for(lambda: len(workers()) >= 2, child)
        assert all(running(p) for p in workers())
        child.kill()
        child.wait(timeout=30)
        assert gone_within(workers(), 5.0) == []
    finally:
        child.kill()
        kill_all(workers())  # before reading: a surviving worker holds the pipes open
        child.communicate(timeout=30)


@pytest.mark.parametrize("how", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_sighup_and_sigterm_stop_a_campaign_like_ctrl_c(puzzle_file: Path, tmp_path: Path, how: signal.Signals) -> None:
    """Item 7: SIGHUP killed compare at once: no resume line, workers left running."""
    out, pidfile = tmp_path / "r.jsonl", tmp_path / "pids.txt"
    child = _compare(puzzle_file, out, f"test-pid:pidfile={pidfile}", extra=("--repeat", "200", "-j", "2"))
    try:
        _wait_for(lambda: out.exists() and len(out.read_text().splitlines()) >= 3, child)
        child.send_signal(how)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 128 + how, stderr
    assert "interrupted" in stderr and "--resume" in stderr, stderr
    records = read_results(out)
    assert 3 <= len(records) < 200 and all(r.status is JobStatus.SOLVED for r in records)
    assert gone_within(sorted(set(pids(pidfile))), 5.0) == []  # the workers were stopped
