"""Certified answers (issue 33): `kakuro.certify` makes a certificate, `kakuro.verify` trusts
nothing in it, each kind of tampering is rejected with its reason, and the encoding the
certificates trust is checked on a sample (the whole janko set is benchmarks/certify.py's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import kakuro
from kakuro import Puzzle
from kakuro.certificates import (
    PROOF_SOLVERS,
    Certificate,
    CertificateFormatError,
    CertifyLimitError,
    Claim,
    Problem,
    available_checkers,
    certify,
    check_encoding,
    loads,
    read_certificate,
    verify,
)
from kakuro.certificates import encoding as encoding_module
from kakuro.certificates.document import END_LINE, PROOF_LINE
from kakuro.errors import BackendOptionError
from kakuro.generate import cazenave
from kakuro.reasoning.cnf import Encoding, encode
from tests.conftest import ROOT, hard_for_gac, shared_data_or_skip

CLASSIC = ROOT / "instances" / "classic" / "unique-6x6.jsonl"


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
    return cazenave(size=4, values=5, holes=100, count=1, seed=0, unsatisfiable=True)[0]


@pytest.fixture(scope="module")
def unique_text(unique: Puzzle) -> str:
    return certify(unique).dumps()


def _proof_range(lines: list[str]) -> range:
    start = lines.index(PROOF_LINE) + 1
    return range(start, lines.index(END_LINE))


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------- what a certificate claims
def test_a_unique_puzzle_is_certified_with_its_solution_and_a_proof(unique: Puzzle) -> None:
    cert = certify(unique)
    assert cert.claim is Claim.UNIQUE and len(cert.solutions) == 1
    assert unique.check(unique.solution(cert.solutions[0])) == []
    assert cert.excluding is not None and cert.proof
    verdict = verify(cert, puzzle=unique)
    assert verdict.ok and bool(verdict) and verdict.problem is None
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


def test_the_text_reads_back_to_the_same_certificate(unique: Puzzle, no_solution: Puzzle, two_solutions: Puzzle) -> None:
    for puzzle in (unique, no_solution, two_solutions):
        cert = certify(puzzle)
        text = cert.dumps()
        assert loads(text) == cert
        header = json.loads(text.splitlines()[0].removeprefix("c kakuro certificate "))
        assert header["version"] == 1 and header["claim"] == cert.claim.value


# --------------------------------------------------------------------- tampering, each rejected with its reason
def _negate_first_lemma(lines: list[str], _: Puzzle) -> list[str]:
    at = next(i for i in _proof_range(lines) if not lines[i].startswith("d") and lines[i] != "0")
    lits = lines[at].split()
    return [*lines[:at], " ".join([str(-int(lits[0])), *lits[1:]]), *lines[at + 1:]]


def _drop_the_empty_clause(lines: list[str], _: Puzzle) -> list[str]:
    at = max(i for i in _proof_range(lines) if lines[i] == "0")
    return lines[:at] + lines[at + 1:]


def _drop_the_whole_proof(lines: list[str], _: Puzzle) -> list[str]:
    proof = _proof_range(lines)
    return lines[:proof.start] + lines[proof.stop:]


def _other_puzzles_cnf(lines: list[str], other: Puzzle) -> list[str]:
    theirs = certify(other).dumps().splitlines()
    return [lines[0], *theirs[1:]]


def _change_a_digit(lines: list[str], _: Puzzle) -> list[str]:
    header = json.loads(lines[0].removeprefix("c kakuro certificate "))
    header["solutions"][0][0] = header["solutions"][0][0] % 9 + 1
    return ["c kakuro certificate " + json.dumps(header), *lines[1:]]


def _exclude_more(lines: list[str], _: Puzzle) -> list[str]:
    """The excluding clause less one literal: it would exclude other assignments too."""
    at = lines.index(PROOF_LINE) - 1
    return [*lines[:at], " ".join(lines[at].split()[1:]), *lines[at + 1:]]


TAMPERINGS: dict[str, tuple[Callable[[list[str], Puzzle], list[str]], Problem, str]] = {
    "a proof line changed": (_negate_first_lemma, Problem.PROOF, "not RUP"),
    "a proof line dropped": (_drop_the_empty_clause, Problem.PROOF, "never derives the empty clause"),
    "the proof dropped": (_drop_the_whole_proof, Problem.PROOF, "never derives the empty clause"),
    "another puzzle's CNF": (_other_puzzles_cnf, Problem.CNF, "the CNF is not the puzzle's encoding: it has"),
    "a changed solution": (_change_a_digit, Problem.SOLUTION, "solution 1 is not a solution"),
    "an excluding clause that excludes more": (_exclude_more, Problem.EXCLUDING, "does not exclude exactly"),
}


@pytest.mark.parametrize("tampering", sorted(TAMPERINGS))
def test_a_tampered_certificate_is_rejected_with_its_reason(
    tampering: str, unique: Puzzle, other: Puzzle, unique_text: str
) -> None:
    tamper, problem, words = TAMPERINGS[tampering]
    lines = unique_text.splitlines()
    changed = _text(tamper(lines, other))
    assert changed != unique_text
    verdict = verify(loads(changed))
    assert not verdict.ok and not bool(verdict)
    assert verdict.problem is problem, verdict
    assert words in verdict.reason and "\n" not in verdict.reason
    assert str(verdict).startswith(f"rejected ({problem.value}): ")


def test_a_proof_of_no_solution_with_a_lemma_changed_is_rejected(no_solution: Puzzle) -> None:
    lines = certify(no_solution).dumps().splitlines()
    verdict = verify(loads(_text(_negate_first_lemma(lines, no_solution))))
    assert verdict.problem is Problem.PROOF and "not RUP" in verdict.reason


def test_a_certificate_for_another_puzzle_is_rejected(unique: Puzzle, other: Puzzle) -> None:
    verdict = verify(certify(other), puzzle=unique)
    assert verdict.problem is Problem.PUZZLE
    assert "the certificate is for puzzle 'classic-6x6-d0.3-s1-2'" in verdict.reason


def test_two_equal_solutions_do_not_certify_several(two_solutions: Puzzle) -> None:
    cert = certify(two_solutions)
    same = Certificate(cert.puzzle, cert.claim, (cert.solutions[0], cert.solutions[0]))
    assert verify(same).problem is Problem.SOLUTION


def test_a_proof_with_a_variable_beyond_the_cnf_is_rejected(unique: Puzzle) -> None:
    cert = certify(unique)
    far = Certificate(cert.puzzle, cert.claim, cert.solutions, cert.clauses, cert.num_vars,
                      ((False, (cert.num_vars + 10**9,)), *cert.proof))
    verdict = verify(far)
    assert verdict.problem is Problem.PROOF and "uses variable" in verdict.reason


@pytest.mark.parametrize("checker", ["dratify-python", "dratify-native"])
def test_each_checker_rejects_a_changed_lemma_on_its_own(checker: str, unique_text: str, unique: Puzzle) -> None:
    if checker not in available_checkers():
        pytest.skip(f"{checker} is not installed here (pip install 'cdclkit[native]')")
    tampered = loads(_text(_negate_first_lemma(unique_text.splitlines(), unique)))
    verdict = verify(tampered, checkers=[checker])
    assert verdict.problem is Problem.PROOF and checker in verdict.reason
    assert verify(loads(unique_text), checkers=[checker]).checkers == (checker,)


# --------------------------------------------------------------------- files that are not whole certificates
def test_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(CertificateFormatError, match=r"nothing\.cert: no such file$"):
        verify(tmp_path / "nothing.cert")


def test_a_truncated_file_names_its_last_line(tmp_path: Path, unique_text: str) -> None:
    path = tmp_path / "cut.cert"
    lines = unique_text.splitlines()
    path.write_text(_text(lines[: len(lines) // 2]))
    with pytest.raises(CertificateFormatError, match=rf"cut\.cert:{len(lines) // 2}:1: .* truncated"):
        read_certificate(path)


@pytest.mark.parametrize(("content", "where", "words"), [
    ("", "", "empty file"),
    ("#  3\\\n", ":1:1", "not a kakuro certificate"),
    ("c kakuro certificate {\"version\": 7}\n" + END_LINE + "\n", ":1", "version 7"),
    ("c kakuro certificate [1\n" + END_LINE + "\n", ":1:24", "not valid JSON"),
])
def test_text_that_is_no_certificate_is_refused_with_its_place(tmp_path: Path, content: str, where: str, words: str) -> None:
    path = tmp_path / "bad.cert"
    path.write_text(content)
    with pytest.raises(CertificateFormatError, match=rf"bad\.cert{where}: .*{words}"):
        read_certificate(path)


def test_a_literal_that_is_no_number_names_line_and_column(unique_text: str) -> None:
    lines = unique_text.splitlines()
    at = lines.index(PROOF_LINE) + 1
    lines[at] = "12 x3 0"
    with pytest.raises(CertificateFormatError, match=rf"^f\.cert:{at + 1}:4: 'x3' is not a literal"):
        loads(_text(lines), "f.cert")


def test_a_clause_count_that_does_not_match_is_refused(unique_text: str) -> None:
    lines = unique_text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    lines.pop(at + 1)
    with pytest.raises(CertificateFormatError, match="announces .* clauses"):
        loads(_text(lines))


# --------------------------------------------------------------------- the trusted encoding, checked
def _sample() -> list[Puzzle]:
    sample = [*kakuro.read(CLASSIC)[:2],
              *cazenave(size=4, values=5, holes=100, count=1, seed=0, unsatisfiable=True),
              *cazenave(size=3, values=4, holes=100, count=1, seed=2),
              kakuro.read("#   3\\  3\\\n\\3  _   _\n\\3  _   _\n")[0]]
    try:
        shared = shared_data_or_skip()
    except pytest.skip.Exception:
        return sample
    ifilot = kakuro.read(shared / "ifilot_cx16.jsonl")
    return [*sample, *(p for p in ifilot if p.id in ("ifilot-cx16-001", "ifilot-cx16-019")),
            *kakuro.read(shared / "janko.jsonl")[:3]]


@pytest.mark.parametrize("puzzle", _sample(), ids=lambda p: p.id or "two-solutions")
def test_every_cnf_model_is_a_solution_and_the_counts_match_gac(puzzle: Puzzle) -> None:
    check = check_encoding(puzzle, cap=10)
    assert check.problems == ()
    assert (check.cnf_count, check.cnf_exhausted) == (check.native_count, check.native_exhausted)
    assert check.agrees


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
