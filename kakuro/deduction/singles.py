"""Level-1 techniques on placed digits: `naked-single` (a placed digit leaves the other cells of
its groups) and `last-cell` (the last open cell of a run holds what its clue leaves)."""

from __future__ import annotations

from kakuro.deduction.board import Board, and_list, single_value
from kakuro.deduction.finding import Finding


def naked_single(board: Board, c: int) -> Finding | None:
    """Cell `c` has one candidate left: no other cell of its groups can hold it."""
    d = board.cands[c]
    if d == 0 or d & (d - 1):
        return None
    groups = board.cell_groups[c]
    mates = [m for r in groups for m in board.group_cells[r] if m != c]
    removals = {m: d for m in mates if board.cands[m] & d}
    if not removals:
        return None
    v = single_value(d)
    names = and_list([board.group_name(r) for r in groups])
    return Finding("naked-single", f"{board.cell_name(c)} holds {v}, so no other cell of {names} can be {v}",
                   (c, *mates), tuple(groups), removals)


def last_cell(board: Board, r: int) -> Finding | None:
    """Run `r` has one open cell: it holds the clue minus the placed digits."""
    cells = board.group_cells[r]
    opens = board.open_cells(r)
    if len(opens) != 1:
        return None
    last = opens[0]
    placed = [single_value(board.cands[c]) for c in cells if c != last]
    value = board.totals[r] - sum(placed)
    if value < 0 or not board.cands[last] >> value & 1:
        return None  # an inconsistent run: exact reasoning (combination-placement) shows the wipe-out
    if not board.stated(r):
        reason = f"the other cells of {board.group_name(r)} hold every digit but {value}"
        return Finding("last-cell", reason, tuple(cells), (r,), {last: board.cands[last] & ~(1 << value)})
    shown = " + ".join(str(v) for v in placed) + (f" = {sum(placed)}" if len(placed) > 1 else "")
    reason = f"the other cells of {board.group_name(r)} hold {shown} of its {board.totals[r]}"
    return Finding("last-cell", reason, tuple(cells), (r,), {last: board.cands[last] & ~(1 << value)})
