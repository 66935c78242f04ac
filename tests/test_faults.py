"""Fault injection: every promise of the README's "Reliability" section, broken on purpose.

Each test injects one fault that once ended in a traceback, a hang, a lost or a wrong record,
or a silently wrong answer (issue 19; the item number is in each test's docstring), and checks
the one-line error, the status or the bound that replaced it. Harness faults come from
misbehaving test backends (tests/compare_backends.py, loaded with --import); file faults from
fixtures. A read-only folder binds every user but root: run as root, the suite injects the
system's answer (EACCES) at the os calls that create files inside that folder.
"""

from __future__ import annotations

import errno
import json
import math
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psutil
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro
from kakuro import Puzzle
from kakuro.cli import compare as compare_cli
from kakuro.cli import main as kakuro_main
from kakuro.cli.report import main as report_main
from kakuro.errors import (
    InvalidPuzzleError,
    InvalidSolutionError,
    KakuroError,
    PuzzleFormatError,
)
from kakuro.formats import FORMATS, dumps, text
from kakuro.formats.solution import read_solution
from kakuro.outcome import Status
from kakuro.puzzle import max_sum, min_sum
from kakuro.records.files import read_results
from kakuro.records.record import MAX_MESSAGE, JobStatus, Record
from tests.conftest import AVAILABLE, EXAMPLES, ROOT, TWO_SOLUTIONS, UNSATISFIABLE
from tests.test_compare import BACKENDS_FILE, restore_registry, run  # noqa: F401 (restore_registry: a fixture)
from tests.timing import slowdown, timed

LIMIT, GRACE = 3.0, 0.5
"""The harness campaign's limits on an idle core: long enough for CP-SAT, and for a hog to add
MEMORY_MB (0.75 s of CPU here, most of it first-touch page faults). The campaign's time limit is
LIMIT times the machine's slowdown when it starts (`tests.timing`): at load 5 the first hog took
4 s to reach 300 MiB and was killed at the limit, not at the memory bound under test."""
MEMORY_MB = 300
"""Below a worker's footprint with every engine loaded: only what a job adds may count."""
SEED = 2**31 - 1
"""With --repeat 2 the second run gets 2**31, past CP-SAT's 32-bit seed."""
FORGED_TIMES = ("nan", "-100", "inf", "1e9")
NOT_DIGITS = ("half", "float", "bool", "str")
HAS_CHOCO = "choco" in AVAILABLE


def tracebackless(err: str) -> str:
    assert "Traceback" not in err, err
    return err


def one_line(err: str) -> str:
    """`err`, checked to be one line without a traceback."""
    assert len(err.strip().splitlines()) == 1, err
    return tracebackless(err)


# ===================================================================== the harness
@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """One campaign over every misbehaviour a backend can show, with a memory limit below a
    worker's footprint and seeds past 2**31."""
    folder = tmp_path_factory.mktemp("harness")
    puzzle_file = folder / "caz.txt"
    kakuro.write(kakuro.read(EXAMPLES / "cazenave-2010-table1.txt"), puzzle_file)
    pidfile = folder / "session-pids.txt"
    specs = [
        "cpsat", "test-exit", "test-interrupt",
        *(f"test-time:time={t}" for t in FORGED_TIMES),
        *(f"test-digits:kind={k}" for k in (*NOT_DIGITS, "numpy")),
        "test-chatty:mb=100", f"test-session:pidfile={pidfile}", "test-hog:gib=1.0", "test-hog:gib=1.0,child=true",
        *(["choco"] if HAS_CHOCO else []),
    ]
    out = folder / "results.jsonl"
    limit = round(LIMIT * slowdown(), 1)
    argv = [str(puzzle_file), "--import", BACKENDS_FILE, "--time-limit", str(limit), "--grace", str(GRACE),
            "--memory", str(MEMORY_MB), "--seed", str(SEED), "--repeat", "2", "-j", "2", "--no-progress", "-o", str(out)]
    for spec in specs:
        argv += ["-b", spec]
    started = time.perf_counter()
    code = run(argv)
    records = read_results(out)
    by_backend: dict[str, list[Record]] = {}
    for record in records:
        by_backend.setdefault(record.backend, []).append(record)
    return SimpleNamespace(code=code, specs=specs, records=records, by=by_backend, out=out, pidfile=pidfile,
                           seconds=time.perf_counter() - started)


