"""Level 5, region arithmetic: the "innies and outies" of a closed block of the grid
(`kakuro.reasoning.implied.region_sums`, which says what they are). When such a sum covers a few open
cells, their candidates must add up to it (distinct digits where two of them share a run): a
value that no such assignment uses goes.
"""

from __future__ import annotations

from collections.abc import Sequence

from kakuro.combos import values_of
from kakuro.deduction.board import Board, and_list, either
from kakuro.deduction.finding import Finding, removals_from
from kakuro.reasoning.implied import RegionSum

MAX_OPEN = 4
"""Open cells a sum is reasoned about at most (every assignment of their candidates is tried)."""


def region_arithmetic(board: Board, region: RegionSum) -> Finding | None:
    """The open cells of `region` must add up to what its sum leaves: values no such
    assignment uses go."""
    found = sum_removals(board, region.cells, region.total)
    if found is None:
        return None
    opens, left, removals = found
    return Finding("region-arithmetic", _reason(board, region, opens, left, removals),
                   tuple(sorted(set(region.block) | set(region.cells))), region.outer + region.inner, removals)


def sum_removals(board: Board, cells: Sequence[int], total: int) -> tuple[list[int], int, dict[int, int]] | None:
    """(the open cells of `cells`, what they must add up to once the placed ones are taken from
    `total`, the values no such assignment uses), or None when there are none to remove or more
    than MAX_OPEN open cells."""
    opens = [c for c in cells if board.cands[c] & (board.cands[c] - 1)]
    if not opens or len(opens) > MAX_OPEN:
        return None
    left = total - sum(board.cands[c].bit_length() - 1 for c in cells if c not in opens)
    removals = removals_from(board, opens, dict(zip(opens, sum_supports(board, opens, left))))
    return (opens, left, removals) if removals else None


def sum_supports(board: Board, cells: list[int], total: int) -> list[int]:
    """Per cell, the candidates used by some assignment of `cells` summing to `total`, with
    distinct values in cells that share a run."""
    n = len(cells)
    runs = [set(board.cell_groups[c]) for c in cells]
    clashes = [[j for j in range(i) if runs[i] & runs[j]] for i in range(n)]
    options = [values_of(board.cands[c]) for c in cells]
    lows = [min(o) for o in options]
    highs = [max(o) for o in options]
    support = [0] * n
    chosen = [0] * n

    def extend(i: int, left: int) -> None:
        if i == n:
            if left == 0:
                for j in range(n):
                    support[j] |= 1 << chosen[j]
            return
        rest_low, rest_high = sum(lows[i + 1:]), sum(highs[i + 1:])
        for v in options[i]:
            if any(chosen[j] == v for j in clashes[i]):
                continue
            if rest_low <= left - v <= rest_high:
                chosen[i] = v
                extend(i + 1, left - v)

    extend(0, total)
    return support


def _reason(board: Board, region: RegionSum, opens: list[int], left: int, removals: dict[int, int]) -> str:
    lines = region.lines[:-1] if region.first == region.last else region.lines
    span = f"{region.first}" if region.first == region.last else f"{region.first}-{region.last}"
    along = "across" if region.lines == "rows" else "down"
    other = "down" if along == "across" else "across"
    outer = sum(board.totals[r] for r in region.outer)
    inner = sum(board.totals[r] for r in region.inner)
    start = board.cell_name(region.block[0])
    where = f"the block of {len(region.block)} cells in {lines} {span} from {start}"
    if region.kind == "outies":
        head = (f"{where} is summed by its {along} clues ({outer}) and by the {other} runs through it "
                f"({inner}), so the cells those runs have outside it, {board.cells_name(region.cells)}, sum to "
                f"{inner} - {outer} = {region.total}")
    else:
        head = (f"{where} is summed by its {along} clues ({outer}), and the {other} runs inside it sum to "
                f"{inner}, so its cells outside those runs, {board.cells_name(region.cells)}, sum to "
                f"{outer} - {inner} = {region.total}")
    if len(opens) < len(region.cells):
        head += f"; the open ones, {board.cells_name(opens)}, to {left}"
    clauses = [f"{board.cell_name(c)} cannot be {either(m)}" for c, m in sorted(removals.items())]
    return head + ": " + and_list(clauses)
