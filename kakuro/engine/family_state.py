"""The state of the Sudoku family's search (`kakuro.engine.family`), built once per shape.

A *shape* is a puzzle without its givens: its cells, value range and groups. The family search
runs on puzzles whose every cell lies in a *house*: a group with one cell per value of the
range (a Sudoku's rows, columns and boxes, a Jigsaw's regions, Sudoku X's diagonals), whose
values are therefore every value once. Every group is all-different, so two cells sharing one
are *peers*.

`FamilyState` (a named tuple of numpy arrays, int64 throughout, masks with bit v = value v):

- `houses` (H, n): the cells of each house;
- `peers` (N, P): the peers of each cell, padded with N, a sentinel cell whose mask is always 0;
- `pieces` (Q + 1, w): the cells shared by two houses, and the rest of a house cut the same
  way, one piece a row padded with the sentinel; the last row is the empty piece;
- `crossings` (K, 1 + 2R): per pair of houses A, B sharing two cells or more (a box and a row),
  the piece of A & B, then the R pieces that make up A - B, then the R of B - A, each list
  padded with the empty piece (Q) (the locked candidates of `family.propagate`);
- `stack` (N + 1, N + 1): the candidates of every cell (and the sentinel) per search level,
  copied level to level; `decisions` (N + 1, 2): (cell, value bit) of each level's guess;
  `queue` (N + 1): cells fixed and waiting to be removed from their peers; `unions` (Q + 1):
  scratch, the candidates of each piece (the empty piece's always 0);
- `spec`: the slots below (value range, the options of the search); `info`: the engine's
  `info` (its clock, deadline and stop flag: `kakuro.engine.interrupt`, slots of `layout`).

The crossings' pieces follow the tilings of the grid: consecutive houses that are disjoint and
cover every cell (the rows, the columns, the boxes or regions). A house of no tiling (a
diagonal) is cut into single cells.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from kakuro.combos import range_mask
from kakuro.errors import KakuroError
from kakuro.groups import Group
from kakuro.puzzle import Puzzle
from kakuro.engine.layout import END_NS, INFO_SIZE, NO_DEADLINE

# spec slots
LO = 0
HI = 1
FULL = 2
"""The mask of every value of the range."""
LOCKED = 3
"""1: propagate locked candidates (pointing and claiming) when singles run dry; 0: singles only."""
SPEC_SIZE = 4


class NotFamilyError(KakuroError):
    """The puzzle is not one the family search takes (`family_refusal` says why)."""


class FamilyState(NamedTuple):
    """The family search's arrays (see the module docstring); build it with `family_state`."""

    houses: np.ndarray
    peers: np.ndarray
    pieces: np.ndarray
    crossings: np.ndarray
    stack: np.ndarray
    decisions: np.ndarray
    queue: np.ndarray
    unions: np.ndarray
    spec: np.ndarray
    info: np.ndarray

    @property
    def cells(self) -> int:
        """Number of cells (the sentinel not counted)."""
        return int(self.peers.shape[0])


def family_refusal(puzzle: Puzzle) -> str | None:
    """Why the family search cannot take `puzzle`, or None when it can: every cell in a house
    (a group of one cell per value of the range), every other group a house too."""
    lo, hi = puzzle.values
    width = hi - lo + 1
    houses = [g for g in puzzle.runs if len(g) == width]
    if not houses:
        return f"it has no group of {width} cells (one per value {lo}..{hi}): not a Sudoku-family grid"
    others = [g for g in puzzle.runs if len(g) != width]
    if others:
        return f"{others[0].name} has {len(others[0])} cells, not {width}: sums of cages are not searched here"
    covered = np.zeros(puzzle.size, dtype=bool)
    for g in houses:
        covered[list(g.cells)] = True
    if not covered.all():
        first = int(np.flatnonzero(~covered)[0])
        return f"cell {puzzle.position_name(puzzle.cells[first])} lies in no group of {width} cells"
    return None


def shape_key(puzzle: Puzzle) -> tuple[object, ...]:
    """A key equal for two puzzles exactly when they have the same shape (cells, value range,
    groups with their totals), whatever their givens: puzzles of one key share a state."""
    return (puzzle.size, puzzle.values, tuple(map(_CELLS_AND_TOTAL, puzzle.runs)))


_CELLS_AND_TOTAL = operator.attrgetter("cells", "total")


