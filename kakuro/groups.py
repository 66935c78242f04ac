"""The groups a puzzle is made of: cells whose values all differ, with a sum (`Group`), of which
Kakuro's runs are the line case (`Run`, found from the clues by `find_runs`), and the sums that
distinct values of a range can reach.

Cell values range over at most 0..MAX_VALUE: the engine keeps a cell's domain as a bitmask in
one 64-bit integer.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from kakuro.errors import InvalidPuzzleError
from kakuro.values import is_integer, position_name, shown

Direction = Literal["across", "down"]
Position = tuple[int, int]
Clue = tuple[int | None, int | None]
"""A clue cell: (down sum or None, across sum or None)."""

MAX_VALUE = 62
"""Largest cell value any puzzle may use: domains are bitmasks in 64-bit integers."""



@dataclass(frozen=True)
class Group:
    """Cells (white-cell indices) whose values all differ and add up to `total`.

    `stated` tells whether the sum is a rule of the puzzle (a Kakuro run's clue, a Killer cage's
    sum) or implied: a Sudoku row, column or box has one cell per value of the range, so its
    values are every value once and their sum is fixed. `name` names the group in messages
    ("row 3", "box 2", "cage at r1c1"; positions as `kakuro.values.position_name` writes them). A cell may be
    in any number of groups.
    """

    cells: tuple[int, ...]
    total: int
    name: str = field(default="group", kw_only=True)
    stated: bool = field(default=True, kw_only=True)

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Run(Group):
    """A Kakuro run, the line case of a group: a maximal line of white cells after a clue,
    `cells` in order. Its `name` is what an explanation calls it: direction, clue, length and
    first cell ("the across 16 in 2 at r2c1")."""

    direction: Direction
    clue: Position
    """Where the clue stands in the grid."""

    def __post_init__(self) -> None:
        r, c = self.clue
        first = (r, c + 1) if self.direction == "across" else (r + 1, c)
        object.__setattr__(self, "name", f"the {self.direction} {self.total} in {len(self.cells)} at {position_name(first)}")


def min_sum(length: int, values: tuple[int, int]) -> int:
    """Smallest sum of `length` distinct values from the range."""
    lo = values[0]
    return length * lo + length * (length - 1) // 2


def max_sum(length: int, values: tuple[int, int]) -> int:
    """Largest sum of `length` distinct values from the range."""
    hi = values[1]
    return length * hi - length * (length - 1) // 2


def find_runs(clues: Mapping[Position, Clue], index: Mapping[Position, int], regions: bool = False) -> tuple[Run, ...]:
    """Kakuro's runs from its clue positions (`index`: the cell number of each white position);
    raises InvalidPuzzleError for a clue whose run is empty, a run without a clue, a white cell
    in no run, or any clue in a puzzle that has `regions` (a Sudoku's, a Killer's)."""
    white = index
    runs: list[Run] = []
    for (r, c), (down, across) in sorted(clues.items()):
        for total, dr, dc, direction in ((across, 0, 1, "across"), (down, 1, 0, "down")):
            if total is None:
                continue
            cells = []
            rr, cc = r + dr, c + dc
            while (rr, cc) in white:
                cells.append(white[(rr, cc)])
                rr, cc = rr + dr, cc + dc
            if not cells:
                raise InvalidPuzzleError(f"the {direction} clue {total} at {position_name((r, c))} has no white cell after it",
                                         cell=(r, c))
            runs.append(Run(tuple(cells), total, direction, (r, c)))  # type: ignore[arg-type]
    if regions:
        if runs:
            raise InvalidPuzzleError("a puzzle with regions (Sudoku, Killer) has no clue cells", cell=runs[0].clue)
        return ()
    covered = [[False, False] for _ in white]  # [across, down]
    for run in runs:
        way = int(run.direction == "down")
        for cell in run.cells:
            covered[cell][way] = True
    if all(across and down for across, down in covered):
        return tuple(runs)  # every cell in a run each way: none of the errors below can arise
    for (r, c), i in white.items():
        for axis, (dr, dc), name in ((0, (0, 1), "across"), (1, (1, 0), "down")):
            if covered[i][axis]:
                continue
            neighbours = ((r - dr, c - dc) in white) or ((r + dr, c + dc) in white)
            if neighbours:
                article = "an" if name == "across" else "a"
                raise InvalidPuzzleError(f"cell {position_name((r, c))} is in {article} {name} run that has no clue",
                                         cell=(r, c))
        if not any(covered[i]):
            raise InvalidPuzzleError(f"cell {position_name((r, c))} belongs to no run", cell=(r, c))
    return tuple(runs)


def check_group(group: Group, values: tuple[int, int], givens: Mapping[int, int], cells: Sequence[Position],
                covered: list[bool]) -> None:
    """The rules of one group of a puzzle over `values` with `givens` (by cell number) and white
    `cells` (positions): as many distinct values as cells exist, its sum reachable (a group
    without a stated sum holds every value once), no given twice; a region's cells are cell
    numbers, each once. Raises InvalidPuzzleError naming the group; marks a region's cells in
    `covered`."""
    lo, hi = values
    width, n = hi - lo + 1, len(group)
    at: Position | None
    if isinstance(group, Run):
        where, at, what = group.name, group.clue, "it has"
    else:
        at = _region_start(group, cells, covered)
        where, what = f"{group.name} (sum {group.total})" if group.stated else group.name, "it has"
    if n > width:
        raise InvalidPuzzleError(f"{where}: {what} {n} cells but only {width} distinct values exist", cell=at)
    smallest, largest = min_sum(n, values), max_sum(n, values)
    if not smallest <= group.total <= largest:
        raise InvalidPuzzleError(f"{where}: {n} distinct values from {lo}..{hi} sum to {smallest}..{largest}", cell=at)
    if not group.stated and (n != width or group.total != smallest):
        raise InvalidPuzzleError(f"{where}: a group without a stated sum must have one cell per value "
                                 f"({width} cells summing to {smallest})", cell=at)
    if not givens:
        return
    seen: set[int] = set()
    for cell in group.cells:
        given = givens.get(cell)
        if given is not None and given in seen:
            raise InvalidPuzzleError(f"{where}: the given {given} appears twice in it", cell=cells[cell])
        if given is not None:
            seen.add(given)


def _region_start(group: Group, cells: Sequence[Position], covered: list[bool]) -> Position:
    """Where `group` (a region) starts; raises for a cell number out of range or repeated.
    Marks its cells in `covered`."""
    if not isinstance(group, Group) or not group.cells:
        raise InvalidPuzzleError(f"a region must be a Group with cells, not {reprlib.repr(group)}")
    seen: set[int] = set()
    for c in group.cells:
        if not is_integer(c) or not 0 <= c < len(cells):
            raise InvalidPuzzleError(f"{group.name}: {reprlib.repr(c)} is not a cell number (0..{len(cells) - 1})")
        if c in seen:
            raise InvalidPuzzleError(f"{group.name}: cell {position_name(cells[c], border=False)} appears twice",
                                     cell=cells[c])
        seen.add(c)
        covered[c] = True
    return cells[group.cells[0]]


def broken_rules(group: Group, values: Sequence[int | None]) -> list[str]:
    """The rules of `group` that its cells' `values` (None: no digit) break, as sentences: a
    value repeated, or, once every cell holds one, a sum that is not the group's."""
    problems = []
    seen: set[int] = set()
    for v in values:
        if v is not None and v in seen:
            problems.append(f"{group.name} repeats {shown(v)}")
            break
        if v is not None:
            seen.add(v)
    if all(v is not None for v in values):
        total = sum(values)  # type: ignore[arg-type]
        if total != group.total:
            rule = "its clue is" if isinstance(group, Run) else "its sum is" if group.stated else "it must sum to"
            problems.append(f"{group.name} sums to {shown(total)}, {rule} {group.total}")
    return problems
