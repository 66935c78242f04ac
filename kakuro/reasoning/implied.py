"""Implied sums: the "innies and outies" of the grid's closed blocks, sums over a few cells
that every solution obeys and no single run states.

A *block* is a connected group of white cells within consecutive rows r1..r2 (connected inside
those rows); it is made of whole across runs, so its cells sum to the sum of those runs' clues.
The down runs that cross it give a second sum:

- outies: the down runs through the block also cover some cells above or below it; those cells
  sum to (the down clues) - (the across clues);
- innies: the down runs lying wholly inside the block cover all but some of its cells; those
  cells sum to (the across clues) - (the down clues inside).

Columns give the same with across and down swapped. `region_sums` finds them (they depend on
the layout and clues only) and keeps those over at most MAX_SUM_CELLS cells. Two users: the
human-technique deduction (`kakuro.deduction.regions`, level 5) and the engine's learning
search, which keeps them at GAC as extra sum constraints (`kakuro.native_solver.implied_sums`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from kakuro.puzzle import Puzzle

MAX_SUM_CELLS = 6
"""Innies or outies kept per block: sums over more cells rarely decide anything (the engine's
search was also measured with 10: fewer conflicts, more work per conflict, a longer tail)."""


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


def region_sums(puzzle: Puzzle, expired: Callable[[], bool] | None = None) -> list[RegionSum]:
    """Every innie and outie sum of the puzzle's blocks of rows and of columns (at most
    MAX_SUM_CELLS cells each, duplicates removed, the first found kept); only those found
    before `expired` (a time limit, asked between blocks) answers True.

    The order is that of a scan of every band of consecutive lines: rows then columns, by first
    line, by last line, blocks by the first cell met (line by line, cells in index order),
    outies before innies. A block the last line does not touch is the block of the band one
    line shorter, whose sums are already in the list: `_blocks` leaves it out. A Sudoku or
    Killer (a puzzle with regions: no clue lines to count along) has none here."""
    if puzzle.regions:
        return []
    seen: set[tuple[tuple[int, ...], int]] = set()
    out: list[RegionSum] = []
    for lines in ("rows", "columns"):
        segments = _segments(puzzle, lines)
        for first, last, group, bottom in _blocks(segments):
            if expired is not None and expired():
                return out
            for kind, total in group.sums():
                cells = _sum_cells(puzzle, segments, lines, first, last, group.top, bottom, kind)
                if (cells, total) not in seen:
                    seen.add((cells, total))
                    out.append(_region_sum(puzzle, segments, lines, first, last, group, kind, cells, total))
    return out


@dataclass(frozen=True)
class _Segment:
    """A maximal line of white cells in one row (column), with what it brings to a block."""

    line: int
    cells: tuple[int, ...]
    beside: tuple[int, ...]
    """The segments of the previous line that share a cell side with this one."""
    broken: bool
    """Some cell lacks a run either way."""
    along: tuple[int, ...]
    """Its runs along the line (one, unless broken)."""
    along_total: int
    crossing: tuple[int, ...]
    """The runs across the line through its cells, in cell order."""
    starting: tuple[int, int]
    """(cells, total) of the crossing runs that start on this line."""
    entering: tuple[int, ...]
    """The crossing runs that started on an earlier line."""
    entering_size: tuple[int, int]
    """(cells, total) of `entering`."""
    leaving: tuple[int, ...]
    """The crossing runs that go on to a later line."""
    ending: tuple[tuple[int, int, int], ...]
    """(first line, cells, total) of each crossing run that ends on this line."""

    @property
    def order(self) -> tuple[int, int]:
        """(line, smallest cell index): where a scan line by line meets it."""
        return self.line, min(self.cells)


class _Group:
    """A block being grown: its segments and the counts and sums of its outies and innies."""

    __slots__ = ("broken", "entering", "innies", "innies_total", "order", "outies", "outies_total", "segments",
                 "size", "top")

    def __init__(self, order: tuple[int, int]) -> None:
        self.order = order
        """Where a scan line by line, cells in index order, first meets the block."""
        self.segments: list[int] = []
        self.top: list[int] = []
        """Its segments on the first line."""
        self.entering = 0
        """Crossing runs coming into its first-line segments from before the band: both its outies
        and its innies have at least one cell of each, however far the band goes on."""
        self.size = 0
        self.broken = False
        self.outies = 0
        """Cells of the crossing runs outside the band: the outies."""
        self.innies = 0
        """Cells outside the crossing runs that lie wholly in the band: the innies."""
        self.outies_total = 0
        self.innies_total = 0

    def add(self, segment: _Segment, index: int, first: int) -> None:
        """Add segment `index` of the band that starts on line `first`, on the block's last line
        (it does not come before the block in scan order)."""
        crossing, crossing_total = segment.starting
        if segment.line == first:
            crossing += segment.entering_size[0]
            crossing_total += segment.entering_size[1]
            self.top.append(index)
            self.entering += len(segment.entering)
        inside = inside_total = 0
        for start, length, total in segment.ending:
            if start >= first:
                inside += length
                inside_total += total
        size = len(segment.cells)
        self.segments.append(index)
        self.size += size
        self.broken = self.broken or segment.broken
        self.outies += crossing - size
        self.innies += size - inside
        self.outies_total += crossing_total - segment.along_total
        self.innies_total += segment.along_total - inside_total

    def absorb(self, other: _Group) -> None:
        """Merge `other` into this group."""
        self.order = min(self.order, other.order)
        self.segments += other.segments
        self.top += other.top
        self.entering += other.entering
        self.size += other.size
        self.broken = self.broken or other.broken
        self.outies += other.outies
        self.innies += other.innies
        self.outies_total += other.outies_total
        self.innies_total += other.innies_total

    def spent(self) -> bool:
        """No band longer than this one gives the grown block a sum."""
        return self.broken or self.entering > MAX_SUM_CELLS

    def sums(self) -> list[tuple[str, int]]:
        """(kind, total) of the sums kept: outies then innies, of 1 to MAX_SUM_CELLS cells (the
        innies not all of the block), none when a cell lacks a run either way."""
        if self.broken:
            return []
        found = []
        if 0 < self.outies <= MAX_SUM_CELLS:
            found.append(("outies", self.outies_total))
        if 0 < self.innies <= MAX_SUM_CELLS and self.innies < self.size:
            found.append(("innies", self.innies_total))
        return found


def _blocks(segments: list[_Segment]) -> Iterator[tuple[int, int, _Group, list[int]]]:
    """(first line, last line, block, its segments on the last line) for the bands of consecutive
    lines and the blocks whose sums may be new there, in scan order. The group is updated in
    place as the band grows: use it before the next one.

    Left out: a block the last line does not touch (the block of the band one line shorter), and,
    when the line before `first` has cells too, a block without cells on line `first` (the same
    block, with the same sums, as in the band from that line on). So such a band stops once
    every block holding cells of line `first` is spent or closed (the last line does not touch
    it, so no later line can)."""
    by_line: dict[int, list[int]] = {}
    for s, segment in enumerate(segments):
        by_line.setdefault(segment.line, []).append(s)
    numbers = sorted(by_line)
    for i, first in enumerate(numbers):
        continued = i > 0 and numbers[i - 1] == first - 1
        parent: dict[int, int] = {}
        groups: dict[int, _Group] = {}
        previous = first - 1
        for last in numbers[i:]:
            if last != previous + 1:
                break
            previous = last
            bottoms: dict[int, list[int]] = {}
            for s in by_line[last]:
                segment = segments[s]
                roots = {_root(parent, n) for n in segment.beside if n in parent}  # none on line `first`
                if roots:
                    root = max(roots, key=lambda r: len(groups[r].segments))
                    for other in roots - {root}:
                        parent[other] = root
                        groups[root].absorb(groups.pop(other))
                        bottoms[root] = bottoms.pop(other, []) + bottoms.get(root, [])
                else:
                    root = s
                    groups[s] = _Group(segment.order)
                parent[s] = root
                groups[root].add(segment, s, first)
                bottoms.setdefault(root, []).append(s)
            for root in sorted(bottoms, key=lambda r: groups[r].order):
                if groups[root].top or not continued:
                    yield first, last, groups[root], bottoms[root]
            if continued:
                tops = {_root(parent, t) for t in by_line[first]}
                if all(r not in bottoms or groups[r].spent() for r in tops):
                    break


def _root(parent: dict[int, int], x: int) -> int:
    """The representative of `x` in the union-find forest `parent` (paths halved on the way)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _segments(puzzle: Puzzle, lines: str) -> list[_Segment]:
    """The segments of every row (column), line by line."""
    axis = 0 if lines == "rows" else 1
    along = "across" if lines == "rows" else "down"
    runs = puzzle.groups
    by_line: dict[int, list[int]] = {}
    for c, position in enumerate(puzzle.cells):
        by_line.setdefault(position[axis], []).append(c)
    segment_of: dict[int, int] = {}
    segments: list[_Segment] = []
    for line in sorted(by_line):
        pieces: list[list[int]] = []
        for c in sorted(by_line[line], key=lambda c: puzzle.cells[c][1 - axis]):
            if pieces and puzzle.cells[pieces[-1][-1]][1 - axis] + 1 == puzzle.cells[c][1 - axis]:
                pieces[-1].append(c)
            else:
                pieces.append([c])
        for piece in pieces:
            beside: dict[int, None] = {}
            along_runs: dict[int, None] = {}
            crossing: list[int] = []
            entering: list[int] = []
            leaving: list[int] = []
            starting = [0, 0]
            ending: list[tuple[int, int, int]] = []
            for c in piece:
                row, col = puzzle.cells[c]
                n = puzzle.index.get((row - 1, col) if axis == 0 else (row, col - 1))
                if n is not None:
                    beside[segment_of[n]] = None
                for r in puzzle.cell_groups[c]:
                    run = puzzle.run(r)
                    if run.direction == along:
                        along_runs[r] = None
                        continue
                    crossing.append(r)
                    start, end = puzzle.cells[run.cells[0]][axis], puzzle.cells[run.cells[-1]][axis]
                    if start == line:
                        starting[0] += len(run.cells)
                        starting[1] += run.total
                    else:
                        entering.append(r)
                    if end == line:
                        ending.append((start, len(run.cells), run.total))
                    else:
                        leaving.append(r)
            for c in piece:
                segment_of[c] = len(segments)
            segments.append(_Segment(
                line, tuple(piece), tuple(beside),
                any(len(puzzle.cell_groups[c]) != 2 for c in piece),
                tuple(along_runs), sum(runs[r].total for r in along_runs),
                tuple(crossing), (starting[0], starting[1]),
                tuple(entering), (sum(len(runs[r].cells) for r in entering), sum(runs[r].total for r in entering)),
                tuple(leaving), tuple(ending)))
    return segments


