"""Checking a certificate while trusting nothing in it: `verify`.

The certificate is read line by line, a file streamed (memory goes to what the checks need:
the encoding, and the clauses the proof checker holds; never the whole file):

    1. the puzzle is the one asked about (when one is given);
    2. every solution listed passes `puzzle.check` (claim SEVERAL: two distinct ones, and that
       is all it takes);
    3. the header is exactly the one written here from its claim, puzzle and solutions: its
       `count`, `encoding` and the puzzle's text included, and no other key;
    4. the puzzle is encoded again here, and the formula's lines must be exactly that
       encoding's DIMACS text (its comments, the variable map, included), clause for clause;
    5. claim UNIQUE: the last clause must be the one this module builds from the checked
       solution, `-x(c, v_c)` for every cell `c` (the CNF makes each cell hold exactly one
       value, so the models it removes are exactly those that decode to that solution);
    6. the proof is one step a line, names no variable beyond the CNF's and ends with its empty
       clause (nothing after it); DRUP checkers that are not the solver check it against the CNF built here (and
       that clause): dratify's pure-Python checker as the lines are read (forward), and
       dratify's native one too when installed (`pip install "cdclkit[native]"`; it takes the
       proof whole, so it checks certificates of up to `NATIVE_MAX_BYTES`); each must accept it.

What is left to trust is the encoding (`kakuro.reasoning.cnf`): that every solution of the
puzzle is a model of its CNF. `kakuro.certificates.encoding` checks that on puzzles.
"""

from __future__ import annotations

import contextlib
import enum
import io
import json
import os
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from kakuro.certificates.document import (
    END_LINE,
    PROOF_LINE,
    Certificate,
    CertificateReader,
    Claim,
    Header,
    clip,
    formula_text,
    header_fields,
    header_line,
    json_shown,
)
from kakuro.certificates.prove import ENCODING
from kakuro.certificates.tools import CHECKERS
from kakuro.clock import Deadline
from kakuro.errors import InvalidSolutionError, KakuroError
from kakuro.isolation import DeadlineReached, call_with_deadline
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import encode

NATIVE_MAX_BYTES = 8 << 20
"""The largest certificate (bytes) the native checker is given by default: it takes the whole
proof as Python lists, 10 to 40 times the text's size in memory (640 MB for a 15 MB certificate
of short steps, where the streaming Python checker took 70 MB). The largest janko certificate
is 1.3 MB."""


class Problem(str, enum.Enum):  # noqa: UP042  # a StrEnum would change str(problem)
    """Which part of a certificate failed."""

    PUZZLE = "puzzle"
    """The certificate is about another puzzle than the one asked about."""
    SOLUTION = "solution"
    """A listed solution breaks the rules (or SEVERAL lists one solution twice)."""
    HEADER = "header"
    """The header states something other than what its claim, puzzle and solutions give (a
    count, an encoding, a key `verify` does not check, the puzzle written otherwise)."""
    CNF = "cnf"
    """The formula's lines (comments included) are not the encoding of the certificate's puzzle."""
    EXCLUDING = "excluding"
    """The excluding clause does not exclude exactly the listed solution."""
    PROOF = "proof"
    """The proof breaks its layout's rules, or a proof checker rejected it."""


@dataclass(frozen=True)
class Verdict:
    """What `verify` found: `ok` when everything holds (then the puzzle has `claim.bound`
    solutions, on trust in the encoding alone), else `problem`, a one-line `reason` and the
    certificate's `line` it is about (1-based; None when it is about no one line). `checkers`
    are the proof checkers that accepted the proof; `time` is seconds."""

    claim: Claim
    problem: Problem | None = None
    reason: str = ""
    checkers: tuple[str, ...] = ()
    time: float = 0.0
    line: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            count = self.claim.bound
            return f"{count} solution{'' if count == 'exactly 1' else 's'}, certified"
        return f"rejected ({self.problem.value if self.problem else ''}): {self.reason}"


class VerifyLimitError(KakuroError):
    """The time limit passed before the certificate was checked (the check was stopped)."""


def available_checkers() -> tuple[str, ...]:
    """The proof checkers that can run here: dratify's Python checker always, its native one
    when a package registered it (cdclkit[native] does on import)."""
    import dratify

    if not dratify.native_available():
        with contextlib.suppress(ImportError):
            import cdclkit  # noqa: F401  # registers its native checker with dratify
    return CHECKERS if dratify.native_available() else CHECKERS[:1]


