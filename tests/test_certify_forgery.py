"""Tampered and forged certificates (issues 33, 40): `kakuro.verify` accepts none. Every line
it re-derives (the header, the formula and its comments) refuses any change; a false claim
with evidence made to look right is refused; every refusal is one line naming the part and
the line of the certificate."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import kakuro
from kakuro import Puzzle
from kakuro.certificates import Certificate, CertificateFormatError, Claim, Problem, available_checkers, certify
from kakuro.certificates.document import END_LINE, MAGIC, PROOF_LINE
from kakuro.reasoning.cnf import encode
from tests.test_certify import CLASSIC, KINDS, certificate_of, lines_of, text_of, verify_text

Lines = list[str]
FORMAT = "format"
"""Expected instead of a Problem: the file is refused as not in the layout (CertificateFormatError)."""


def _refusal(text: str, folder: Path, **options: object) -> str:
    """Why verify refuses `text` ("format: ..." or "PROBLEM: ..."); fails the test when it
    accepts it, or when the reason is not one line."""
    try:
        verdict = verify_text(text, folder, **options)
    except CertificateFormatError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(folder)), exc
        return f"{FORMAT}: {exc}"
    assert not verdict.ok, "a tampered certificate was accepted"
    assert verdict.problem is not None and "\n" not in verdict.reason
    assert str(verdict).startswith(f"rejected ({verdict.problem.value}): ")
    return f"{verdict.problem.value}: line {verdict.line}: {verdict.reason}"


def _edit_header(lines: Lines, edit: Callable[[dict[str, object]], object]) -> Lines:
    header = json.loads(lines[0].removeprefix(MAGIC))
    edit(header)
    return [MAGIC + json.dumps(header, separators=(",", ":")), *lines[1:]]


def _insert(lines: Lines, before: str, line: str) -> Lines:
    at = next(k for k, text in enumerate(lines) if text.startswith(before))
    return [*lines[:at], line, *lines[at:]]


def _replace(lines: Lines, starting: str, change: Callable[[str], str]) -> Lines:
    at = next(k for k, text in enumerate(lines) if text.startswith(starting) and k > 0)
    return [*lines[:at], change(lines[at]), *lines[at + 1:]]


def _id_in_the_puzzle_text(header: dict[str, object]) -> None:
    puzzle = header["puzzle"]
    assert isinstance(puzzle, dict)
    text = puzzle["text"]
    puzzle["text"] = text.replace("{", '{"id":"janko-001",', 1) if puzzle["format"] == "jsonl" else "# id: janko-001\n" + text


HUGE = "9" * 5000

# --------------------------------------------------------------------- the header: every field checked
HEADER_EDITS: dict[str, tuple[Callable[[Lines], Lines], str]] = {
    "the count edited": (lambda ls: _edit_header(ls, lambda h: h.update(count="exactly 2")), "header"),
    "an id added": (lambda ls: _edit_header(ls, lambda h: h.update(id="janko-001")), "header"),
    "the solver named": (lambda ls: _edit_header(ls, lambda h: h.update(solver="cadical195")), "header"),
    "another encoding": (lambda ls: _edit_header(ls, lambda h: h.update(encoding="pairs")), "header"),
    "a key in the puzzle object": (lambda ls: _edit_header(ls, lambda h: h["puzzle"].update(id="x")), "header"),  # type: ignore[attr-defined]
    "an id in the puzzle's text": (lambda ls: _edit_header(ls, _id_in_the_puzzle_text), "header"),
    "the keys in another order": (lambda ls: _edit_header(ls, lambda h: h.update(version=h.pop("version"))), "header"),
    "spaces in the header": (lambda ls: [MAGIC + json.dumps(json.loads(ls[0].removeprefix(MAGIC))), *ls[1:]], "header"),
    "a carriage return": (lambda ls: [ls[0] + "\r", *ls[1:]], "header"),
    "version 1": (lambda ls: _edit_header(ls, lambda h: h.update(version=1)), FORMAT),
    "a key twice": (lambda ls: [ls[0].replace('"claim":', '"claim":"none","claim":', 1), *ls[1:]], FORMAT),
    "a 5,000-digit version": (lambda ls: [ls[0].replace('"version":2', f'"version":{HUGE}', 1), *ls[1:]], FORMAT),
    "another claim": (lambda ls: _edit_header(ls, lambda h: h.update(claim="several" if h["claim"] != "several"
                                                                      else "unique")), FORMAT),
    "NaN in the header": (lambda ls: [ls[0].replace('"version":2', '"version":NaN', 1), *ls[1:]], FORMAT),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edit", HEADER_EDITS)
def test_every_header_field_is_checked(edit: str, kind: str, tmp_path: Path) -> None:
    change, expected = HEADER_EDITS[edit]
    changed = text_of(change(lines_of(certificate_of(kind))))
    assert changed != certificate_of(kind)
    reason = _refusal(changed, tmp_path)
    if edit == "an id in the puzzle's text":  # the one-line Sudoku format has no room for it: unreadable then
        assert reason.startswith(("header: line 1: the header's puzzle is not written", FORMAT)), reason
    else:
        assert reason.startswith(f"{expected}:"), reason
    assert reason.startswith(f"{FORMAT}:") or ": line 1: " in reason


def test_the_refusals_say_what_the_header_states_and_what_verify_derives(tmp_path: Path) -> None:
    lines = lines_of(certificate_of())
    said = {edit: _refusal(text_of(HEADER_EDITS[edit][0](lines)), tmp_path) for edit in HEADER_EDITS}
    assert said["the count edited"] == 'header: line 1: the header says the count is "exactly 2"; claim \'unique\' is "exactly 1"'
    assert said["an id added"] == "header: line 1: the header holds 'id', which verify does not check"
    assert said["the solver named"] == "header: line 1: the header holds 'solver', which verify does not check"
    assert said["another encoding"] == 'header: line 1: the header\'s encoding is "pairs"; certificates use "combinations"'
    assert said["version 1"].endswith("checked.cert:1: certificate version 1; this kakuro reads version 2 (make it "
                                      "again with kakuro certify)")
    assert said["a key twice"].endswith("checked.cert:1: the header repeats the key 'claim'")
    assert said["a 5,000-digit version"].endswith("checked.cert:1: the header holds a number of 5,000 digits")
    assert "the header is not written as kakuro certify writes it (at character" in said["spaces in the header"]


# --------------------------------------------------------------------- the formula and the proof: each line checked
BODY_EDITS: dict[str, tuple[Callable[[Lines], Lines], str]] = {
    "a 'c map' comment edited": (lambda ls: _replace(ls, "c map ", lambda s: s[:-1] + str(int(s[-1]) % 9 + 1)), "cnf"),
    "the description edited": (lambda ls: _replace(ls, "c ", lambda s: s + " (checked by hand)"), "cnf"),
    "a comment added to the formula": (lambda ls: _insert(ls, "p cnf", "c verified by drat-trim"), "cnf"),
    "a comment before the proof": (lambda ls: _insert(ls, PROOF_LINE, "c verified by drat-trim"), "cnf"),
    "a comment in the proof": (lambda ls: [*ls[:ls.index(PROOF_LINE) + 1], "c trimmed", *ls[ls.index(PROOF_LINE) + 1:]],
                               FORMAT),
    "a 5,000-digit p cnf": (lambda ls: _replace(ls, "p cnf", lambda s: f"p cnf {HUGE} 3"), "cnf"),
    "a 5,000-digit literal in a clause": (lambda ls: _insert(ls, PROOF_LINE, f"-{HUGE} 0"), "cnf"),
    "a 5,000-digit literal in the proof": (lambda ls: _insert(ls, "0", f"{HUGE} 1 0"), "proof"),
    "a step after the empty clause": (lambda ls: _insert(ls, END_LINE, "1 0"), "proof"),
    "the empty clause twice": (lambda ls: _insert(ls, END_LINE, "0"), "proof"),
    "a line after the end line": (lambda ls: [*ls, "c more"], FORMAT),
    "a step in another spelling": (lambda ls: _insert(ls, "0", "+1 -02 0"), FORMAT),
    "Arabic-Indic digits": (lambda ls: _insert(ls, "0", "\u0661 0"), FORMAT),
    "the proof dropped": (lambda ls: [*ls[:ls.index(PROOF_LINE) + 1], *ls[-1:]], "proof"),
}


@pytest.mark.parametrize("kind", [k for k, (_, claim) in KINDS.items() if claim is not Claim.SEVERAL])
@pytest.mark.parametrize("edit", BODY_EDITS)
def test_every_line_of_the_formula_and_the_proof_is_checked(edit: str, kind: str,
                                                           tmp_path: Path) -> None:
    change, expected = BODY_EDITS[edit]
    changed = text_of(change(lines_of(certificate_of(kind))))
    assert changed != certificate_of(kind)
    reason = _refusal(changed, tmp_path)
    assert reason.startswith(f"{expected}:"), reason


def test_a_certificate_of_several_solutions_holds_nothing_else(tmp_path: Path) -> None:
    lines = lines_of(certificate_of("killer, several"))
    assert _refusal(text_of([lines[0], "c proof DRUP", "0", *lines[1:]]), tmp_path).startswith(
        f"{FORMAT}: {tmp_path / 'checked.cert'}:2: a certificate of several solutions holds the header and the end line only")


@pytest.mark.parametrize("kind", ["kakuro, unique", "killer, none"])
def test_any_change_to_any_line_verify_re_derives_is_refused(kind: str, tmp_path: Path) -> None:
    """The sweep: each line of the header and the formula (every one for the smallest
    certificates, every 7th of the larger) deleted, doubled, changed by a character, or
    swapped with the next."""
    lines = lines_of(certificate_of(kind))
    formula = lines[:lines.index(PROOF_LINE) + 1]
    step = 1 if len(formula) < 300 else 7
    tried = 0
    for at in range(0, len(formula), step):
        line = lines[at]
        changed = f"{line[:-1]}{'1' if line[-1:] != '1' else '2'}"
        for variant in ([*lines[:at], *lines[at + 1:]], [*lines[:at], line, *lines[at:]],
                        [*lines[:at], changed, *lines[at + 1:]], [*lines[:at], lines[at + 1], line, *lines[at + 2:]]):
            if variant != lines:
                _refusal(text_of(variant), tmp_path)
                tried += 1
    assert tried > 150


# --------------------------------------------------------------------- false claims with evidence made to look right
def _forged(puzzle: Puzzle, claim: Claim, solutions: tuple[tuple[int, ...], ...], extra: list[list[int]],
            proof: tuple[tuple[bool, tuple[int, ...]], ...]) -> str:
    """A certificate written as certify writes one, of a claim it would not make: the puzzle's
    real CNF, `extra` clauses after it, `proof` as the proof."""
    enc = encode(puzzle)
    clauses = tuple(tuple(c) for c in [*enc.clauses, *extra])
    return Certificate(puzzle, claim, solutions, clauses, enc.num_vars, proof).dumps()


def _proof_of(clauses: list[list[int]]) -> tuple[tuple[bool, tuple[int, ...]], ...]:
    from pysat.solvers import Solver as PySatSolver

    with PySatSolver(name="cadical195", bootstrap_with=clauses, with_proof=True) as sat:
        assert not sat.solve()
        steps = [line.split() for line in sat.get_proof()]
    return tuple((s[0] == "d", tuple(int(t) for t in s[s[0] == "d":-1])) for s in steps)


def test_false_claims_made_to_look_right_are_refused(two_solutions: Puzzle, tmp_path: Path) -> None:
    unique = KINDS["kakuro, unique"][0]
    real = certify(unique)
    several = certify(two_solutions)
    first, second = several.solutions
    enc = encode(two_solutions)
    agree = [-enc.var(c, v) for c, (v, w) in enumerate(zip(first, second)) if v == w]  # excludes both solutions
    forged = {
        "none, with the proof that refutes the CNF without the solution":
            (_forged(unique, Claim.NONE, (), [], real.proof), "proof: "),
        "none, with the excluding clause kept": (_forged(unique, Claim.NONE, (), [list(real.excluding or ())], real.proof),
                                                 "cnf: "),
        "unique, for two solutions, the empty clause as proof":
            (_forged(two_solutions, Claim.UNIQUE, (first,), [enc.blocking_clause(first)], ((False, ()),)), "proof: "),
        "unique, for two solutions, a clause excluding both and its real proof":
            (_forged(two_solutions, Claim.UNIQUE, (first,), [agree], _proof_of([*enc.clauses, agree])), "excluding: "),
        "several, one solution twice": (_forged(two_solutions, Claim.SEVERAL, (first, first), [], ()), "solution: "),
        "several, for a unique puzzle": (_forged(unique, Claim.SEVERAL, (real.solutions[0], (1,) * unique.size), [], ()),
                                         "solution: "),
    }
    for name, (text, expected) in forged.items():
        assert _refusal(text, tmp_path).startswith(expected), name


def test_a_certificate_for_another_puzzle_is_rejected(tmp_path: Path) -> None:
    first, second = kakuro.read(CLASSIC)[:2]
    verdict = verify_text(certify(second).dumps(), tmp_path, puzzle=first)
    assert verdict.problem is Problem.PUZZLE and verdict.line == 1
    assert verdict.reason == (f"the certificate is for the puzzle of digest {second.digest()}, not "
                              f"'classic-6x6-d0.3-s1-0' (digest {first.digest()})")


# --------------------------------------------------------------------- the proof, checked by each checker
def _negate_first_lemma(lines: Lines) -> Lines:
    start = lines.index(PROOF_LINE) + 1
    at = next(i for i in range(start, len(lines)) if not lines[i].startswith("d") and lines[i] != "0")
    lits = lines[at].split()
    return [*lines[:at], " ".join([str(-int(lits[0])), *lits[1:]]), *lines[at + 1:]]


def _drop_the_empty_clause(lines: Lines) -> Lines:
    return [line for line in lines if line != "0"]


def _other_puzzles_cnf(lines: Lines) -> Lines:
    theirs = lines_of(certify(kakuro.read(CLASSIC)[2]).dumps())
    return [lines[0], *theirs[1:]]


def _change_a_digit(lines: Lines) -> Lines:
    return _edit_header(lines, lambda h: h["solutions"][0].__setitem__(0, h["solutions"][0][0] % 9 + 1))  # type: ignore[index]


def _exclude_more(lines: Lines) -> Lines:
    """The excluding clause less one literal: it would exclude other assignments too."""
    at = lines.index(PROOF_LINE) - 1
    return [*lines[:at], " ".join(lines[at].split()[1:]), *lines[at + 1:]]


TAMPERINGS: dict[str, tuple[Callable[[Lines], Lines], Problem, str]] = {
    "a proof line changed": (_negate_first_lemma, Problem.PROOF, "not RUP"),
    "a proof line dropped": (_drop_the_empty_clause, Problem.PROOF, "does not end with the empty clause"),
    "another puzzle's CNF": (_other_puzzles_cnf, Problem.CNF, "the CNF is not the puzzle's encoding: its comment is"),
    "a changed solution": (_change_a_digit, Problem.SOLUTION, "solution 1 is not a solution"),
    "an excluding clause that excludes more": (_exclude_more, Problem.EXCLUDING, "does not exclude exactly"),
}


@pytest.mark.parametrize("tampering", sorted(TAMPERINGS))
def test_a_tampered_certificate_is_rejected_with_its_reason(tampering: str, tmp_path: Path) -> None:
    tamper, problem, words = TAMPERINGS[tampering]
    changed = text_of(tamper(lines_of(certificate_of())))
    assert changed != certificate_of()
    verdict = verify_text(changed, tmp_path)
    assert not verdict.ok and not bool(verdict)
    assert verdict.problem is problem, verdict
    assert words in verdict.reason and "\n" not in verdict.reason
    assert verdict.line is not None and 1 <= verdict.line <= len(lines_of(changed))


def test_the_line_of_a_rejected_proof_step_is_named(tmp_path: Path) -> None:
    lines = _negate_first_lemma(lines_of(certificate_of()))
    verdict = verify_text(text_of(lines), tmp_path, checkers=["dratify-python"])
    step = int(re.search(r"at proof step (\d+)", verdict.reason)[1])  # type: ignore[index]
    assert verdict.line == lines.index(PROOF_LINE) + 1 + step
    assert lines[verdict.line - 1] != lines_of(certificate_of())[verdict.line - 1]


@pytest.mark.parametrize("checker", ["dratify-python", "dratify-native"])
def test_each_checker_rejects_a_changed_lemma_on_its_own(checker: str, tmp_path: Path) -> None:
    if checker not in available_checkers():
        pytest.skip(f"{checker} is not installed here (pip install 'cdclkit[native]')")
    verdict = verify_text(text_of(_negate_first_lemma(lines_of(certificate_of()))), tmp_path, checkers=[checker])
    assert verdict.problem is Problem.PROOF and checker in verdict.reason
    assert verify_text(certificate_of(), tmp_path, checkers=[checker]).checkers == (checker,)
