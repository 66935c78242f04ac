"""Checking the one thing a certificate trusts, the CNF encoding, on a puzzle: `check_encoding`.

A certificate's proof shows that the CNF (less one solution) has no model. That says the
puzzle has no (other) solution only if every solution of the puzzle is a model of the CNF:
the encoding must lose no solution. Two checks bear on it, puzzle by puzzle:

- every model of the CNF gives each cell exactly one value, and the values pass
  `puzzle.check` (the encoding admits nothing that is not a solution);
- the number of distinct solutions the CNF has (enumerated with clauses excluding each one
  found, up to a cap) equals the count of the native search (`gac`), a separate
  implementation of the rules: with the first check, equal counts mean the CNF's solutions
  are the puzzle's solutions, none lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from kakuro.certificates.prove import ENCODING
from kakuro.certificates.tools import DEFAULT_SOLVER
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import encode
from kakuro.registry import get_solver


@dataclass(frozen=True)
class EncodingCheck:
    """The CNF's and the native search's solution counts of one puzzle, each exact when its
    `..._exhausted` is True (else it stopped at the cap), and the problems of CNF models
    (empty when every model decoded to a valid solution)."""

    cnf_count: int
    cnf_exhausted: bool
    native_count: int
    native_exhausted: bool
    problems: tuple[str, ...] = ()

    @property
    def agrees(self) -> bool:
        """No bad model, and the same count: both exact, or both stopped at the cap (then
        neither is exact)."""
        return (not self.problems and self.cnf_count == self.native_count
                and self.cnf_exhausted == self.native_exhausted)


def check_encoding(puzzle: Puzzle, *, cap: int = 10, backend: str = "gac", time_limit: float | None = None) -> EncodingCheck:
    """Enumerate up to `cap` models of the puzzle's CNF (one per solution: each found is
    excluded on its value variables), check each, and count the solutions with the native
    `backend` up to `cap` too (`time_limit` seconds for it)."""
    from pysat.solvers import Solver as PySatSolver

    enc = encode(puzzle, ENCODING)
    lo, hi = puzzle.values
    problems: list[str] = []
    found = 0
    exhausted = False
    with PySatSolver(name=DEFAULT_SOLVER, bootstrap_with=enc.clauses) as sat:
        while found < cap:
            if not sat.solve():
                exhausted = True
                break
            true = {lit for lit in sat.get_model() if lit > 0}
            held = [[v for v in range(lo, hi + 1) if enc.var(cell, v) in true] for cell in range(puzzle.size)]
            several = next((cell for cell, values in enumerate(held) if len(values) != 1), None)
            if several is not None:
                problems.append(f"a model gives cell {puzzle.cells[several]} the values {held[several]}")
                break
            values = [h[0] for h in held]
            problems += puzzle.check(puzzle.solution(values))
            if problems:
                break
            found += 1
            sat.add_clause(enc.blocking_clause(values))
    native = get_solver(backend).count_solutions(puzzle, limit=cap, time_limit=time_limit)
    return EncodingCheck(found, exhausted, native.count, native.exhausted, tuple(problems))
