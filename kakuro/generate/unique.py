"""Making a puzzle unique: local search on its filling, judged by propagation.

A *filling* gives every white cell of a layout a value, all different along every run; its
puzzle has the runs' sums as clues and the filling as one solution. That puzzle is unique when
propagation fixes every cell: root GAC (`root_propagate` in gac mode), then, once at
most `local_search.SHAVE_BELOW` cells stay open, shaving (`shave`). `unique_filling` drives the *score*,
the values left beyond one per cell, to 0 by iterated local search:

- a *move* picks a random open cell and gives it a value neither of its runs uses, swaps its
  value with another cell of one of its runs (when both crossing runs allow it), or gives new
  values to it and one or two cells linked to it by runs;
- the new filling's clues are loaded into the state built once for the layout
  (`retarget`) and propagated from scratch; the move is kept when the score does not
  rise (sideways moves drift across plateaus), else undone;
- after STALL moves without a new best score the search goes back to the best filling (or
  stays, when the current one is as good) and *kicks*: random moves kept whatever they do, more
  of them the longer no new best is found.

Propagation is sound, so a score of 0 certifies that the filling is the puzzle's only solution.
With `beyond_gac` a filling that root GAC alone decides scores 1 instead of 0, so the search goes
on until shaving is needed too (the grade `gac+shaving` of `kakuro.generate.grade`).

Everything runs compiled in the engine (`kakuro.native.unique`) and draws from the state's generator,
so a seed gives the same filling on any machine; only a deadline can cut a search short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kakuro.clock import Deadline
from kakuro.errors import KakuroError
from kakuro.native import kernels
from kakuro.native.settings import UNIQUE_KERNELS
from kakuro.native.unique import UNIQUE, unique_search
from kakuro.puzzle import Puzzle


@dataclass(frozen=True)
class UniqueFilling:
    """A filling whose puzzle has exactly one solution, and how the search found it."""

    values: tuple[int, ...]
    """One value per white cell, in the puzzle's cell order."""
    moves: int
    """Moves tried (each an evaluation of a filling, or a move that no cell allowed)."""
    kicks: int


def unique_filling(
    puzzle: Puzzle, values: Sequence[int], seed: int, max_moves: int, deadline: Deadline = Deadline(),
    beyond_gac: bool = False,
) -> UniqueFilling | None:
    """A filling of `puzzle`'s layout (its clues are ignored) whose puzzle is unique, searched
    from `values` (a filling: one value per cell, all different along every run) for at most
    `max_moves` moves; with `beyond_gac`, one whose puzzle root GAC alone does not decide. None
    when the moves or the deadline run out. Raises KakuroError when `values` is not a filling or
    the puzzle has givens."""
    if puzzle.givens:
        raise KakuroError("unique_filling needs a layout without givens")
    fill = np.array(values, dtype=np.int64)
    if fill.shape != (puzzle.size,) or any(
        len({int(fill[c]) for c in run.cells}) != len(run.cells) for run in puzzle.groups
    ) or not all(puzzle.values[0] <= v <= puzzle.values[1] for v in values):
        raise KakuroError("values must give each cell a value in range, all different along every run")
    code, moves, kicks = unique_search(puzzle, fill, seed, max_moves, deadline.end, beyond_gac)
    if code != UNIQUE:
        return None
    return UniqueFilling(tuple(int(v) for v in fill), moves, kicks)


def warm_up() -> None:
    """Compile (or load from the disk cache) the search's kernels."""
    kernels.warm(*UNIQUE_KERNELS)


def is_cold() -> bool:
    """True when `warm_up` will compile (the first use after an install or an engine change)."""
    return kernels.is_cold(*UNIQUE_KERNELS)
