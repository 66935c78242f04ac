"""The Sudoku family's groups: the rows, columns and boxes of an n x n grid and a Killer's
cages, built from what a user gives (`Puzzle.sudoku`, `Puzzle.killer`), with one clear
InvalidPuzzleError for each way that input can be wrong. Cells are numbered row by row,
(r, c) is cell r * n + c; messages count rows, columns, boxes and cages from 1."""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any

from kakuro.errors import InvalidPuzzleError
from kakuro.groups import MAX_VALUE, Group, Position
from kakuro.values import is_digit, is_integer, position_name


def sudoku_groups(n: int, box: tuple[int, int]) -> list[Group]:
    """The rows, columns and boxes of an n x n grid with `box`-shaped boxes: each holds every
    value 1..n once, so its sum is implied (not stated)."""
    br, bc = box
    all_values = n * (n + 1) // 2
    groups = [Group(tuple(r * n + c for c in range(n)), all_values, name=f"row {r + 1}", stated=False) for r in range(n)]
    groups += [Group(tuple(r * n + c for r in range(n)), all_values, name=f"column {c + 1}", stated=False) for c in range(n)]
    corners = [(r0, c0) for r0 in range(0, n, br) for c0 in range(0, n, bc)]  # in reading order: box 1, box 2, ...
    groups += [Group(tuple((r0 + i) * n + c0 + j for i in range(br) for j in range(bc)), all_values,
                     name=f"box {k}", stated=False) for k, (r0, c0) in enumerate(corners, start=1)]
    return groups


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


def killer_cages(cages: Any, n: int) -> list[Group]:
    """Killer cages `(total, [(row, col), ...])` as groups over an n x n grid's cells."""
    if not isinstance(cages, Sequence) or isinstance(cages, (str, bytes)):
        raise InvalidPuzzleError("cages must be a list of (total, [(row, col), ...])")
    owner: dict[Position, int] = {}
    groups = []
    for k, cage in enumerate(cages):
        if (not isinstance(cage, Sequence) or isinstance(cage, (str, bytes)) or len(cage) != 2
                or not is_integer(cage[0]) or not isinstance(cage[1], Sequence) or not cage[1]):
            raise InvalidPuzzleError(f"cage {k + 1}: {reprlib.repr(cage)} is not (total, [(row, col), ...])")
        total, positions = cage
        cells = []
        for pos in positions:
            if (not isinstance(pos, Sequence) or len(pos) != 2 or not all(is_integer(x) for x in pos)
                    or not all(0 <= x < n for x in pos)):
                raise InvalidPuzzleError(f"cage {k + 1}: {reprlib.repr(pos)} is not a cell (row, col) of the {n}x{n} grid "
                                         "(rows and columns 0 to n - 1)")
            at = (int(pos[0]), int(pos[1]))
            if at in owner:
                same = "twice" if owner[at] == k else f"in cage {owner[at] + 1} too"
                raise InvalidPuzzleError(f"cage {k + 1}: cell {position_name(at, border=False)} is {same} (cages do not "
                                         "overlap)", cell=at)
            owner[at] = k
            cells.append(at[0] * n + at[1])
        first = min((int(p[0]), int(p[1])) for p in positions)  # its top-left cell, as an explanation names it
        groups.append(Group(tuple(cells), int(total), name=f"cage at {position_name(first, border=False)}"))
    return groups
