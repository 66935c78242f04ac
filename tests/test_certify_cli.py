"""`kakuro certify`, `kakuro verify`, `generate classic --certify` and `compare --certify` as a
user meets them: one line per puzzle, one clear line for bad input, an exit status that says
whether everything holds."""

from __future__ import annotations

import csv
import io
import os
import time
from pathlib import Path

import pytest

import kakuro
from kakuro.certificates import Claim, check
from kakuro.certificates.document import PROOF_LINE
from kakuro.cli import EXIT_ERROR, EXIT_OK, EXIT_USAGE
from kakuro.cli.exits import EXIT_LIMIT, EXIT_WRONG
from kakuro.records.files import read_results
from kakuro.records.record import JobStatus
from kakuro.records.verdict import certification, certified_status
from kakuro.report import sections
from kakuro.report.tables import puzzle_table, summary_table
from kakuro.report.text import per_puzzle_csv, summary_csv
from tests.conftest import ROOT, TWO_SOLUTIONS, UNSATISFIABLE
from tests.test_certify import KINDS, certificate_of
from tests.test_cli import run
from tests.test_compare import BACKENDS_FILE, restore_registry  # noqa: F401 (restore_registry: a fixture)
from tests.test_compare import run as run_compare
from tests.test_interrupts import interrupt

CLASSIC = ROOT / "instances" / "classic" / "unique-6x6.jsonl"


