"""Certified answers: "no solution", "exactly one solution" and "at least two", each with
evidence a checker that is not the solver accepts (`kakuro certify`, `kakuro verify`).

    >>> cert = certify(puzzle)              # solve the CNF with a proof-logging SAT solver
    >>> verdict = verify(cert)              # re-encode, check the solutions and the proof
    >>> verdict.ok, str(verdict)            # (True, "exactly 1 solution, certified")

Modules: `document` (the certificate and its file layout: written, and read line by line),
`prove` (`certify`), `check` (`verify` and its `Verdict`), `encoding` (`check_encoding`: the
trusted encoding, checked on a puzzle), `tools` (the solvers and checkers, by name). The
guide's page "Certified answers" says what a certificate proves and trusts.

Each name is imported from its module when first asked for (module `__getattr__`), so the
command line's parser reads `tools` without the encoding and its tables.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kakuro.certificates.tools import CHECKERS, DEFAULT_SOLVER, PROOF_SOLVERS

if TYPE_CHECKING:  # imported on first use (module __getattr__)
    from kakuro.certificates.check import Problem, Verdict, VerifyLimitError, available_checkers, verify
    from kakuro.certificates.document import EXTENSION, VERSION, Certificate, CertificateFormatError, Claim, file_name
    from kakuro.certificates.encoding import EncodingCheck, check_encoding
    from kakuro.certificates.prove import CertifyLimitError, certify

__all__ = [
    "CHECKERS", "DEFAULT_SOLVER", "EXTENSION", "PROOF_SOLVERS", "VERSION", "Certificate", "CertificateFormatError",
    "CertifyLimitError", "Claim", "EncodingCheck", "Problem", "Verdict", "VerifyLimitError", "available_checkers",
    "certify", "check_encoding", "file_name", "verify",
]

_MODULES = {
    "check": ("Problem", "Verdict", "VerifyLimitError", "available_checkers", "verify"),
    "document": ("EXTENSION", "VERSION", "Certificate", "CertificateFormatError", "Claim", "file_name"),
    "encoding": ("EncodingCheck", "check_encoding"),
    "prove": ("CertifyLimitError", "certify"),
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names}
"""Exported name -> the module of this package it is imported from on first use."""


def __getattr__(name: str) -> Any:
    """The exported names of `check`, `document`, `encoding` and `prove`, imported when first
    asked for."""
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
