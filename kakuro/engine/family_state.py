"""The state of the Sudoku family's search (`kakuro.engine.family`), built once per shape.

A *shape* is a puzzle without its givens and cages: its cells, value range and houses. The
family search runs on Sudoku-family puzzles (`Puzzle.regions`), whose every cell lies in a
*house*: a group with one cell per value of the range (a Sudoku's rows, columns and boxes, a
Jigsaw's regions, Sudoku X's diagonals), whose values are therefore every value once. Every
group is all-different, so two cells sharing a house are *peers*. A Killer's cages (groups with
a stated sum) are each puzzle's own, like its givens (`Cages`): Killers of one grid share a
state.

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
- `combos`: every set of values of the range as a mask, ordered by size then sum, those of
  size k and sum s at `combos[combo_start[k * spec[STRIDE] + s]:...[... + 1]]` (a cage's);
- `member` (H, N + 1): 1 where a cell lies in a house; `cell_houses` (N, M): the houses of each
  cell, padded with -1; `marks` (N + 1): scratch;
- `matching` (4, n): scratch of a cage's exact check (`family_cages._matchings`), n the house width;
- `memo` (S, 3 + 2n): cage checks of the current puzzle (`family_cages._recalled`), one a row
  at the hash of its work item and candidates: (MEMO_ROUND, item, its cells' candidates (n
  slots), the values every fitting combination holds, each cell's supported values (n));
- `weights` (N + 1): per cell, the wipe-outs of the current puzzle's search counted against it
  (each against the cells of the constraint where it happened: the branching of a caged
  puzzle, `family._choose_weighted`);
- `regions`: unions of one to three consecutive houses of a tiling (rows 1-3, boxes 4-5, ...),
  `regions[regions[r]:regions[r + 1]]` their houses (offsets first): where a Killer's *innies*
  and *outies* of several houses are read (`kakuro.engine.family_cages`);
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
from kakuro.engine.build import offsets_first
from kakuro.engine.layout import END_NS, INFO_SIZE, NO_DEADLINE

# spec slots
LO = 0
HI = 1
FULL = 2
"""The mask of every value of the range."""
LOCKED = 3
"""1: propagate locked candidates (pointing and claiming) when singles run dry; 0: singles only."""
SUM = 4
"""The sum of every value of the range (a house's)."""
STRIDE = 5
"""SUM + 1: the row length of `combo_start`'s (size, sum) table."""
SUM_CELLS = 6
"""The most cells of an innie or outie sum the search keeps (MOST_SUM_CELLS)."""
REMOVED = 7
"""Scratch: whether the family search's last elimination removed a candidate."""
MEMO_ROUND = 8
"""The puzzle whose cage checks `memo` holds (rows of another round are stale): counts up."""
SPEC_SIZE = 9
MEMO_SLOTS = 1 << 12
"""Rows of `memo` (a power of two)."""
MOST_SUM_CELLS = 7
"""Innies and outies of more cells bound their values too loosely to pay (9x9 and smaller)."""
REGION_HOUSES = 3
"""The most consecutive houses of a tiling a region unites."""
MOST_CAGED_VALUES = 16
"""The widest value range whose cages the search takes (its combinations table has 2^16 sets)."""


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
    combos: np.ndarray
    combo_start: np.ndarray
    member: np.ndarray
    cell_houses: np.ndarray
    marks: np.ndarray
    matching: np.ndarray
    memo: np.ndarray
    weights: np.ndarray
    regions: np.ndarray
    spec: np.ndarray
    info: np.ndarray

    @property
    def cells(self) -> int:
        """Number of cells (the sentinel not counted)."""
        return int(self.peers.shape[0])


class Cages(NamedTuple):
    """The cages of a batch of puzzles (read only: the puzzles' own groups, which the answer
    check reads too) and the work list of the puzzle being searched (its cages, then the
    *innies* of its houses: the cells of a house outside the cages wholly inside it, whose sum
    is the house's less those cages' totals). int64 arrays, offsets first as `start[k]` ..
    `start[k + 1]`:

    - `cells`, `start` (K + 1), `totals` (K): every cage of the batch, puzzle after puzzle;
      `first` (P + 1): puzzle i's cages are `first[i]` .. `first[i + 1]`;
    - `work_cells`, `work_start`, `work_totals`: the current puzzle's work list, `work_count[0]`
      cages long, and `work_seen`, what each of their cells held when the cage last ended its
      turn (the search writes them);
    - `sum_cells`, `sum_start`, `sum_totals`, `sum_count`: likewise, the current puzzle's sums
      without all-different (the innies and outies of `FamilyState.regions`)."""

    cells: np.ndarray
    start: np.ndarray
    totals: np.ndarray
    first: np.ndarray
    work_cells: np.ndarray
    work_start: np.ndarray
    work_totals: np.ndarray
    work_count: np.ndarray
    work_seen: np.ndarray
    sum_cells: np.ndarray
    sum_start: np.ndarray
    sum_totals: np.ndarray
    sum_count: np.ndarray


def cages_for(lengths: np.ndarray, cells: np.ndarray, totals: np.ndarray, per_puzzle: np.ndarray,
              state: FamilyState) -> Cages:
    """The `Cages` of a batch: cage k has `lengths[k]` cells (of `cells`, cage after cage) and
    total `totals[k]`; puzzle i has `per_puzzle[i]` cages, in order. Work lists sized for the
    batch's largest puzzle and `state`'s houses."""
    start = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=start[1:])
    first = np.zeros(len(per_puzzle) + 1, dtype=np.int64)
    np.cumsum(per_puzzle, out=first[1:])
    cells_each = np.diff(start[first]) if len(per_puzzle) else np.zeros(0, dtype=np.int64)
    houses, width = state.houses.shape
    most_cells = int(cells_each.max(initial=0)) + houses * width
    most_cages = int(np.max(per_puzzle, initial=0)) + houses
    sums = 2 * (state.regions[0] - 1)
    return Cages(np.asarray(cells, dtype=np.int64), start, np.asarray(totals, dtype=np.int64), first,
                 np.zeros(most_cells, dtype=np.int64), np.zeros(most_cages + 1, dtype=np.int64),
                 np.zeros(most_cages, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(most_cells, dtype=np.int64),
                 np.zeros(sums * state.spec[SUM_CELLS] + state.cells + 1, dtype=np.int64),
                 np.zeros(sums + 1, dtype=np.int64), np.zeros(sums + 1, dtype=np.int64), np.zeros(1, dtype=np.int64))


def no_cages(puzzles: int, state: FamilyState) -> Cages:
    """The `Cages` of a batch of `puzzles` without any."""
    none = np.zeros(0, dtype=np.int64)
    return cages_for(none, none, none, np.zeros(puzzles, dtype=np.int64), state)


def family_refusal(puzzle: Puzzle) -> str | None:
    """Why the family search cannot take `puzzle`, or None when it can: a Sudoku-family puzzle
    (a Kakuro's runs are the run-level search's) whose cages, if any, are over at most
    MOST_CAGED_VALUES values."""
    if not puzzle.regions:
        return "it is a Kakuro (its runs are searched by the run-level search)"
    lo, hi = puzzle.values
    width = hi - lo + 1
    houses = puzzle.groups[: house_count(puzzle)]
    if any(g.stated or len(g) != width for g in houses):
        return "its groups are not a Sudoku-family layout (rows, columns, boxes or regions, diagonals, then cages)"
    if len(puzzle.groups) > len(houses) and width > MOST_CAGED_VALUES:
        return cages_refusal(width)
    return None


def cages_refusal(width: int) -> str:
    """Why the search does not take the cages of a puzzle over `width` values."""
    return f"its cages are over {width} values; the search's table of combinations holds {MOST_CAGED_VALUES} at most"


def takes_cages(state: FamilyState) -> bool:
    """Whether a search with `state` takes cages (its value range is narrow enough)."""
    return state.combos.size > 0


def house_count(puzzle: Puzzle) -> int:
    """How many of a Sudoku-family puzzle's groups (`groups`, in the order `Puzzle.regions`
    keeps) are houses: its rows, columns, boxes or regions, and diagonals; its cages follow."""
    return 3 * puzzle.rows + 2 * puzzle.diagonals


def shape_key(puzzle: Puzzle) -> tuple[object, ...]:
    """A key equal for two puzzles exactly when they have the same shape (cells, value range,
    houses with their totals), whatever their givens and cages: puzzles of one key share a state."""
    return (puzzle.size, puzzle.values, tuple(map(_CELLS_AND_TOTAL, puzzle.groups[: house_count(puzzle)])))


_CELLS_AND_TOTAL = operator.attrgetter("cells", "total")


def family_state(puzzle: Puzzle, locked: bool = True) -> FamilyState:
    """The family search's state for the shape of `puzzle` (its givens are not part of it: they
    are each solve's input). `locked`: propagate locked candidates too. Raises NotFamilyError
    (with `family_refusal`'s reason) for a puzzle the search does not take."""
    refusal = family_refusal(puzzle)
    if refusal is not None:
        raise NotFamilyError(f"the family search cannot take this puzzle: {refusal}")
    n = puzzle.size
    groups = puzzle.groups[: house_count(puzzle)]
    houses = np.array([g.cells for g in groups], dtype=np.int64)
    pieces, crossings = _crossings(groups, n)
    spec = np.zeros(SPEC_SIZE, dtype=np.int64)
    spec[LO], spec[HI] = puzzle.values
    spec[FULL] = range_mask(puzzle.values)
    spec[LOCKED] = int(locked)
    spec[SUM] = sum(range(spec[LO], spec[HI] + 1))
    spec[STRIDE] = spec[SUM] + 1
    spec[SUM_CELLS] = MOST_SUM_CELLS
    caged = spec[HI] - spec[LO] < MOST_CAGED_VALUES
    combos, combo_start = _combinations(puzzle.values) if caged else (np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64))
    member = np.zeros((len(groups), n + 1), dtype=np.int64)
    member[np.repeat(np.arange(len(groups)), houses.shape[1]), houses.ravel()] = 1
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[END_NS] = NO_DEADLINE
    return FamilyState(
        houses=houses,
        peers=_peers(groups, n),
        pieces=pieces,
        crossings=crossings,
        stack=np.zeros((n + 1, n + 1), dtype=np.int64),
        decisions=np.zeros((n + 1, 2), dtype=np.int64),
        queue=np.zeros(n + 1, dtype=np.int64),
        unions=np.zeros(len(pieces), dtype=np.int64),
        combos=combos,
        combo_start=combo_start,
        member=member,
        cell_houses=_cell_houses(member[:, :n]),
        marks=np.zeros(n + 1, dtype=np.int64),
        matching=np.zeros((4, houses.shape[1]), dtype=np.int64),
        memo=np.zeros((MEMO_SLOTS if caged else 1, 3 + 2 * houses.shape[1]), dtype=np.int64),
        weights=np.zeros(n + 1, dtype=np.int64),
        regions=_regions(groups, n),
        spec=spec,
        info=info,
    )


