"""Fresh Sudoku and Killer Sudoku puzzles, as Chan, Renous and Thai (2022) made theirs: a random
full grid, then a share of its cells emptied (their 16x16 sets: 50 % and 66 %); Killer cages
grown at random over a full grid, each with the sum of its digits. Every puzzle has its full
grid as a solution (`full_grid` is returned alongside); none is promised unique.

A full grid is the pattern grid `(bc * (r % br) + r // br + c) % n + 1` (br x bc boxes) with
every change that keeps a Sudoku a Sudoku drawn at random: the digits relabelled, rows
shuffled within their bands and bands among themselves, columns within their stacks and stacks
among themselves, and (square boxes) a transposition. The paper does not say how its grids
were drawn; these are not uniform over all Sudoku grids (every one is one pattern transformed).
A Sudoku X's or Killer X's grid (`diagonals`) comes from a seeded search instead
(`family_grids.x_grid`); Jigsaws are `family_grids`' too.
"""

from __future__ import annotations

import random

from kakuro.errors import KakuroError, UsageError
from kakuro.generate.family_grids import jigsaw_layout, x_grid
from kakuro.puzzle import MAX_VALUE, Position, Puzzle
from kakuro.values import is_integer

MAX_CAGE = 9
"""Default largest cage of `killer`."""


def full_grid(size: int = 9, box: tuple[int, int] | None = None, seed: int = 0) -> list[list[int]]:
    """A random full `size` x `size` Sudoku grid (rows of digits 1..size) with `box` boxes
    (default square), the same for the same arguments."""
    br, bc = _box(size, box)
    rng = random.Random(f"full-grid {size} {br}x{bc} {seed}")
    n = size
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    rows = [band * br + r for band in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)]
    cols = [stack * bc + c for stack in rng.sample(range(n // bc), n // bc) for c in rng.sample(range(bc), bc)]
    grid = [[digits[(bc * (r % br) + r // br + c) % n] for c in cols] for r in rows]
    if br == bc and rng.random() < 0.5:
        grid = [list(column) for column in zip(*grid)]
    return grid


def emptied(grid: list[list[int]], share: float, seed: int = 0, box: tuple[int, int] | None = None,
            id: str | None = None, diagonals: bool = False) -> Puzzle:
    """The Sudoku (an X when `diagonals`) of full `grid` with round(`share` x cells) of its
    cells emptied at random (`share` in 0..1; the paper's 0.5 and 0.66)."""
    return Puzzle.sudoku(_holed(grid, share, seed), box, diagonals=diagonals, id=id,
                         meta={"generator": "sudoku-x" if diagonals else "sudoku", "empty": f"{share:g}", "seed": str(seed)})


def _holed(grid: list[list[int]], share: float, seed: int) -> list[list[int]]:
    """`grid` with round(`share` x cells) of its cells set to 0 at random."""
    if not isinstance(share, (int, float)) or not 0 <= share <= 1:
        raise UsageError(f"share must be a fraction 0..1 of the cells to empty, not {share!r}")
    n = len(grid)
    rng = random.Random(f"emptied {seed}")
    holes = rng.sample(range(n * n), round(share * n * n))
    puzzle = [list(row) for row in grid]
    for cell in holes:
        puzzle[cell // n][cell % n] = 0
    return puzzle


def sudoku(size: int = 16, share: float = 0.66, seed: int = 0, box: tuple[int, int] | None = None,
           diagonals: bool = False) -> Puzzle:
    """A fresh Sudoku as in the paper: `full_grid(size, box, seed)` with `share` of it emptied
    (a Sudoku X, `diagonals`: `family_grids.x_grid(size, box, seed)`'s)."""
    grid = x_grid(size, box, seed) if diagonals else full_grid(size, box, seed)
    name = f"sudoku{'-x' if diagonals else ''}-{size}-{round(share * 100)}-s{seed}"
    return emptied(grid, share, seed, box, id=name, diagonals=diagonals)


def jigsaw(size: int = 9, share: float = 0.5, seed: int = 0, diagonals: bool = False) -> Puzzle:
    """A fresh Jigsaw (a Jigsaw X when `diagonals`): random regions with a full grid
    (`family_grids.jigsaw_layout(size, seed, diagonals)`), `share` of its cells emptied."""
    regions, grid = jigsaw_layout(size, seed, diagonals)
    kind = f"jigsaw{'-x' if diagonals else ''}"
    return Puzzle.jigsaw(_holed(grid, share, seed), regions, diagonals=diagonals,
                         id=f"{kind}-{size}-{round(share * 100)}-s{seed}",
                         meta={"generator": kind, "empty": f"{share:g}", "seed": str(seed)})


def killer(size: int = 9, seed: int = 0, largest: int = MAX_CAGE, box: tuple[int, int] | None = None,
           diagonals: bool = False) -> Puzzle:
    """A fresh Killer Sudoku without givens: cages of 1..`largest` orthogonally connected cells
    grown at random over `full_grid(size, box, seed)` (a Killer X, `diagonals`:
    `family_grids.x_grid`'s), no digit twice in a cage, each with the sum of its digits."""
    _check_largest(largest, size)
    grid = x_grid(size, box, seed) if diagonals else full_grid(size, box, seed)
    return killer_over(grid, seed, largest, box, diagonals)


def _check_largest(largest: object, size: int) -> None:
    if not is_integer(largest) or not 1 <= largest <= size:
        raise UsageError(f"largest must be a cage size 1..{size}, not {largest!r}")


def killer_over(grid: list[list[int]], seed: int = 0, largest: int = MAX_CAGE, box: tuple[int, int] | None = None,
                diagonals: bool = False) -> Puzzle:
    """The Killer of `killer` with its cages grown over full `grid` (a Sudoku's, with `box`
    boxes; an X's when `diagonals`)."""
    size = len(grid)
    _check_largest(largest, size)
    rng = random.Random(f"killer {seed}")
    n = size
    owner: dict[Position, int] = {}
    cages: list[list[Position]] = []
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    for start in cells:
        if start in owner:
            continue
        cage, digits = [start], {grid[start[0]][start[1]]}
        owner[start] = len(cages)
        goal = rng.randint(1, largest)
        while len(cage) < goal:
            frontier = [(r + dr, c + dc) for r, c in cage for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                        if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in owner
                        and grid[r + dr][c + dc] not in digits]
            if not frontier:
                break
            cell = rng.choice(sorted(set(frontier)))
            cage.append(cell)
            digits.add(grid[cell[0]][cell[1]])
            owner[cell] = len(cages)
        cages.append(cage)
    sums = [(sum(grid[r][c] for r, c in cage), cage) for cage in cages]
    kind = f"killer{'-x' if diagonals else ''}"
    return Puzzle.killer(sums, size, box=box, diagonals=diagonals, id=f"{kind}-{size}-s{seed}",
                         meta={"generator": kind, "seed": str(seed)})


def _box(size: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if not is_integer(size) or not 1 <= size <= MAX_VALUE:
        raise UsageError(f"size must be an integer 1..{MAX_VALUE}, not {size!r}")
    shape = Puzzle.sudoku([[0] * size for _ in range(size)], box).box  # validates the box
    if shape is None:
        raise KakuroError("a Sudoku always has a box shape")
    return shape
