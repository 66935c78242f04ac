"""The classic generator's local search on fillings (`kakuro.engine.local_search`), judged by
root GAC and shaving, by name: `unique_search` and the kernels it runs."""

from __future__ import annotations

import numpy as np

from kakuro.engine.local_search import UNIQUE, run
from kakuro.puzzle import Puzzle

__all__ = ["UNIQUE", "unique_search"]


def unique_search(puzzle: Puzzle, fill: np.ndarray, seed: int, max_moves: int, end: float | None,
                  beyond_gac: bool) -> tuple[int, int, int]:
    """The local search from the filling `fill` (int64, one value per cell; left holding the
    unique filling when found) on `puzzle`'s layout, for at most `max_moves` moves or until
    `end` (a `time.perf_counter` reading, None: no limit): (UNIQUE or another code, moves,
    kicks). Its kernels are `kakuro.native.settings.UNIQUE_KERNELS`."""
    return run(puzzle, fill, seed, max_moves, end, beyond_gac)