def statuses(harness: SimpleNamespace, spec: str) -> list[str]:
    return [r.status.value for r in harness.by[spec]]


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_a_backend_raising_systemexit_or_keyboardinterrupt_is_one_error(harness: SimpleNamespace) -> None:
    """Item 1: SystemExit used to end the campaign with exit 0 and nothing recorded;
    KeyboardInterrupt made every run 'interrupted' (130)."""
    assert harness.code == 3  # the campaign ran to its end: 3 because the digit forgers are WRONG
    assert len(harness.records) == 2 * len(harness.specs)
    for spec, raised in (("test-exit", "SystemExit"), ("test-interrupt", "KeyboardInterrupt")):
        assert statuses(harness, spec) == ["ERROR", "ERROR"]
        assert all(raised in r.message for r in harness.by[spec])
    assert statuses(harness, "cpsat") == ["SOLVED", "SOLVED"]  # the other backends' jobs are kept


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_the_memory_limit_is_on_what_a_job_adds(harness: SimpleNamespace) -> None:
    """Item 2: an address-space limit killed every choco job and, below a worker's footprint,
    every job; the limit is now resident memory a job adds (its children included)."""
    for spec in ("test-hog:gib=1.0", "test-hog:gib=1.0,child=true"):
        assert statuses(harness, spec) == ["MEMOUT", "MEMOUT"], harness.by[spec][0].message
        assert all(f"{MEMORY_MB} MiB" in r.message for r in harness.by[spec])
    assert statuses(harness, "cpsat") == ["SOLVED", "SOLVED"]
    if HAS_CHOCO:
        assert statuses(harness, "choco") == ["SOLVED", "SOLVED"]
    assert harness.seconds < 240  # never stuck replacing workers


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_a_forged_time_is_replaced_by_the_harness_clock(harness: SimpleNamespace) -> None:
    """Item 3: a NaN time aborted the harness in json.dumps; a negative one ranked first."""
    for forged in FORGED_TIMES:
        for record in harness.by[f"test-time:time={forged}"]:
            assert record.status is JobStatus.SOLVED
            assert record.time is not None and math.isfinite(record.time)
            assert 0 <= record.time <= record.wall
            assert "harness's clock" in record.message


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_only_integers_are_digits_in_the_harness(harness: SimpleNamespace) -> None:
    """Item 4: [v + 0.5], True and "3" came out SOLVED."""
    for kind in NOT_DIGITS:
        assert statuses(harness, f"test-digits:kind={kind}") == ["WRONG", "WRONG"], kind
    assert statuses(harness, "test-digits:kind=numpy") == ["SOLVED", "SOLVED"]  # numpy integers are integers


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_seeds_past_31_bits_reach_cpsat(harness: SimpleNamespace) -> None:
    """Item 9: --seed 2147483647 --repeat 2 made CP-SAT's second run an ERROR (TypeError)."""
    assert sorted((r.seed, r.status.value) for r in harness.by["cpsat"]) == [(SEED, "SOLVED"), (SEED + 1, "SOLVED")]


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_a_huge_message_is_clipped(harness: SimpleNamespace) -> None:
    """Item 16: a backend's 100 MB message became a 100 MB results line."""
    for record in harness.by["test-chatty:mb=100"]:
        assert len(record.message) < MAX_MESSAGE + 100 and "characters cut" in record.message
    assert max(len(line) for line in harness.out.read_bytes().splitlines()) < 20_000


@pytest.mark.timed("harness")  # one campaign (the module fixture): jobs timed under a memory limit
def test_a_child_in_its_own_session_dies_with_its_worker(harness: SimpleNamespace) -> None:
    """Item 16: a solver child that left the worker's process group outlived its killed worker."""
    assert statuses(harness, f"test-session:pidfile={harness.pidfile}") == ["TIMEOUT", "TIMEOUT"]
    pids = [int(p) for p in harness.pidfile.read_text().split()]
    assert len(pids) == 2
    for pid in pids:
        try:
            alive = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            alive = False
        assert not alive, f"the session child {pid} still runs"


