"""The values whose assumption propagates to a wipe-out (`kakuro.engine.reasons`), for the
explanations' contradiction step."""

from __future__ import annotations

from kakuro.clock import Deadline
from kakuro.engine.reasons import refuted_values
from kakuro.native.kernels import warm
from kakuro.native.settings import REFUTE_KERNELS
from kakuro.puzzle import Puzzle


def refutations(puzzle: Puzzle, candidates: list[int], deadline: Deadline = Deadline()) -> list[tuple[int, int, int]] | None:
    """(cell, value, domain changes before the wipe-out) of every candidate of an open cell of
    `puzzle` whose assumption, propagated at GAC from `candidates` (bitmasks, cell order), wipes
    out; None when `candidates` themselves propagate to a wipe-out. The list may be short when
    `deadline` passes (every entry is still a refutation). Compiles its kernels first."""
    warm(*REFUTE_KERNELS)
    return refuted_values(puzzle, candidates, end=deadline.end)
