"""Level 5 for a Killer, the rule of 45: a block of whole rows, whole columns or one box (any
other group that holds every value once too: an X's diagonal) holds every value once per row
(column, box), 45 each in a 9x9; the cages inside it and the cages across its edge say what the
few cells left over add up to.

- innies: the cells of the block outside the cages that lie wholly inside it sum to the block's
  total minus those cages' sums;
- outies: the cells that the cages meeting the block have outside it sum to those cages' sums
  minus the block's total (only when every cell of the block is in a cage).

`cage_sums` lists these sums once for a puzzle (they depend on its cages only);
`rule_of_45` reasons about one of them as Kakuro's region arithmetic does (the candidates of its
open cells must add up to what is left, `kakuro.deduction.regions.sum_supports`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kakuro.deduction.board import Board, and_list, either
from kakuro.deduction.finding import Finding
from kakuro.deduction.names import group_name
from kakuro.deduction.regions import sum_removals
from kakuro.puzzle import Puzzle

MAX_SUM_CELLS = 6
"""Most cells an innie or outie sum may have (the deduction reasons about at most MAX_OPEN open ones)."""


@dataclass(frozen=True)
class CageSum:
    """`cells` sum to `total`: the block `block` (cells) of `lines` (e.g. "rows 1-3", "box 5"),
    which holds `houses` x the sum of every value, against `cages` (group indices) whose sums add
    up to `cage_total`; `kind` is "innies" or "outies"."""

    cells: tuple[int, ...]
    total: int
    block: tuple[int, ...]
    lines: str
    houses: int
    kind: str
    cages: tuple[int, ...]
    cage_total: int


def cage_sums(puzzle: Puzzle, expired: Callable[[], bool] | None = None) -> list[CageSum]:
    """Every innie and outie sum of `puzzle`'s blocks (bands of consecutive rows, of consecutive
    columns, and single boxes) with 1..MAX_SUM_CELLS cells, each (cells, total) once, in that
    order; none for a puzzle without cages. Stops early when `expired()` answers True."""
    if not puzzle.cages:
        return []
    cages = [r for r, group in enumerate(puzzle.groups) if group.stated]
    owner = {c: r for r in cages for c in puzzle.groups[r].cells}
    out: list[CageSum] = []
    seen: set[tuple[tuple[int, ...], int]] = set()
    for lines, block, houses in _blocks(puzzle):
        if expired is not None and expired():
            break
        for found in _sums_of(puzzle, lines, block, houses, owner):
            key = (found.cells, found.total)
            if key not in seen:
                seen.add(key)
                out.append(found)
    return out


def _blocks(puzzle: Puzzle) -> list[tuple[str, frozenset[int], int]]:
    """(words, cells, houses) of every band of consecutive rows, of consecutive columns, and of
    every other group that holds every value once (a box, a diagonal)."""
    n = puzzle.rows
    out = []
    for axis, word in ((0, "row"), (1, "column")):
        for first in range(n):
            for last in range(first, n):
                lines = f"{word} {first + 1}" if first == last else f"{word}s {first + 1}-{last + 1}"
                cells = frozenset(i for i, pos in enumerate(puzzle.cells) if first <= pos[axis] <= last)
                out.append((lines, cells, last - first + 1))
    for r, group in enumerate(puzzle.groups):
        if not group.stated and len({puzzle.cells[c][0] for c in group.cells}) > 1 \
                and len({puzzle.cells[c][1] for c in group.cells}) > 1:
            out.append((group_name(puzzle, r), frozenset(group.cells), 1))
    return out


def _sums_of(puzzle: Puzzle, lines: str, block: frozenset[int], houses: int, owner: dict[int, int]) -> list[CageSum]:
    total = houses * sum(range(puzzle.values[0], puzzle.values[1] + 1))
    met = sorted({owner[c] for c in block if c in owner})
    inside = [r for r in met if all(c in block for c in puzzle.groups[r].cells)]
    across = [r for r in met if r not in inside]
    inside_total = sum(puzzle.groups[r].total for r in inside)
    covered = {c for r in inside for c in puzzle.groups[r].cells}
    ordered = tuple(sorted(block))
    out = []
    innies = tuple(c for c in ordered if c not in covered)
    if 1 <= len(innies) <= MAX_SUM_CELLS:
        out.append(CageSum(innies, total - inside_total, ordered, lines, houses, "innies", tuple(inside), inside_total))
    if across and all(c in owner for c in block):
        outies = tuple(sorted(c for r in across for c in puzzle.groups[r].cells if c not in block))
        met_total = sum(puzzle.groups[r].total for r in met)
        if 1 <= len(outies) <= MAX_SUM_CELLS:
            out.append(CageSum(outies, met_total - total, ordered, lines, houses, "outies", tuple(met), met_total))
    return out


def rule_of_45(board: Board, region: CageSum) -> Finding | None:
    """The open cells of `region` must add up to what its sum leaves: values no such
    assignment uses go."""
    found = sum_removals(board, region.cells, region.total)
    if found is None:
        return None
    opens, left, removals = found
    looked = tuple(sorted(set(region.block) | set(region.cells)))
    return Finding("region-arithmetic", _reason(board, region, opens, left, removals), looked, region.cages, removals)


def _reason(board: Board, region: CageSum, opens: list[int], left: int, removals: dict[int, int]) -> str:
    lo, hi = board.puzzle.values
    each = sum(range(lo, hi + 1))
    block_total = region.houses * each
    holds = f"{region.lines} hold{'s' if region.houses == 1 else ''} "
    holds += f"{each}" if region.houses == 1 else f"{region.houses} x {each} = {block_total}"
    cells = board.cells_name(region.cells)
    if region.kind == "innies":
        head = (f"{holds}, and the cages inside {'it' if region.houses == 1 else 'them'} sum to {region.cage_total}, "
                f"so its cells outside those cages, {cells}, sum to {block_total} - {region.cage_total} = {region.total} "
                "(innies)")
    else:
        head = (f"the cages that reach into {region.lines} sum to {region.cage_total}, and {holds}, so the cells "
                f"those cages have outside it, {cells}, sum to {region.cage_total} - {block_total} = {region.total} "
                "(outies)")
    if len(opens) < len(region.cells):
        head += f"; the open ones, {board.cells_name(opens)}, to {left}"
    clauses = [f"{board.cell_name(c)} cannot be {either(m)}" for c, m in sorted(removals.items())]
    return head + ": " + and_list(clauses)