def test_malformed_records_are_skipped_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 15: a list for `source`, `status` or `time_limit`, or a string `time_limit`, made
    `report` and the end of `compare --resume` fail with a traceback."""
    puzzle_file = tmp_path / "two.txt"
    kakuro.write(kakuro.read(UNSATISFIABLE), puzzle_file)
    out = tmp_path / "results.jsonl"
    assert run([str(puzzle_file), "-b", "cpsat", "-j", "1", "--time-limit", "20", "--no-progress", "-o", str(out)]) == 0
    good = json.loads(out.read_text().splitlines()[0])
    bad = [{**good, "source": ["x"]}, {**good, "status": ["SOLVED"]}, {**good, "time_limit": [20]},
           {**good, "time_limit": "20"}]
    with open(out, "a") as stream:
        stream.writelines(json.dumps(record) + "\n" for record in bad)
    capsys.readouterr()
    assert report_main([str(out)]) == 0
    err = tracebackless(capsys.readouterr().err)
    for line in (2, 3, 4, 5):
        assert f"{out}:{line}:" in err
    assert "4 malformed line(s) skipped, 1 record(s) read" in err
    assert run([str(puzzle_file), "-b", "cpsat", "-j", "1", "--time-limit", "20", "--no-progress", "--resume",
                "-o", str(out)]) == 0
    err = tracebackless(capsys.readouterr().err)
    assert "0 to run" in err and "4 malformed line(s) skipped" in err


def test_a_second_writer_of_a_results_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 12: two --resume runs on one file at once ran and recorded jobs twice."""
    puzzle_file = tmp_path / "two.txt"
    kakuro.write(kakuro.read(UNSATISFIABLE), puzzle_file)
    out = tmp_path / "results.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from kakuro.files import open_new_log; "
         f"open_new_log({str(out)!r}); print('locked', flush=True); sys.stdin.read()"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        capsys.readouterr()
        assert run([str(puzzle_file), "-b", "cpsat", "-j", "1", "--no-progress", "--resume", "-o", str(out)]) == 1
        err = tracebackless(capsys.readouterr().err)
        assert "being written by another run" in err
        assert out.read_text() == ""  # nothing ran, nothing was recorded
    finally:
        holder.communicate("", timeout=30)


def test_a_full_disk_ends_the_campaign_in_one_line_and_keeps_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 6: a full disk during compare ended in a traceback. The fault: every write to the
    results file after its first record fails with ENOSPC."""
    puzzle_file = tmp_path / "caz.txt"
    kakuro.write(kakuro.read(EXAMPLES / "cazenave-2010-table1.txt"), puzzle_file)
    out = tmp_path / "results.jsonl"
    real_write = os.write
    written = []

    def full_disk(fd: int, data: Any) -> int:
        try:
            ours = os.path.samestat(os.fstat(fd), os.stat(out))
        except OSError:
            ours = False
        if ours:
            if written:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            written.append(fd)
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    argv = [str(puzzle_file), "-b", "cpsat", "--repeat", "4", "-j", "1", "--no-progress", "-o", str(out)]
    assert run(argv) == 1
    err = tracebackless(capsys.readouterr().err)
    assert "No space left on device" in err and "--resume" in err
    monkeypatch.undo()
    assert len(read_results(out)) == 1  # the record written before the disk filled up stays


# ===================================================================== outputs
@pytest.fixture
def read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder nothing can be created in (see the module docstring for root)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    if os.geteuid() == 0:
        def inside(path: Any) -> bool:
            try:
                return Path(os.path.abspath(os.fsdecode(path))).is_relative_to(folder)
            except (TypeError, ValueError):
                return False

        def refused(path: Any) -> OSError:
            return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

        real_open, real_mkdir, real_link, real_replace = os.open, os.mkdir, os.link, os.replace

        def guarded_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and inside(path):
                raise refused(path)
            return real_open(path, flags, *args, **kwargs)

        def guarded_mkdir(path: Any, *args: Any, **kwargs: Any) -> None:
            if inside(path):
                raise refused(path)
            real_mkdir(path, *args, **kwargs)

        def guarded_link(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
            if inside(target):
                raise refused(target)
            real_link(source, target, *args, **kwargs)

        def guarded_replace(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
            if inside(target):
                raise refused(target)
            real_replace(source, target, *args, **kwargs)

        monkeypatch.setattr(os, "open", guarded_open)
        monkeypatch.setattr(os, "mkdir", guarded_mkdir)
        monkeypatch.setattr(os, "link", guarded_link)
        monkeypatch.setattr(os, "replace", guarded_replace)
    yield folder
    folder.chmod(0o755)


@pytest.fixture
def results_file(tmp_path: Path) -> Path:
    """A results file of one SOLVED record, for the report."""
    record = Record(source="a.txt", index=0, digest="0123456789abcdef", backend="cpsat", seed=0, repeat=0,
                    status=JobStatus.SOLVED, time_limit=10.0, time=0.5, wall=0.6)
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(record.to_json()) + "\n")
    return path


def cazenave_file(tmp_path: Path) -> str:
    path = tmp_path / "caz.txt"
    if not path.exists():
        kakuro.write(kakuro.read(EXAMPLES / "cazenave-2010-table1.txt"), path)
    return str(path)


def in_folder(folder: Path, command: Callable[[], int]) -> int:
    old = os.getcwd()
    os.chdir(folder)
    try:
        return command()
    finally:
        os.chdir(old)


OUTPUT_COMMANDS: dict[str, Callable[[Path, Path, Path], int]] = {
    "convert": lambda tmp, ro, res: kakuro_main(["convert", cazenave_file(tmp), str(ro / "out.jsonl")]),
    "generate": lambda tmp, ro, res: kakuro_main(["generate", "cazenave", "--size", "3", "--values", "4",
                                                  "--holes", "50", "-o", str(ro / "g.txt")]),
    "render": lambda tmp, ro, res: kakuro_main(["render", cazenave_file(tmp), "-o", str(ro / "p.svg")]),
    "report --csv": lambda tmp, ro, res: report_main([str(res), "--csv", str(ro / "s.csv")]),
    "report --plot": lambda tmp, ro, res: report_main([str(res), "--plot", str(ro / "plots")]),
    "compare results/": lambda tmp, ro, res: in_folder(ro, lambda: compare_cli.main(
        [cazenave_file(tmp), "-b", "cpsat", "-j", "1", "--no-progress"])),
}


@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_a_read_only_folder_is_one_line(command: str, tmp_path: Path, read_only: Path, results_file: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Item 6: a read-only folder gave a traceback from every command that writes."""
    assert OUTPUT_COMMANDS[command](tmp_path, read_only, results_file) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("results: ")]
    named = "results/compare-" if command.startswith("compare") else str(read_only)  # compare's default is relative
    assert len(lines) == 1 and "Permission denied" in lines[0] and named in lines[0], err
    tracebackless(err)
    assert list(read_only.iterdir()) == []


