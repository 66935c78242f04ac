"""The last resorts, on the native engine: `contradiction` (level 6: one value assumed, exact
reasoning on every run until a run cannot reach its sum) and `search` (level 7: a search
decides a cell when nothing else does).

`contradiction` asks the engine for every value whose assumption propagates to a wipe-out
(`kakuro.native.refutations`) and takes the one whose wipe-out comes soonest
(fewest domain changes first), then replays that one chain in Python to say what happens.
The engine is imported when one of them is first needed (most puzzles never need it), so
`import kakuro` stays free of numba.
"""

from __future__ import annotations

from collections import deque

from kakuro.clock import Deadline
from kakuro.combos import feasible_values
from kakuro.deduction.board import Board, and_list, is_single, single_value
from kakuro.deduction.finding import Finding
from kakuro.deduction.names import groups_word
from kakuro.deduction.trace import Placement
from kakuro.puzzle import Puzzle

SHOWN_PLACEMENTS = 6
"""A contradiction's sentence names at most this many of the cells its chain places."""


def contradiction(board: Board, deadline: Deadline = Deadline()) -> Finding | None:
    """A value whose assumption, with exact reasoning on every run, leaves some run unable to
    reach its sum: that value is removed. None too when `deadline` passes first (the caller
    tells the two apart by the deadline)."""
    from kakuro.native.refutations import refutations

    refuted = refutations(board.puzzle, board.cands, deadline)
    if not refuted or deadline.expired():  # None: inconsistent already, which the run techniques show
        return None
    cell, value, _ = min(refuted, key=lambda f: (f[2], board.cands[f[0]].bit_count(), f[0], f[1]))
    placed, failed = _chain(board, cell, value)
    name = board.cell_name(cell)
    then = ""
    if placed:
        shown = and_list([f"{board.cell_name(c)} = {v}" for c, v in placed[:SHOWN_PLACEMENTS]])
        if len(placed) > SHOWN_PLACEMENTS:
            shown += f" (and {len(placed) - SHOWN_PLACEMENTS} more)"
        then = f"place {shown}, and "
    groups = tuple(dict.fromkeys((*board.cell_groups[cell], *((failed,) if failed is not None else ()))))
    if failed is None:
        ending = "wipe out a run"
    elif board.stated(failed):
        ending = f"leave {board.group_name(failed)} with no way to reach its sum"
    else:
        ending = f"leave {board.group_name(failed)} unable to hold every digit once"
    reason = (f"if {name} were {value}, exact reasoning on each {groups_word(board.puzzle)} would {then}{ending}, "
              f"so {name} is not {value}")
    looked = (cell, *(c for c, _ in placed), *(board.group_cells[failed] if failed is not None else ()))
    return Finding("contradiction", reason, tuple(dict.fromkeys(looked)), groups, {cell: 1 << value},
                   assumption=Placement(cell, value))


def _chain(board: Board, cell: int, value: int) -> tuple[list[tuple[int, int]], int | None]:
    """Assume `cell` = `value` and revise groups exactly (`feasible_values`) from a queue: the
    cells placed on the way, in order, and the run found unable to reach its sum (None if
    none is, which the engine's answer rules out)."""
    cands = list(board.cands)
    cands[cell] = 1 << value
    queue = deque(board.cell_groups[cell])
    queued = set(queue)
    placed: list[tuple[int, int]] = []
    while queue:
        r = queue.popleft()
        queued.discard(r)
        cells = board.group_cells[r]
        support = feasible_values(board.totals[r], [cands[c] for c in cells], board.puzzle.values)
        if not any(support):
            return placed, r
        for c, s in zip(cells, support):
            if s == cands[c]:
                continue
            if is_single(s) and c != cell:
                placed.append((c, single_value(s)))
            cands[c] = s
            for other in board.cell_groups[c]:
                if other != r and other not in queued:
                    queue.append(other)
                    queued.add(other)
    return placed, None


def search(board: Board, deadline: Deadline = Deadline()) -> Finding | None:
    """A search from the current candidates: with solutions that differ, a value of the
    first cell (fewest candidates) where they differ is chosen; with one solution, the value
    it gives that cell; with none, the cell is emptied (no solution exists). None when
    `deadline` passes first."""
    opens = sorted((c for c, d in enumerate(board.cands) if d & (d - 1)), key=lambda c: (board.cands[c].bit_count(), c))
    if not opens:
        return None
    found = solutions(board.puzzle, board.cands, 2, deadline)
    if deadline.expired():
        return None
    if not found:
        c = opens[0]
        reason = (f"no technique applies, and a search through the candidates finds no solution at all, "
                  f"whatever {board.cell_name(c)} holds")
        return Finding("search", reason, (c,), tuple(board.cell_groups[c]), {c: board.cands[c]})
    first = found[0]
    if len(found) == 1:
        c = opens[0]
        v = int(first[c])
        reason = (f"no technique applies; a search shows that only {board.cell_name(c)} = {v} leads to a "
                  "solution (the puzzle has one, but it takes more than one assumption at a time)")
    else:
        second = found[1]
        c = next(x for x in opens if first[x] != second[x])
        v, w = int(first[c]), int(second[c])
        reason = (f"no technique applies, and the puzzle has more than one solution from here: "
                  f"{board.cell_name(c)} is {v} in one and {w} in another; {v} is chosen")
    return Finding("search", reason, (c,), tuple(board.cell_groups[c]), {c: board.cands[c] & ~(1 << v)},
                   assumption=Placement(c, v), chosen=len(found) > 1)


def solutions(puzzle: Puzzle, candidates: list[int], limit: int, deadline: Deadline = Deadline()) -> list[list[int]]:
    """Up to `limit` solutions of `puzzle` within `candidates` (bitmasks, cell order), by the
    engine's search maintaining GAC, which stops at `deadline` (the list is then not final:
    callers look at the deadline)."""
    from kakuro.limits import Limits
    from kakuro.native.kernels import warm
    from kakuro.native.settings import Strength, depth_first_kernel, root_kernel
    from kakuro.native_solver import enumerate_solutions

    warm(root_kernel(Strength.GAC), depth_first_kernel(Strength.GAC))
    found = enumerate_solutions(puzzle, Strength.GAC, limit, Limits(deadline), 0, (), domains=candidates).solutions
    return [[int(v) for v in solution] for solution in found]
