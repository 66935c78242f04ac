"""The compare harness: limits really fire, answers are verified, results survive, Dask runs
on warm job processes, records are typed and versioned.

Test-only backends live in tests/compare_backends.py and reach the workers through --import.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest

import kakuro
from kakuro.cli import compare as cli
from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import (
    Backend,
    Instance,
    Job,
    Limits,
    keep_names,
    make_jobs,
    resolve_backends,
)
from kakuro.compare.progress import Eta, ProgressBar
from kakuro.compare.worker import Reply
from kakuro.outcome import Status
from kakuro.records.files import read_results
from kakuro.records.record import FINAL, SCHEMA, JobStatus, Record
from kakuro.records.verdict import Witnesses, judge
from kakuro.registry import registry_restored
from kakuro.report import effective
from tests.conftest import EXAMPLES, ROOT, TWO_SOLUTIONS, UNSATISFIABLE
from tests.timing import timed

BACKENDS_FILE = str(ROOT / "tests" / "compare_backends.py")
LIMIT, GRACE = 0.5, 0.5
SLACK = 1.0
"""Seconds a job killed at its limit and grace may take to be recorded, as on an idle core
(`tests.timing`: divided by the machine's slowdown)."""


@pytest.fixture(scope="module", autouse=True)
def restore_registry():
    """The test backends must not leak into other test modules."""
    with registry_restored():
        yield
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


def run(argv: list[str]) -> int:
    """`python -m kakuro.compare ARGV` in this process, from the repository's folder."""
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        return cli.main(argv)
    finally:
        os.chdir(old)


@pytest.fixture(scope="module")
def campaign(puzzles: Path, tmp_path_factory):
    """One local campaign over every kind of misbehaviour: (exit status, records, pid file, the
    machine's slowdown around it, `tests.timing`)."""
    out = tmp_path_factory.mktemp("campaign")
    pidfile = out / "pids.txt"
    specs = ["cpsat", f"test-sleep:pidfile={pidfile}", "test-abort", "test-wrong", "test-liar"]
    argv = [str(puzzles), "--import", BACKENDS_FILE, "--time-limit", str(LIMIT), "--grace", str(GRACE),
            "-j", "2", "-o", str(out / "results.jsonl")]
    for spec in specs:
        argv += ["-b", spec]
    with timed() as t:
        code = run(argv)
    return code, read_results(out / "results.jsonl"), pidfile, t.slowdown


def statuses(records) -> dict[tuple[str, str], str]:
    """(backend name without options, file stem) -> effective status."""
    return {(r.backend.partition(":")[0], Path(r.source).stem): r.status.value for r in effective(records)}


def test_every_status_is_detected(campaign) -> None:
    code, records, _, _ = campaign
    assert len(records) == 15  # 3 puzzles x 5 backends, README.md skipped (MEMOUT: tests/test_faults.py)
    expected = {
        "cpsat": ["SOLVED", "SOLVED", "UNSATISFIABLE"],
        "test-sleep": ["TIMEOUT"] * 3,
        "test-abort": ["CRASH"] * 3,
        "test-wrong": ["WRONG"] * 3,
        "test-liar": ["WRONG", "WRONG", "UNSATISFIABLE"],  # UNSATISFIABLE claims contradicted by cpsat's solutions
    }
    got = statuses(records)
    for backend, wanted in expected.items():
        assert [got[(backend, stem)] for stem in ("caz", "two", "unsat")] == wanted, backend
    assert code == 3  # some answers are WRONG


def test_records_carry_what_a_comparison_needs(campaign) -> None:
    _, records, pidfile, _ = campaign
    solved = next(r for r in records if r.backend == "cpsat" and r.status is JobStatus.SOLVED)
    assert solved.schema == SCHEMA and solved.instance and solved.digest and solved.finished
    assert solved.spec == "cpsat:model=decomposition,workers=1"  # every option, defaults included
    assert solved.versions["engine"].startswith("ortools ")
    assert solved.machine["cpus"] == os.cpu_count()
    assert solved.time > 0 and solved.wall >= solved.time and solved.time_limit == LIMIT and solved.peak_rss_mb > 0
    sleeper = next(r for r in records if r.backend.startswith("test-sleep"))
    assert sleeper.backend == f"test-sleep:pidfile={pidfile}"  # named as asked
    wrong = next(r for r in records if r.backend == "test-wrong")
    assert "checker rejected" in wrong.message


def test_a_sleeper_is_killed_within_the_grace(campaign) -> None:
    """With the parallel tests: the kills are timed by the campaign's own watch, in this process,
    and bounded as on an idle core by the slowdown measured around the campaign (its fixture, which
    the other tests share)."""
    _, records, pidfile, load = campaign
    starts = [line.split() for line in pidfile.read_text().splitlines()]
    assert len(starts) == 3
    assert len({pid for pid, _ in starts}) == 3  # each killed worker was replaced by a new one
    ends = sorted(dt.datetime.fromisoformat(r.finished).timestamp() for r in records if r.backend.startswith("test-sleep"))
    for start, end in zip(sorted(float(start) for _, start in starts), ends, strict=True):  # first in, first out
        assert end - start >= LIMIT and (end - start - LIMIT - GRACE) / load <= SLACK, (end - start, load)
    for pid, _ in starts:
        assert not psutil.pid_exists(int(pid)) or psutil.Process(int(pid)).status() == psutil.STATUS_ZOMBIE


def test_an_existing_results_file_is_never_overwritten(puzzles: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "results.jsonl"
    out.write_text("precious\n")
    assert run([str(puzzles / "two.txt"), "-b", "cpsat", "-o", str(out)]) == 1
    assert out.read_text() == "precious\n"
    assert "already exists" in capsys.readouterr().err
    assert run([str(puzzles / "two.txt"), "--resume"]) == 2  # --resume without -o: a usage error


def test_bad_input_stops_before_any_job(tmp_path: Path, capsys) -> None:
    (tmp_path / "bad.txt").write_text("#  3\\\n\\3 _ _ ?\n")
    kakuro.write(kakuro.read(TWO_SOLUTIONS), tmp_path / "good.txt")
    out = tmp_path / "results.jsonl"
    assert run([str(tmp_path), "-b", "cpsat", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "bad.txt:" in err and "--skip-bad" in err and not out.exists()
    assert run([str(tmp_path), "-b", "no-such-backend", "-o", str(out)]) == 2  # a usage error, as in solve
    assert "unknown backend" in capsys.readouterr().err
    assert run([str(tmp_path), "-b", "cpsat", "-j", "1", "--skip-bad", "-o", str(out)]) == 0
    assert [r.status for r in read_results(out)] == [JobStatus.SOLVED]
    assert f"results: {out}" in capsys.readouterr().err  # said at the start


def _job(puzzle, backend: str = "test-liar") -> Job:
    return make_jobs([Instance.of("x.txt", 0, puzzle)], [Backend(backend, backend, backend)])[0]


def test_the_verdict_checks_answers_itself(two_solutions, unsatisfiable) -> None:
    job = _job(two_solutions)
    claim = Attempt("reply", Reply(Status.UNSATISFIABLE))
    assert judge(job, claim, Witnesses())[0] is JobStatus.UNSATISFIABLE
    witnesses = Witnesses()
    witnesses.add(job.instance.digest, "cpsat")
    status, message = judge(job, claim, witnesses)
    assert status is JobStatus.WRONG and "cpsat" in message
    bogus = Attempt("reply", Reply(Status.SOLVED, values=(1,) * two_solutions.size))
    assert judge(job, bogus, Witnesses())[0] is JobStatus.WRONG
    good = kakuro.solve(two_solutions, "cpsat").solution.values
    assert judge(job, Attempt("reply", Reply(Status.SOLVED, values=good)), Witnesses())[0] is JobStatus.SOLVED
    assert judge(job, Attempt("died", exitcode=-signal.SIGSEGV), Witnesses()) == (JobStatus.CRASH, "the worker died of SIGSEGV")
    near_limit = Job(job.instance, job.backend, 0, 0, Limits(1.0, 1.0, 1000))
    assert judge(near_limit, Attempt("died", exitcode=-9, memory_mb=950.0), Witnesses())[0] is JobStatus.MEMOUT
    assert judge(job, Attempt("timeout"), Witnesses())[0] is JobStatus.TIMEOUT


def test_a_puzzle_file_solution_is_a_witness(tmp_path: Path) -> None:
    puzzle = kakuro.read(EXAMPLES / "cazenave-2010-table1.txt")[0]
    solution = kakuro.solve(puzzle, "cpsat").solution
    path = tmp_path / "with-solution.jsonl"
    path.write_text(json.dumps({"grid": puzzle.to_grid(), "solution": solution.to_grid()}) + "\n")
    inst = Instance.of(str(path), 0, kakuro.read(path)[0])
    assert Witnesses.of([inst], []).holder(inst.digest) == f"the solution in {path}"


def test_backends_are_named_as_asked_and_run_once_per_configuration(capsys) -> None:
    nmcs = Backend.resolve("nmcs: level = 02")
    assert nmcs.label == "nmcs:level=2" and nmcs.short == "nmcs"
    assert nmcs.spec.startswith("nmcs:level=2,") and "strategy=" in nmcs.spec
    assert Backend.resolve("nmcs").label == "nmcs"
    warnings: list[str] = []
    chosen = resolve_backends(["nmcs:level=2", "nmcs", "nmcs:level=1"], warn=warnings.append)
    assert [b.label for b in chosen] == ["nmcs:level=2", "nmcs:level=1"]
    assert "nmcs is the same configuration as nmcs:level=2" in warnings[0]
    # a resumed file keeps its names: schema 1 used the short spec, schema 2 the label
    assert [b.label for b in keep_names(chosen, [("nmcs", None)])] == ["nmcs", "nmcs:level=1"]
    assert [b.label for b in keep_names([Backend.resolve("nmcs")], [("nmcs:level=2", nmcs.spec)])] == ["nmcs:level=2"]


def test_records_round_trip_and_old_files_still_read(campaign, tmp_path: Path) -> None:
    _, records, _, _ = campaign
    for record in records:
        assert Record.from_json(json.loads(json.dumps(record.to_json()))) == record
    old = {"source": "a.txt", "index": 0, "digest": "d", "backend": "cpsat", "seed": 0, "repeat": 0,
           "status": "SOLVED", "time": 1, "time_limit": 10, "stats": {}, "message": ""}  # schema 1 had no spec
    lines = [
        json.dumps(old),
        json.dumps({**old, "schema": 1, "index": 1}),
        json.dumps({**old, "schema": SCHEMA + 1}),
        json.dumps({**old, "status": "GREAT"}),
        json.dumps({**old, "time": "fast"}),
        json.dumps({k: v for k, v in old.items() if k != "digest"}),
        "[1, 2]",
        '{"torn": ',
    ]
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(lines) + "\n")
    warnings: list[str] = []
    read = read_results(path, warn=warnings.append)
    assert [(r.index, r.schema, r.spec, r.time, r.instance) for r in read] == [(0, 1, None, 1.0, "a#1"), (1, 1, None, 1.0, "a#2")]
    assert [w.split(": ", 1)[0] for w in warnings] == [f"{path}:{n}" for n in range(3, 9)] + [str(path)]
    assert warnings[-1].endswith("6 malformed line(s) skipped, 2 record(s) read")
    assert "newer" in warnings[0] and "GREAT" in warnings[1] and "time 'fast'" in warnings[2] and "no digest" in warnings[3]


def test_resuming_with_another_time_limit_is_refused(puzzles: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "results.jsonl"
    assert run([str(puzzles / "two.txt"), "-b", "cpsat", "-j", "1", "--time-limit", "20", "-o", str(out)]) == 0
    before = out.read_text()
    assert run([str(puzzles / "two.txt"), "-b", "cpsat", "-j", "1", "--time-limit", "5", "--resume", "-o", str(out)]) == 1
    assert "--time-limit 20 s" in capsys.readouterr().err and out.read_text() == before


def _campaign_command(puzzles: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "kakuro.compare", str(puzzles), "--import", "tests/compare_backends.py",
            "-b", "test-nap:nap=0.2", "--repeat", "4", "-j", "2", "-o", str(out)]


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_a_killed_campaign_resumes_with_every_job_once(puzzles: Path, tmp_path: Path, how: signal.Signals) -> None:
    """With the parallel tests: the signal goes to compare by its id, and nothing is timed (the
    9 jobs left take a second of naps on 2 workers, ample for the signal to land halfway)."""
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
    assert run(command[3:] + ["--resume"]) == 0
    final = [r for r in read_results(out) if r.status in FINAL]
    keys = [r.key for r in final]
    assert len(keys) == len(set(keys)) == 12  # 3 puzzles x 4 repeats, each exactly once
    assert {r.seed for r in final} == {0, 1, 2, 3}


def test_the_command_line_prints_the_table(puzzles: Path, tmp_path: Path, capsys) -> None:
    """In this process (the tests of tests/test_campaign_faults.py run `python -m kakuro.compare`)."""
    out = tmp_path / "results.jsonl"
    code = run([str(puzzles), "-b", "cpsat", "-j", "1", "--time-limit", "20", "-o", str(out)])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    assert "cpsat" in stdout and "PAR-2" in stdout and str(out) in stdout
    assert stderr.startswith(f"results: {out}")
    assert sorted(r.status.value for r in read_results(out)) == ["SOLVED", "SOLVED", "UNSATISFIABLE"]


def _pids(pidfile: Path) -> Counter[str]:
    return Counter(pidfile.read_text().split())


def test_isolate_gives_every_job_a_fresh_process(puzzles: Path, tmp_path: Path) -> None:
    for isolate, expected in ((False, 1), (True, 6)):
        pidfile = tmp_path / f"pids-{isolate}.txt"
        argv = [str(puzzles / "caz.txt"), str(puzzles / "two.txt"), "--import", BACKENDS_FILE, "-b",
                f"test-pid:pidfile={pidfile}", "--repeat", "3", "-j", "1", "-o", str(tmp_path / f"r-{isolate}.jsonl")]
        assert run(argv + (["--isolate"] if isolate else [])) == 0
        assert len(_pids(pidfile)) == expected
        assert sum(_pids(pidfile).values()) == 6


def test_the_eta_comes_from_finished_job_times() -> None:
    puzzle = kakuro.read(TWO_SOLUTIONS)[0]
    fast, slow = Backend("fast", "fast", "fast"), Backend("slow", "slow", "slow")
    instances = [Instance.of("x.txt", i, puzzle) for i in range(50)]
    jobs = make_jobs(instances, [fast, slow], limits=Limits(10.0, 1.0))
    eta = Eta(jobs, slots=2)
    assert eta.seconds_left(0.0) is None
    for _ in range(4):  # the fast backend's jobs end first, as they do in a real run
        eta.finished("fast", 0.01, 1.0)
    # a naive rate (4 jobs in 1 s, 96 left) would promise 24 s; the slow backend is unknown yet,
    # so it is expected to take what finished jobs took: still small, but counted per backend
    assert eta.seconds_left(1.0) == pytest.approx((46 * 0.01 + 50 * 0.01) / 2)
    eta.finished("slow", 11.0, 12.0)  # a timeout: its limit plus grace
    assert eta.seconds_left(12.0) == pytest.approx((46 * 0.01 + 49 * 11.0) / 2)
    assert eta.seconds_left(22.0) == pytest.approx((46 * 0.01 + 49 * 11.0) / 2 - 10)  # counts down meanwhile
    eta.finished("slow", 400.0, 13.0)  # never more than the limit and grace
    assert eta.seconds_left(13.0) == pytest.approx((46 * 0.01 + 48 * 11.0) / 2)
    counts = Counter({JobStatus.SOLVED: 5, JobStatus.TIMEOUT: 2, JobStatus.CRASH: 1})
    assert ProgressBar.text(counts) == "solved 5  timeouts 2  wrong 0  crash 1"


def test_the_progress_bar_shows_counts_and_eta() -> None:
    import io

    from rich.console import Console

    puzzle = kakuro.read(TWO_SOLUTIONS)[0]
    backend = Backend("a", "a", "a")
    jobs = make_jobs([Instance.of("x.txt", i, puzzle) for i in range(4)], [backend], limits=Limits(10.0, 1.0))
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=150)
    with ProgressBar.shown(jobs, 1, enabled=True, console=console) as bar:
        for job, status in zip(jobs[:3], (JobStatus.SOLVED, JobStatus.TIMEOUT, JobStatus.WRONG)):
            record = Record(job.instance.source, job.instance.index, job.instance.digest, "a", 0, 0, status, 10.0, wall=2.0)
            bar.advance(job, record)
        deadline = time.monotonic() + 10
        while "3/4" not in screen.getvalue() and time.monotonic() < deadline:  # rich redraws 10 times a second
            time.sleep(0.05)
    shown = screen.getvalue()
    assert "3/4" in shown and "solved 1  timeouts 1  wrong 1" in shown and "ETA 00:00:0" in shown


def test_no_module_of_the_harness_the_records_or_the_report_imports_in_a_circle() -> None:
    modules = {}
    for package in ("compare", "records", "report"):
        for path in (ROOT / "kakuro" / package).glob("*.py"):
            name = f"kakuro.{package}" + ("" if path.stem == "__init__" else f".{path.stem}")
            modules[name] = _imports(path)
    graph = {name: {t for t in targets if t in modules and t != name} for name, targets in modules.items()}
    assert "kakuro.compare.campaign" in graph and "kakuro.report.comparison" in graph["kakuro.report"]  # the walk sees modules
    assert "kakuro.records.record" in graph["kakuro.records.files"]
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            name = todo.pop()
            assert name != start, f"{start} imports itself through other modules"
            if name not in seen:
                seen.add(name)
                todo.extend(graph[name])


def _imports(path: Path) -> set[str]:
    """Modules `path` imports at module level, outside `if TYPE_CHECKING` (imports inside
    functions run late and cannot make an import cycle)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


# --------------------------------------------------------------------- Dask
def _dask_cluster(workers: int, *, daemon: bool = False):
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.worker.daemon": daemon}):
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                        dashboard_address=":0")


@pytest.fixture(scope="module")
def dask_cluster():
    """A one-worker, one-thread Dask cluster whose worker may start job processes."""
    with _dask_cluster(1) as cluster:
        yield cluster


def _kakuro_plugins(cluster) -> list[list[str]]:
    import distributed

    with distributed.Client(cluster) as client:
        found = client.run(lambda dask_worker: [n for n in dask_worker.plugins if n.startswith("kakuro-compare")])
    return list(found.values())


def test_dask_runs_give_the_local_statuses(puzzles: Path, campaign, tmp_path: Path, dask_cluster) -> None:
    out = tmp_path / "dask.jsonl"
    argv = [str(puzzles / "caz.txt"), str(puzzles / "nested" / "unsat.jsonl"), "--import", BACKENDS_FILE,
            "--time-limit", str(LIMIT), "--grace", str(GRACE), "-o", str(out)]
    for spec in ["cpsat", "test-sleep", "test-abort"]:
        argv += ["-b", spec]
    assert run(argv + ["--dask", dask_cluster.scheduler_address]) == 0
    local = statuses(campaign[1])
    remote = statuses(read_results(out))
    assert len(remote) == 6
    assert remote == {key: local[key] for key in remote}
    assert _kakuro_plugins(dask_cluster) == [[]]  # the campaign's job processes went with it


def test_dask_job_processes_that_die_or_stop_end_their_job_and_are_replaced(puzzles: Path, tmp_path: Path,
                                                                           dask_cluster) -> None:
    """Issue 40: a job process that is SIGKILLed or SIGSTOPped on a Dask worker is a CRASH
    within seconds (a stopped one was a TIMEOUT at the limit), and the Dask worker goes on.
    With the parallel tests (on the module's cluster, built once): a stop is told from a slow
    job by the process's state, and the 60 s limit is far from the seconds a stop takes."""
    out = tmp_path / "faults.jsonl"
    plan = ["kill", "stop", "solve"]
    argv = [str(puzzles / "caz.txt"), "--import", BACKENDS_FILE, "-b", f"test-fault:plan={'/'.join(plan)}",
            "--repeat", "9", "--time-limit", "60", "-o", str(out), "--dask", dask_cluster.scheduler_address]
    started = time.monotonic()
    assert run(argv) == 0
    assert time.monotonic() - started < 40  # no job waited for its limit
    records = read_results(out)
    assert sorted(r.seed for r in records) == list(range(9))
    due = {"kill": "CRASH", "stop": "CRASH", "solve": "SOLVED"}
    assert [r.status.value for r in records] == [due[plan[r.seed % 3]] for r in records], [r.message for r in records]
    assert {r.message for r in records if plan[r.seed % 3] == "kill"} == {"the worker died of SIGKILL"}


def test_dask_jobs_run_on_warm_long_lived_processes(puzzles: Path, tmp_path: Path, dask_cluster) -> None:
    pidfile = tmp_path / "pids.txt"
    argv = [str(puzzles), "--import", BACKENDS_FILE, "-b", f"test-pid:pidfile={pidfile}", "--repeat", "3",
            "-o", str(tmp_path / "r.jsonl"), "--dask", dask_cluster.scheduler_address]
    assert run(argv) == 0
    assert sum(_pids(pidfile).values()) == 9 and len(_pids(pidfile)) == 1  # one process ran every job
    assert str(dask_cluster.workers[0].process.pid) not in _pids(pidfile)  # not the Dask worker itself


def test_dask_tasks_carry_several_jobs_and_hand_back_those_not_started(dask_cluster) -> None:
    import distributed

    from kakuro.compare import cluster
    from kakuro.compare.worker import WorkerConfig

    assert [cluster.chunk_size(n, 2) for n in (1, 16, 32, 100, 10_000)] == [1, 1, 2, 6, cluster.MAX_CHUNK]
    puzzle = kakuro.read(TWO_SOLUTIONS)[0]
    jobs = make_jobs([Instance.of("two.txt", 0, puzzle)], [Backend.resolve("cpsat")], repeat=48)
    with distributed.Client(dask_cluster) as client:  # budget 0: each task hands back all but its first jobs
        ran = list(cluster.run_dask(jobs, WorkerConfig(("cpsat:model=decomposition,workers=1",)), client,
                                    lambda: None, budget=0.0))
    assert sorted(job.repeat for job, _ in ran) == list(range(48))  # every job once
    assert {attempt.reply.status for _, attempt in ran} == {Status.SOLVED}


def test_dask_local_and_daemonic_workers(puzzles: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "local.jsonl"
    assert run([str(puzzles / "two.txt"), "-b", "cpsat", "--dask", "local", "-j", "1", "-o", str(out)]) == 0
    assert [r.status for r in read_results(out)] == [JobStatus.SOLVED]
    with _dask_cluster(1, daemon=True) as cluster:
        code = run([str(puzzles / "two.txt"), "-b", "cpsat", "--dask", cluster.scheduler_address,
                    "-o", str(tmp_path / "daemon.jsonl")])
    err = capsys.readouterr().err
    assert code == 1 and "DASK_DISTRIBUTED__WORKER__DAEMON=False" in err and "Traceback" not in err
    assert not (tmp_path / "daemon.jsonl").exists()  # no empty results file left in the way
    # Nothing listens there: Dask retries until its connect timeout, which need not be the real 30 s.
    from kakuro.compare import cluster as dask_cluster_module

    monkeypatch.setattr(dask_cluster_module, "CONNECT_TIMEOUT", 1.0)
    assert run([str(puzzles / "two.txt"), "-b", "cpsat", "--dask", "tcp://127.0.0.1:9", "-o", str(tmp_path / "x.jsonl")]) == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err


def test_jobs_that_end_together_are_yielded_in_job_order() -> None:
    """`run_local` yields each job as it ends; jobs seen ending at the same look come in the
    order they were given (a set's order flipped the records of two quick jobs under load)."""
    from concurrent.futures import Future
    from typing import Any, cast

    from kakuro.compare.runners import run_local

    class Ended:
        """A pool whose every job has ended by the time the runner looks."""

        def submit(self, job: str) -> Future[str]:
            future: Future[str] = Future()
            future.set_result(f"attempt of {job}")
            return future

        def result(self, future: Future[str]) -> str:
            return future.result()

        def close(self, wait_for_jobs: bool) -> None:
            pass

    jobs = [f"job {number}" for number in range(50)]
    ran = list(run_local(cast(Any, jobs), cast(Any, Ended()), lambda: None))
    assert ran == [(job, f"attempt of {job}") for job in jobs]