def verify(
    certificate: Certificate | str | os.PathLike[str], *, puzzle: Puzzle | None = None,
    checkers: Sequence[str] | None = None, time_limit: float | None = None,
) -> Verdict:
    """Check `certificate` (a Certificate, checked as the text it writes, or the path of a
    certificate file, streamed) as the module docstring says, against `puzzle` when given;
    `checkers` (default: `available_checkers()`, the native one for certificates of up to
    `NATIVE_MAX_BYTES`) are the proof checkers that must each accept the proof. With
    `time_limit` (seconds) the check runs in a child process stopped then.

    A certificate that fails is a Verdict with `ok` False, never an exception. Raises
    CertificateFormatError for a file that cannot be read as a certificate (missing, not a
    regular file, truncated, not in the layout), VerifyLimitError at the time limit,
    KakuroError for a checker that is not available or cannot take the certificate."""
    here = available_checkers()
    wanted = tuple(here if checkers is None else checkers)
    missing = [c for c in wanted if c not in here]
    if missing or not wanted:
        raise KakuroError(f"proof checker {', '.join(missing) or '(none)'} is not available here; "
                          f"available: {', '.join(here)}")
    if time_limit is None:
        return _verify(certificate, puzzle, wanted, checkers is not None)
    try:
        verdict: Verdict = call_with_deadline(_verify, certificate, puzzle, wanted, checkers is not None,
                                              deadline=Deadline.after(time_limit))
    except DeadlineReached:
        raise VerifyLimitError(f"not verified within {time_limit:g} s (the check was stopped)") from None
    return verdict


class _Refused(Exception):
    """A check that failed: what, why, and the certificate's line."""

    def __init__(self, problem: Problem, reason: str, line: int | None) -> None:
        super().__init__(reason)
        self.problem, self.reason, self.line = problem, reason, line


def _verify(certificate: Certificate | str | os.PathLike[str], asked: Puzzle | None, checkers: tuple[str, ...],
            chosen: bool) -> Verdict:
    start = time.perf_counter()
    if isinstance(certificate, Certificate):
        reader = CertificateReader.of_text(certificate.dumps())
    else:
        reader = CertificateReader.open(certificate)
    with reader:
        if "dratify-native" in checkers and reader.size > NATIVE_MAX_BYTES:
            if chosen:
                raise KakuroError(f"{reader.name or 'the certificate'}: dratify-native takes a proof whole, and the "
                                  f"certificate is {reader.size:,} bytes, more than {NATIVE_MAX_BYTES:,}; check it with "
                                  "dratify-python, which reads the proof as it checks")
            checkers = tuple(c for c in checkers if c != "dratify-native")
        header = reader.header()
        try:
            accepted = _check(reader, header, asked, checkers)
        except _Refused as refused:
            return Verdict(header.claim, refused.problem, refused.reason, (), time.perf_counter() - start, refused.line)
    return Verdict(header.claim, None, "", accepted, time.perf_counter() - start)


def _check(reader: CertificateReader, header: Header, asked: Puzzle | None, checkers: tuple[str, ...]) -> tuple[str, ...]:
    """The checkers that accepted the proof; _Refused at the first check that fails."""
    puzzle, claim = header.puzzle, header.claim
    if asked is not None and asked != puzzle:
        raise _Refused(Problem.PUZZLE, f"the certificate is for the puzzle of digest {puzzle.digest()}, not "
                                       f"{_name(asked)} (digest {asked.digest()})", 1)
    for number, values in enumerate(header.solutions, start=1):
        try:
            problems = puzzle.check(puzzle.solution(values))
        except InvalidSolutionError as exc:
            problems = [str(exc)]
        if problems:
            raise _Refused(Problem.SOLUTION, f"solution {number} is not a solution: {problems[0]}", 1)
    _check_header(header)
    if claim is Claim.SEVERAL:
        if header.solutions[0] == header.solutions[1]:
            raise _Refused(Problem.SOLUTION, "the two solutions are the same", 1)
        if reader.line(len(END_LINE), cut=True) != END_LINE:
            raise reader.fail("a certificate of several solutions holds the header and the end line only")
        _check_end(reader)
        return ()
    enc = encode(puzzle, ENCODING)
    excluding = enc.blocking_clause(header.solutions[0]) if claim is Claim.UNIQUE else None
    _check_formula(reader, formula_text(puzzle, enc, excluding), enc.num_clauses, excluding is not None)
    return _check_proof(reader, [*enc.clauses, *([excluding] if excluding else [])], enc.num_vars, checkers)


