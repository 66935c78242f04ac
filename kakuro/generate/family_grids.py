"""Full grids of the Sudoku family that no pattern gives: Sudoku X (both diagonals hold every
digit once) and the Jigsaw, whose regions are a random tiling of the grid.

- `random_regions`: n connected regions of n cells tiling the n x n grid, from the most square
  boxes that tile it (rows for a prime n), changed by many random moves, each giving a cell of
  one region to a neighbouring region and taking one back, kept when both stay connected (the
  tilings are varied, not uniform over all tilings).
- `searched_grid`: a solution of the empty puzzle by a complete backend (`gac` by default) with
  its values tried in a seeded random order, digits then relabelled at random. Not every
  tiling admits a full grid: `jigsaw_layout` draws tilings until the search finds one.

The same arguments give the same grid.
"""

from __future__ import annotations

import math
import random

from kakuro.clock import Deadline
from kakuro.errors import KakuroError, LimitReachedError, UsageError
from kakuro.outcome import Status
from kakuro.puzzle import MAX_VALUE, Position, Puzzle
from kakuro.registry import get_solver
from kakuro.values import is_integer

SEARCHER = "gac"
"""The backend that fills an empty grid: the native engine, its values in a seeded order."""
MOVES_PER_CELL = 100
"""Moves `random_regions` tries per cell of the grid."""
TILINGS = 200
"""Most tilings `jigsaw_layout` draws before it gives up."""
TILING_LIMIT = 5.0
"""Seconds the search for a full grid of one tiling may take (a tiling without one is
usually refuted at once)."""
NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def random_regions(size: int, seed: int = 0) -> list[list[Position]]:
    """`size` connected regions of `size` cells each that tile the `size` x `size` grid."""
    n = _size(size)
    rng = random.Random(f"jigsaw regions {n} {seed}")
    br = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    bc = n // br
    owner = {(r, c): r // br * (n // bc) + c // bc for r in range(n) for c in range(n)}
    members = [{cell for cell, k in owner.items() if k == region} for region in range(n)]
    cells = sorted(owner)
    for _ in range(MOVES_PER_CELL * n * n):
        r, c = rng.choice(cells)
        dr, dc = rng.choice(NEIGHBOURS)
        other = owner.get((r + dr, c + dc))
        a, b = owner[(r, c)], other
        if b is None or a == b:
            continue
        back = sorted(cell for cell in members[b] if _touches(cell, members[a] - {(r, c)}))
        if not back:
            continue
        taken = rng.choice(back)
        first, second = members[a] - {(r, c)} | {taken}, members[b] - {taken} | {(r, c)}
        if _connected(first) and _connected(second):
            members[a], members[b] = first, second
            owner[(r, c)], owner[taken] = b, a
    return [sorted(region) for region in members]


def _touches(cell: Position, region: set[Position]) -> bool:
    return any((cell[0] + dr, cell[1] + dc) in region for dr, dc in NEIGHBOURS)


def _connected(region: set[Position]) -> bool:
    """True when the cells of `region` are orthogonally connected."""
    start = next(iter(region))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in NEIGHBOURS:
            cell = (r + dr, c + dc)
            if cell in region and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    return len(seen) == len(region)


def searched_grid(empty: Puzzle, seed: int, deadline: Deadline = Deadline(), backend: str = SEARCHER,
                  limit: float | None = None) -> list[list[int]] | None:
    """A full grid of the family puzzle `empty` (rows of digits): a seeded search's solution with
    its digits relabelled at random; None when it has none or the search ran out of time
    (`limit` seconds, at most what is left of `deadline`)."""
    solver = get_solver(backend)
    solver.ensure_warm()  # compile before any deadline: the time limit counts searching only
    left = deadline.remaining()
    budget = left if limit is None else limit if left is None else min(left, limit)
    if budget == 0:
        return None
    result = solver.solve(empty, time_limit=budget, seed=seed)
    if result.status is not Status.SOLVED or result.solution is None:
        return None
    n = empty.rows
    digits = list(range(1, n + 1))
    random.Random(f"relabel {n} {seed}").shuffle(digits)
    values = result.solution.values
    return [[digits[values[r * n + c] - 1] for c in range(n)] for r in range(n)]


def x_grid(size: int = 9, box: tuple[int, int] | None = None, seed: int = 0, deadline: Deadline = Deadline()) -> list[list[int]]:
    """A random full Sudoku X grid (`size` x `size`, `box` boxes, default square)."""
    empty = Puzzle.sudoku([[0] * _size(size) for _ in range(size)], box, diagonals=True)
    grid = searched_grid(empty, seed, deadline)
    if grid is None:
        if deadline.expired():
            raise LimitReachedError(f"no full {size}x{size} Sudoku X grid found within the time limit")
        raise KakuroError(f"a {size}x{size} Sudoku X with these boxes has no full grid")
    return grid


def jigsaw_layout(size: int = 9, seed: int = 0, diagonals: bool = False,
                  deadline: Deadline = Deadline()) -> tuple[list[list[Position]], list[list[int]]]:
    """Random Jigsaw regions of the `size` x `size` grid and a full grid over them (a Jigsaw X
    grid when `diagonals`): tilings are drawn (seeds derived from `seed`) until one has a full
    grid. KakuroError after TILINGS tilings without one; LimitReachedError when `deadline`
    passes first."""
    n = _size(size)
    for attempt in range(TILINGS):
        if deadline.expired():
            raise LimitReachedError(f"no {n}x{n} Jigsaw tiling with a full grid found within the time limit "
                                    f"({attempt} tried)")
        regions = random_regions(n, seed * TILINGS + attempt)
        empty = Puzzle.jigsaw([[0] * n for _ in range(n)], regions, diagonals=diagonals)
        grid = searched_grid(empty, seed, deadline, limit=TILING_LIMIT)
        if grid is not None:
            return regions, grid
    raise KakuroError(f"no {n}x{n} Jigsaw{' X' if diagonals else ''} tiling with a full grid in {TILINGS} tries "
                      f"from seed {seed}")


def _size(size: object) -> int:
    if not is_integer(size) or not 1 <= size <= MAX_VALUE:
        raise UsageError(f"size must be an integer 1..{MAX_VALUE}, not {size!r}")
    return size
