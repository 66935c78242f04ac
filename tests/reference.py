"""Plain-Python references the compiled engine is checked against."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence

import numpy as np

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


@functools.cache
def four_by_four_count(puzzle: Puzzle) -> int:
    """Solutions of a 4x4 Sudoku-family puzzle by brute force: every grid whose rows are
    permutations holding the givens, each group checked directly; independent of every backend."""
    rows = [np.array([row for row in itertools.permutations(range(1, 5))
                      if all(puzzle.givens.get(4 * r + c, v) == v for c, v in enumerate(row))], dtype=np.int8)
            for r in range(4)]
    choice = np.indices([len(options) for options in rows]).reshape(4, -1)  # one grid a column
    grids = np.hstack([options[choice[r]] for r, options in enumerate(rows)])  # one grid a row, row-major
    holds = np.ones(len(grids), dtype=bool)
    for g in puzzle.groups:
        values = np.sort(grids[:, list(g.cells)], axis=1)
        holds &= (np.diff(values, axis=1) != 0).all(axis=1) & (values.sum(axis=1) == g.total)
    return int(holds.sum())
