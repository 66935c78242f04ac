"""Techniques on the combinations of a run's clue: `unique-combination` (level 1),
`intersection`, `combination-digits` and `required-digit` (level 2), and
`combination-placement` (level 4, exact reasoning on one run).

A combination of a run is a set of distinct digits of the run's length summing to its clue
(`kakuro.combos.combinations`). One *fits* the run when it holds the run's placed digits, each
of its other digits is a candidate of an open cell and each open cell has a candidate in it
(`Board.fitting`): the test a solver makes at a glance.
"""

from __future__ import annotations

from kakuro.combos import feasible_values, union_of
from kakuro.deduction.board import Board, and_list, digits, either, only_place
from kakuro.deduction.finding import Finding, removals_from

LISTED_COMBINATIONS = 4
"""A sentence lists the combinations when there are at most this many, else counts them."""


def unique_combination(board: Board, r: int) -> Finding | None:
    """Run `r`'s clue has one combination: its cells hold only those digits."""
    table = board.tables[r]
    if len(table) != 1:
        return None
    cells = board.group_cells[r]
    removals = removals_from(board, cells, table[0])
    if not removals:
        return None
    reason = f"{board.group_name(r)} has one combination, {digits(table[0])}, so its cells hold nothing else"
    return Finding("unique-combination", reason, tuple(cells), (r,), removals)


def intersection(board: Board, c: int) -> Finding | None:
    """Open cell `c` holds only digits used by some combination of each of its groups (the
    combinations holding the digits placed in that run)."""
    d = board.cands[c]
    if d & (d - 1) == 0:
        return None
    groups = board.cell_groups[c]
    allowed = d
    uses = []
    for r in groups:
        placed = board.placed_digits(r)
        used = union_of(m for m in board.tables[r] if m & placed == placed) & ~placed
        allowed &= used
        uses.append((r, placed, used))
    if allowed == d:
        return None
    restricting = [f"{board.group_name(r)}, whose combinations{f' with {digits(placed)} placed' if placed else ''} "
                   f"use {digits(used)}" for r, placed, used in uses if d & ~used]
    if len(restricting) == 2:
        reason = (f"{board.cell_name(c)} lies in {restricting[0]}, and in {restricting[1]}: only "
                  f"{digits(allowed)} is in both")
    else:
        reason = f"{board.cell_name(c)} lies in {restricting[0]}, so it cannot be {either(d & ~allowed)}"
    return Finding("intersection", reason, (c,), tuple(groups), {c: d & ~allowed})


def combination_digits(board: Board, r: int) -> Finding | None:
    """Digits that no fitting combination of run `r` holds leave its open cells (in none)."""
    fits, placed = board.fitting(r)
    if not fits:
        return None  # inconsistent: combination-placement shows the wipe-out
    used = union_of(fits) & ~placed
    opens = board.open_cells(r)
    removals = removals_from(board, opens, used)
    if not removals:
        return None
    gone = union_of(removals.values())
    reason = f"{_fitting_words(board, r, fits)}, so its open cells cannot be {either(gone)}"
    return Finding("combination-digits", reason, tuple(board.group_cells[r]), (r,), removals)


def required_digit(board: Board, r: int) -> Finding | None:
    """A digit every fitting combination of run `r` holds, with one open cell left that can
    take it, goes there (in all)."""
    required = board.required_digits(r)
    if required is None:
        return None
    found = only_place(board, board.open_cells(r), required)
    if found is None:
        return None
    bit, cell = found
    v = bit.bit_length() - 1
    reason = (f"every combination of {board.group_name(r)} that fits its cells holds {v}, and "
              f"{board.cell_name(cell)} is the only open cell of it that can take {v}")
    return Finding("required-digit", reason, tuple(board.group_cells[r]), (r,), removals_from(board, [cell], bit))


def combination_placement(board: Board, r: int) -> Finding | None:
    """Exact reasoning on run `r`: a value stays in a cell only if some combination can be
    spread over the run's cells, one digit per cell within its candidates, with that value in
    that cell."""
    cells = board.group_cells[r]
    domains = [board.cands[c] for c in cells]
    support = feasible_values(board.totals[r], domains, board.puzzle.values)
    removals = removals_from(board, cells, dict(zip(cells, support)))
    if not removals:
        return None
    placeable = [m for m in board.tables[r]
                 if any(feasible_values(board.totals[r], [d & m for d in domains], board.puzzle.values))]
    clauses = [f"{'any of ' if m & (m - 1) else ''}{digits(m)} in {board.cell_name(c)}" for c, m in sorted(removals.items())]
    if not board.stated(r):
        lo, hi = board.puzzle.values
        spread = f"the digits {lo}..{hi} over the cells of {board.group_name(r)} (each within its candidates)"
        if not placeable:
            return Finding("combination-placement", f"there is no way to spread {spread}", tuple(cells), (r,), removals)
        reason = f"no way to spread {spread} puts {and_list(clauses, 'or')}"
        return Finding("combination-placement", reason, tuple(cells), (r,), removals)
    if not placeable:
        reason = f"no combination of {board.group_name(r)} can be spread over its cells' candidates"
    else:
        verb = "works" if len(placeable) == 1 else "work"
        reason = (f"spreading each combination of {board.group_name(r)} over its cells' candidates, only "
                  f"{_combination_list(placeable)} {verb}, and none of them puts {and_list(clauses, 'or')}")
    return Finding("combination-placement", reason, tuple(cells), (r,), removals)


def _fitting_words(board: Board, r: int, fits: list[int]) -> str:
    total = len(board.tables[r])
    if len(fits) == total:
        return f"every combination of {board.group_name(r)} ({_combination_list(fits)}) fits its cells"
    verb = "fits" if len(fits) == 1 else "fit"
    return f"of the {total} combinations of {board.group_name(r)}, only {_combination_list(fits)} {verb} its cells"


def _combination_list(combos: list[int]) -> str:
    if len(combos) > LISTED_COMBINATIONS:
        return f"{len(combos)} combinations (using {digits(union_of(combos))})"
    return and_list([digits(m) for m in combos])