@pytest.fixture(scope="module")
def certified(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The certificates of the five puzzles of CLASSIC, made by `kakuro certify --all`."""
    folder = tmp_path_factory.mktemp("certs")
    assert kakuro.cli.main(["certify", str(CLASSIC), "--all", "-o", str(folder)]) == EXIT_OK
    return folder


def test_certify_writes_one_certificate_per_puzzle_and_says_what_it_proves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "certify", CLASSIC, "--index", "2", "-o", tmp_path)
    assert code == EXIT_OK
    assert [p.name for p in tmp_path.iterdir()] == ["classic-6x6-d0.3-s1-1.cert"]
    assert out.startswith("classic-6x6-d0.3-s1-1: exactly 1 solution, certified: ")


def test_verify_prints_the_certified_count_of_each(capsys: pytest.CaptureFixture[str], certified: Path) -> None:
    files = sorted(certified.iterdir())
    code, out, err = run(capsys, "verify", *files)
    assert code == EXIT_OK and err == ""
    lines = out.splitlines()
    assert len(lines) == 5 == len(files)
    assert all(line.startswith(f"{path}: exactly 1 solution, certified (dratify-python")
               for line, path in zip(lines, files))


def test_certify_refuses_to_replace_a_certificate_without_force(
    capsys: pytest.CaptureFixture[str], certified: Path
) -> None:
    target = certified / "classic-6x6-d0.3-s1-0.cert"
    before = target.read_bytes()
    code, out, err = run(capsys, "certify", CLASSIC, "-o", certified)
    assert code == EXIT_ERROR and out == ""
    assert err.splitlines()[-1].endswith("already exists; choose another name, or replace it with --force "
                                         "(overwrite=True in Python)")
    assert target.read_bytes() == before
    assert run(capsys, "certify", CLASSIC, "-o", certified, "--force")[0] == EXIT_OK


def test_the_certificates_of_unsatisfiable_and_ambiguous_puzzles(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    puzzles = tmp_path / "p.txt"
    kakuro.write([*kakuro.read(UNSATISFIABLE), *kakuro.read(TWO_SOLUTIONS)], puzzles)
    code, out, _ = run(capsys, "certify", puzzles, "--all", "-o", tmp_path / "c")
    assert code == EXIT_OK
    assert [line.split(":")[1].strip() for line in out.splitlines()] == ["0 solutions, certified",
                                                                          "at least 2 solutions, certified"]
    code, out, _ = run(capsys, "verify", *sorted((tmp_path / "c").iterdir()))
    assert code == EXIT_OK and "0 solutions, certified" in out and "at least 2 solutions, certified" in out


@pytest.mark.parametrize("damage", ["missing", "truncated", "a puzzle file", "a folder", "a FIFO", "/dev/zero"])
def test_a_file_that_is_no_whole_certificate_gets_one_line(
    damage: str, capsys: pytest.CaptureFixture[str], certified: Path, tmp_path: Path
) -> None:
    path = tmp_path / "x.cert"
    if damage == "truncated":
        path.write_bytes((certified / "classic-6x6-d0.3-s1-0.cert").read_bytes()[:5000])
    elif damage == "a puzzle file":
        path.write_bytes(CLASSIC.read_bytes())
    elif damage == "a folder":
        path.mkdir()
    elif damage == "a FIFO":
        os.mkfifo(path)
    elif damage == "/dev/zero":
        path = Path("/dev/zero")
    code, out, err = run(capsys, "verify", path, certified / "classic-6x6-d0.3-s1-1.cert")
    assert code == EXIT_ERROR
    assert len(err.splitlines()) == 1 and err.startswith(f"kakuro: {path}")
    assert out.count("certified") == 1  # the other certificate is still checked


def test_a_certificate_for_another_puzzle_is_rejected(capsys: pytest.CaptureFixture[str], certified: Path) -> None:
    cert = certified / "classic-6x6-d0.3-s1-0.cert"
    code, out, _ = run(capsys, "verify", cert, "--puzzle", CLASSIC, "--index", "2")
    assert code == EXIT_WRONG == 3
    assert out == (f"{cert}:1: rejected (puzzle): the certificate is for the puzzle of digest "
                   f"{kakuro.read(CLASSIC)[0].digest()}, not 'classic-6x6-d0.3-s1-1' "
                   f"(digest {kakuro.read(CLASSIC)[1].digest()})\n")
    assert run(capsys, "verify", cert, "--puzzle", CLASSIC)[0] == EXIT_OK


def test_a_tampered_proof_fails_verify_naming_its_line(capsys: pytest.CaptureFixture[str], certified: Path,
                                                       tmp_path: Path) -> None:
    lines = (certified / "classic-6x6-d0.3-s1-0.cert").read_text().splitlines()
    lines.remove("0")  # the empty clause, the end of the proof
    tampered = tmp_path / "t.cert"
    tampered.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "verify", tampered, "--checker", "dratify-python")
    assert code == EXIT_WRONG
    assert out == f"{tampered}:{len(lines)}: rejected (proof): the proof does not end with the empty clause ('0')\n"


@pytest.mark.parametrize(("edit", "words"), [
    ('"count":"exactly 1"', '"count":"exactly 2"'), ('"encoding":"combinations"', '"encoding":"combinations","id":"x"'),
])
def test_an_edited_header_fails_verify(edit: str, words: str, capsys: pytest.CaptureFixture[str], certified: Path,
                                       tmp_path: Path) -> None:
    tampered = tmp_path / "t.cert"
    tampered.write_text((certified / "classic-6x6-d0.3-s1-0.cert").read_text().replace(edit, words, 1))
    code, out, err = run(capsys, "verify", tampered)
    assert code == EXIT_WRONG and err == ""
    assert out.startswith(f"{tampered}:1: rejected (header): the header ") and out.count("\n") == 1


def test_the_worst_of_several_certificates_is_the_exit_status(capsys: pytest.CaptureFixture[str], certified: Path,
                                                              tmp_path: Path) -> None:
    tampered = tmp_path / "t.cert"
    tampered.write_text((certified / "classic-6x6-d0.3-s1-0.cert").read_text().replace('"exactly 1"', '"exactly 2"'))
    code, out, err = run(capsys, "verify", tmp_path / "missing.cert", tampered, certified / "classic-6x6-d0.3-s1-1.cert")
    assert code == EXIT_WRONG  # a refuted claim outranks a file that cannot be read
    assert len(out.splitlines()) == 2 and len(err.splitlines()) == 1


@pytest.mark.timed
def test_verify_takes_a_time_limit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                   certified: Path) -> None:
    """Fault injected: re-encoding the puzzle takes a minute."""
    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(60)
        raise AssertionError("not stopped")

    monkeypatch.setattr(check, "encode", slow)
    cert = certified / "classic-6x6-d0.3-s1-0.cert"
    start = time.monotonic()
    code, out, _ = run(capsys, "verify", cert, "--time-limit", "1")
    assert time.monotonic() - start < 2.5
    assert code == EXIT_LIMIT
    assert out == (f"{cert}: not verified within 1 s (the check was stopped); give it more with --time-limit S "
                   "('none': no limit)\n")


@pytest.mark.parametrize("kind", KINDS)
def test_certify_then_verify_every_kind_of_puzzle(kind: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A Sudoku, a Killer, an all-white grid: `certify` writes a certificate `verify` reads back,
    against the puzzle file too; the same certificate with a header field edited is refused."""
    puzzle, claim = KINDS[kind]
    source = tmp_path / {"killer": "p.killer", "sudoku": "p.sudoku"}.get(puzzle.kind, "p.jsonl")
    kakuro.write([puzzle], source)
    code, out, _ = run(capsys, "certify", source, "-o", tmp_path / "c")
    assert code == EXIT_OK, out
    (cert,) = (tmp_path / "c").iterdir()
    code, out, _ = run(capsys, "verify", cert, "--puzzle", source)
    assert code == EXIT_OK and out.startswith(f"{cert}: {claim.bound} solution")
    edited = tmp_path / "edited.cert"
    edited.write_text(cert.read_text().replace(f'"count":"{claim.bound}"', '"count":"exactly 1"'
                                               if claim is not Claim.UNIQUE else '"count":"0"', 1))
    code, out, _ = run(capsys, "verify", edited)
    assert code == EXIT_WRONG and out.startswith(f"{edited}:1: rejected (header): the header says the count is")


def test_generate_classic_certify_writes_each_certificate_beside_the_puzzles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "gen" / "p.jsonl"
    code, out, _ = run(capsys, "generate", "classic", "--rows", "6", "--cols", "6", "--count", "2", "--seed", "5",
                       "-o", out_file, "--certify")
    assert code == EXIT_OK
    puzzles = kakuro.read(out_file)
    certs = sorted(out_file.parent.glob("*.cert"))
    assert [c.stem for c in certs] == sorted(p.id for p in puzzles)
    for puzzle, cert in zip(sorted(puzzles, key=lambda p: p.id or ""), certs):
        verdict = kakuro.verify(cert, puzzle=puzzle)
        assert verdict.ok and str(verdict) == "exactly 1 solution, certified"
    assert "wrote 2 puzzle(s)" in out


def test_generate_certify_needs_an_output_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "generate", "classic", "--rows", "6", "--cols", "6", "--certify")
    assert code == EXIT_USAGE and out == ""
    assert err == "kakuro: --certify writes the certificates beside the puzzle file: give -o FILE\n"