def family_state(puzzle: Puzzle, locked: bool = True) -> FamilyState:
    """The family search's state for the shape of `puzzle` (its givens are not part of it: they
    are each solve's input). `locked`: propagate locked candidates too. Raises NotFamilyError
    (with `family_refusal`'s reason) for a puzzle the search does not take."""
    refusal = family_refusal(puzzle)
    if refusal is not None:
        raise NotFamilyError(f"the family search cannot take this puzzle: {refusal}")
    n = puzzle.size
    houses = np.array([g.cells for g in puzzle.runs], dtype=np.int64)
    pieces, crossings = _crossings(puzzle.runs, n)
    spec = np.zeros(SPEC_SIZE, dtype=np.int64)
    spec[LO], spec[HI] = puzzle.values
    spec[FULL] = range_mask(puzzle.values)
    spec[LOCKED] = int(locked)
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[END_NS] = NO_DEADLINE
    return FamilyState(
        houses=houses,
        peers=_peers(puzzle.runs, n),
        pieces=pieces,
        crossings=crossings,
        stack=np.zeros((n + 1, n + 1), dtype=np.int64),
        decisions=np.zeros((n + 1, 2), dtype=np.int64),
        queue=np.zeros(n + 1, dtype=np.int64),
        unions=np.zeros(len(pieces), dtype=np.int64),
        spec=spec,
        info=info,
    )


def _peers(groups: Sequence[Group], n: int) -> np.ndarray:
    """The peers of each cell (the other cells of its groups), padded with the sentinel n."""
    peers: list[set[int]] = [set() for _ in range(n)]
    for g in groups:
        for c in g.cells:
            peers[c].update(g.cells)
    width = max(len(p) - 1 for p in peers)
    out = np.full((n, width), n, dtype=np.int64)
    for c, others in enumerate(peers):
        row = sorted(others - {c})
        out[c, : len(row)] = row
    return out


def _tilings(groups: Sequence[Group], n: int) -> list[int]:
    """The tiling of each group (an index; -1 for none): runs of consecutive groups that are
    pairwise disjoint and cover all `n` cells."""
    tiling = [-1] * len(groups)
    start, count = 0, 0
    while start < len(groups):
        covered: set[int] = set()
        end = start
        while end < len(groups) and not covered & set(groups[end].cells) and len(covered) < n:
            covered |= set(groups[end].cells)
            end += 1
        if len(covered) == n:
            tiling[start:end] = [count] * (end - start)
            count += 1
            start = end
        else:
            start += 1
    return tiling


def _crossings(groups: Sequence[Group], n: int) -> tuple[np.ndarray, np.ndarray]:
    """`pieces` and `crossings` of the houses `groups` over `n` cells (see the module docstring)."""
    sets = [frozenset(g.cells) for g in groups]
    tiling = _tilings(groups, n)
    members = {t: [k for k, s in enumerate(tiling) if s == t] for t in set(tiling) if t >= 0}
    index: dict[frozenset[int], int] = {}

    def piece(cells: frozenset[int]) -> int:
        return index.setdefault(cells, len(index))

    def rest(a: int, b: int) -> list[int]:
        """A - B as pieces: cut by B's tiling, or into single cells."""
        if tiling[b] < 0:
            return [piece(frozenset([c])) for c in sorted(sets[a] - sets[b])]
        return [piece(sets[a] & sets[other]) for other in members[tiling[b]] if other != b and sets[a] & sets[other]]

    rows: list[tuple[int, list[int], list[int]]] = []
    for a in range(len(sets)):
        for b in range(a + 1, len(sets)):
            if len(sets[a] & sets[b]) >= 2:
                rows.append((piece(sets[a] & sets[b]), rest(a, b), rest(b, a)))
    empty = len(index)
    width = max((len(c) for c in index), default=1)
    pieces = np.full((empty + 1, width), n, dtype=np.int64)
    for p, cells in enumerate(index):
        pieces[p, : len(cells)] = sorted(cells)
    most = max((max(len(in_a), len(in_b)) for _, in_a, in_b in rows), default=0)
    crossings = np.full((len(rows), 1 + 2 * most), empty, dtype=np.int64)
    for k, (shared, in_a, in_b) in enumerate(rows):
        crossings[k, 0] = shared
        crossings[k, 1 : 1 + len(in_a)] = in_a
        crossings[k, 1 + most : 1 + most + len(in_b)] = in_b
    return pieces, crossings
