"""Results files are only ever appended to when they are results files, identify a job by what
it is, take whatever a backend returns, and are read with the same bound as puzzle files.

Test-only backends live in tests/compare_backends.py and reach the workers through --import.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

import kakuro
from kakuro.cli import compare as cli
from kakuro.cli import report as report_cli
from kakuro.compare.jobs import Backend, Instance, make_jobs
from kakuro.errors import KakuroError
from kakuro.records.files import ResultsFile, read_results
from kakuro.records.lines import MAX_LINE
from kakuro.records.record import JobStatus, Record
from kakuro.report import effective
from tests.conftest import EXAMPLES, ROOT, TWO_SOLUTIONS
from tests.test_compare import BACKENDS_FILE, restore_registry  # noqa: F401 (restore_registry: a fixture)

BACKENDS = ["-b", "cpsat", "-b", "test-bigstat:digits=5000"]
"""Two backends on two puzzles: four jobs, two of them with a 5,000-digit int stat."""


def compare(argv: list[str], cwd: Path) -> int:
    """`python -m kakuro.compare ARGV` in this process, run from `cwd`."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return cli.main(["--import", BACKENDS_FILE, "-j", "1", "--no-progress", *argv])
    finally:
        os.chdir(old)


class Blocked(Exception):
    """Raised by `within` in a block still running at its bound: not an OSError (as
    TimeoutError is), which the code under test may catch and take for a failed open."""


