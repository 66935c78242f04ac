"""The programs a certificate is made and checked with, by name: the proof-logging SAT solvers
(`PROOF_SOLVERS`) and the proof checkers (`CHECKERS`). Imports nothing, so the command line's
parser offers them as choices without loading what makes or checks a certificate."""

from __future__ import annotations

PROOF_SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose42", "glucose3")
"""PySAT solvers that log a DRUP proof here (the first is the default)."""
DEFAULT_SOLVER = PROOF_SOLVERS[0]
CHECKERS = ("dratify-python", "dratify-native")
"""The proof checkers `verify` knows; the native one runs only where it is installed."""
