"""Level-3 techniques inside one run: naked and hidden subsets (pairs, triples, quads).

- naked: k open cells whose candidates are k digits between them hold exactly those digits, so
  the run's other cells cannot;
- hidden: k digits that the run must hold (every fitting combination holds them) and that only
  k open cells can take fill those cells, which then hold nothing else.
"""

from __future__ import annotations

from itertools import combinations as subsets_of

from kakuro.combos import mask_of, union_of, values_of
from kakuro.deduction.board import Board, digits
from kakuro.deduction.finding import Finding, removals_from

LARGEST_SUBSET = 4
"""Quads at most: a larger subset is the complement of a smaller one of the other kind."""
SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(board: Board, r: int) -> Finding | None:
    """k open cells of run `r` with k candidates between them keep those from the others."""
    opens = board.open_cells(r)
    for k in range(2, min(LARGEST_SUBSET, len(opens) - 1) + 1):
        for chosen in subsets_of(opens, k):
            union = union_of(board.cands[c] for c in chosen)
            if union.bit_count() != k:
                continue
            others = [c for c in opens if c not in chosen]
            removals = {c: board.cands[c] & union for c in others if board.cands[c] & union}
            if removals:
                reason = (f"{board.cells_name(chosen)} of {board.run_name(r)} hold {digits(union)} between them "
                          f"(a naked {SUBSET_NAMES[k]}), so the run's other cells cannot")
                return Finding("naked-subset", reason, tuple(board.run_cells[r]), (r,), removals)
    return None


def hidden_subset(board: Board, r: int) -> Finding | None:
    """k digits every fitting combination of run `r` holds, only k open cells can take: those
    cells hold nothing else."""
    required = board.required_digits(r)
    if required is None:
        return None
    opens = board.open_cells(r)
    needed = values_of(required)
    for k in range(2, min(LARGEST_SUBSET, len(needed), len(opens) - 1) + 1):
        for chosen in subsets_of(needed, k):
            mask = mask_of(chosen)
            able = [c for c in opens if board.cands[c] & mask]
            if len(able) != k:
                continue
            removals = removals_from(board, able, mask)
            if removals:
                reason = (f"every combination of {board.run_name(r)} that fits its cells holds {digits(mask)}, and "
                          f"only {board.cells_name(able)} can take them (a hidden {SUBSET_NAMES[k]}), so those "
                          "cells hold nothing else")
                return Finding("hidden-subset", reason, tuple(board.run_cells[r]), (r,), removals)
    return None
