"""A Sudoku's own techniques over its groups (rows, columns, boxes or a Jigsaw's regions, an X's
diagonals and a Killer's cages):
`hidden-single` (level 1) and `locked-candidates` (level 2: pointing and box/line reduction).

The techniques that carry over from Kakuro (naked singles, the last cell, subsets, exact
reasoning on one group, the cage combinations) are those of `singles`, `subsets` and
`combination_rules`, run on the same groups.
"""

from __future__ import annotations

from kakuro.combos import range_mask
from kakuro.deduction.board import Board, only_place
from kakuro.deduction.finding import Finding


def hidden_single(board: Board, r: int) -> Finding | None:
    """A value that row, column, box, region or diagonal `r` (a group holding every value once)
    can put in one open cell only goes there. Cages are `required-digit`'s (what they must hold depends on their
    combinations)."""
    if board.stated(r):
        return None
    opens = board.open_cells(r)
    if not opens:
        return None
    found = only_place(board, opens, range_mask(board.puzzle.values) & ~board.placed_digits(r))
    if found is None:
        return None
    bit, cell = found
    reason = f"in {board.group_name(r)}, {bit.bit_length() - 1} can only go in {board.cell_name(cell)}"
    return Finding("hidden-single", reason, tuple(board.group_cells[r]), (r,), {cell: board.cands[cell] & ~bit})


def locked_candidates(board: Board, r: int) -> Finding | None:
    """A value that group `r` must hold (a row, column or box: every value not placed; a cage:
    one every fitting combination holds) and can only put in open cells that all lie in another
    group leaves that group's other cells."""
    required = board.required_digits(r)
    if not required:
        return None
    opens = sorted(board.open_cells(r))  # reading order (a cage lists its cells as its author did)
    members = set(board.group_cells[r])
    while required:
        bit = required & -required
        required ^= bit
        able = [c for c in opens if board.cands[c] & bit]
        if len(able) < 2:
            continue  # one place: a hidden single (or required digit); none: exact reasoning shows it
        shared = set(board.cell_groups[able[0]]).intersection(*(board.cell_groups[c] for c in able[1:])) - {r}
        for other in sorted(shared):
            targets = [c for c in board.group_cells[other] if c not in members and board.cands[c] & bit]
            if targets:
                return _finding(board, r, other, able, bit, targets)
    return None


def _finding(board: Board, r: int, other: int, able: list[int], bit: int, targets: list[int]) -> Finding:
    v = bit.bit_length() - 1
    name, other_name = board.group_name(r), board.group_name(other)
    word, other_word = board.group_word(r), board.group_word(other)
    if word in ("box", "region") and other_word in ("row", "column"):
        label = " (pointing)"
    elif word in ("row", "column") and other_word in ("box", "region"):
        label = f" ({other_word}/line reduction)"
    else:
        label = ""
    head = f"every combination of {name} that fits its cells holds {v}, and in it" if board.stated(r) else f"in {name},"
    reason = (f"{head} {v} can only go in {board.cells_name(able)}, which all lie in {other_name}{label}, so no "
              f"other cell of {other_name} can be {v}")
    looked = tuple(dict.fromkeys((*board.group_cells[r], *board.group_cells[other])))
    return Finding("locked-candidates", reason, looked, (r, other), {c: bit for c in targets})

