"""Small random puzzles for cross-checking backends against each other (no backend involved).

`random_all_white` makes an all-white grid either from a random solution (satisfiable, maybe
with several solutions, optionally with givens) or from random per-run totals that are each
feasible on their own (often unsatisfiable as a whole).
"""

from __future__ import annotations

import random

from kakuro import Puzzle
from kakuro.combos import combinations


def random_all_white(rng: random.Random, rows: int, cols: int, values: tuple[int, int]) -> Puzzle:
    lo, hi = values
    if rng.random() < 0.5:
        row_sums = [rng.choice([t for t in range(1, 500) if combinations(cols, t, values)]) for _ in range(rows)]
        col_sums = [rng.choice([t for t in range(1, 500) if combinations(rows, t, values)]) for _ in range(cols)]
        return Puzzle.all_white(row_sums, col_sums, values=values, id="random-totals")
    # a Latin rectangle: cyclic square on random symbols, rows and columns shuffled
    order = max(rows, cols)
    symbols = rng.sample(range(lo, hi + 1), order)
    row_shift, col_shift = rng.sample(range(order), rows), rng.sample(range(order), cols)
    grid = [[symbols[(r + c) % order] for c in col_shift] for r in row_shift]
    givens = {(i, j): grid[i][j] for i in range(rows) for j in range(cols) if rng.random() < 0.15}
    return Puzzle.all_white(
        [sum(row) for row in grid],
        [sum(grid[i][j] for i in range(rows)) for j in range(cols)],
        values=values,
        givens=givens,
        id="random-solution",
    )


def random_puzzles(seed: int, count: int) -> list[Puzzle]:
    """`count` random all-white puzzles of 2..4 rows and columns, values 1..N with N in 4..7."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        hi = rng.randint(max(rows, cols), 7)
        out.append(random_all_white(rng, rows, cols, (1, max(hi, 4))))
    return out
