"""The one shared puzzle representation, `Puzzle`, and its checker (a `Solution` is in
`kakuro.solution`, the rules of a well-formed puzzle in `kakuro.wellformed`).

A puzzle is white cells with values `lo..hi` (1..9 by default), givens, and groups of cells
whose values all differ, with a sum (`kakuro.groups`). A Kakuro is a grid of `rows` x `cols`
positions, each black, a clue (a down sum for the white run directly below it and/or an across
sum for the run to its right) or white; its groups are the runs. Cazenave's all-white grids have
a clue row on top and a clue column on the left (`Puzzle.all_white`). A Sudoku's groups are its
rows, columns and boxes (a Jigsaw's irregular regions instead of boxes), Sudoku X adds its two
diagonals, a Killer its cages (`kakuro.regions`). White cells are numbered
`0..n-1` in row-major order. `Puzzle.check` is the one oracle every test and the harness use.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, cast

from kakuro.errors import InvalidPuzzleError
from kakuro.groups import MAX_VALUE, Clue, Direction, Group, Position, Run, broken_rules, find_runs, max_sum, min_sum
from kakuro.regions import (
    diagonal_groups,
    jigsaw_regions,
    killer_cages,
    line_groups,
    sudoku_box,
    sudoku_grid,
    sudoku_groups,
)
from kakuro.solution import Solution
from kakuro.values import is_digit, is_integer, position_name, shown
from kakuro.wellformed import BLACK, MAX_SIDE, ZERO_GIVEN, GridCell, grid_cell_kind, validate

__all__ = ["KINDS", "MAX_VALUE", "Clue", "Direction", "Group", "Kind", "Position", "Run", "is_digit", "max_sum", "min_sum",
           "Puzzle", "shown"]


DEFAULT_VALUES = (1, 9)


Kind = Literal["kakuro", "sudoku", "killer", "jigsaw", "sudoku-x", "killer-x", "jigsaw-x"]
"""Which member of the family a puzzle is (`Puzzle.kind`); "-x" adds Sudoku X's diagonals."""
KINDS: tuple[Kind, ...] = ("kakuro", "sudoku", "killer", "jigsaw", "sudoku-x", "killer-x", "jigsaw-x")
"""Every kind, Kakuro first."""