@pytest.mark.parametrize("command", ["convert", "render"])
def test_a_target_that_cannot_be_a_file_is_one_line(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 6: --force onto a folder (IsADirectoryError), a path under a file, a dangling
    symlink (FileExistsError) ended in tracebacks; the symlink's target is never created."""
    source = cazenave_file(tmp_path)
    (tmp_path / "folder.svg").mkdir()
    (tmp_path / "folder.txt").mkdir()
    (tmp_path / "file").write_text("a file\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "nowhere.txt")
    (tmp_path / "link.svg").symlink_to(tmp_path / "nowhere.svg")
    suffix = ".svg" if command == "render" else ".txt"

    def attempt(target: Path, *extra: str) -> str:
        argv = [command, source, *(["-o"] if command == "render" else []), str(target), *extra]
        assert kakuro_main(argv) == 1
        return one_line(capsys.readouterr().err)

    assert "Is a directory" in attempt(tmp_path / f"folder{suffix}", "--force")
    assert "is not a folder" in attempt(tmp_path / "file" / f"out{suffix}")
    assert "already exists" in attempt(tmp_path / f"link{suffix}")
    assert not (tmp_path / f"nowhere{suffix}").exists()


def test_render_never_replaces_a_file_that_appears_while_it_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 13: render checked, then wrote, so a file made meanwhile was overwritten."""
    import kakuro.render

    target = tmp_path / "picture.svg"
    draw = kakuro.render.to_svg

    def slow_draw(*args: Any, **kwargs: Any) -> str:
        target.write_text("someone else's picture\n")  # appears while the picture is drawn
        return draw(*args, **kwargs)

    monkeypatch.setattr(kakuro.render, "to_svg", slow_draw)
    assert kakuro_main(["render", cazenave_file(tmp_path), "-o", str(target)]) == 1
    assert "already exists" in one_line(capsys.readouterr().err)
    assert target.read_text() == "someone else's picture\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_file_names_that_are_not_utf8_are_written_and_shown_escaped(tmp_path: Path) -> None:
    """Item 6: a non-UTF-8 output name ended in UnicodeEncodeError."""
    folder = os.fsencode(tmp_path)
    target = folder + b"/caf\xe9.txt"
    done = subprocess.run([sys.executable, "-m", "kakuro", "convert", cazenave_file(tmp_path).encode(), target],
                          cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr and b"caf\\udce9.txt" in done.stdout
    assert kakuro.read(os.fsdecode(target)) == kakuro.read(EXAMPLES / "cazenave-2010-table1.txt")


# ===================================================================== inputs
def test_an_endless_file_is_refused_after_a_bounded_read(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 7: `kakuro solve /dev/zero` read 3.7 GB in 49 s, then died of MemoryError."""
    with timed() as t:
        assert kakuro_main(["solve", "/dev/zero"]) == 1
    assert t.quiet(t.wall) < 10, t
    assert "/dev/zero" in one_line(capsys.readouterr().err)


LONG_ROW = 2_000_000
"""Cells in one row of the oversized inputs below (4 MB of text)."""
LONG_ROWS = {
    "text": "#   3\\  4\\\n" + "_ " * LONG_ROW + "\n",
    "course": "3,3\n" + "*," * LONG_ROW + "*\nF3,?,?\nF4,?,1\n",
    "simonis": "data(generated,1,-,3,3,\n[](\n[](" + "x, " * LONG_ROW + "x),\n   [](x/3, x, x),\n   [](x/4, x, 1)\n)).\n",
}


@pytest.mark.parametrize("format", sorted(LONG_ROWS))
def test_a_huge_row_is_refused_before_it_is_split(format: str) -> None:
    """Item 7: a 50 MB one-row file took 56 s and 6.3 GiB before 'larger than 1000x1000'."""
    source = LONG_ROWS[format]
    tracemalloc.start()
    try:
        with pytest.raises(PuzzleFormatError) as caught:
            kakuro.read(source, format=format)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.line in (2, 3) and caught.value.column is not None
    assert peak < 10 * len(source)  # the text itself, a copy or two; never one object per cell


def zero_puzzle(tmp_path: Path) -> Path:
    """Values 0..9; a run of two cells summing to 1 forces a 0 into every solution."""
    path = tmp_path / "zero.txt"
    path.write_text("values: 0..9\n#   1\\  5\\\n\\1  _   _\n\\5  _   _\n")
    return path


def test_a_zero_digit_is_printed_and_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 10: 0 was printed as `_`, so `kakuro check` rejected `solve`'s own output."""
    puzzle = zero_puzzle(tmp_path)
    for form in ("text", "json"):
        assert kakuro_main(["solve", str(puzzle), "--format", form]) == 0
        printed = capsys.readouterr().out
        answer = tmp_path / f"answer.{form}"
        answer.write_text(printed.split("\n", 1)[1] if form == "text" else printed)
        if form == "text":
            assert "0" in answer.read_text().split()
        assert kakuro_main(["check", str(puzzle), str(answer)]) == 0, capsys.readouterr().out
        assert "valid" in capsys.readouterr().out


def test_a_given_zero_is_refused_since_no_layout_keeps_it() -> None:
    """Item 10: a given 0 vanished silently (every grid layout writes 0 for an empty cell)."""
    with pytest.raises(InvalidPuzzleError, match="given 0"):
        Puzzle.all_white([3, 4], [3, 4], values=(0, 9), givens={(0, 0): 0})
    base = Puzzle.all_white([3, 4], [3, 4], values=(0, 9))
    with pytest.raises(InvalidPuzzleError, match="given 0"):
        Puzzle(base.rows, base.cols, base.cells, base.clues, {0: 0}, base.values)


def test_a_solution_is_never_rounded(cazenave: Puzzle) -> None:
    """Item 4: Solution applied int(), so [1.9, 2.7, ...] became a valid grid."""
    good = kakuro.solve(cazenave, "cpsat").solution.values
    for forged in ([v + 0.9 for v in good], [float(v) for v in good], [str(v) for v in good],
                   [True if v == 1 else v for v in good]):
        with pytest.raises(InvalidSolutionError, match="not a digit"):
            cazenave.solution(forged)
        grid = cazenave.to_grid()
        for (r, c), v in zip(cazenave.cells, forged):
            grid[r][c] = v
        assert cazenave.check(grid) != []


# ===================================================================== writers and readers agree
@pytest.mark.parametrize(
    "grid",
    [[["#"]], [["#", "#", "#"]], [["#"], ["#"]], [[[None, 3], 0, 0]], [[[3, None]], [0], [0]]],
    ids=["1x1", "one row, black", "one column, black", "one row", "one column"],
)
def test_puzzlink_refuses_what_it_cannot_write_back(grid: list[list[Any]], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Item 14: one row or column gave IndexError; a grid with no white cell was written as
    `0/0/`, which the reader refuses."""
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"grid": grid}) + "\n")
    assert kakuro_main(["convert", str(source), str(tmp_path / "out.puzzlink")]) == 1
    one_line(capsys.readouterr().err)
    assert not (tmp_path / "out.puzzlink").exists()


def test_an_infinite_number_in_json_lines_is_refused_where_it_stands(tmp_path: Path) -> None:
    """Item 14: a `solution` holding 1e999 was read, and written back as Infinity."""
    line = json.dumps({"grid": [["#", [3, None]], [[None, 3], 0]], "solution": [["#", "#"], ["#", 0]]})
    line = line.replace('"#", 0]]}', '"#", 1e999]]}')
    with pytest.raises(PuzzleFormatError) as caught:
        kakuro.read(line + "\n", format="jsonl")
    assert (caught.value.line, caught.value.column) == (1, line.index("1e999") + 1)
    puzzle = kakuro.read(EXAMPLES / "cazenave-2010-table1.txt")[0]
    odd = Puzzle.from_grid(puzzle.to_grid(), values=puzzle.values, meta={"weight": float("inf")})
    with pytest.raises(KakuroError, match="cannot be written as JSON"):
        dumps([odd], "jsonl")


def test_a_recorded_solution_that_breaks_the_rules_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 14: compare ignored such a solution silently."""
    puzzle = kakuro.read(EXAMPLES / "cazenave-2010-table1.txt")[0]
    wrong = [list(row) for row in puzzle.to_grid()]
    for r, c in puzzle.cells:
        wrong[r][c] = 1
    source = tmp_path / "recorded.jsonl"
    source.write_text(json.dumps({"id": "recorded", "grid": puzzle.to_grid(), "values": list(puzzle.values),
                                  "solution": wrong}) + "\n")
    assert run([str(source), "-b", "cpsat", "-j", "1", "--no-progress", "-o", str(tmp_path / "r.jsonl")]) == 0
    err = tracebackless(capsys.readouterr().err)
    assert "recorded solution breaks the rules" in err and str(source) in err


CELL = st.sampled_from(["white", "white", "white", "black"])


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    """Any valid puzzle up to 6x6: a random layout, each run given a feasible total (so
    one-row, one-column and all-black grids and ranges starting at 0 come up). The top-left cell
    is black: no valid puzzle has it white (nothing left of it or above it can hold its clue),
    and drawing it white made 5 of 6 draws invalid."""
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    values = draw(st.sampled_from([(1, 9), (0, 9), (0, 5), (1, 20), (3, 8)]))
    kinds = [["black" if r == c == 0 else draw(CELL) for c in range(cols)] for r in range(rows)]
    grid: list[list[Any]] = [[0 if kind == "white" else "#" for kind in row] for row in kinds]
    for r in range(rows):
        for c in range(cols):
            if kinds[r][c] == "white":
                continue
            clue: list[int | None] = [None, None]
            for half, (dr, dc) in ((1, (0, 1)), (0, (1, 0))):
                length, rr, cc = 0, r + dr, c + dc
                while rr < rows and cc < cols and kinds[rr][cc] == "white":
                    length, rr, cc = length + 1, rr + dr, cc + dc
                if length and length <= values[1] - values[0] + 1:
                    clue[half] = draw(st.integers(min_sum(length, values), max_sum(length, values)))
            if clue != [None, None]:
                grid[r][c] = clue
    try:
        return Puzzle.from_grid(grid, values=values)
    except InvalidPuzzleError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(puzzles(), st.randoms(use_true_random=False))
def test_what_a_writer_writes_its_reader_reads_back(puzzle: Puzzle, rng: Any) -> None:
    """Item 14: every format either writes a puzzle so that it reads back the same, or
    refuses it with a KakuroError saying why; a solved grid's text reads back digit for digit."""
    for name, module in FORMATS.items():
        if getattr(module, "parse", None) is None:
            continue
        try:
            written = dumps([puzzle], name)
        except KakuroError:
            continue
        assert kakuro.read(written, format=name) == [puzzle], (name, written)
    lo, hi = puzzle.values
    solved = puzzle.to_grid()
    for r, c in puzzle.cells:
        solved[r][c] = rng.randint(lo, hi)
    back = read_solution("\n".join(text.render_grid(solved, solved=True)) + "\n")
    assert [back[r][c] for r, c in puzzle.cells] == [solved[r][c] for r, c in puzzle.cells]


# ===================================================================== limits and seeds
SMALL = kakuro.read(TWO_SOLUTIONS)[0]
"""Solved at once by every backend, incomplete ones included: what is tested is the limit and the seed."""


@pytest.mark.parametrize("spec", [*AVAILABLE, "nmcs:workers=2", *(["choco:search=random"] if HAS_CHOCO else [])])
def test_every_backend_takes_any_time_limit_and_seed(spec: str) -> None:
    """Items 8 and 9: --time-limit 3000000 gave OverflowError (sat, csp, nmcs:workers=2),
    from 9.2e9 s or inf 10 of 13 backends answered ERROR; CP-SAT failed from seed 2**31,
    choco search=random from 2**63."""
    solver = kakuro.get_solver(spec)
    solver.ensure_warm()
    for limit, seed in ((3_000_000, 2**31), (float("inf"), 2**63 + 1), (1e300, 2**100)):
        result = solver.solve(SMALL, time_limit=limit, seed=seed)
        assert result.status is Status.SOLVED, (limit, seed, result.message)


def tiled(copies: int) -> Puzzle:
    """`copies` x `copies` blocks of a 2x2 puzzle: a (3 copies)-wide grid with 4 copies**2 cells."""
    block = [["#", [3, None], [4, None]], [[None, 3], 0, 0], [[None, 4], 0, 0]]
    return Puzzle.from_grid([[cell for _ in range(copies) for cell in row] for _ in range(copies) for row in block])


@pytest.fixture(scope="module")
def huge() -> Puzzle:
    return tiled(250)  # 750x750, 250,000 cells and runs: building any model takes seconds


@pytest.mark.timed  # a bound on wall time past the limit, as on an idle core (`tests.timing`): one process
@pytest.mark.parametrize("spec", ["cpsat:model=table", "cpsat:model=automaton", "rdv", "sahs", "gac", "auto",
                                  *(["choco"] if HAS_CHOCO else [])])
def test_building_a_model_stops_at_the_time_limit(spec: str, huge: Puzzle) -> None:
    """Item 8: model building ignored the limit (CP-SAT 6.2 s over on a 1000x1000 grid)."""
    solver = kakuro.get_solver(spec)
    solver.ensure_warm()
    with timed() as t:
        result = solver.solve(huge, time_limit=0.1)
    assert t.quiet(t.wall - 0.1) < 0.6, t  # a build step past the deadline, as on an idle core
    assert result.status is Status.UNKNOWN and "time limit" in result.message


# ===================================================================== generators and start-up
@pytest.mark.parametrize("size, values", [(50, 50), (62, 62)])
def test_generating_a_large_latin_grid_is_bounded(size: int, values: int, tmp_path: Path) -> None:
    """Item 11: `generate cazenave --size 50 --values 50` ran for minutes with no output."""
    out = tmp_path / "big.jsonl"
    done = subprocess.run([sys.executable, "-m", "kakuro", "generate", "cazenave", "--size", str(size), "--values",
                           str(values), "--holes", "50", "-o", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=90)
    assert done.returncode == 0, done.stderr
    (puzzle,) = kakuro.read(out)
    assert puzzle.check([list(row) for row in puzzle.meta["solution"]]) == []


@pytest.mark.skipif(not HAS_CHOCO, reason="pychoco is not installed")
def test_an_address_space_limit_leaves_choco_unavailable_not_fatal(tmp_path: Path) -> None:
    """Item 16: under `ulimit -v 10000000` importing choco killed even `kakuro backends`."""
    limit = 10_000_000 * 1024

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run([sys.executable, "-m", "kakuro", "backends"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, preexec_fn=limited)
    assert done.returncode == 0, done.stderr
    assert "choco is not available" in done.stdout and "address-space limit" in done.stdout
    done = subprocess.run([sys.executable, "-m", "kakuro", "solve", str(EXAMPLES / "cazenave-2010-table1.txt"),
                           "-b", "choco"], cwd=ROOT, capture_output=True, text=True, timeout=300, preexec_fn=limited)
    assert done.returncode == 1 and "ulimit -v" in one_line(done.stderr)