# --------------------------------------------------------------------- compare --certify
def test_an_unsat_claim_that_certification_refutes_is_wrong(two_solutions: kakuro.Puzzle, unsatisfiable: kakuro.Puzzle) -> None:
    found = certification(two_solutions, time_limit=10)
    assert not found.certified and "certification found a solution" in found.wrong
    assert certified_status("", found)[0] is JobStatus.WRONG
    found = certification(unsatisfiable, time_limit=10)
    assert found.certified and certified_status("said so", found) == (JobStatus.UNSATISFIABLE, "said so")


def test_compare_certify_makes_a_false_unsat_wrong_and_the_report_names_the_certified(tmp_path: Path) -> None:
    puzzles = tmp_path / "p.txt"
    kakuro.write([*kakuro.read(UNSATISFIABLE), *kakuro.read(TWO_SOLUTIONS)], puzzles)
    argv = [str(puzzles), "--import", BACKENDS_FILE, "-b", "test-liar", "-j", "1", "--no-progress"]
    assert run_compare([*argv, "-o", str(tmp_path / "plain.jsonl")]) == 0  # without: the lie stands
    assert {r.status for r in read_results(tmp_path / "plain.jsonl")} == {JobStatus.UNSATISFIABLE}
    assert run_compare([*argv, "--certify", "-o", str(tmp_path / "certified.jsonl")]) == 3
    records = {r.index: r for r in read_results(tmp_path / "certified.jsonl")}
    assert (records[0].status, records[0].certified) == (JobStatus.UNSATISFIABLE, True)
    assert (records[1].status, records[1].certified) == (JobStatus.WRONG, False)
    assert "certification found a solution" in records[1].message
    (section,) = sections(list(records.values()))
    summary = summary_table(section)
    assert summary.rows[0][summary.header.index("unsatisfiable certified")] == 1
    assert "unsatisfiable certified" in puzzle_table(section, ["test-liar"]).rows[0][2]
    summary_rows = list(csv.DictReader(io.StringIO(summary_csv([section]))))
    assert summary_rows[0]["unsatisfiable certified"] == "1"
    per_puzzle = list(csv.reader(io.StringIO(per_puzzle_csv([section]))))
    column = per_puzzle[0].index("test-liar: certified")
    assert [row[column] for row in per_puzzle[1:]] == ["true", ""]  # the WRONG answer is not an UNSATISFIABLE one


@pytest.mark.timed
@pytest.mark.parametrize("limit", ["60", "none"])
def test_ctrl_c_stops_verify_at_once(limit: str, tmp_path: Path) -> None:
    """Fault injected: SIGINT while a long proof is checked, in the child the time limit runs
    it in (60) or in the command itself (none)."""
    text = certificate_of("killer, none")
    proof = text.index(PROOF_LINE) + len(PROOF_LINE) + 1
    long = tmp_path / "long.cert"
    long.write_text(text[:proof] + "d 1 2 0\n" * 1_000_000 + text[proof:])
    script = ("from kakuro.cli import main\n"
              "print('go', flush=True)\n"
              f"sys.exit(main(['verify', {str(long)!r}, '--time-limit', {limit!r}, '--checker', 'dratify-python']))\n")
    seconds, done = interrupt(script)
    assert done.returncode == 130 and seconds < 1.5, done.stderr[-1500:]
    assert done.stderr.strip() == "kakuro: interrupted" and done.stdout == ""
