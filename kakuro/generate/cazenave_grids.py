"""Cazenave's (2010, Sect. 3.1) problems: a random full n x n grid whose rows and
columns hold distinct values from 1..V, its row and column sums, then a percentage of the
cells emptied (the others stay as givens). Deterministic for a seed.

With `unsatisfiable` (values = size + 1, so each row and each column leaves out exactly one
value, the one its sum names), one row sum and one column sum are then moved by one the same
way: the row sums still add up to the column sums (counting over the whole grid sees nothing),
but the values the rows leave out are no longer the values the columns leave out, as every
filling needs (each value appears as often counted by rows as by columns). No solution, while
every run alone can still be satisfied: GAC, shaving and `gac.totals_refutation` do not see
it; a search must prove it.
"""

from __future__ import annotations

import random

from kakuro.errors import UsageError
from kakuro.generate.checks import check_count_and_seed
from kakuro.puzzle import MAX_VALUE, Puzzle
from kakuro.values import is_integer, is_number
from kakuro.wellformed import BLACK

MAX_GRID_NODES = 200_000
"""Backtracking steps one attempt at a full grid may take before restarting afresh."""


def cazenave(size: int, values: int, holes: float, count: int = 1, seed: int = 0,
             unsatisfiable: bool = False) -> list[Puzzle]:
    """`count` all-white `size` x `size` puzzles over values 1..`values` with `holes` percent
    (0..100; 100 = empty grid) of the cells empty, from `seed`; with `unsatisfiable`, one row
    sum and one column sum off by one (module docstring; it needs values = size + 1 and size >=
    2), no `solution` in `meta` and "-unsat" in the id.

    The k-th puzzle depends only on (size, values, holes, seed, k), never on global random
    state, and the first k puzzles of a larger `count` are the same. Each puzzle's `meta` holds
    the generator's parameters and `solution` (the hidden full grid, JSON-lines layout).
    Raises UsageError (a KakuroError) on parameters that cannot make a puzzle.
    """
    _check_parameters(size, values, holes, count, seed, unsatisfiable)
    rng = random.Random(seed)
    cells = size * size
    empty = round(holes / 100 * cells)
    puzzles = []
    for k in range(count):
        grid, moves = _movable_grid(size, values, rng) if unsatisfiable else (random_full_grid(size, values, rng), [])
        hidden = set(rng.sample(range(cells), empty))
        givens = {(i, j): grid[i][j] for i in range(size) for j in range(size) if i * size + j not in hidden}
        row_sums, col_sums = _line_sums(grid)
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
            row, column, step = rng.choice(moves)
            row_sums[row] += step
            col_sums[column] += step
            del meta["solution"]
            meta["unsatisfiable"] = (f"row {row + 1} and column {column + 1} sums moved by {step:+d}: the rows leave out "
                                     f"other values than the columns")
            name += "-unsat"
        puzzles.append(Puzzle.all_white(row_sums, col_sums, values=(1, values), givens=givens, id=name, meta=meta))
    return puzzles


def _movable_grid(size: int, values: int, rng: random.Random) -> tuple[list[list[int]], list[tuple[int, int, int]]]:
    """A random full grid with at least one pair of sums to move (`_moved_sums`), and those
    pairs (a rare grid has none: another is drawn)."""
    while True:
        grid = random_full_grid(size, values, rng)
        moves = _moved_sums(*_line_sums(grid), values)
        if moves:
            return grid, moves


def _line_sums(grid: list[list[int]]) -> tuple[list[int], list[int]]:
    """The row sums and the column sums of a square grid."""
    return [sum(row) for row in grid], [sum(column) for column in zip(*grid)]


def _moved_sums(row_sums: list[int], col_sums: list[int], values: int) -> list[tuple[int, int, int]]:
    """Every (row, column, step) such that moving both sums by `step` (+1 or -1) leaves the
    row leaving out another value than the column (see the module docstring); a line of
    `values` - 1 cells summing to t leaves out full - t."""
    full = values * (values + 1) // 2
    return [(r, c, step) for step in (1, -1) for r, row in enumerate(row_sums) for c, col in enumerate(col_sums)
            if row != col and 1 <= full - row - step <= values and 1 <= full - col - step <= values]


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
    rows: list[set[int]] = [set() for _ in range(size)]
    cols: list[set[int]] = [set() for _ in range(size)]
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


def _check_parameters(size: int, values: int, holes: float, count: int, seed: int, unsatisfiable: bool) -> None:
    if not is_integer(size) or size < 1:
        raise UsageError(f"size must be a positive integer, not {size!r}")
    if not is_integer(values) or not size <= values <= MAX_VALUE:
        raise UsageError(f"values must be an integer from the size ({size}) to {MAX_VALUE}, not {values!r}")
    if not is_number(holes) or not 0 <= holes <= 100:
        raise UsageError(f"holes must be a percentage from 0 to 100, not {holes!r}")
    check_count_and_seed(count, seed)
    if unsatisfiable and (size < 2 or values != size + 1):
        raise UsageError(f"an unsatisfiable grid needs size >= 2 and values = size + 1 (each line then leaves out one "
                         f"value), not size {size} and values {values}")