@dataclass(frozen=True, eq=False)
class Puzzle:
    """An immutable puzzle: a Kakuro (build it with `from_grid` or `all_white`) or a member of
    the Sudoku family (`sudoku`, `jigsaw`, `killer`); every constructor validates.

    Attributes: `rows`, `cols` (the grid including clue positions), `cells` (white-cell
    positions, index = cell number), `clues` (position -> (down, across)), `groups` (every
    group; `runs` are Kakuro's), `givens` (cell -> digit), `values` ((lo, hi)), `id` and
    `meta` (free-form provenance).
    """

    rows: int
    cols: int
    cells: tuple[Position, ...]
    clues: Mapping[Position, Clue]
    givens: Mapping[int, int]
    values: tuple[int, int] = DEFAULT_VALUES
    id: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    regions: tuple[Group, ...] = ()
    """The groups that are not Kakuro runs (empty for Kakuro), in this order: the rows, the
    columns, the boxes (a Jigsaw's regions), Sudoku X's two diagonals, a Killer's cages
    (`kakuro.regions`). A puzzle with regions has no clue cells."""
    box: tuple[int, int] | None = None
    """A Sudoku's box shape (rows, cols); None for Kakuro and for a Jigsaw (its regions)."""
    diagonals: bool = False
    """True for Sudoku X (and Killer X, Jigsaw X): both main diagonals hold every value once."""
    groups: tuple[Group, ...] = field(init=False)
    """Every group the backends read, each with its cells and total: the Kakuro runs (`Run`,
    from the clues) and then the `regions`."""
    index: Mapping[Position, int] = field(init=False)
    """Cell number of each white position."""
    cell_groups: tuple[tuple[int, ...], ...] = field(init=False)
    """For each cell, the indices in `groups` of the groups it belongs to (at most two for
    Kakuro, three for Sudoku, four for Killer)."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "cells", tuple(tuple(p) for p in self.cells))
        set_(self, "clues", MappingProxyType({tuple(p): tuple(c) for p, c in self.clues.items()}))
        set_(self, "givens", MappingProxyType(dict(sorted(self.givens.items()))))
        set_(self, "values", tuple(self.values))
        set_(self, "meta", MappingProxyType(dict(self.meta)))
        index = {p: i for i, p in enumerate(self.cells)}
        set_(self, "index", MappingProxyType(index))
        set_(self, "regions", tuple(self.regions))
        set_(self, "box", None if self.box is None else tuple(self.box))
        groups = find_runs(self.clues, index, bool(self.regions)) + self.regions
        set_(self, "groups", groups)
        memberships: list[list[int]] = [[] for _ in self.cells]
        for g, group in enumerate(groups):
            for c in group.cells:
                memberships[c].append(g)
        set_(self, "cell_groups", tuple(tuple(m) for m in memberships))
        validate(self)

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_grid(
        cls,
        grid: Sequence[Sequence[GridCell]],
        *,
        values: tuple[int, int] = DEFAULT_VALUES,
        id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """Build a puzzle from the JSON-lines layout: rows of "#", [down, across], 0 or a digit.

        Raises `InvalidPuzzleError` naming the position of the first problem.
        """
        if not isinstance(grid, Sequence) or isinstance(grid, (str, bytes)) or not grid:
            raise InvalidPuzzleError("the grid must be a non-empty list of rows")
        rows = len(grid)
        first = grid[0]
        if not isinstance(first, Sequence) or isinstance(first, (str, bytes)) or not first:
            raise InvalidPuzzleError("the grid's first row must be a non-empty list of cells")
        cols = len(first)
        if rows > MAX_SIDE or cols > MAX_SIDE:
            raise InvalidPuzzleError(f"a {rows}x{cols} grid is larger than {MAX_SIDE}x{MAX_SIDE}")
        cells: list[Position] = []
        clues: dict[Position, Clue] = {}
        givens: dict[int, int] = {}
        for r, row in enumerate(grid):
            if not isinstance(row, Sequence) or isinstance(row, (str, bytes)):
                raise InvalidPuzzleError(f"row {r} (the clue row is row 0) is not a list of cells")
            if len(row) != cols:
                raise InvalidPuzzleError(f"row {r} has {len(row)} cells, the first (clue) row {cols}")
            for c, item in enumerate(row):
                kind = grid_cell_kind(item, (r, c))
                if kind == "white":
                    if item:
                        givens[len(cells)] = int(item)  # type: ignore[arg-type]
                    cells.append((r, c))
                elif kind == "clue":
                    down, across = cast(Clue, item)  # a [down, across] pair: grid_cell_kind checked it
                    clues[(r, c)] = (down, across)
        return cls(rows, cols, tuple(cells), clues, givens, tuple(values), id, meta or {})  # type: ignore[arg-type]

    @classmethod
    def all_white(
        cls,
        row_sums: Sequence[int],
        col_sums: Sequence[int],
        *,
        values: tuple[int, int],
        givens: Mapping[Position, int] | None = None,
        id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """Cazenave's all-white grid: every row and column of the n x m interior is one run.

        `givens` maps interior (row, col), 0-based, to a digit. The grid gets a clue row on top
        and a clue column on the left, so interior (i, j) is grid position (i + 1, j + 1).
        """
        n, m = len(row_sums), len(col_sums)
        if n == 0 or m == 0:
            raise InvalidPuzzleError("an all-white grid needs at least one row and one column")
        grid: list[list[GridCell]] = [[BLACK] + [[s, None] for s in col_sums]]
        for s in row_sums:
            grid.append([[None, s]] + [0] * m)
        for (i, j), digit in (givens or {}).items():
            if not (0 <= i < n and 0 <= j < m):
                raise InvalidPuzzleError(f"given at ({i}, {j}) lies outside the {n}x{m} grid")
            if digit == 0:
                raise InvalidPuzzleError(f"given at ({i}, {j}): {ZERO_GIVEN}")
            grid[i + 1][j + 1] = digit
        return cls.from_grid(grid, values=values, id=id, meta=meta)

    @classmethod
    def sudoku(
        cls,
        grid: Sequence[Sequence[int]],
        box: tuple[int, int] | None = None,
        *,
        diagonals: bool = False,
        id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """An n x n Sudoku: `grid` rows of ints, 0 for an empty cell, digits 1..n; rows,
        columns and boxes hold every digit once. `box` is the box shape (rows, cols), default
        square (a 9x9 grid has 3x3 boxes); a 6x6 grid needs e.g. `box=(2, 3)`. `diagonals`
        makes it a Sudoku X: both main diagonals hold every digit once too. Raises
        InvalidPuzzleError for a grid that is not square, boxes that do not tile it, a digit
        out of range or repeated in a group."""
        return cls._sudoku_family(grid, box, [], id, meta, diagonals=diagonals)

    @classmethod
    def jigsaw(
        cls,
        givens: Sequence[Sequence[int]],
        regions: Sequence[Sequence[Position]],
        *,
        diagonals: bool = False,
        id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """An n x n Jigsaw Sudoku: `givens` rows as for `sudoku`; `regions` n lists of n cells
        (row, col), 0-based, that tile the grid, each holding every digit once (in place of
        boxes; a region need not be connected). `diagonals` makes it a Jigsaw X. Raises
        InvalidPuzzleError naming the region and the cell (r1c1, counted from 1) when the
        regions overlap, miss a cell, leave the grid or have the wrong size."""
        return cls._sudoku_family(givens, None, [], id, meta, regions=regions, diagonals=diagonals)

    @classmethod
    def killer(
        cls,
        cages: Sequence[tuple[int, Sequence[Position]]],
        size: int = 9,
        givens: Sequence[Sequence[int]] | None = None,
        *,
        box: tuple[int, int] | None = None,
        diagonals: bool = False,
        id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Puzzle:
        """A Killer Sudoku of `size` x `size`: a Sudoku (`givens` rows as for `sudoku`, default
        all empty) plus `cages`, each `(total, [(row, col), ...])` (0-based): a cage's digits
        differ and add up to its total; `diagonals` makes it a Killer X. Raises
        InvalidPuzzleError for a cell outside the grid, a cell in two cages, or a total no
        distinct digits of that many cells can reach."""
        if not is_integer(size) or not 1 <= size <= MAX_VALUE:
            raise InvalidPuzzleError(f"a Killer Sudoku's size must be an integer 1..{MAX_VALUE}, not {size!r}")
        grid = givens if givens is not None else [[0] * size for _ in range(size)]
        if len(grid) != size:
            raise InvalidPuzzleError(f"the givens have {len(grid)} rows, the puzzle's size is {size}")
        if not cages:
            raise InvalidPuzzleError("a Killer Sudoku needs at least one cage (without cages use Puzzle.sudoku)")
        return cls._sudoku_family(grid, box, cages, id, meta, diagonals=diagonals)

    @classmethod
    def _sudoku_family(cls, grid: Any, box: Any, cage_list: Any, id: str | None, meta: Mapping[str, Any] | None, *,
                       regions: Any = None, diagonals: Any = False) -> Puzzle:
        """The family puzzle of `grid` with boxes of shape `box` or, given, Jigsaw `regions`."""
        if not isinstance(diagonals, bool):
            raise InvalidPuzzleError(f"diagonals must be True or False, not {reprlib.repr(diagonals)}")
        n, givens = sudoku_grid(grid)
        shape = sudoku_box(n, box) if regions is None else None
        groups = sudoku_groups(n, shape) if shape is not None else line_groups(n) + jigsaw_regions(regions, n)
        groups += (diagonal_groups(n) if diagonals else []) + killer_cages(cage_list, n)
        cells = tuple((r, c) for r in range(n) for c in range(n))
        return cls(n, n, cells, {}, givens, (1, n), id, meta or {}, tuple(groups), shape, diagonals)

    # ----------------------------------------------------------------- views
    @property
    def size(self) -> int:
        """Number of white cells."""
        return len(self.cells)

    def position_name(self, position: Position) -> str:
        """"r3c4": a grid position as a player names it (`kakuro.values.position_name`)."""
        return position_name(position, border=not self.regions)

    @property
    def runs(self) -> tuple[Run, ...]:
        """Kakuro's runs (the first groups, found from the clues); empty for the Sudoku family,
        whose groups are all `regions`."""
        return cast(tuple[Run, ...], self.groups[: len(self.groups) - len(self.regions)])

    def run(self, r: int) -> Run:
        """Group `r` as a Kakuro run, with its direction and clue; TypeError for a Sudoku's or
        a Killer's group (code written for Kakuro's lines refuses those puzzles first)."""
        group = self.groups[r]
        if not isinstance(group, Run):
            raise TypeError(f"{group.name} of this {self.kind} is not a Kakuro run")
        return group

    @property
    def kind(self) -> Kind:
        """Which family member (`KINDS`): Kakuro (runs from clues), Sudoku, Killer (Sudoku with
        cages) or Jigsaw (irregular regions for boxes), each of the last three with "-x" for
        Sudoku X's diagonals."""
        if not self.regions:
            return "kakuro"
        base = "jigsaw" if self.box is None else "killer" if any(g.stated for g in self.regions) else "sudoku"
        return cast(Kind, f"{base}-x" if self.diagonals else base)

    @property
    def cages(self) -> tuple[Group, ...]:
        """A Killer puzzle's cages (the regions with a stated sum); empty for the others."""
        return tuple(g for g in self.regions if g.stated)

    @property
    def boxes(self) -> tuple[Group, ...]:
        """A Sudoku's boxes or a Jigsaw's regions: the n groups after the rows and columns that
        tile the n x n grid; empty for Kakuro."""
        return self.regions[2 * self.rows:3 * self.rows]

    @property
    def is_all_white(self) -> bool:
        """True for a Cazenave grid: clue row and column around an interior without black cells."""
        interior = (self.rows - 1) * (self.cols - 1)
        return not self.regions and self.size == interior and all(r > 0 and c > 0 for r, c in self.cells)

    def to_grid(self) -> list[list[GridCell]]:
        """The JSON-lines layout of this puzzle (givens as digits, empty cells as 0)."""
        grid: list[list[GridCell]] = [[BLACK] * self.cols for _ in range(self.rows)]
        for pos, (down, across) in self.clues.items():
            grid[pos[0]][pos[1]] = [down, across]
        for i, (r, c) in enumerate(self.cells):
            grid[r][c] = self.givens.get(i, 0)
        return grid

    def digest(self) -> str:
        """A stable hash of the puzzle's content (layout, clues, givens, value range)."""
        content: dict[str, Any] = {"grid": self.to_grid(), "values": list(self.values)}
        if self.regions:  # a Kakuro's digest stays what it always was, and so does a Sudoku's and a Killer's
            content["box" if self.box is not None else "regions"] = list(self.box or self._tiling())
            content["cages"] = [[total, list(cells)] for cells, total in self._cage_set()]
            if self.diagonals:
                content["diagonals"] = True
        text = json.dumps(content, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (self.to_grid() == other.to_grid() and self.values == other.values and self.box == other.box
                and self.diagonals == other.diagonals and self._cage_set() == other._cage_set()
                and self._tiling() == other._tiling())

    def _cage_set(self) -> list[tuple[tuple[int, ...], int]]:
        """The cages as sorted (cells, total) pairs: the same cages in any order are the same puzzle."""
        return sorted((tuple(sorted(g.cells)), g.total) for g in self.cages)

    def _tiling(self) -> list[list[int]]:
        """A Jigsaw's regions as sorted cell lists, in order: the same regions in any order are
        the same puzzle (empty for the others)."""
        return sorted(sorted(g.cells) for g in self.boxes) if self.box is None else []

    def __hash__(self) -> int:
        return hash(self.digest())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle as the grid layout (a Sudoku's as its grid, box or regions, diagonals and
        cages); unpickling validates again (worker processes rely on it)."""
        if self.regions:
            cages = [(g.total, [self.cells[c] for c in g.cells]) for g in self.cages]
            tiles = None if self.box is not None else [[self.cells[c] for c in g.cells] for g in self.boxes]
            return (_rebuild_family, (self.to_grid(), self.box, tiles, self.diagonals, cages, self.id, dict(self.meta)))
        return (_rebuild, (self.to_grid(), self.values, self.id, dict(self.meta)))

    def __repr__(self) -> str:
        name = f" {self.id!r}" if self.id else ""
        lo, hi = self.values
        if self.regions:
            cages = f", {len(self.cages)} cages" if self.cages else ""
            boxes = f", boxes {self.box[0]}x{self.box[1]}" if self.box is not None else ""
            shape = f"{self.rows}x{self.cols}{boxes}{cages}"
            return f"<Puzzle{name} {self.kind} {shape}, values {lo}..{hi}>"
        groups = f"{len(self.groups)} {'groups' if self.regions else 'runs'}"
        return f"<Puzzle{name} {self.rows}x{self.cols}, {self.size} cells, {groups}, values {lo}..{hi}>"

    # ----------------------------------------------------------------- checking
    def solution(self, values: Sequence[int]) -> Solution:
        """Wrap one value per white cell as a `Solution` of this puzzle (shape checked)."""
        return Solution(self, tuple(values))

    def check(self, solution: Solution | Sequence[Sequence[Any]]) -> list[str]:
        """Every rule the solution breaks, as readable sentences; an empty list means valid.

        Accepts a `Solution` or a grid in the JSON-lines layout (rows of "#" and digits).
        Never raises on a wrong answer: a malformed grid is reported as violations too, and a
        value too long to print (`shown`) is described in a few words.
        """
        values, problems = self._values_of(solution)
        if values is None:
            return problems
        lo, hi = self.values
        for i, v in enumerate(values):
            if v is None:
                problems.append(f"cell {self.position_name(self.cells[i])} is missing a digit")
            elif not lo <= v <= hi:
                problems.append(f"cell {self.position_name(self.cells[i])} holds {shown(v)}, outside {lo}..{hi}")
        for i, digit in self.givens.items():
            held = values[i]
            if held is not None and held != digit:
                problems.append(f"cell {self.position_name(self.cells[i])} was given {digit} but holds {shown(held)}")
        for group in self.groups:
            problems += broken_rules(group, [values[c] for c in group.cells])
        return problems

    def copy(self) -> Puzzle:
        """An equal puzzle that shares nothing a backend could change with this one: its own
        mappings (behind new read-only proxies), its own group objects and its own copy of
        whatever in `meta` is mutable; the tuples, numbers and strings, which nothing can
        change, are shared. Not validated again. `Solver.solve` hands a backend one, so that
        whatever the backend does to it (`object.__setattr__` on the puzzle or a group
        included) leaves this puzzle as it was. It costs one new object per group."""
        fields = dict(vars(self))
        groups = _copies(self.groups)
        fields["groups"] = groups
        tail = len(groups) - len(self.regions)  # the regions are the last groups, the same objects
        same = all(region is group for region, group in zip(self.regions, self.groups[tail:]))
        fields["regions"] = groups[tail:] if same else _copies(self.regions)
        for name in ("clues", "givens", "index"):
            fields[name] = MappingProxyType(fields[name].copy())  # a read-only proxy's copy is a dict
        meta = dict(self.meta)
        for key in self._changeable_meta:
            meta[key] = copy.deepcopy(meta[key])
        fields["meta"] = MappingProxyType(meta)
        twin = object.__new__(type(self))
        vars(twin).update(fields)
        return twin

    @functools.cached_property
    def _changeable_meta(self) -> tuple[str, ...]:
        """The keys of `meta` whose values something could change (a list read from a file):
        `copy` deep-copies those. Worked out once (a solution in `meta` has a value per cell)."""
        return tuple(key for key, value in self.meta.items() if not _unchangeable(value))

    def _values_of(self, solution: Any) -> tuple[list[int | None] | None, list[str]]:
        """Per-cell values of a Solution or grid; (None, problems) when the shape is wrong."""
        if isinstance(solution, Solution):
            if solution.puzzle is not self and solution.puzzle != self:
                return None, ["the solution belongs to another puzzle"]
            return list(solution.values), []
        if not isinstance(solution, Sequence) or isinstance(solution, (str, bytes)):
            return None, [f"a solution must be a Solution or a list of rows, not {type(solution).__name__}"]
        if len(solution) != self.rows:
            return None, [f"the solution has {len(solution)} rows, the puzzle {self.rows}"]
        for r, row in enumerate(solution):
            if not isinstance(row, Sequence) or isinstance(row, (str, bytes)) or len(row) != self.cols:
                return None, [f"row {r + (1 if self.regions else 0)} of the solution does not have {self.cols} cells"]
        values: list[int | None] = []
        for r, c in self.cells:
            v = solution[r][c]
            values.append(int(v) if is_digit(v) else None)
        return values, []


# --------------------------------------------------------------------- internals
def _copies(groups: tuple[Group, ...]) -> tuple[Group, ...]:
    """Other objects equal to `groups` (frozen dataclasses: their fields are tuples, numbers
    and strings, shared). Written out: `copy.copy` takes four times as long."""
    twins = []
    for group in groups:
        twin = object.__new__(type(group))
        twin.__dict__.update(group.__dict__)
        twins.append(twin)
    return tuple(twins)


_ATOMS = frozenset({str, int, float, complex, bool, type(None), bytes})
"""Types of values nothing can change (a tuple of them neither)."""


def _unchangeable(value: Any) -> bool:
    """True for an atom (`_ATOMS`) or a tuple of such values (a solution's rows)."""
    if type(value) is tuple:
        return set(map(type, value)) <= _ATOMS or all(map(_unchangeable, value))
    return type(value) in _ATOMS


def _rebuild_family(grid: list[list[int]], box: tuple[int, int] | None, tiles: list[list[Position]] | None,
                    diagonals: bool, cages: list[tuple[int, list[Position]]], id: str | None, meta: dict[str, Any]) -> Puzzle:
    return Puzzle._sudoku_family(grid, box, cages, id, meta, regions=tiles, diagonals=diagonals)


def _rebuild(grid: list[list[GridCell]], values: tuple[int, int], id: str | None, meta: dict[str, Any]) -> Puzzle:
    return Puzzle.from_grid(grid, values=values, id=id, meta=meta)
