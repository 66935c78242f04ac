"""Certified answers (issues 33, 40): `kakuro.certify` makes a certificate of every kind of
puzzle (Kakuro, all-white Cazenave, Sudoku, Killer), `kakuro.verify` reads it back from its
file trusting nothing in it, and the encoding the certificates trust is checked on a sample
(the whole janko set is benchmarks/certify.py's). Forged and tampered certificates are
tests/test_certify_forgery.py's; files that are no certificates, limits and the fuzzer are
tests/test_certify_inputs.py's."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import kakuro
from kakuro import Puzzle
from kakuro.certificates import (
    PROOF_SOLVERS,
    VERSION,
    Certificate,
    CertifyLimitError,
    Claim,
    Verdict,
    certify,
    check_encoding,
    verify,
)
from kakuro.certificates import encoding as encoding_module
from kakuro.certificates.document import END_LINE, MAGIC, PROOF_LINE
from kakuro.errors import BackendOptionError
from kakuro.generate import cazenave
from kakuro.generate.sudoku_grids import killer, sudoku
from kakuro.reasoning.cnf import Encoding, encode
from tests.conftest import ROOT, hard_for_gac, shared_set

CLASSIC = ROOT / "instances" / "classic" / "unique-6x6.jsonl"

KINDS: dict[str, tuple[Puzzle, Claim]] = {
    "kakuro, unique": (kakuro.read(CLASSIC)[0], Claim.UNIQUE),
    "cazenave, none": (cazenave(size=4, values=5, holes=100, count=1, seed=0, unsatisfiable=True)[0], Claim.NONE),
    "cazenave, several": (cazenave(size=3, values=4, holes=100, count=1, seed=2)[0], Claim.SEVERAL),
    "sudoku, unique": (sudoku(9, 0.45, seed=1), Claim.UNIQUE),
    "sudoku 6x6, several": (Puzzle.sudoku([[0] * 6 for _ in range(6)], box=(2, 3)), Claim.SEVERAL),
    "sudoku, none": (Puzzle.sudoku([[0, 0, 0, 1], [4, 0, 2, 0], [0, 0, 0, 0], [0, 0, 4, 0]]), Claim.NONE),
    "killer, unique": (killer(6, seed=2, largest=3, box=(2, 3)), Claim.UNIQUE),
    "killer, none": (Puzzle.killer([(3, [(0, 0), (0, 1)]), (3, [(1, 0), (1, 1)])], size=4), Claim.NONE),
    "killer, several": (Puzzle.killer([(3, [(0, 0), (0, 1)]), (7, [(3, 2), (3, 3)])], size=4), Claim.SEVERAL),
}
"""A puzzle of each kind and each claim, with the claim its certificate makes."""


@pytest.fixture(scope="module")
def unique() -> Puzzle:
    """A generated 6x6 puzzle with one solution whose refutation needs its proof (unit
    propagation alone does not refute the CNF without the solution)."""
    return kakuro.read(CLASSIC)[0]


@pytest.fixture(scope="module")
def other() -> Puzzle:
    """Another 6x6 puzzle of the same file."""
    return kakuro.read(CLASSIC)[2]


@pytest.fixture(scope="module")
def no_solution() -> Puzzle:
    """A 4x4 grid over 1..5 with no solution that propagation alone does not refute."""
    return KINDS["cazenave, none"][0]


@cache
def certificate_of(kind: str = "kakuro, unique") -> str:
    """The text of the certificate of the puzzle of KINDS[kind] (made once)."""
    return certify(KINDS[kind][0]).dumps()


def verify_text(text: str | bytes, folder: Path, **options: object) -> Verdict:
    """`verify` on a certificate file holding `text`."""
    path = folder / "checked.cert"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape"))
    return verify(path, **options)  # type: ignore[arg-type]


def lines_of(text: str) -> list[str]:
    return text.split("\n")[:-1]


def text_of(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------- what a certificate claims
def test_a_unique_puzzle_is_certified_with_its_solution_and_a_proof(unique: Puzzle) -> None:
    cert = certify(unique)
    assert cert.claim is Claim.UNIQUE and len(cert.solutions) == 1
    assert unique.check(unique.solution(cert.solutions[0])) == []
    assert cert.excluding is not None and cert.proof
    verdict = verify(cert, puzzle=unique)
    assert verdict.ok and bool(verdict) and verdict.problem is None and verdict.line is None
    assert str(verdict) == "exactly 1 solution, certified"
    assert "dratify-python" in verdict.checkers


@pytest.mark.parametrize("make", ["tiny", "4x4"])
def test_a_puzzle_without_solution_is_certified_none(make: str, unsatisfiable: Puzzle, no_solution: Puzzle) -> None:
    puzzle = unsatisfiable if make == "tiny" else no_solution
    cert = certify(puzzle)
    assert cert.claim is Claim.NONE and cert.solutions == () and cert.excluding is None
    assert cert.cnf == tuple(tuple(c) for c in encode(puzzle).clauses)
    verdict = verify(cert, puzzle=puzzle)
    assert verdict.ok and str(verdict) == "0 solutions, certified"


def test_two_solutions_are_certified_by_the_two_solutions_alone(two_solutions: Puzzle) -> None:
    cert = certify(two_solutions)
    assert cert.claim is Claim.SEVERAL and not cert.proof and not cert.clauses
    first, second = cert.solutions
    assert first != second
    assert all(two_solutions.check(two_solutions.solution(s)) == [] for s in cert.solutions)
    assert str(verify(cert)) == "at least 2 solutions, certified"


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_every_proof_solver_makes_a_certificate_that_verifies(solver: str, unique: Puzzle) -> None:
    cert = certify(unique, solver=solver)
    assert cert.made_by["solver"] == solver
    assert verify(cert).ok


def test_a_solver_without_proofs_is_refused(unique: Puzzle) -> None:
    with pytest.raises(BackendOptionError, match="logs no proof"):
        certify(unique, solver="minisat22")


def test_a_time_limit_stops_the_solver_with_a_typed_error() -> None:
    with pytest.raises(CertifyLimitError, match="no certificate within 0.2 s"):
        certify(hard_for_gac(16), time_limit=0.2)


def test_with_a_time_limit_the_certificate_is_the_same(unique: Puzzle) -> None:
    assert certify(unique, time_limit=30) == certify(unique)


def test_the_proof_ends_with_its_empty_clause(unique: Puzzle) -> None:
    """CaDiCaL logs deletions after the empty clause; they prove nothing, and a certificate
    states only what verify checks, so certify leaves them out (and verify refuses them:
    tests/test_certify_forgery.py)."""
    for puzzle in (unique, KINDS["sudoku, unique"][0]):
        proof = certify(puzzle).proof
        assert proof[-1] == (False, ()) and (False, ()) not in proof[:-1]


# --------------------------------------------------------------------- every kind of puzzle, through its file
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_puzzle_is_certified_and_read_back_from_its_file(
    kind: str, tmp_path: Path
) -> None:
    puzzle, claim = KINDS[kind]
    text = certificate_of(kind)
    verdict = verify_text(text, tmp_path, puzzle=puzzle)
    assert verdict.ok, verdict
    assert verdict.claim is claim
    assert ("dratify-python" in verdict.checkers) is (claim is not Claim.SEVERAL)


@pytest.mark.parametrize("kind", KINDS)
def test_the_header_holds_the_puzzle_whole_and_nothing_verify_does_not_check(kind: str) -> None:
    """The puzzle part round-trips whatever the kind: its format's text reads back to the same
    puzzle (boxes, cages, value range, givens), and the header holds no id, no notes, no
    solver name."""
    puzzle, claim = KINDS[kind]
    header = json.loads(lines_of(certificate_of(kind))[0].removeprefix(MAGIC))
    assert list(header) == ["version", "claim", "count", "puzzle", "solutions", "encoding"]
    assert header["version"] == VERSION and header["claim"] == claim.value and header["count"] == claim.bound
    (back,) = kakuro.read(header["puzzle"]["text"], format=header["puzzle"]["format"])
    assert back == puzzle and back.kind == puzzle.kind and back.values == puzzle.values
    assert back.id is None and not back.meta
    assert (puzzle.id or "no id") not in certificate_of(kind)


def test_a_puzzle_s_id_and_notes_are_no_part_of_its_certificate(unique: Puzzle) -> None:
    renamed = Puzzle.from_grid(unique.to_grid(), values=unique.values, id="another-name", meta={"source": "x"})
    assert certify(renamed).dumps() == certify(unique).dumps()


def test_the_layout_of_a_certificate() -> None:
    lines = lines_of(certificate_of())
    assert lines[0].startswith(MAGIC) and lines[-1] == END_LINE and lines[-2] == "0"
    proof = lines.index(PROOF_LINE)
    problem = next(k for k, line in enumerate(lines) if line.startswith("p cnf "))
    assert all(line.startswith("c ") for line in lines[1:problem])
    assert not any(line.startswith("c") for line in lines[problem + 1:proof] + lines[proof + 1:-1])


# --------------------------------------------------------------------- the trusted encoding, checked
def _sample() -> list[Puzzle]:
    return [*kakuro.read(CLASSIC)[:2],
            *cazenave(size=4, values=5, holes=100, count=1, seed=0, unsatisfiable=True),
            *cazenave(size=3, values=4, holes=100, count=1, seed=2),
            kakuro.read("#   3\\  3\\\n\\3  _   _\n\\3  _   _\n")[0]]


PUBLISHED_SAMPLE = [("ifilot_cx16", "ifilot-cx16-001"), ("ifilot_cx16", "ifilot-cx16-019"),
                    ("janko", 0), ("janko", 1), ("janko", 2)]
"""Shared published puzzles of the sample, by set and id or position: read when a test runs
(the sets take a second to read, which every worker's collection would pay)."""


def _check_the_encoding(puzzle: Puzzle) -> None:
    check = check_encoding(puzzle, cap=10)
    assert check.problems == ()
    assert (check.cnf_count, check.cnf_exhausted) == (check.native_count, check.native_exhausted)
    assert check.agrees


@pytest.mark.parametrize("puzzle", _sample(), ids=lambda p: p.id or "two-solutions")
def test_every_cnf_model_is_a_solution_and_the_counts_match_gac(puzzle: Puzzle) -> None:
    _check_the_encoding(puzzle)


@pytest.mark.parametrize("name, which", PUBLISHED_SAMPLE)
def test_so_too_on_published_puzzles(name: str, which: str | int) -> None:
    puzzles = shared_set(name)  # skips, saying why, without the shared data
    _check_the_encoding(puzzles[which] if isinstance(which, int) else next(p for p in puzzles if p.id == which))


def test_the_encoding_check_catches_an_encoding_that_loses_a_sum(monkeypatch: pytest.MonkeyPatch, unique: Puzzle) -> None:
    """Fault injected: the clauses of the combination selectors dropped, so models need not
    meet the sums."""
    def weaker(puzzle: Puzzle, encoding: str = "combinations") -> Encoding:
        enc = encode(puzzle, encoding)
        kept = [c for c in enc.clauses if max(abs(lit) for lit in c) <= puzzle.size * 9]
        return Encoding(kept, enc.num_vars, enc.cells, enc.values, enc.encoding)

    monkeypatch.setattr(encoding_module, "encode", weaker)
    check = check_encoding(unique, cap=3)
    assert check.problems and not check.agrees


def test_a_certificate_object_is_checked_as_the_text_it_writes(unique: Puzzle) -> None:
    """verify(Certificate) reads `cert.dumps()` as it reads a file: one path for both."""
    cert = certify(unique)
    wrong = Certificate(cert.puzzle, cert.claim, cert.solutions, cert.clauses[:-2] + cert.clauses[-1:], cert.num_vars,
                        cert.proof)
    verdict = verify(wrong)
    assert not verdict.ok and verdict.line is not None
    assert lines_of(wrong.dumps())[verdict.line - 1] != lines_of(cert.dumps())[verdict.line - 1]