@contextlib.contextmanager
def within(seconds: float) -> Iterator[None]:
    """Raise Blocked if the block is still running (blocked in a system call, say) after
    `seconds`."""

    def expire(signum: int, frame: object) -> None:
        raise Blocked(f"still blocked after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """A folder holding `set/p.jsonl` (two puzzles) and `results.jsonl`, the records of a
    campaign run from this folder on the relative path `set/p.jsonl`."""
    folder = tmp_path_factory.mktemp("work")
    puzzles = kakuro.read(EXAMPLES / "cazenave-2010-table1.txt") + kakuro.read(TWO_SOLUTIONS)
    kakuro.write(puzzles, folder / "set" / "p.jsonl")
    assert compare(["set/p.jsonl", *BACKENDS, "-o", "results.jsonl"], folder) == 0
    return folder


def copy_of(work: Path, tmp_path: Path) -> Path:
    target = tmp_path / "results.jsonl"
    target.write_bytes((work / "results.jsonl").read_bytes())
    return target


# --- -o never appends to a file that is not a results file -------------------------------


@pytest.mark.parametrize("how", ["same path", "symlink", "in a folder"])
def test_an_input_puzzle_file_as_output_is_refused_untouched(work: Path, tmp_path: Path, capsys, how: str) -> None:
    victim = tmp_path / "victim.jsonl"
    victim.write_bytes((work / "set" / "p.jsonl").read_bytes()[:-1])  # no final newline: nothing may add one
    before = victim.read_bytes()
    out, paths = str(victim), [str(victim)]
    if how == "symlink":
        (tmp_path / "link.jsonl").symlink_to(victim)
        paths = [str(tmp_path / "link.jsonl")]
    elif how == "in a folder":
        paths = [str(tmp_path)]
    code = compare([*paths, "-b", "cpsat", "-o", out, "--resume"], tmp_path)
    err = capsys.readouterr().err
    assert code == 1
    assert victim.read_bytes() == before
    assert f"-o {out} is the puzzle file" in err and len(err.strip().splitlines()) == 1


def test_resume_refuses_a_file_without_records(work: Path, tmp_path: Path, capsys) -> None:
    notes = tmp_path / "notes.md"
    notes.write_bytes(b"# Notes\n\nnot results; no newline at the end")
    before = notes.read_bytes()
    code = compare([str(work / "set" / "p.jsonl"), "-b", "cpsat", "-o", str(notes), "--resume"], tmp_path)
    err = capsys.readouterr().err
    assert code == 1
    assert notes.read_bytes() == before
    assert err.strip() == f"kakuro: {notes} holds no results records; refusing to append"


def test_resume_of_an_empty_file_or_one_with_records_is_allowed(work: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with ResultsFile(empty, resume=True) as results:
        assert results.existing == []
    with ResultsFile(copy_of(work, tmp_path), resume=True) as results:
        assert len(results.existing) == 4


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_an_output_that_is_not_a_regular_file_is_refused_at_once(work: Path, tmp_path: Path, capsys, kind: str) -> None:
    out = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "device":
        out = Path(os.devnull)
    else:
        out.mkdir()
    with within(30):  # generous: a resolve and a read of the puzzles; blocking would be forever
        code = compare([str(work / "set" / "p.jsonl"), "-b", "cpsat", "-o", str(out), "--resume"], tmp_path)
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"kakuro: {out} is a ") and "not a regular file" in err


# --- a job is what it is, however the puzzle file was reached ---------------------------


@pytest.mark.parametrize("how", ["absolute path", "other folder", "symlinked folder", "symlinked file"])
def test_resume_through_another_path_runs_no_job(work: Path, tmp_path: Path, capsys, how: str) -> None:
    out = copy_of(work, tmp_path)
    puzzles, cwd = str(work / "set" / "p.jsonl"), work
    if how == "other folder":
        puzzles, cwd = "p.jsonl", work / "set"
    elif how == "symlinked folder":
        (tmp_path / "linked").symlink_to(work / "set", target_is_directory=True)
        puzzles, cwd = "linked/p.jsonl", tmp_path
    elif how == "symlinked file":
        (tmp_path / "alias.jsonl").symlink_to(work / "set" / "p.jsonl")
        puzzles, cwd = "alias.jsonl", tmp_path
    before = out.read_bytes()
    capsys.readouterr()
    assert compare([puzzles, *BACKENDS, "-o", str(out), "--resume"], cwd) == 0
    assert "4 of 4 jobs already recorded, 0 to run" in capsys.readouterr().err
    assert out.read_bytes() == before


def test_the_same_puzzle_at_the_same_place_of_two_files_is_one_job() -> None:
    puzzle = kakuro.read(TWO_SOLUTIONS)[0]
    instances = [Instance.of("a/p.jsonl", 0, puzzle), Instance.of("b/copy.jsonl", 0, puzzle),
                 Instance.of("b/copy.jsonl", 1, puzzle)]
    jobs = make_jobs(instances, [Backend("cpsat", "cpsat", "cpsat")], repeat=2)
    assert [(job.instance.source, job.instance.index, job.repeat) for job in jobs] == [
        ("a/p.jsonl", 0, 0), ("b/copy.jsonl", 1, 0), ("a/p.jsonl", 0, 1), ("b/copy.jsonl", 1, 1)]


def test_records_of_earlier_versions_with_other_sources_still_match(work: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "old.jsonl"
    lines = []
    for record in read_results(work / "results.jsonl"):
        data = record.to_json()
        data["source"] = "../elsewhere/p.jsonl"  # typed from a folder that is not this one
        if record.backend == "cpsat":  # schema 1: no spec, the short spec as backend
            del data["schema"], data["spec"]
        lines.append(json.dumps(data) + "\n")
    out.write_text("".join(lines))
    capsys.readouterr()
    assert compare([str(work / "set" / "p.jsonl"), *BACKENDS, "-o", str(out), "--resume"], work) == 0
    assert "4 of 4 jobs already recorded, 0 to run" in capsys.readouterr().err


def test_the_report_counts_a_job_recorded_under_two_paths_once(work: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "twice.jsonl"
    records = read_results(work / "results.jsonl")
    again = [Record.from_json({**r.to_json(), "source": str(work / r.source)}) for r in records]
    out.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records + again))
    assert len(effective(read_results(out))) == len(records)
    assert report_cli.main([str(out)]) == 0
    shown = capsys.readouterr().out
    assert f"{len(records)} runs" in shown and "repeats aggregated" not in shown


# --- statuses are spelled as the library spells them ----------------------------------------


def test_every_library_status_but_unknown_is_a_job_status_of_the_same_spelling() -> None:
    """UNKNOWN is a TIMEOUT for a job (a limit reached); every other `kakuro.Status` has a
    `JobStatus` of its name, whose value is the library's value upper-cased."""
    for status in kakuro.Status:
        if status is not kakuro.Status.UNKNOWN:
            assert JobStatus[status.name].value == status.value.upper(), status


def test_a_status_as_earlier_versions_wrote_it_is_read_and_written_anew(tmp_path: Path, capsys) -> None:
    """Schema 2 wrote a proof of no solution as UNSAT: such a line reads as UNSATISFIABLE, is
    counted so by the report, and a record written now says UNSATISFIABLE."""
    old = {"schema": 2, "source": "set/p.jsonl", "index": 0, "digest": "d0", "backend": "gac", "spec": "gac:full",
           "seed": 0, "repeat": 0, "status": "UNSAT", "time_limit": 10.0, "time": 0.5, "stats": {}, "message": ""}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n" + json.dumps({**old, "schema": 1, "index": 1, "digest": "d1"}) + "\n")
    records = read_results(path)
    assert [record.status for record in records] == [JobStatus.UNSATISFIABLE] * 2
    assert records[0].to_json()["status"] == "UNSATISFIABLE"
    assert report_cli.main([str(path), "--csv", str(tmp_path / "summary.csv")]) == 0
    header, row = (tmp_path / "summary.csv").read_text().splitlines()[:2]
    assert dict(zip(header.split(","), row.split(",")))["unsatisfiable"] == "2"
    assert "UNSAT" not in capsys.readouterr().err


# --- whatever a backend returns, its job gets one record --------------------------------


def test_an_oversized_stat_still_gives_one_record_per_job(work: Path) -> None:
    records = read_results(work / "results.jsonl")
    assert len(records) == 4 and all(r.status is JobStatus.SOLVED for r in records)
    big = [r for r in records if r.backend.startswith("test-bigstat")]
    assert len(big) == 2
    for record in big:
        assert record.stats["huge"] == "an integer of about 5,000 digits"  # its size, as text
        assert record.stats["wide"] == str(2**64)  # beyond 64 bits: exact, as text
        assert record.stats["nan"] == "nan"
        assert isinstance(record.stats.get("nodes", 0), int)  # the plain stats stay numbers


def test_a_record_json_cannot_hold_is_written_without_its_stats(work: Path, tmp_path: Path) -> None:
    record = read_results(work / "results.jsonl")[0]
    bad = dataclasses.replace(record, stats={"huge": 10**5000})
    out = tmp_path / "results.jsonl"
    with ResultsFile(out) as results:
        results.append(bad)
        results.append(record)
    back = read_results(out)
    assert len(out.read_bytes().splitlines()) == 2 and len(back) == 2
    assert back[0].stats == {} and "stats not recorded" in back[0].message
    assert back[1] == record


# --- reading: bounded, regular files only, bad lines skipped -----------------------------


def _read_in_child(path: Path) -> subprocess.CompletedProcess[str]:
    """`read_results(path)` in a child limited to 1 GiB of address space beyond its start and
    60 s: a reader without a bound fails these limits instead of the machine."""
    code = ("import resource, sys\n"
            "from kakuro.records.files import read_results\n"
            "soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
            "used = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
            "resource.setrlimit(resource.RLIMIT_AS, (used + 2**30, hard))\n"
            "try:\n    read_results(sys.argv[1])\n"
            "except Exception as exc:\n    print(f'{type(exc).__name__}: {exc}')\n")
    return subprocess.run([sys.executable, "-c", code, str(path)], check=False, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


@pytest.mark.parametrize("kind", ["device", "sparse"])
def test_an_endless_or_huge_results_file_is_refused_quickly(tmp_path: Path, kind: str) -> None:
    path = Path("/dev/zero")
    if kind == "sparse":
        path = tmp_path / "huge.jsonl"
        with open(path, "wb") as stream:
            stream.truncate(64 * 2**30)  # 64 GiB of holes: no disk used
    started = time.monotonic()
    done = _read_in_child(path)
    assert time.monotonic() - started < 30
    said = done.stdout.strip()
    assert said.startswith(f"KakuroError: {path}"), (said, done.stderr[-2000:])
    expected = "a character device, not a regular file" if kind == "device" else f"{path}:1: a line longer than {MAX_LINE}"
    assert expected in said


def test_the_report_refuses_a_fifo_without_blocking(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "results.jsonl"
    os.mkfifo(fifo)
    with within(20):
        code = report_cli.main([str(fifo)])
    assert code == 1
    assert capsys.readouterr().err.strip() == (
        f"kakuro: {fifo} is a FIFO (named pipe), not a regular file; results files are regular files")


def test_a_line_that_is_not_utf8_is_skipped_with_a_warning(work: Path, tmp_path: Path) -> None:
    lines = (work / "results.jsonl").read_bytes().splitlines(keepends=True)
    out = tmp_path / "results.jsonl"
    out.write_bytes(lines[0] + lines[1].replace(b'"message": "', b'"message": "\xff\xfe', 1) + b"".join(lines[2:]))
    warnings: list[str] = []
    records = read_results(out, warn=warnings.append)
    assert len(records) == len(lines) - 1
    assert warnings[0].startswith(f"{out}:2: not UTF-8")
    assert warnings[-1] == f"{out}: 1 malformed line(s) skipped, {len(records)} record(s) read"


def test_a_bom_at_the_start_keeps_the_first_record(work: Path, tmp_path: Path) -> None:
    data = (work / "results.jsonl").read_bytes()
    out = tmp_path / "results.jsonl"
    out.write_bytes(b"\xef\xbb\xbf" + data)
    warnings: list[str] = []
    assert read_results(out, warn=warnings.append) == read_results(work / "results.jsonl")
    assert warnings == []


def test_resume_reads_a_non_utf8_line_as_a_skipped_line(work: Path, tmp_path: Path) -> None:
    out = copy_of(work, tmp_path)
    with open(out, "ab") as stream:
        stream.write(b"\xff torn\n")
    warnings: list[str] = []
    with ResultsFile(out, resume=True, warn=warnings.append) as results:
        assert len(results.existing) == 4
    assert any(w.startswith(f"{out}:5: not UTF-8") for w in warnings)


# --- streamed: no bound on a file kakuro wrote, one line for a foreign one ----------------

OLD_BOUND = 64 * 2**20
"""Bytes a results file could hold before reading was streamed (then a campaign past it ended
in a traceback, and neither report nor --resume read the file)."""


def fat_repeats(record: Record, total: int) -> list[bytes]:
    """Lines of records of `record`'s job under other repeats (seeds 1000 on), each about 16 KB
    (stats of a long text), `total` bytes in all: a large file of few records, quick to read."""
    lines, size, n = [], 0, 0
    while size < total:
        data = {**record.to_json(), "seed": 1000 + n, "repeat": 1000 + n, "stats": {"blob": f"{n:08d}" * 2000}}
        lines.append(json.dumps(data).encode() + b"\n")
        size, n = size + len(lines[-1]), n + 1
    return lines


def test_a_results_file_past_64_mib_is_resumed_appended_and_reported(work: Path, tmp_path: Path, capsys) -> None:
    records = read_results(work / "results.jsonl")
    out = tmp_path / "big.jsonl"
    out.write_bytes(b"".join(fat_repeats(records[0], OLD_BOUND + 2**20)) + b"".join(
        (json.dumps(r.to_json()) + "\n").encode() for r in records[1:]))  # one job left to run
    size = out.stat().st_size
    assert size > OLD_BOUND
    capsys.readouterr()
    assert compare([str(work / "set" / "p.jsonl"), *BACKENDS, "-o", str(out), "--resume"], work) == 0
    err = capsys.readouterr().err
    assert "3 of 4 jobs already recorded, 1 to run" in err and "Traceback" not in err
    assert out.stat().st_size > size  # the job's record went in, past the old bound
    assert read_results(out)[-1].key == records[0].key
    assert report_cli.main([str(out), "--csv", str(tmp_path / "summary.csv")]) == 0
    assert "test-bigstat" in (tmp_path / "summary.csv").read_text()


def test_reading_holds_one_line_at_a_time(work: Path, tmp_path: Path) -> None:
    """What reading allocates beyond the records it returns is a line, not the file (which
    reading as a whole held twice over: its bytes, then their lines)."""
    record = read_results(work / "results.jsonl")[0]
    out = tmp_path / "results.jsonl"
    out.write_bytes(b"".join(fat_repeats(record, 16 * 2**20)))
    tracemalloc.start()
    try:
        records = read_results(out)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(records) > 900
    assert peak - kept < 2 * MAX_LINE, f"{(peak - kept) / 2**20:.1f} MiB held beyond the records"


FOREIGN = {
    "a PNG": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "binary data (not UTF-8 at byte 1)"),
    "gzip": (b"\x1f\x8b\x08\x00" + bytes(range(256)), 1, "binary data (a NUL byte at byte 4)"),
    "a line of 2 MiB": (b"{}\n" * 3 + b"x" * 2**21 + b"\n", 4, f"a line longer than {MAX_LINE} bytes"),
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_a_foreign_file_is_one_line_naming_file_and_line(work: Path, tmp_path: Path, capsys, kind: str) -> None:
    data, line, reason = FOREIGN[kind]
    foreign = tmp_path / "results.jsonl"
    foreign.write_bytes(data)
    capsys.readouterr()
    assert report_cli.main([str(foreign)]) == 1
    assert capsys.readouterr().err == f"kakuro: {foreign}:{line}: {reason}" + (
        ", not a results file (JSON text, a record a line)\n" if "binary" in reason else
        ", which no results file holds (kakuro writes none); not a results file\n")
    assert compare([str(work / "set" / "p.jsonl"), "-b", "cpsat", "-o", str(foreign), "--resume"], tmp_path) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"kakuro: {foreign}:{line}: {reason}") and len(err.splitlines()) == 1
    assert foreign.read_bytes() == data


def test_a_file_of_text_and_no_record_is_one_line(tmp_path: Path, capsys) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nnot results\n")
    assert report_cli.main([str(notes)]) == 1
    assert capsys.readouterr().err == (f"kakuro: {notes}:1: not JSON (Expecting value, column 1); "
                                       f"{notes} holds no results records\n")


def test_appending_never_fails_on_size_and_writes_no_line_readers_refuse(work: Path, tmp_path: Path) -> None:
    record = read_results(work / "results.jsonl")[0]
    big = [dataclasses.replace(record, stats={"blob": "x" * 5 * 2**20}, repeat=1),
           dataclasses.replace(record, backend="b" * 2**20, instance="\U0001f600" * 2**19, repeat=2,
                               versions={"engine": "v" * 2**21})]
    out = tmp_path / "results.jsonl"
    with ResultsFile(out) as results:
        for one in [record, *big]:
            results.append(one)
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == 3 and all(len(line) <= MAX_LINE for line in lines)
    back = read_results(out)
    assert back[0] == record
    assert back[1].stats == {} and "stats, versions and machine not recorded" in back[1].message
    assert back[1].backend == record.backend and back[1].repeat == 1  # the job is still the job
    assert back[2].backend.startswith("b" * 1000) and back[2].backend.endswith("more characters cut)")


# --- appended to only while it is the file that was opened --------------------------------


def replace_as_an_editor_does(path: Path) -> None:
    """Save `path` as many editors do: write a new file beside it, rename it over the path."""
    saved = path.with_name(path.name + ".swp")
    saved.write_bytes(path.read_bytes() + b"# a note\n")
    os.replace(saved, path)


CHANGES = {
    "removed": (lambda path: path.unlink(), "was removed"),
    "replaced": (replace_as_an_editor_does, "was replaced by another file"),
    "written by another program": (lambda path: path.write_bytes(path.read_bytes() + b'{"by": "another"}\n'),
                                   "was changed by another program"),
    "truncated": (lambda path: os.truncate(path, 0), "was changed by another program"),
}
"""How a results file is changed under its writer, and how the writer's error says it."""


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_results_file_changed_under_a_writer_is_never_written_again(work: Path, tmp_path: Path, change: str) -> None:
    first, second, *_ = read_results(work / "results.jsonl")
    out = tmp_path / "results.jsonl"
    results = ResultsFile(out)
    results.append(first)
    kept = tmp_path / "kept.jsonl"  # a second name of the inode the writer opened: what it holds stays visible
    os.link(out, kept)
    make, said = CHANGES[change]
    make(out)
    at_path = out.read_bytes() if out.exists() else None
    in_inode = kept.read_bytes()
    with pytest.raises(KakuroError) as raised:
        results.append(second)
    rescued = tmp_path / "results-rescued.jsonl"
    message = str(raised.value)
    assert message.startswith(f"{out} {said}")
    assert f"are in {rescued}; continue the campaign with --resume -o {rescued}" in message
    assert (out.read_bytes() if out.exists() else None) == at_path  # nothing written at the path
    assert kept.read_bytes() == in_inode  # nor into the file that was opened
    saved = read_results(rescued)
    assert saved[-1] == second and (saved[0] == first if change != "truncated" else len(saved) == 1)
    with pytest.raises(KakuroError, match="is closed"):
        results.append(second)
    results.close()


def test_a_campaign_whose_file_is_replaced_stops_in_one_line_and_loses_no_record(
    work: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault: an editor saves the results file (a new file renamed over it) just after the
    campaign's first record is on disk."""
    out = tmp_path / "results.jsonl"
    real_fsync = os.fsync
    saved = []

    def fsync_then_an_editor_saves(fd: int) -> None:
        real_fsync(fd)
        if not saved and out.exists() and os.path.samestat(os.fstat(fd), os.stat(out)) and out.stat().st_size:
            saved.append(out.read_bytes())
            replace_as_an_editor_does(out)

    monkeypatch.setattr(os, "fsync", fsync_then_an_editor_saves)
    argv = [str(work / "set" / "p.jsonl"), "-b", "cpsat", "--repeat", "2", "-o", str(out)]
    assert compare(argv, tmp_path) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    rescued = tmp_path / "results-rescued.jsonl"
    assert err.splitlines()[-1] == (
        f"kakuro: {out} was replaced by another file while the campaign ran; to lose nothing, no more is written to it: "
        f"the records of the file this run opened and of the job that just ended are in {rescued}; "
        f"continue the campaign with --resume -o {rescued}")
    assert out.read_bytes() == saved[0] + b"# a note\n"  # the editor's file, as it saved it
    assert len(read_results(rescued)) == 2
    assert compare([*argv[:-1], str(rescued), "--resume"], tmp_path) == 0
    assert "2 of 4 jobs already recorded, 2 to run" in capsys.readouterr().err
    assert len(read_results(rescued)) == 4
