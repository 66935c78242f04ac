"""Certified answers: "no solution", "exactly one solution" and "at least two", each with
evidence a checker that is not the solver accepts (`kakuro certify`, `kakuro verify`).

    >>> cert = certify(puzzle)              # solve the CNF with a proof-logging SAT solver
    >>> verdict = verify(cert)              # re-encode, check the solutions and the proof
    >>> verdict.ok, str(verdict)            # (True, "exactly 1 solution, certified")

Modules: `document` (the certificate and its file layout: written, and read line by line),
`prove` (`certify`), `check` (`verify` and its `Verdict`), `encoding` (`check_encoding`: the
trusted encoding, checked on a puzzle). The guide's page "Certified answers" says what a certificate proves and trusts.
"""

from __future__ import annotations

from kakuro.certificates.check import CHECKERS, Problem, Verdict, VerifyLimitError, available_checkers, verify
from kakuro.certificates.document import EXTENSION, VERSION, Certificate, CertificateFormatError, Claim, file_name
from kakuro.certificates.encoding import EncodingCheck, check_encoding
from kakuro.certificates.prove import DEFAULT_SOLVER, PROOF_SOLVERS, CertifyLimitError, certify

__all__ = [
    "CHECKERS", "DEFAULT_SOLVER", "EXTENSION", "PROOF_SOLVERS", "VERSION", "Certificate", "CertificateFormatError",
    "CertifyLimitError", "Claim", "EncodingCheck", "Problem", "Verdict", "VerifyLimitError", "available_checkers",
    "certify", "check_encoding", "file_name", "verify",
]
