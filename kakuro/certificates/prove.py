"""Making a certificate: the puzzle's CNF (`kakuro.reasoning.cnf`, the encoding the `sat` and
`dimacs` backends use) solved by a PySAT solver that logs a DRUP proof.

    first solve:  the CNF        unsatisfiable -> claim NONE, its proof
                                 a model       -> solution 1 (checked by puzzle.check)
    second solve: the CNF and the clause excluding solution 1
                                 unsatisfiable -> claim UNIQUE, solution 1, the proof
                                 a model       -> claim SEVERAL, solutions 1 and 2 (both checked)

Proof logging works with CaDiCaL and Glucose in PySAT 1.9 (`kakuro.certificates.tools.PROOF_SOLVERS`); Kissat and
Minisat refuse it.
"""

from __future__ import annotations

from typing import Any

from kakuro.availability import Engine
from kakuro.certificates.document import Certificate, Claim, written
from kakuro.certificates.tools import DEFAULT_SOLVER, PROOF_SOLVERS
from kakuro.clock import Deadline
from kakuro.errors import BackendOptionError, KakuroError
from kakuro.isolation import DeadlineReached, call_with_deadline
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import Encoding, encode

ENCODING = "combinations"
"""The encoding every certificate uses: the project's default CNF."""

KAKURO, PYSAT = Engine("kakuro", pip="kakuro"), Engine("pysat", pip="python-sat")
"""What made a certificate, by version (information only)."""


class CertifyLimitError(KakuroError):
    """The time limit passed before a certificate was made (the solver was stopped)."""


def certify(puzzle: Puzzle, *, solver: str = DEFAULT_SOLVER, time_limit: float | None = None) -> Certificate:
    """A certificate of how many solutions `puzzle` has: NONE, UNIQUE or SEVERAL (see the
    module docstring). `solver` is one of `PROOF_SOLVERS`. With `time_limit` (seconds) the
    solving runs in a child process killed then (CaDiCaL ignores PySAT's interrupt), and
    CertifyLimitError is raised; without one it runs here. The certificate is not checked
    here: `kakuro.certificates.verify` does that, trusting nothing in it.

    Raises BackendOptionError for a solver that logs no proof, KakuroError when a model of the
    CNF breaks the puzzle's rules (a bug in the encoding: the message names the rule)."""
    if solver not in PROOF_SOLVERS:
        raise BackendOptionError(f"solver {solver!r} logs no proof here; use one of {', '.join(PROOF_SOLVERS)}")
    if time_limit is None:
        return _certify(puzzle, solver)
    try:
        certificate: Certificate = call_with_deadline(_certify, puzzle, solver, deadline=Deadline.after(time_limit))
    except DeadlineReached:
        raise CertifyLimitError(f"no certificate within {time_limit:g} s (the solver was stopped)") from None
    return certificate


def _certify(asked: Puzzle, solver: str) -> Certificate:
    puzzle = written(asked)[1]  # as the certificate gives it back, so that verify encodes the same CNF
    enc = encode(puzzle, ENCODING)
    made_by = {"solver": solver, "kakuro": KAKURO.version(), "pysat": PYSAT.version()}
    unsat, found, proof = _solve(enc, [], solver)
    if unsat:
        return Certificate(puzzle, Claim.NONE, (), _tuples(enc.clauses), enc.num_vars, proof, ENCODING, made_by)
    first = _checked(puzzle, enc, found)
    excluding = enc.blocking_clause(first)
    unsat, found, proof = _solve(enc, [excluding], solver)
    if unsat:
        return Certificate(puzzle, Claim.UNIQUE, (first,), _tuples([*enc.clauses, excluding]), enc.num_vars, proof,
                           ENCODING, made_by)
    second = _checked(puzzle, enc, found)
    return Certificate(puzzle, Claim.SEVERAL, (first, second), encoding=ENCODING, made_by=made_by)


def _solve(enc: Encoding, extra: list[list[int]], solver: str) -> tuple[bool, list[int], tuple[Any, ...]]:
    """(unsatisfiable, the model, the DRUP proof) of the CNF with the clauses `extra`. The
    proof ends with its empty clause, written when the solver logs none: what a solver logs
    after it (CaDiCaL deletes clauses) proves nothing, and a certificate holds only what
    `verify` checks."""
    from pysat.solvers import Solver as PySatSolver

    with PySatSolver(name=solver, bootstrap_with=[*enc.clauses, *extra], with_proof=True) as sat:
        if sat.solve():
            return False, list(sat.get_model()), ()
        proof = [_step(line) for line in sat.get_proof()]
    empty = (False, ())
    return True, [], (*proof[:proof.index(empty)], empty) if empty in proof else (*proof, empty)


def _step(line: str) -> tuple[bool, tuple[int, ...]]:
    """A DRUP line of PySAT's proof ("d 1 -2 0" / "1 -2 0") as (deleted, literals)."""
    tokens = line.split()
    deleted = bool(tokens) and tokens[0] == "d"
    lits = [int(t) for t in (tokens[1:] if deleted else tokens)]
    return deleted, tuple(lits[:-1] if lits and lits[-1] == 0 else lits)


def _checked(puzzle: Puzzle, enc: Encoding, model: list[int]) -> tuple[int, ...]:
    """The solution a model decodes to; KakuroError when `puzzle.check` rejects it."""
    values = tuple(enc.decode(model))
    problems = puzzle.check(puzzle.solution(values))
    if problems:
        raise KakuroError(f"the CNF has a model that breaks the rules ({problems[0]}): a bug in the encoding")
    return values


def _tuples(clauses: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(c) for c in clauses)
