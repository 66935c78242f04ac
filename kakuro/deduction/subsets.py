"""Level-3 techniques inside one run: naked and hidden subsets (pairs, triples, quads).

- naked: k open cells whose candidates are k digits between them hold exactly those digits, so
  the run's other cells cannot;
- hidden: k digits that the run must hold (every fitting combination holds them) and that only
  k open cells can take fill those cells, which then hold nothing else.

Subsets are built one member at a time and a partial one is dropped as soon as it covers more
than k digits (naked) or k cells (hidden), so only members that could still make one are ever
combined: a run of 62 open cells over 1..62 no longer enumerates C(62, 4) subsets per look.
The subsets tried are the same, in the same order, as a plain enumeration's survivors.
"""

from __future__ import annotations

from collections.abc import Iterator

from kakuro.combos import mask_of, values_of
from kakuro.deduction.board import Board, digits
from kakuro.deduction.finding import Finding, removals_from

LARGEST_SUBSET = 4
"""Quads at most: a larger subset is the complement of a smaller one of the other kind."""
SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def bounded_subsets(items: list[int], masks: list[int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(subset, union of its masks) for every k-subset of `items` (in the lexicographic order
    of `itertools.combinations`) whose `masks` (one per item) cover at most k bits between
    them; a partial subset covering more is never extended."""
    n = len(items)

    def extend(start: int, chosen: tuple[int, ...], union: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(chosen) == k:
            yield chosen, union
            return
        for i in range(start, n - (k - len(chosen)) + 1):
            wider = union | masks[i]
            if wider.bit_count() <= k:
                yield from extend(i + 1, (*chosen, items[i]), wider)

    return extend(0, (), 0)


def naked_subset(board: Board, r: int) -> Finding | None:
    """k open cells of run `r` with k candidates between them keep those from the others."""
    opens = board.open_cells(r)
    for k in range(2, min(LARGEST_SUBSET, len(opens) - 1) + 1):
        for chosen, union in bounded_subsets(opens, [board.cands[c] for c in opens], k):
            if union.bit_count() != k:
                continue
            others = [c for c in opens if c not in chosen]
            removals = {c: board.cands[c] & union for c in others if board.cands[c] & union}
            if removals:
                reason = (f"{board.cells_name(chosen)} of {board.group_name(r)} hold {digits(union)} between them "
                          f"(a naked {SUBSET_NAMES[k]}), so the {board.group_word(r)}'s other cells cannot")
                return Finding("naked-subset", reason, tuple(board.group_cells[r]), (r,), removals)
    return None


def hidden_subset(board: Board, r: int) -> Finding | None:
    """k digits every fitting combination of run `r` holds, only k open cells can take: those
    cells hold nothing else."""
    required = board.required_digits(r)
    if required is None:
        return None
    opens = board.open_cells(r)
    needed = values_of(required)
    takers = [mask_of([i for i, c in enumerate(opens) if board.cands[c] >> v & 1]) for v in needed]
    for k in range(2, min(LARGEST_SUBSET, len(needed), len(opens) - 1) + 1):
        for chosen, cells in bounded_subsets(needed, takers, k):
            if cells.bit_count() != k:
                continue
            mask = mask_of(chosen)
            able = [c for c in opens if board.cands[c] & mask]
            removals = removals_from(board, able, mask)
            if removals:
                head = (f"every combination of {board.group_name(r)} that fits its cells holds {digits(mask)}"
                        if board.stated(r) else f"{board.group_name(r)} needs {digits(mask)}")
                reason = (f"{head}, and only {board.cells_name(able)} can take them (a hidden {SUBSET_NAMES[k]}), "
                          "so those cells hold nothing else")
                return Finding("hidden-subset", reason, tuple(board.group_cells[r]), (r,), removals)
    return None
