"""Plain-Python references the compiled engine is checked against."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kakuro import Puzzle
from kakuro.combos import range_mask

RunSupports = Callable[[int, Sequence[int]], Sequence[int]]
"""(clue, domains of a run's cells) -> the values each cell takes in some way to fill the run."""


def initial_domains(puzzle: Puzzle) -> list[int]:
    """Every cell's full value range (bitmask), a given's digit alone."""
    domains = [range_mask(puzzle.values)] * puzzle.size
    for cell, digit in puzzle.givens.items():
        domains[cell] = 1 << digit
    return domains


def gac_fixpoint(puzzle: Puzzle, domains: Sequence[int], supports: RunSupports) -> list[int] | None:
    """The fixpoint of `supports` over all runs from `domains`; None on a wipe-out."""
    current = list(domains)
    changed = True
    while changed:
        changed = False
        for run in puzzle.groups:
            for c, s in zip(run.cells, supports(run.total, [current[c] for c in run.cells])):
                if s == 0:
                    return None
                if s != current[c]:
                    current[c] = s
                    changed = True
    return current