def _check_header(header: Header) -> None:
    """_Refused unless line 1 is exactly what its claim, puzzle and solutions write."""
    expected = header_fields(header.claim, header.puzzle, header.solutions, ENCODING)
    extra = next((key for key in header.fields if key not in expected), None)
    if extra is not None:
        raise _Refused(Problem.HEADER, f"the header holds {clip(extra, 20)}, which verify does not check", 1)
    for key, ours in expected.items():
        if key not in header.fields:
            raise _Refused(Problem.HEADER, f"the header has no {key!r}", 1)
        if _json(header.fields[key]) != _json(ours):
            raise _Refused(Problem.HEADER, _field_difference(key, header.fields[key], ours, header.claim), 1)
    line = header_line(header.claim, header.puzzle, header.solutions, ENCODING)
    if header.line != line:
        raise _Refused(Problem.HEADER, f"the header is not written as kakuro certify writes it "
                                       f"({_difference(header.line, line)})", 1)


def _field_difference(key: str, theirs: Any, ours: Any, claim: Claim) -> str:
    if key == "count":
        return f"the header says the count is {json_shown(theirs)}; claim {claim.value!r} is {json_shown(ours)}"
    if key == "encoding":
        return f"the header's encoding is {json_shown(theirs)}; certificates use {json_shown(ours)}"
    if key == "puzzle":
        return f"the header's puzzle is not written as kakuro certify writes it ({_difference(_json(theirs), _json(ours))})"
    return f"the header's {key} is {json_shown(theirs)}; verify writes {json_shown(ours)}"


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _difference(theirs: str, ours: str) -> str:
    """Where two texts first differ, shown short."""
    at = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b), min(len(theirs), len(ours)))
    return f"at character {at + 1}: {clip(theirs[at:at + 30], 30)} where kakuro writes {clip(ours[at:at + 30], 30)}"


def _check_formula(reader: CertificateReader, expected: str, clauses: int, excluding: bool) -> None:
    """_Refused unless the lines up to `PROOF_LINE` are exactly `expected` (`clauses` clauses
    of the CNF, then the excluding clause if `excluding`)."""
    clause = 0
    for want in io.StringIO(expected):
        want = want.rstrip("\n")
        got = reader.line(len(want) + 1, cut=True)
        if got is None:
            raise reader.fail(f"the file ended before {END_LINE!r}")
        clause += want[:1] not in ("c", "p")
        if got != want:
            raise _formula_refusal(got, want, clause, clauses, excluding, reader.number)
    got = reader.line(len(PROOF_LINE), cut=True)
    if got != PROOF_LINE:
        more = got is not None and got[:1] not in ("c", "p")
        reason = (f"it has more clauses than the encoding's {clauses + excluding}" if more else
                  f"{clip(got or '')} where the formula ends and {PROOF_LINE!r} should come")
        raise _Refused(Problem.CNF, f"the CNF is not the puzzle's encoding: {reason}", reader.number)


_PROBLEM_LINE = re.compile(r"p cnf ([0-9]{1,12}) ([0-9]{1,12})")


def _formula_refusal(got: str, want: str, clause: int, clauses: int, excluding: bool, line: int) -> _Refused:
    """Why the formula's line `got` is not the encoding's `want` (the `clause`-th clause when
    it is one)."""
    if excluding and clause == clauses + 1 and want[:1] not in ("c", "p"):
        return _Refused(Problem.EXCLUDING, "the excluding clause does not exclude exactly the solution given", line)
    if want.startswith("c map "):
        reason = f"its variable map says {clip(got)} where the encoding's says {clip(want)}"
    elif want.startswith("c"):
        reason = f"its comment is {clip(got)} where the encoding writes {clip(want)}"
    elif want.startswith("p"):
        theirs, ours = _PROBLEM_LINE.fullmatch(got), _PROBLEM_LINE.fullmatch(want)
        if theirs and ours and theirs[1] != ours[1]:
            reason = f"it has {int(theirs[1])} variables, the encoding {int(ours[1])}"
        elif theirs and ours:
            reason = f"it announces {int(theirs[2])} clauses, the encoding has {int(ours[2])}"
        else:
            reason = f"its problem line is {clip(got)} where the encoding writes {clip(want)}"
    elif got in (PROOF_LINE, END_LINE):
        reason = f"it has {clause - 1} clauses, the encoding {clauses + excluding}"
    else:
        reason = f"its clause {clause} is {clip(got)}, the encoding's {clip(want)}"
    return _Refused(Problem.CNF, f"the CNF is not the puzzle's encoding: {reason}", line)


