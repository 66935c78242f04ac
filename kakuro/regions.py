"""The Sudoku family's groups: the rows, columns and boxes of an n x n grid, a Jigsaw's regions,
Sudoku X's two diagonals and a Killer's cages, built from what a user gives (`Puzzle.sudoku`,
`Puzzle.jigsaw`, `Puzzle.killer`), with one clear InvalidPuzzleError for each way that input
can be wrong. Cells are numbered row by row, (r, c) is cell r * n + c; messages count rows,
columns, boxes, regions and cages from 1 and name cells r1c1 (`kakuro.values.position_name`).

A family puzzle's groups come in one order, which `check_layout` holds every puzzle to and
code that asks what a group is relies on: the n rows, the n columns, the n boxes (a Jigsaw's n
regions instead), the two diagonals of an X (main, then anti-diagonal), then the cages.
A Jigsaw's regions need not be connected: the rules do not depend on it (the generator makes
connected ones).
"""

from __future__ import annotations

import functools
import reprlib
from collections.abc import Sequence
from typing import Any

from kakuro.errors import InvalidPuzzleError
from kakuro.groups import MAX_VALUE, Group, Position
from kakuro.values import is_digit, is_integer, position_name

MAIN_DIAGONAL, ANTI_DIAGONAL = "main diagonal", "anti-diagonal"
"""The names of Sudoku X's diagonals: r1c1 to rNcN, and r1cN to rNc1."""


def sudoku_groups(n: int, box: tuple[int, int]) -> list[Group]:
    """The rows, columns and boxes of an n x n grid with `box`-shaped boxes: each holds every
    value 1..n once, so its sum is implied (not stated)."""
    return [Group(cells, _all(n), name=name, stated=False) for name, cells in _layout(n, box)]


def line_groups(n: int) -> list[Group]:
    """The rows and columns of an n x n grid (a Jigsaw's groups before its regions)."""
    return [Group(cells, _all(n), name=name, stated=False) for name, cells in _layout(n, None)]


