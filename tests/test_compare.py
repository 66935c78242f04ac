"""The compare harness: limits really fire, answers are verified, results survive, reports add up.

Test-only backends live in tests/compare_backends.py and reach the workers through --import.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

import kakuro
from kakuro import compare, report
from kakuro.compare import Attempt, JobStatus, make_jobs, read_results, record_key, verdict
from kakuro.solver import _REGISTRY

from tests.conftest import EXAMPLES, ROOT, TWO_SOLUTIONS, UNSATISFIABLE

BACKENDS_FILE = str(ROOT / "tests" / "compare_backends.py")
LIMIT, GRACE = 0.5, 0.5
SLACK = 1.0
"""Seconds of scheduling noise allowed on a loaded 2-core machine."""


@pytest.fixture(scope="module", autouse=True)
def restore_registry():
    """The test backends must not leak into other test modules."""
    kakuro.backends()  # discover the shipped backends first, or the snapshot would be empty
    before = dict(_REGISTRY)
    yield
    _REGISTRY.clear()
    _REGISTRY.update(before)
    for name in [n for n in sys.modules if n.startswith("_kakuro_import_") and n.endswith("compare_backends_py")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("puzzles")
    kakuro.write(kakuro.read(EXAMPLES / "cazenave-2010-table1.txt"), folder / "caz.txt")
    kakuro.write(kakuro.read(TWO_SOLUTIONS), folder / "two.txt")
    kakuro.write(kakuro.read(UNSATISFIABLE), folder / "nested" / "unsat.jsonl")
    (folder / "README.md").write_text("not a puzzle\n")
    return folder


@pytest.fixture(scope="module")
def campaign(puzzles: Path, tmp_path_factory):
    """One local campaign over every kind of misbehaviour: (exit status, records, pid file)."""
    out = tmp_path_factory.mktemp("campaign")
    pidfile = out / "pids.txt"
    specs = ["cpsat", f"test-sleep:pidfile={pidfile}", "test-hog", "test-abort", "test-wrong", "test-liar"]
    argv = [str(puzzles), "--import", BACKENDS_FILE, "--time-limit", str(LIMIT), "--grace", str(GRACE),
            "--memory", "2048", "-j", "2", "-o", str(out / "results.jsonl")]
    for spec in specs:
        argv += ["-b", spec]
    code = compare.main(argv)
    return code, read_results(out / "results.jsonl"), pidfile


def statuses(records) -> dict[tuple[str, str], str]:
    """(backend name without options, file stem) -> effective status."""
    return {
        (r["backend"].partition(":")[0], Path(r["source"]).stem): r["status"] for r in report.effective(records)
    }


def test_every_status_is_detected(campaign) -> None:
    code, records, _ = campaign
    assert len(records) == 18  # 3 puzzles x 6 backends, README.md skipped
    expected = {
        "cpsat": ["SOLVED", "SOLVED", "UNSAT"],
        "test-sleep": ["TIMEOUT"] * 3,
        "test-hog": ["MEMOUT"] * 3,
        "test-abort": ["CRASH"] * 3,
        "test-wrong": ["WRONG"] * 3,
        "test-liar": ["WRONG", "WRONG", "UNSAT"],  # UNSAT claims contradicted by cpsat's solutions
    }
    got = statuses(records)
    for backend, wanted in expected.items():
        assert [got[(backend, stem)] for stem in ("caz", "two", "unsat")] == wanted, backend
    assert code == 3  # some answers are WRONG


def test_records_carry_what_a_comparison_needs(campaign) -> None:
    _, records, _ = campaign
    solved = next(r for r in records if r["backend"] == "cpsat" and r["status"] == "SOLVED")
    for key in ("instance", "source", "digest", "seed", "repeat", "time", "wall", "time_limit", "stats", "message",
                "peak_rss_mb", "finished"):
        assert key in solved, key
    assert solved["versions"]["engine"].startswith("ortools ")
    assert solved["machine"]["cpus"] == os.cpu_count()
    assert solved["time"] > 0 and solved["time_limit"] == LIMIT
    wrong = next(r for r in records if r["backend"] == "test-wrong")
    assert "checker rejected" in wrong["message"]
    hog = next(r for r in records if r["backend"] == "test-hog")
    assert "MemoryError" in hog["message"] and "2048 MiB" in hog["message"]


def test_a_sleeper_is_killed_within_the_grace(campaign) -> None:
    _, records, pidfile = campaign
    starts = [line.split() for line in pidfile.read_text().splitlines()]
    assert len(starts) == 3
    assert len({pid for pid, _ in starts}) == 3  # each killed worker was replaced by a new one
    ends = sorted(
        dt.datetime.fromisoformat(r["finished"]).timestamp() for r in records if r["backend"].startswith("test-sleep")
    )
    for start, end in zip(sorted(float(start) for _, start in starts), ends, strict=True):  # first in, first out
        assert LIMIT <= end - start <= LIMIT + GRACE + SLACK, end - start
    for pid, _ in starts:
        assert not psutil.pid_exists(int(pid)) or psutil.Process(int(pid)).status() == psutil.STATUS_ZOMBIE


def test_an_existing_results_file_is_never_overwritten(puzzles: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "results.jsonl"
    out.write_text("precious\n")
    assert compare.main([str(puzzles / "two.txt"), "-b", "cpsat", "-o", str(out)]) == 1
    assert out.read_text() == "precious\n"
    assert "already exists" in capsys.readouterr().err
    assert compare.main([str(puzzles / "two.txt"), "--resume"]) == 1


def test_bad_input_stops_before_any_job(puzzles: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "bad.txt").write_text("#  3\\\n\\3 _ _ ?\n")
    kakuro.write(kakuro.read(TWO_SOLUTIONS), tmp_path / "good.txt")
    out = tmp_path / "results.jsonl"
    assert compare.main([str(tmp_path), "-b", "cpsat", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "bad.txt:" in err and "--skip-bad" in err and not out.exists()
    assert compare.main([str(tmp_path), "-b", "no-such-backend", "-o", str(out)]) == 1
    assert "unknown backend" in capsys.readouterr().err
    assert compare.main([str(tmp_path), "-b", "cpsat", "-j", "1", "--skip-bad", "-o", str(out)]) == 0
    assert [r["status"] for r in read_results(out)] == ["SOLVED"]


def test_an_unsat_claim_against_a_known_solution_is_wrong(two_solutions) -> None:
    job = make_jobs([compare.Instance("x.txt", 0, two_solutions)], ["test-liar"])[0]
    claim = Attempt("reply", {"status": "unsatisfiable", "message": ""})
    assert verdict(job, claim, two_solutions, {})[0] is JobStatus.UNSAT
    status, message = verdict(job, claim, two_solutions, {two_solutions.digest(): "cpsat"})
    assert status is JobStatus.WRONG and "cpsat" in message
    died = verdict(job, Attempt("died", exitcode=-signal.SIGSEGV), two_solutions, {})
    assert died == (JobStatus.CRASH, "the worker died of SIGSEGV")


def _campaign_command(puzzles: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "kakuro.compare", str(puzzles), "--import", "tests/compare_backends.py",
            "-b", "test-nap:nap=0.2", "--repeat", "4", "-j", "2", "-o", str(out)]


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_a_killed_campaign_resumes_with_every_job_once(puzzles: Path, tmp_path: Path, how: signal.Signals) -> None:
    out = tmp_path / "results.jsonl"
    command = _campaign_command(puzzles, out)
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and child.poll() is None:
        if out.exists() and len(out.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    child.send_signal(how)
    stdout, stderr = child.communicate(timeout=60)
    before = read_results(out)
    assert 3 <= len(before) < 12, "the campaign must be stopped halfway"
    if how == signal.SIGINT:
        assert child.returncode == 130, stderr
        assert "interrupted" in stderr and "--resume" in stderr and "PAR-2" in stdout
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        assert compare.main(command[3:] + ["--resume"]) == 0
    finally:
        os.chdir(old)
    records = read_results(out)
    final = [r for r in records if r["status"] in compare.FINAL]
    keys = [record_key(r) for r in final]
    assert len(keys) == len(set(keys)) == 12  # 3 puzzles x 4 repeats, each exactly once
    assert {r["seed"] for r in final} == {0, 1, 2, 3}


def test_the_command_line_prints_the_table(puzzles: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "kakuro.compare", str(puzzles), "-b", "cpsat", "-j", "1", "--time-limit", "20",
         "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "cpsat" in done.stdout and "PAR-2" in done.stdout and str(out) in done.stdout
    assert sorted(r["status"] for r in read_results(out)) == ["SOLVED", "SOLVED", "UNSAT"]


def _record(backend: str, instance: int, status: str, time_: float | None, limit: float = 10.0, **extra) -> dict:
    return {"source": f"set{instance % 2}.txt", "index": instance, "digest": f"d{instance}", "backend": backend,
            "seed": 0, "repeat": 0, "status": status, "time": time_, "time_limit": limit, "rows": 6, "cols": 6, **extra}


def test_the_report_computes_par2(tmp_path: Path, capsys) -> None:
    records = [
        _record("a", 0, "SOLVED", 1.0),
        _record("a", 1, "TIMEOUT", None),
        _record("a", 2, "UNSAT", 3.0),
        _record("a", 3, "CRASH", None),
        _record("a", 3, "SOLVED", 2.0),  # the re-run after the crash counts
        _record("b", 0, "SOLVED", 4.0),
        _record("b", 1, "WRONG", 0.1),
        _record("b", 2, "MEMOUT", None, limit=5.0),
        _record("b", 3, "UNSAT", 0.5),  # contradicted by a's solution: WRONG
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"torn": \n')
    rows = {row.backend: row for row in report.summarize(report.effective(read_results(path)))
            if row.group == report.ALL}
    a, b = rows["a"], rows["b"]
    assert (a.total, a.counts["solved"], a.counts["unsat"], a.counts["timeout"], a.counts["crash"]) == (4, 2, 1, 1, 0)
    assert a.par2 == pytest.approx((1.0 + 20.0 + 3.0 + 2.0) / 4)
    assert a.time_total == pytest.approx(6.0) and a.time_median == pytest.approx(2.0)
    assert (b.counts["wrong"], b.counts["memout"], b.counts["unsat"]) == (2, 1, 0)
    assert b.par2 == pytest.approx((4.0 + 20.0 + 10.0 + 20.0) / 4)

    assert report.main([str(path), "--csv", str(tmp_path / "t.csv"), "--markdown", str(tmp_path / "t.md"),
                        "--plot", str(tmp_path / "plots"), "--group", "source"]) == 0
    shown = capsys.readouterr()
    assert "PAR-2" in shown.out and "Per group" in shown.out and ":10:" in shown.err  # the torn line is named
    assert (tmp_path / "t.csv").read_text().splitlines()[1].startswith("all,a,2,1,4,")
    for name in ("cactus.png", "scatter-a-vs-b.png"):
        assert (tmp_path / "plots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert report.main([str(path), "--csv", str(tmp_path / "t.csv")]) == 1  # never overwritten
    assert report.main([str(path), "--plot", str(tmp_path / "p2"), "--scatter", "a", "zzz"]) == 1


def test_dask_runs_give_the_local_statuses(puzzles: Path, campaign, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.jsonl"
    specs = ["cpsat", "test-sleep", "test-abort"]
    argv = [str(puzzles / "caz.txt"), str(puzzles / "nested" / "unsat.jsonl"), "--import", BACKENDS_FILE,
            "--time-limit", str(LIMIT), "--grace", str(GRACE), "-o", str(out)]
    for spec in specs:
        argv += ["-b", spec]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        compare.main(argv + ["--dask", cluster.scheduler_address])
    local = statuses(campaign[1])
    remote = statuses(read_results(out))
    assert len(remote) == 6
    assert remote == {key: local[key] for key in remote}
