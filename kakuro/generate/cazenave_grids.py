"""Cazenave's (2010, Sect. 3.1) problems: a random full n x n grid whose rows and
columns hold distinct values from 1..V, its row and column sums, then a percentage of the
cells emptied (the others stay as givens). Deterministic for a seed.

With `unsatisfiable`, one row's sum is then moved by one (up, or down where up is out of
reach), so the row sums no longer add up to the column sums: the puzzle has no solution,
while every run alone can still be satisfied. Reasoning run by run (GAC, and on empty grids
shaving too) cannot see it; a search must prove it.
"""

from __future__ import annotations

import random

from kakuro.errors import KakuroError
from kakuro.generate.checks import check_count_and_seed, is_integer, is_number
from kakuro.puzzle import BLACK, MAX_VALUE, Puzzle

MAX_GRID_NODES = 200_000
"""Backtracking steps one attempt at a full grid may take before restarting afresh."""


def cazenave(size: int, values: int, holes: float, count: int = 1, seed: int = 0,
             unsatisfiable: bool = False) -> list[Puzzle]:
    """`count` all-white `size` x `size` puzzles over values 1..`values` with `holes` percent
    (0..100; 100 = empty grid) of the cells empty, from `seed`; with `unsatisfiable`, one row
    sum off by one (module docstring), no `solution` in `meta` and "-unsat" in the id.

    The k-th puzzle depends only on (size, values, holes, seed, k), never on global random
    state, and the first k puzzles of a larger `count` are the same. Each puzzle's `meta` holds
    the generator's parameters and `solution` (the hidden full grid, JSON-lines layout).
    Raises KakuroError on parameters that cannot make a puzzle.
    """
    _check_parameters(size, values, holes, count, seed)
    rng = random.Random(seed)
    cells = size * size
    empty = round(holes / 100 * cells)
    puzzles = []
    for k in range(count):
        grid = random_full_grid(size, values, rng)
        hidden = set(rng.sample(range(cells), empty))
        givens = {(i, j): grid[i][j] for i in range(size) for j in range(size) if i * size + j not in hidden}
        row_sums = [sum(row) for row in grid]
        col_sums = [sum(grid[i][j] for i in range(size)) for j in range(size)]
        solution = [[BLACK] * (size + 1)] + [[BLACK] + row for row in grid]
        meta: dict[str, object] = {
            "generator": "cazenave",
            "size": size,
            "values": values,
            "holes": holes,
            "seed": seed,
            "index": k,
            "solution": tuple(tuple(row) for row in solution),
        }
        name = f"cazenave-{size}x{size}-v{values}-h{holes:g}-s{seed}-{k}"
        if unsatisfiable:
            row = rng.randrange(size)
            highest = sum(range(values - size + 1, values + 1))  # the largest sum of `size` distinct values
            row_sums[row] += 1 if row_sums[row] < highest else -1
            del meta["solution"]
            meta["unsatisfiable"] = f"row {row + 1}'s sum is off by one: the rows add up to {sum(row_sums)}, the columns to {sum(col_sums)}"
            name += "-unsat"
        puzzles.append(Puzzle.all_white(row_sums, col_sums, values=(1, values), givens=givens, id=name, meta=meta))
    return puzzles


def random_full_grid(size: int, values: int, rng: random.Random) -> list[list[int]]:
    """A random `size` x `size` grid with values 1..`values`, all different in every row and
    column (`values` >= `size`). First a shuffled backtracking fill (`_try_fill`), which is
    what the stored instances were made with; when it exceeds its budget (large grids with few
    spare values: 40x40 over 1..40 never finished), rows built by matching (`_matched_rows`),
    which always succeed, in well under a second for every size up to MAX_VALUE."""
    grid = _try_fill(size, values, rng)
    return grid if grid is not None else _matched_rows(size, values, rng)


def _matched_rows(size: int, values: int, rng: random.Random) -> list[list[int]]:
    """The first `size` columns of `size` random rows of a Latin rectangle `values` wide: each
    row is a permutation of 1..`values`, no value twice in a column. A new row is a perfect
    matching of the columns to the values each column still lacks, found by augmenting paths
    in random order; after k rows every column lacks `values` - k values and every value is
    missing from as many columns, so a perfect matching always exists (Koenig)."""
    lacking = [set(range(1, values + 1)) for _ in range(values)]
    rows = []
    for _ in range(size):
        options = [rng.sample(sorted(column), len(column)) for column in lacking]
        column_of: dict[int, int] = {}
        for column in rng.sample(range(values), values):
            _augment(column, options, column_of, set())
        row = [0] * values
        for value, column in column_of.items():
            row[column] = value
            lacking[column].discard(value)
        rows.append(row[:size])
    return rows


def _augment(column: int, options: list[list[int]], column_of: dict[int, int], seen: set[int]) -> bool:
    """Give `column` a value, moving other columns to other values if needed (Kuhn's
    augmenting path); False when no path exists. Recursion depth is at most the row length."""
    for value in options[column]:
        if value in seen:
            continue
        seen.add(value)
        holder = column_of.get(value)
        if holder is None or _augment(holder, options, column_of, seen):
            column_of[value] = column
            return True
    return False


def _try_fill(size: int, values: int, rng: random.Random) -> list[list[int]] | None:
    """One backtracking attempt in row-major order with shuffled candidates; None when it
    exceeds MAX_GRID_NODES steps (the caller restarts with fresh random choices)."""
    grid = [[0] * size for _ in range(size)]
    rows = [set() for _ in range(size)]
    cols = [set() for _ in range(size)]
    cells = size * size
    options: list[list[int]] = [[] for _ in range(cells)]
    position = 0
    fresh = True
    steps = 0
    while position < cells:
        steps += 1
        if steps > MAX_GRID_NODES:
            return None
        i, j = divmod(position, size)
        if fresh:
            candidates = [v for v in range(1, values + 1) if v not in rows[i] and v not in cols[j]]
            rng.shuffle(candidates)
            options[position] = candidates
        elif grid[i][j]:
            rows[i].discard(grid[i][j])
            cols[j].discard(grid[i][j])
            grid[i][j] = 0
        if options[position]:
            v = options[position].pop()
            grid[i][j] = v
            rows[i].add(v)
            cols[j].add(v)
            position += 1
            fresh = True
        else:
            position -= 1
            fresh = False
            if position < 0:
                return None
    return grid


def _check_parameters(size: int, values: int, holes: float, count: int, seed: int) -> None:
    if not is_integer(size) or size < 1:
        raise KakuroError(f"size must be a positive integer, not {size!r}")
    if not is_integer(values) or not size <= values <= MAX_VALUE:
        raise KakuroError(f"values must be an integer from the size ({size}) to {MAX_VALUE}, not {values!r}")
    if not is_number(holes) or not 0 <= holes <= 100:
        raise KakuroError(f"holes must be a percentage from 0 to 100, not {holes!r}")
    check_count_and_seed(count, seed)