@functools.cache
def _layout(n: int, box: tuple[int, int] | None) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """(name, cells) of the rows, the columns and (given `box`) the boxes of an n x n grid."""
    rows = [(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    cols = [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    if box is None:
        return (*rows, *cols)
    br, bc = box
    corners = [(r0, c0) for r0 in range(0, n, br) for c0 in range(0, n, bc)]  # in reading order: box 1, box 2, ...
    boxes = [(f"box {k}", tuple((r0 + i) * n + c0 + j for i in range(br) for j in range(bc)))
             for k, (r0, c0) in enumerate(corners, start=1)]
    return (*rows, *cols, *boxes)


def _all(n: int) -> int:
    """The sum of the values 1..n: what a group holding each once adds up to."""
    return n * (n + 1) // 2


def diagonal_groups(n: int) -> list[Group]:
    """Sudoku X's two diagonals of an n x n grid, each holding every value once."""
    main = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + n - 1 - i for i in range(n))
    return [Group(main, _all(n), name=MAIN_DIAGONAL, stated=False), Group(anti, _all(n), name=ANTI_DIAGONAL, stated=False)]


def sudoku_grid(grid: Any) -> tuple[int, dict[int, int]]:
    """The side n of a Sudoku grid (rows of n ints, 0 empty) and its givens by cell number."""
    if not isinstance(grid, Sequence) or isinstance(grid, (str, bytes)) or not grid:
        raise InvalidPuzzleError("a Sudoku grid must be a non-empty list of rows")
    n = len(grid)
    if n > MAX_VALUE:
        raise InvalidPuzzleError(f"a {n}x{n} Sudoku needs digits up to {n}; at most {MAX_VALUE} fit")
    givens: dict[int, int] = {}
    for r, row in enumerate(grid):
        if not isinstance(row, Sequence) or isinstance(row, (str, bytes)):
            raise InvalidPuzzleError(f"row {r + 1} is not a list of digits")
        if len(row) != n:
            raise InvalidPuzzleError(f"row {r + 1} has {len(row)} cells, but a Sudoku grid is square: {n} rows need {n} cells "
                                     "each")
        for c, item in enumerate(row):
            if not is_digit(item) or not 0 <= item <= n:
                raise InvalidPuzzleError(f"cell {position_name((r, c), border=False)}: {reprlib.repr(item)} is not 0 (empty) "
                                         f"or a digit 1..{n}", cell=(r, c))
            if item:
                givens[r * n + c] = int(item)
    return n, givens


def sudoku_box(n: int, box: Any) -> tuple[int, int]:
    """The box shape (rows, cols) of an n x n Sudoku: `box`, or square when None."""
    if box is None:
        side = round(n**0.5)
        if side * side != n:
            raise InvalidPuzzleError(f"a {n}x{n} grid has no square boxes: give the box shape, e.g. box=(rows, cols) "
                                     f"with rows x cols = {n}")
        return side, side
    if (not isinstance(box, Sequence) or len(box) != 2 or not all(is_integer(b) and b > 0 for b in box)):
        raise InvalidPuzzleError(f"box must be (rows, cols), two positive integers, not {reprlib.repr(box)}")
    br, bc = int(box[0]), int(box[1])
    if br * bc != n or n % br or n % bc:
        raise InvalidPuzzleError(f"{br}x{bc} boxes do not tile a {n}x{n} grid: a box must have {n} cells "
                                 f"and its sides divide {n}")
    return br, bc


def _cells_of(what: str, positions: Any, n: int, owner: dict[Position, int], k: int) -> list[int]:
    """The cell numbers of `positions`, the (row, col) pairs of `what` (the k-th cage or region,
    0-based), each marked in `owner`; InvalidPuzzleError for one outside the n x n grid or
    already in a group of that kind (`owner`)."""
    cells = []
    for pos in positions:
        if (not isinstance(pos, Sequence) or isinstance(pos, (str, bytes)) or len(pos) != 2
                or not all(is_integer(x) for x in pos) or not all(0 <= x < n for x in pos)):
            raise InvalidPuzzleError(f"{what} {k + 1}: {reprlib.repr(pos)} is not a cell (row, col) of the {n}x{n} grid "
                                     f"(rows and columns 0 to {n - 1})")
        at = (int(pos[0]), int(pos[1]))
        if at in owner:
            same = "listed twice" if owner[at] == k else f"in {what} {owner[at] + 1} too"
            raise InvalidPuzzleError(f"{what} {k + 1}: cell {position_name(at, border=False)} is {same} ({what}s do not "
                                     "overlap)", cell=at)
        owner[at] = k
        cells.append(at[0] * n + at[1])
    return cells


def _listed(item: Any) -> bool:
    """True when `item` is a non-empty list (not a string)."""
    return isinstance(item, Sequence) and not isinstance(item, (str, bytes)) and len(item) > 0


def killer_cages(cages: Any, n: int) -> list[Group]:
    """Killer cages `(total, [(row, col), ...])` as groups over an n x n grid's cells."""
    if not isinstance(cages, Sequence) or isinstance(cages, (str, bytes)):
        raise InvalidPuzzleError("cages must be a list of (total, [(row, col), ...])")
    owner: dict[Position, int] = {}
    groups = []
    for k, cage in enumerate(cages):
        if (not isinstance(cage, Sequence) or isinstance(cage, (str, bytes)) or len(cage) != 2
                or not is_integer(cage[0]) or not _listed(cage[1])):
            raise InvalidPuzzleError(f"cage {k + 1}: {reprlib.repr(cage)} is not (total, [(row, col), ...])")
        total, positions = cage
        cells = _cells_of("cage", positions, n, owner, k)
        first = min((int(p[0]), int(p[1])) for p in positions)  # its top-left cell, as an explanation names it
        groups.append(Group(tuple(cells), int(total), name=f"cage at {position_name(first, border=False)}"))
    return groups


def jigsaw_regions(regions: Any, n: int) -> list[Group]:
    """A Jigsaw's regions, lists of (row, col) that tile the n x n grid (n regions of n cells,
    each cell in one), as groups; InvalidPuzzleError naming the region and the cell that break
    the tiling. A region is named by its top-left cell ("region at r1c1")."""
    if not isinstance(regions, Sequence) or isinstance(regions, (str, bytes)):
        raise InvalidPuzzleError("regions must be a list of regions, each a list of cells (row, col)")
    owner: dict[Position, int] = {}
    groups = []
    for k, region in enumerate(regions):
        if not _listed(region):
            raise InvalidPuzzleError(f"region {k + 1}: {reprlib.repr(region)} is not a list of cells (row, col)")
        cells = _cells_of("region", region, n, owner, k)
        first = divmod(min(cells), n)
        groups.append(Group(tuple(cells), _all(n), name=f"region at {position_name(first, border=False)}", stated=False))
    missing = next(((r, c) for r in range(n) for c in range(n) if (r, c) not in owner), None)
    alone = f"; cell {position_name(missing, border=False)} is in no region" if missing is not None else ""
    for k, group in enumerate(groups):
        if len(group) != n:
            size = f"{len(group)} cell{'s' if len(group) > 1 else ''}"
            raise InvalidPuzzleError(f"region {k + 1} ({group.name}) has {size}; each region of a {n}x{n} Jigsaw has {n}"
                                     f"{alone}", cell=divmod(group.cells[0], n))
    if len(groups) != n:
        raise InvalidPuzzleError(f"a {n}x{n} Jigsaw has {n} regions of {n} cells, not {len(groups)}{alone}", cell=missing)
    return groups


def check_layout(regions: tuple[Group, ...], n: int, cells: tuple[Position, ...], box: tuple[int, int] | None,
                 diagonals: bool) -> None:
    """InvalidPuzzleError unless a puzzle's `regions` are a Sudoku-family layout in the order
    of the module docstring: over the n x n grid's `cells` (in reading order), the rows, the
    columns, the boxes of shape `box` (None: n regions that tile the grid), both diagonals
    when `diagonals`, then cages (stated sums; a Jigsaw has none). A puzzle without regions (a
    Kakuro) has no box and no diagonals."""
    if not regions:
        if box is not None or diagonals:
            raise InvalidPuzzleError("a box shape or diagonals belong to a Sudoku-family puzzle, which has regions")
        return
    how = "build it with Puzzle.sudoku, Puzzle.jigsaw or Puzzle.killer"
    if cells != _positions(n):
        raise InvalidPuzzleError(f"a Sudoku-family puzzle's cells are every cell of its {n}x{n} grid in reading order; {how}")
    fixed = _fixed_cells(n, box, diagonals)  # what the rows, columns, boxes and diagonals must be
    unstated = len(fixed) + (n if box is None else 0)
    laid = tuple(g.cells for g in regions[:unstated])
    if box is None:
        blocks = laid[2 * n:3 * n]
        laid = laid[:2 * n] + laid[3 * n:]
        tiled = len(blocks) == n and len({c for cells_ in blocks for c in cells_}) == n * n == sum(map(len, blocks))
    else:
        tiled = True
    if not (tiled and laid == fixed and not any(g.stated for g in regions[:unstated])
            and all(g.stated for g in regions[unstated:])):
        raise InvalidPuzzleError("a Sudoku-family puzzle's regions are its rows, columns, boxes (a Jigsaw's regions), "
                                 f"diagonals (Sudoku X) and cages, in that order; {how}")
    if box is None and len(regions) > unstated:
        raise InvalidPuzzleError("a Killer Jigsaw (cages over irregular regions) is not supported")


@functools.cache
def _fixed_cells(n: int, box: tuple[int, int] | None, diagonals: bool) -> tuple[tuple[int, ...], ...]:
    """The cells of the groups a layout fixes, in order: the rows, the columns, the boxes of
    `box` (a Jigsaw's regions left out), the diagonals when `diagonals`."""
    fixed = tuple(cells for _, cells in _layout(n, box))
    if diagonals:
        fixed += tuple(g.cells for g in diagonal_groups(n))
    return fixed


@functools.cache
def _positions(n: int) -> tuple[Position, ...]:
    return tuple((r, c) for r in range(n) for c in range(n))