def _sum_cells(puzzle: Puzzle, segments: list[_Segment], lines: str, first: int, last: int,
               top: list[int], bottom: list[int], kind: str) -> tuple[int, ...]:
    """The cells of a block's outies (innies), from its segments on the first line (`top`) and
    on the last (`bottom`): the crossing runs that come in from before the band or go on
    after it have the outies outside the band and the innies inside it."""
    axis = 0 if lines == "rows" else 1
    sticking = {r for s in top for r in segments[s].entering} | {r for s in bottom for r in segments[s].leaving}
    outside = kind == "outies"
    return tuple(sorted(c for r in sticking for c in puzzle.groups[r].cells
                        if (not first <= puzzle.cells[c][axis] <= last) == outside))


def _region_sum(puzzle: Puzzle, segments: list[_Segment], lines: str, first: int, last: int, group: _Group,
                kind: str, cells: tuple[int, ...], total: int) -> RegionSum:
    """The RegionSum of a block's outies (innies) `cells`, which sum to `total`."""
    axis = 0 if lines == "rows" else 1
    block = tuple(sorted(c for s in group.segments for c in segments[s].cells))
    outer = tuple(sorted(r for s in group.segments for r in segments[s].along))
    crossing = sorted({r for s in group.segments for r in segments[s].crossing})
    if kind == "innies":
        crossing = [r for r in crossing if puzzle.cells[puzzle.groups[r].cells[0]][axis] >= first
                    and puzzle.cells[puzzle.groups[r].cells[-1]][axis] <= last]
    return RegionSum(cells, total, block, lines, first, last, kind, outer, tuple(crossing))