def _check_proof(reader: CertificateReader, formula: list[list[int]], num_vars: int,
                 checkers: tuple[str, ...]) -> tuple[str, ...]:
    """Run each checker on the proof of `formula`'s unsatisfiability (DRUP: every added
    clause must follow by unit propagation; no new variable): the Python one as the proof's
    lines are read, the native one on the whole proof after."""
    import dratify

    first = reader.number + 1
    kept: list[tuple[str, tuple[int, ...]]] | None = [] if "dratify-native" in checkers else None
    steps = _steps(reader, num_vars, kept)
    cnf = dratify.CNF(num_vars)
    for clause in formula:
        cnf.add_dimacs(clause)
    if "dratify-python" in checkers:
        result: Any = dratify.DRATChecker(cnf, check_rat=False).check(steps)
        if not result.ok:
            raise _rejection("dratify-python", result, first, reader.number)
    for _ in steps:  # the rest of the proof: its layout, nothing after the empty clause, the end
        pass
    if kept is not None:
        try:
            result = dratify.check_proof(cnf, kept, check_rat=False, engine="native")
        except (ValueError, RuntimeError, TypeError) as exc:
            raise _Refused(Problem.PROOF, f"dratify-native cannot check the proof: {exc}", None) from None
        if not result.ok:
            raise _rejection("dratify-native", result, first, reader.number)
    return tuple(c for c in CHECKERS if c in checkers)


def _rejection(checker: str, result: Any, first: int, last: int) -> _Refused:
    failed = result.failed_step if result.failed_step and result.failed_step > 0 else None
    where = f" at proof step {failed}" if failed else ""
    return _Refused(Problem.PROOF, f"{checker} rejects the proof{where}: {result.reason}",
                    first + failed - 1 if failed else last)


_STEP = re.compile(r"(d )?((?:-?[1-9][0-9]* )*)0")
"""A proof line as certificates write it: `d ` to delete, DIMACS literals, the ending 0."""
_TOKEN = re.compile(r"\S+")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")


def _steps(reader: CertificateReader, num_vars: int, kept: list[tuple[str, tuple[int, ...]]] | None
           ) -> Iterator[tuple[str, list[int]]]:
    """The proof's steps as dratify takes them ("a" or "d", its literals), read up to the end
    line (then nothing may follow), each kept in `kept` too when it is a list. _Refused for a
    variable beyond `num_vars` or a step after the empty clause, CertificateFormatError for a
    line that is no step."""
    width = len(str(num_vars)) + 1
    limit = max(1 << 16, (width + 1) * (num_vars + 1) + 2)  # a clause over every variable, each once
    empty = number = 0
    while (line := reader.line(limit)) != END_LINE:
        if line is None:
            raise reader.fail(f"the file ended before {END_LINE!r}")
        number += 1
        if empty:
            raise _Refused(Problem.PROOF, f"the proof goes on after its empty clause (line {empty})", reader.number)
        match = _STEP.fullmatch(line)
        if match is None:
            raise _bad_step(reader, line)
        tokens = match[2].split()
        if tokens and max(map(len, tokens)) > width:
            digits = max(len(t.lstrip("-")) for t in tokens)
            raise _Refused(Problem.PROOF, f"proof step {number} names a variable of {digits:,} digits; the CNF has "
                                          f"{num_vars}", reader.number)
        lits = list(map(int, tokens))
        outside = max(map(abs, lits), default=0)
        if outside > num_vars:
            raise _Refused(Problem.PROOF, f"proof step {number} uses variable {outside}; the CNF has {num_vars}",
                           reader.number)
        kind = "d" if match[1] else "a"
        internal = [((abs(d) - 1) << 1) | (d < 0) for d in lits]  # dratify's literals
        if kind == "a" and not internal:
            empty = reader.number
        if kept is not None:
            kept.append((kind, tuple(internal)))
        yield kind, internal
    if not empty:
        raise _Refused(Problem.PROOF, "the proof does not end with the empty clause ('0')", reader.number)
    _check_end(reader)


def _bad_step(reader: CertificateReader, line: str) -> KakuroError:
    """Why `line` is no proof step, at the column of its first wrong word."""
    for position, token in enumerate(_TOKEN.finditer(line)):
        if position == 0 and token[0] == "d":
            continue
        if not _INTEGER.fullmatch(token[0]):
            return reader.fail(f"{clip(token[0], 20)} is not a literal", column=token.start() + 1)
    return reader.fail("a proof step is literals ended by one 0 on one line, one space apart (`d ` first to delete)",
                       column=1, text=line[:40])


def _check_end(reader: CertificateReader) -> None:
    """After the end line: nothing."""
    if reader.line(1, cut=True) is not None:
        raise reader.fail(f"nothing may follow {END_LINE!r}")


def _name(puzzle: Puzzle) -> str:
    return repr(puzzle.id) if puzzle.id else "(no id)"
