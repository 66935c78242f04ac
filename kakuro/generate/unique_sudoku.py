"""Sudoku, Jigsaw and Killer Sudoku puzzles (each also as an X) with exactly one solution, by the
idea of the classic Kakuro generator (`kakuro.generate.unique`): change a puzzle built over a
full grid one step at a time, and let a complete search judge each step, keeping the steps that
leave the full grid the only solution.

- Sudoku, Jigsaw: from a full grid (`sudoku_grids.full_grid`; for an X or a Jigsaw,
  `family_grids`), empty the cells one by one in a random order; a cell stays empty when the
  puzzle still has exactly one solution, else its digit goes back. Without a target share the
  pass runs to the end, so every given left is needed (a *minimal* puzzle: emptying any one
  more cell admits a second solution).
- Killer: from cages grown over a full grid (`sudoku_grids.killer`), split cages until the
  puzzle is unique: each count that finds a second solution names the cells where it differs
  from the full grid, and the cage of one of them is cut in two connected parts (a cage of one
  cell fixes its digit, so this ends). Then merge neighbouring cages (no digit twice, at most
  `largest` cells) in a random order, keeping each merge that leaves the puzzle unique.

Uniqueness is proved by counting solutions up to 2 with the native engine (`gac` by default;
any complete backend may be named): a count that finishes with one solution. A count cut short
by the time limit never counts as unique, so every puzzle returned is unique.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kakuro.clock import Deadline
from kakuro.errors import KakuroError, LimitReachedError, UsageError
from kakuro.generate.family_grids import jigsaw_layout, x_grid
from kakuro.generate.sudoku_grids import MAX_CAGE, full_grid, killer_over
from kakuro.outcome import Count
from kakuro.puzzle import Position, Puzzle
from kakuro.registry import get_solver
from kakuro.solver import Solver
from kakuro.values import is_number

COUNTER = "gac"
"""The backend that proves uniqueness by default: the native engine, counting to 2."""
NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def unique_sudoku(size: int = 9, seed: int = 0, empty: float | None = None, box: tuple[int, int] | None = None,
                  time_limit: float | None = None, backend: str = COUNTER, diagonals: bool = False) -> Puzzle:
    """A `size` x `size` Sudoku (a Sudoku X when `diagonals`) with exactly one solution, from
    `full_grid(size, box, seed)` (an X from `family_grids.x_grid`).

    `empty` (a share 0..1 of the cells) stops emptying once that many cells are empty; None
    empties as many as uniqueness allows (a minimal puzzle). `time_limit` (seconds, None for
    none) bounds the whole pass: when it runs out the puzzle made so far is returned if it
    reaches `empty` (or `empty` is None). Raises KakuroError when the pass ends short of
    `empty` (LimitReachedError when the time limit ended it): a unique Sudoku needs givens (a
    9x9 at least 17)."""
    _check_empty(empty)
    deadline = Deadline.after(time_limit)
    counter = _counter(backend)
    grid = x_grid(size, box, seed, deadline) if diagonals else full_grid(size, box, seed)
    make = partial(Puzzle.sudoku, box=box, diagonals=diagonals)
    label = f"unique sudoku {size} {box} {seed}" + (" x" if diagonals else "")
    puzzle, meta = _emptied_while_unique(grid, make, random.Random(label), empty, deadline, counter,
                                         f"{size}x{size} Sudoku{' X' if diagonals else ''} from seed {seed}")
    return make(puzzle, id=f"sudoku{'-x' if diagonals else ''}-unique-{size}-s{seed}",
                meta={"generator": f"sudoku{'-x' if diagonals else ''}-unique", "seed": str(seed), **meta})


def unique_jigsaw(size: int = 9, seed: int = 0, empty: float | None = None, time_limit: float | None = None,
                  backend: str = COUNTER, diagonals: bool = False) -> Puzzle:
    """A `size` x `size` Jigsaw (a Jigsaw X when `diagonals`) with exactly one solution: random
    regions and a full grid over them (`family_grids.jigsaw_layout`), then cells emptied as
    `unique_sudoku` does (`empty`, `time_limit` and the errors as there)."""
    _check_empty(empty)
    deadline = Deadline.after(time_limit)
    counter = _counter(backend)
    regions, grid = jigsaw_layout(size, seed, diagonals, deadline)
    make = partial(Puzzle.jigsaw, regions=regions, diagonals=diagonals)
    kind = f"jigsaw{'-x' if diagonals else ''}"
    puzzle, meta = _emptied_while_unique(grid, make, random.Random(f"unique {kind} {size} {seed}"), empty, deadline,
                                         counter, f"{size}x{size} Jigsaw{' X' if diagonals else ''} from seed {seed}")
    return make(puzzle, id=f"{kind}-unique-{size}-s{seed}", meta={"generator": f"{kind}-unique", "seed": str(seed), **meta})


def _check_empty(empty: float | None) -> None:
    if empty is not None and (not is_number(empty) or not 0 <= empty <= 1):
        raise UsageError(f"empty must be a share 0..1 of the cells, not {empty!r}")


def _emptied_while_unique(grid: list[list[int]], make: Callable[[list[list[int]]], Puzzle], rng: random.Random,
                          empty: float | None, deadline: Deadline, counter: Solver,
                          what: str) -> tuple[list[list[int]], dict[str, str]]:
    """Full `grid` with its cells emptied one by one in `rng`'s order while the puzzle `make`
    builds of it keeps one solution (see `unique_sudoku`), and the pass's metadata; KakuroError
    naming `what` when it ends short of `empty`."""
    n = len(grid)
    target = n * n if empty is None else round(empty * n * n)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    puzzle = [list(row) for row in grid]
    emptied, counts, finished = 0, 0, True
    for r, c in cells:
        if emptied >= target:
            break
        if deadline.expired():
            finished = False
            break
        digit, puzzle[r][c] = puzzle[r][c], 0
        counts += 1
        if _unique(counter, make(puzzle), deadline):
            emptied += 1
        else:
            puzzle[r][c] = digit
    if emptied < target and empty is not None:
        why = "the time limit ran out" if not finished else "every given left is needed"
        raise (KakuroError if finished else LimitReachedError)(
            f"no unique {what} with {empty:.0%} of its cells empty: {why} at {emptied} empty "
            f"({emptied / (n * n):.0%}); ask for fewer or try another seed")
    return puzzle, {"empty": f"{emptied / (n * n):.4g}", "givens": str(n * n - emptied), "counts": str(counts),
                    "minimal": "yes" if empty is None and finished else "no"}


def unique_killer(size: int = 9, seed: int = 0, largest: int | None = None, box: tuple[int, int] | None = None,
                  time_limit: float | None = None, backend: str = COUNTER, diagonals: bool = False) -> Puzzle:
    """A `size` x `size` Killer Sudoku without givens and with exactly one solution: the cages
    of `killer(size, seed, largest, box)` split until unique, then neighbouring cages merged
    (at most `largest` cells, default the smaller of MAX_CAGE and `size`; no digit twice) while
    it stays unique (a Killer X when `diagonals`). `time_limit` (seconds, None for none) bounds
    both; the merging stops when it runs out, and LimitReachedError is raised when it runs out
    before the puzzle is unique."""
    if largest is None:
        largest = min(MAX_CAGE, size) if isinstance(size, int) else MAX_CAGE
    deadline = Deadline.after(time_limit)
    counter = _counter(backend)
    grid = x_grid(size, box, seed, deadline) if diagonals else full_grid(size, box, seed)
    start = killer_over(grid, seed, largest, box, diagonals)
    rng = random.Random(f"unique killer {size} {box} {seed} {largest}" + (" x" if diagonals else ""))
    make = partial(_killer, box=box, diagonals=diagonals)
    cages = [[start.cells[i] for i in cage.cells] for cage in start.cages]
    splits, merges, counts = 0, 0, 0
    while True:
        if deadline.expired():
            raise LimitReachedError(f"no unique {size}x{size} Killer Sudoku from seed {seed} within the time limit "
                              f"({splits} cages split)")
        counts += 1
        count = _count_two(counter, make(grid, cages), deadline)
        if count is None:  # the deadline passed: reported at the top of the loop
            continue
        if count.unique:
            break
        other = _other_solution(count, grid)
        if other is None:  # cut short by the time limit: reported at the top of the loop
            continue
        differ = [(r, c) for r in range(size) for c in range(size) if other[r][c] != grid[r][c]]
        cell = rng.choice(differ)
        cage = next(cage for cage in cages if cell in cage)
        cages.remove(cage)
        cages.extend(_split(cage, cell, rng))
        splits += 1
    order = _neighbour_pairs(cages)
    rng.shuffle(order)
    for a, b in order:
        if deadline.expired():
            break
        first = next((cage for cage in cages if a in cage), None)
        second = next((cage for cage in cages if b in cage), None)
        if first is None or second is None or first is second or len(first) + len(second) > largest:
            continue
        if {grid[r][c] for r, c in first} & {grid[r][c] for r, c in second}:
            continue
        merged = [cage for cage in cages if cage is not first and cage is not second] + [first + second]
        counts += 1
        if _unique(counter, make(grid, merged), deadline):
            cages = merged
            merges += 1
    meta = {"generator": "killer-unique", "seed": str(seed), "cages": str(len(cages)), "splits": str(splits),
            "merges": str(merges), "counts": str(counts)}
    kind = f"killer{'-x' if diagonals else ''}"
    meta["generator"] = f"{kind}-unique"
    return make(grid, cages, id=f"{kind}-unique-{size}-s{seed}", meta=meta)


def _counter(backend: str) -> Solver:
    solver = get_solver(backend)
    if not solver.complete:
        raise KakuroError(f"backend {backend!r} cannot prove uniqueness: it is incomplete and cannot count solutions")
    solver.ensure_warm()  # compile before any deadline: the time limit counts searching only
    return solver


def _count_two(counter: Solver, puzzle: Puzzle, deadline: Deadline) -> Count | None:
    """The count of `puzzle`'s solutions up to 2 within what is left of `deadline` (None when
    nothing is left: a solve's limit must be positive, and the clock may pass the deadline
    between a look at it and the count)."""
    left = deadline.remaining()
    return None if left == 0 else counter.count_solutions(puzzle, limit=2, time_limit=left)


def _unique(counter: Solver, puzzle: Puzzle, deadline: Deadline) -> bool:
    """True when a count to 2 finishes with one solution before `deadline`."""
    count = _count_two(counter, puzzle, deadline)
    return count is not None and count.unique


def _killer(grid: list[list[int]], cages: Sequence[list[Position]], box: tuple[int, int] | None, diagonals: bool,
            **named: Any) -> Puzzle:
    """The Killer of `cages` over full `grid` (each cage's sum is its digits')."""
    return Puzzle.killer([(sum(grid[r][c] for r, c in cage), cage) for cage in cages], len(grid), box=box,
                         diagonals=diagonals, **named)


def _other_solution(count: Count, grid: list[list[int]]) -> list[list[int]] | None:
    """A solution of `count` other than full `grid` (None when the count found none)."""
    for solution in count.solutions:
        rows = [[int(v) for v in row] for row in solution.to_grid()]
        if rows != grid:
            return rows
    return None


def _split(cage: list[Position], cell: Position, rng: random.Random) -> list[list[Position]]:
    """`cage` (two cells or more) cut in connected parts: a connected piece grown from `cell`
    to half its size, and what is left, cut into its connected parts."""
    goal = max(1, len(cage) // 2)
    piece = [cell]
    rest = set(cage) - {cell}
    while len(piece) < goal:
        frontier = sorted({(r + dr, c + dc) for r, c in piece for dr, dc in NEIGHBOURS} & rest)
        if not frontier:
            break
        grown = rng.choice(frontier)
        piece.append(grown)
        rest.discard(grown)
    parts = [piece]
    while rest:
        part = [min(rest)]
        rest.discard(part[0])
        for r, c in part:  # grows while it is walked: the connected part of what is left
            for dr, dc in NEIGHBOURS:
                if (r + dr, c + dc) in rest:
                    rest.discard((r + dr, c + dc))
                    part.append((r + dr, c + dc))
        parts.append(part)
    return parts


def _neighbour_pairs(cages: Sequence[list[Position]]) -> list[tuple[Position, Position]]:
    """One (cell, cell) pair per two cages that touch (orthogonally neighbouring cells)."""
    owner = {cell: k for k, cage in enumerate(cages) for cell in cage}
    pairs: dict[tuple[int, int], tuple[Position, Position]] = {}
    for (r, c), k in sorted(owner.items()):
        for dr, dc in ((0, 1), (1, 0)):
            j = owner.get((r + dr, c + dc))
            if j is not None and j != k:
                pairs.setdefault((min(j, k), max(j, k)), ((r, c), (r + dr, c + dc)))
    return list(pairs.values())
