"""DIMACS CNF export (write-only): the `sat` backend's combination encoding of one puzzle.

The comment header maps every value variable to its cell and value, one line each::

    c map <variable> <row> <col> <value>

(row and column count from 0 in the full grid, clue row and column included), so a model
from any SAT solver decodes to a solution: cell (row, col) holds the value whose variable is
true. The other variables are auxiliary (presence literals, combination selectors).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kakuro.formats.export import single
from kakuro.puzzle import KINDS as PUZZLE_KINDS
from kakuro.puzzle import Puzzle

if TYPE_CHECKING:
    from kakuro.reasoning.cnf import Encoding

NAME = "dimacs"
KINDS = PUZZLE_KINDS
"""Every member of the family: the encoding reads the groups only."""
EXTENSIONS = (".cnf", ".dimacs")
parse = None
"""Write-only: kakuro cannot read puzzles back from a CNF."""

_SNIFF_CHARS = 1 << 20
_PROBLEM_LINE = re.compile(r"^p cnf \d+ \d+", re.MULTILINE)

MAP_PREFIX = "c map "


def sniff(text: str) -> bool:
    """True for DIMACS CNF text (a `p cnf` line), so reading it is refused clearly."""
    return _PROBLEM_LINE.search(text[:_SNIFF_CHARS]) is not None


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """The DIMACS CNF of exactly one puzzle, with its variable map as comments."""
    from kakuro.reasoning.cnf import encode

    puzzle = single(puzzles, "DIMACS CNF")
    return cnf_text(puzzle, encode(puzzle, "combinations"))


def cnf_text(puzzle: Puzzle, enc: Encoding, extra: Sequence[Sequence[int]] = ()) -> str:
    """The DIMACS text of encoding `enc` of `puzzle` (its variable map as comments), with the
    clauses `extra` after its own (blocking clauses, for the `dimacs` backend's counting)."""
    lo, hi = puzzle.values
    name = puzzle.id or puzzle.digest()
    lines = [
        f"c Kakuro puzzle {name}: {puzzle.rows}x{puzzle.cols} grid, {puzzle.size} white cells, "
        f"{len(puzzle.groups)} runs, values {lo}..{hi}",
        f"c written by the kakuro toolkit: the sat backend's {enc.encoding} encoding",
        "c each white cell holds exactly one value; a true variable listed below as",
        "c   c map <variable> <row> <col> <value>",
        "c means the cell at (row, col) holds value (0-based, clue row and column included);",
        f"c variables above {puzzle.size * (hi - lo + 1)} are auxiliary",
    ]
    lines += [f"{MAP_PREFIX}{var} {puzzle.cells[cell][0]} {puzzle.cells[cell][1]} {value}"
              for var, cell, value in enc.value_vars()]
    lines.append(f"p cnf {enc.num_vars} {enc.num_clauses + len(extra)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in enc.clauses]
    lines += [" ".join(map(str, clause)) + " 0" for clause in extra]
    return "\n".join(lines) + "\n"


def decode(text: str, model: Sequence[int]) -> dict[tuple[int, int], int]:
    """The values a model (true literals) gives the cells, read from the map of a CNF this
    module wrote: (row, col) -> value."""
    true = {lit for lit in model if lit > 0}
    out: dict[tuple[int, int], int] = {}
    for line in text.splitlines():
        if line.startswith(MAP_PREFIX):
            var, row, col, value = map(int, line[len(MAP_PREFIX) :].split())
            if var in true:
                out[(row, col)] = value
    return out
