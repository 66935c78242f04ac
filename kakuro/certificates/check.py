"""Checking a certificate while trusting nothing in it: `verify`.

    1. the puzzle is the one asked about (when one is given);
    2. every solution listed passes `puzzle.check` (claim SEVERAL: two distinct ones, and that
       is all it takes);
    3. the puzzle is encoded again here, and the certificate's CNF must be exactly that CNF,
       clause for clause;
    4. claim UNIQUE: the excluding clause must be the one this module builds from the checked
       solution, `-x(c, v_c)` for every cell `c` (the CNF makes each cell hold exactly one
       value, so the models it removes are exactly those that decode to that solution);
    5. the proof is checked against the CNF built here (and that clause) by a DRUP checker
       that is not the solver: dratify's pure-Python checker, and dratify's native one too
       when installed (`pip install "cdclkit[native]"`); each must accept it.

What is left to trust is the encoding (`kakuro.reasoning.cnf`): that every solution of the
puzzle is a model of its CNF. `kakuro.certificates.encoding` checks that on puzzles.
"""

from __future__ import annotations

import contextlib
import enum
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kakuro.certificates.document import Certificate, Claim, read_certificate
from kakuro.certificates.prove import ENCODING
from kakuro.errors import InvalidSolutionError, KakuroError
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import encode

CHECKERS = ("dratify-python", "dratify-native")
"""The proof checkers `verify` knows; the native one runs only where it is installed."""


class Problem(str, enum.Enum):  # noqa: UP042  # a StrEnum would change str(problem)
    """Which part of a certificate failed."""

    PUZZLE = "puzzle"
    """The certificate is about another puzzle than the one asked about."""
    SOLUTION = "solution"
    """A listed solution breaks the rules (or SEVERAL lists one solution twice)."""
    CNF = "cnf"
    """The CNF is not the encoding of the certificate's puzzle."""
    EXCLUDING = "excluding"
    """The excluding clause does not exclude exactly the listed solution."""
    PROOF = "proof"
    """A proof checker rejected the proof."""


@dataclass(frozen=True)
class Verdict:
    """What `verify` found: `ok` when everything holds (then the puzzle has `claim.bound`
    solutions, on trust in the encoding alone), else `problem` and a one-line `reason`.
    `checkers` are the proof checkers that accepted the proof; `time` is seconds."""

    claim: Claim
    problem: Problem | None = None
    reason: str = ""
    checkers: tuple[str, ...] = ()
    time: float = 0.0

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
    checkers: Sequence[str] | None = None,
) -> Verdict:
    """Check `certificate` (a Certificate, or the path of a certificate file) as the module
    docstring says, against `puzzle` when given; `checkers` (default: `available_checkers()`)
    are the proof checkers that must each accept the proof.

    A certificate that fails is a Verdict with `ok` False, never an exception. Raises
    CertificateFormatError for a file that cannot be read as a certificate (missing,
    truncated, not in the layout), KakuroError for a checker that is not available."""
    start = time.perf_counter()
    cert = certificate if isinstance(certificate, Certificate) else read_certificate(certificate)
    wanted = tuple(available_checkers() if checkers is None else checkers)
    missing = [c for c in wanted if c not in available_checkers()]
    if missing or not wanted:
        raise KakuroError(f"proof checker {', '.join(missing) or '(none)'} is not available here; "
                          f"available: {', '.join(available_checkers())}")
    problem, reason, accepted = _check(cert, puzzle, wanted)
    return Verdict(cert.claim, problem, reason, accepted, time.perf_counter() - start)


