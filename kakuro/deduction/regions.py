"""Level 5, region arithmetic: the "innies and outies" of a closed block of the grid.

A *block* is a connected group of white cells within consecutive rows r1..r2 (connected inside
those rows); it is made of whole across runs, so its cells sum to the sum of those runs' clues.
The down runs that cross it give a second sum:

- outies: the down runs through the block also cover some cells above or below it; those cells
  sum to (the down clues) - (the across clues);
- innies: the down runs lying wholly inside the block cover all but some of its cells; those
  cells sum to (the across clues) - (the down clues inside).

Columns give the same with across and down swapped. When such a sum covers a few open cells,
their candidates must add up to it (distinct digits where two of them share a run): a value
that no such assignment uses goes. Blocks are found once per puzzle (they depend on the layout
and clues only) and kept when their innies or outies are at most MAX_SUM_CELLS cells.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kakuro.combos import values_of
from kakuro.deduction.board import Board, and_list, either
from kakuro.deduction.finding import Finding, removals_from
from kakuro.puzzle import Puzzle

MAX_SUM_CELLS = 6
"""Innies or outies kept per block: sums over more cells rarely decide anything."""
MAX_OPEN = 4
"""Open cells a sum is reasoned about at most (every assignment of their candidates is tried)."""


@dataclass(frozen=True)
class RegionSum:
    """`cells` sum to `total`, because the block `block` (cells) in rows (or columns) `first`
    ..`last` is covered by the runs `outer` one way and `inner` the other; `kind` is "outies"
    or "innies", `lines` "rows" or "columns"."""

    cells: tuple[int, ...]
    total: int
    block: tuple[int, ...]
    lines: str
    first: int
    last: int
    kind: str
    outer: tuple[int, ...]
    inner: tuple[int, ...]


def region_sums(puzzle: Puzzle) -> list[RegionSum]:
    """Every innie and outie sum of the puzzle's blocks of rows and of columns (at most
    MAX_SUM_CELLS cells each, duplicates removed)."""
    seen: set[tuple[tuple[int, ...], int]] = set()
    out = []
    for lines in ("rows", "columns"):
        for first, last, block in _blocks(puzzle, lines):
            for found in _sums_of(puzzle, lines, first, last, block):
                key = (found.cells, found.total)
                if key not in seen:
                    seen.add(key)
                    out.append(found)
    return out


def _blocks(puzzle: Puzzle, lines: str) -> Iterator[tuple[int, int, frozenset[int]]]:
    """(first line, last line, cells) of each connected block of consecutive rows (columns)."""
    axis = 0 if lines == "rows" else 1
    by_line: dict[int, list[int]] = {}
    for c, position in enumerate(puzzle.cells):
        by_line.setdefault(position[axis], []).append(c)
    numbers = sorted(by_line)
    for i, first in enumerate(numbers):
        parent: dict[int, int] = {}
        previous = first - 1
        for last in numbers[i:]:
            if last != previous + 1:
                break
            previous = last
            for c in by_line[last]:
                parent[c] = c
                row, col = puzzle.cells[c]
                for neighbour in ((row - 1, col), (row, col - 1)):  # both added before c, in either direction
                    n = puzzle.index.get(neighbour)
                    if n is not None and n in parent:
                        parent[_root(parent, n)] = _root(parent, c)
            groups: dict[int, set[int]] = {}
            for c in parent:
                groups.setdefault(_root(parent, c), set()).add(c)
            for group in groups.values():
                yield first, last, frozenset(group)


def _root(parent: dict[int, int], x: int) -> int:
    """The representative of `x` in the union-find forest `parent` (paths halved on the way)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _sums_of(puzzle: Puzzle, lines: str, first: int, last: int, block: frozenset[int]) -> list[RegionSum]:
    """The outie and innie sums of one block (none when a cell of it lacks a run either way)."""
    along = "across" if lines == "rows" else "down"
    outer: set[int] = set()
    crossing: set[int] = set()
    for c in block:
        memberships = puzzle.cell_runs[c]
        if len(memberships) != 2:
            return []
        for r in memberships:
            (outer if puzzle.runs[r].direction == along else crossing).add(r)
    block_sum = sum(puzzle.runs[r].total for r in outer)
    sticking_out = sorted({c for r in crossing for c in puzzle.runs[r].cells} - block)
    inside = [r for r in crossing if all(c in block for c in puzzle.runs[r].cells)]
    covered = {c for r in inside for c in puzzle.runs[r].cells}
    sticking_in = sorted(block - covered)
    found = []
    ordered = tuple(sorted(block))
    if 0 < len(sticking_out) <= MAX_SUM_CELLS:
        total = sum(puzzle.runs[r].total for r in crossing) - block_sum
        found.append(RegionSum(tuple(sticking_out), total, ordered, lines, first, last, "outies",
                               tuple(sorted(outer)), tuple(sorted(crossing))))
    if 0 < len(sticking_in) <= MAX_SUM_CELLS and len(sticking_in) < len(block):
        total = block_sum - sum(puzzle.runs[r].total for r in inside)
        found.append(RegionSum(tuple(sticking_in), total, ordered, lines, first, last, "innies",
                               tuple(sorted(outer)), tuple(sorted(inside))))
    return found


def region_arithmetic(board: Board, region: RegionSum) -> Finding | None:
    """The open cells of `region` must add up to what its sum leaves: values no such
    assignment uses go."""
    opens = [c for c in region.cells if board.cands[c] & (board.cands[c] - 1)]
    if not opens or len(opens) > MAX_OPEN:
        return None
    placed = sum(board.cands[c].bit_length() - 1 for c in region.cells if c not in opens)
    left = region.total - placed
    support = _supports(board, opens, left)
    removals = removals_from(board, opens, dict(zip(opens, support)))
    if not removals:
        return None
    return Finding("region-arithmetic", _reason(board, region, opens, left, removals),
                   tuple(sorted(set(region.block) | set(region.cells))), region.outer + region.inner, removals)


def _supports(board: Board, cells: list[int], total: int) -> list[int]:
    """Per cell, the candidates used by some assignment of `cells` summing to `total`, with
    distinct values in cells that share a run."""
    n = len(cells)
    runs = [set(board.cell_runs[c]) for c in cells]
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