def _cell_houses(member: np.ndarray) -> np.ndarray:
    """`cell_houses` from `member` (H, N) (see the module docstring)."""
    most = int(member.sum(axis=0).max(initial=0))
    out = np.full((member.shape[1], max(most, 1)), -1, dtype=np.int64)
    for c in range(member.shape[1]):
        where = np.flatnonzero(member[:, c])
        out[c, : len(where)] = where
    return out


def _regions(groups: Sequence[Group], n: int) -> np.ndarray:
    """`regions` of the houses `groups` over `n` cells (see the module docstring)."""
    tiling = _tilings(groups, n)
    runs: list[list[int]] = []
    for t in sorted(set(tiling) - {-1}):
        members = [k for k, s in enumerate(tiling) if s == t]
        runs += [members[a: a + size] for size in range(1, REGION_HOUSES + 1) for a in range(len(members) - size + 1)]
    return offsets_first(np.array([len(r) for r in runs], dtype=np.int64),
                         np.array([h for r in runs for h in r], dtype=np.int64))


def _combinations(values: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """`combos` and `combo_start` of the range `values` (see the module docstring)."""
    lo, hi = values
    width = hi - lo + 1
    subsets = np.arange(1 << width, dtype=np.int64)
    bits = (subsets[:, None] >> np.arange(width)) & 1
    sizes = bits.sum(axis=1)
    sums = bits @ np.arange(lo, hi + 1, dtype=np.int64)
    stride = int(sums.max()) + 1
    keys = sizes * stride + sums
    order = np.argsort(keys, kind="stable")
    combo_start = np.searchsorted(keys[order], np.arange((width + 1) * stride + 1)).astype(np.int64)
    return subsets[order] << lo, combo_start


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