def _check(cert: Certificate, asked: Puzzle | None, checkers: tuple[str, ...]) -> tuple[Problem | None, str, tuple[str, ...]]:
    puzzle = cert.puzzle
    if asked is not None and asked != puzzle:
        return Problem.PUZZLE, (f"the certificate is for puzzle {_name(puzzle)} (digest {puzzle.digest()}), "
                                f"not {_name(asked)} (digest {asked.digest()})"), ()
    for number, values in enumerate(cert.solutions, start=1):
        try:
            problems = puzzle.check(puzzle.solution(values))
        except InvalidSolutionError as exc:
            problems = [str(exc)]
        if problems:
            return Problem.SOLUTION, f"solution {number} is not a solution: {problems[0]}", ()
    if cert.claim is Claim.SEVERAL:
        if cert.solutions[0] == cert.solutions[1]:
            return Problem.SOLUTION, "the two solutions are the same", ()
        return None, "", ()
    if cert.encoding != ENCODING:
        return Problem.CNF, f"encoding {cert.encoding!r} is not the one certificates use ({ENCODING!r})", ()
    enc = encode(puzzle, ENCODING)
    mismatch = _cnf_mismatch(cert, [tuple(c) for c in enc.clauses], enc.num_vars)
    if mismatch:
        return Problem.CNF, f"the CNF is not the puzzle's encoding: {mismatch}", ()
    formula = [list(c) for c in enc.clauses]
    if cert.claim is Claim.UNIQUE:
        excluding = enc.blocking_clause(cert.solutions[0])
        if cert.excluding is None or sorted(cert.excluding) != sorted(excluding):
            return Problem.EXCLUDING, "the excluding clause does not exclude exactly the solution given", ()
        formula.append(excluding)
    return _check_proof(formula, enc.num_vars, cert.proof, checkers)


def _cnf_mismatch(cert: Certificate, clauses: list[tuple[int, ...]], num_vars: int) -> str:
    """Why the certificate's CNF is not `clauses` over `num_vars` variables ("" when it is)."""
    given = cert.cnf
    if cert.num_vars != num_vars:
        return f"it has {cert.num_vars} variables, the encoding {num_vars}"
    for number, (mine, theirs) in enumerate(zip(clauses, given), start=1):
        if mine != theirs:
            return f"its clause {number} is {_clause(theirs)}, the encoding's {_clause(mine)}"
    if len(given) != len(clauses):
        return f"it has {len(given)} clauses, the encoding {len(clauses)}"
    return ""


def _check_proof(formula: list[list[int]], num_vars: int, proof: Sequence[tuple[bool, tuple[int, ...]]],
                 checkers: tuple[str, ...]) -> tuple[Problem | None, str, tuple[str, ...]]:
    """Run each checker on the proof of `formula`'s unsatisfiability (DRUP: every added
    clause must follow by unit propagation; no new variable)."""
    import dratify

    for number, (_, lits) in enumerate(proof, start=1):
        outside = next((lit for lit in lits if abs(lit) > num_vars), None)
        if outside is not None:
            return Problem.PROOF, f"proof step {number} uses variable {abs(outside)}; the CNF has {num_vars}", ()
    cnf = dratify.CNF(num_vars)
    for clause in formula:
        cnf.add_dimacs(clause)
    steps: list[tuple[str, tuple[int, ...]]] = [
        ("d" if deleted else "a", tuple(dratify.from_dimacs(lit) for lit in lits)) for deleted, lits in proof
    ]
    accepted: list[str] = []
    for checker in checkers:
        try:
            result: Any = dratify.check_proof(cnf, steps, check_rat=False, engine=checker.removeprefix("dratify-"))
        except (ValueError, RuntimeError) as exc:
            return Problem.PROOF, f"{checker} cannot check the proof: {exc}", tuple(accepted)
        if not result.ok:
            where = f" at proof step {result.failed_step}" if result.failed_step and result.failed_step > 0 else ""
            return Problem.PROOF, f"{checker} rejects the proof{where}: {result.reason}", tuple(accepted)
        accepted.append(checker)
    return None, "", tuple(accepted)


def _name(puzzle: Puzzle) -> str:
    return repr(puzzle.id) if puzzle.id else "(no id)"


def _clause(lits: Sequence[int]) -> str:
    shown = " ".join(map(str, lits[:8])) + (" ..." if len(lits) > 8 else "")
    return f"'{shown} 0'"
