"""The rules of a well-formed puzzle, which every `Puzzle` constructor applies: the grid's
cells, the value range, the givens and the groups (`validate`); InvalidPuzzleError names the
first broken one and its cell."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kakuro.errors import InvalidPuzzleError
from kakuro.groups import MAX_VALUE, Position, check_group
from kakuro.regions import check_layout
from kakuro.values import is_integer, position_name

if TYPE_CHECKING:
    from kakuro.puzzle import Puzzle

BLACK = "#"
"""A black position of a grid, as the JSON-lines layout writes it."""
MAX_SIDE = 1000
"""Largest number of rows or columns a puzzle may have."""
GridCell = str | int | Sequence[int | None] | None
"""A position in the JSON-lines layout: "#", [down, across], 0 (empty white) or a given digit."""
ZERO_GIVEN = "a given 0 cannot be kept: every puzzle layout writes 0 for an empty cell"
"""Why a puzzle refuses a given 0 (its solutions may hold 0 when the value range starts at 0)."""


def grid_cell_kind(item: Any, pos: Position) -> str:
    """Classify one grid entry as 'black', 'clue' or 'white'; raise on anything else."""
    if item == BLACK or item is None:
        return "black"
    if isinstance(item, bool):
        raise InvalidPuzzleError(f"cell {position_name(pos)}: {item!r} is not a cell", cell=pos)
    if isinstance(item, int):
        if item < 0:
            raise InvalidPuzzleError(f"cell {position_name(pos)}: {item} is not a digit", cell=pos)
        return "white"
    if isinstance(item, Sequence) and not isinstance(item, (str, bytes)) and len(item) == 2:
        for part in item:
            if part is not None and (not is_integer(part) or part < 0):
                raise InvalidPuzzleError(f"cell {position_name(pos)}: clue {list(item)!r} must hold sums or null", cell=pos)
        if item[0] is None and item[1] is None:
            return "black"
        return "clue"
    raise InvalidPuzzleError(f"cell {position_name(pos)}: {item!r} is not '#', a clue [down, across], 0 or a digit", cell=pos)


def validate(p: Puzzle) -> None:
    """The rules of a well-formed puzzle; raises InvalidPuzzleError on the first broken one."""
    lo, hi = p.values
    if not is_integer(lo) or not is_integer(hi):
        raise InvalidPuzzleError(f"the value range {p.values!r} must be two integers")
    if not 0 <= lo <= hi <= MAX_VALUE:
        raise InvalidPuzzleError(f"the value range {lo}..{hi} must satisfy 0 <= lo <= hi <= {MAX_VALUE}")
    if p.rows > MAX_SIDE or p.cols > MAX_SIDE:
        raise InvalidPuzzleError(f"a {p.rows}x{p.cols} grid is larger than {MAX_SIDE}x{MAX_SIDE}")
    for i, digit in p.givens.items():
        if digit == 0:
            raise InvalidPuzzleError(f"cell {p.position_name(p.cells[i])}: {ZERO_GIVEN}", cell=p.cells[i])
        if not lo <= digit <= hi:
            raise InvalidPuzzleError(f"cell {p.position_name(p.cells[i])}: given {digit} is outside {lo}..{hi}", cell=p.cells[i])
    covered = [False] * p.size
    for group in p.groups:
        check_group(group, p.values, p.givens, p.cells, covered)
    if p.regions and not all(covered):
        alone = p.cells[covered.index(False)]
        raise InvalidPuzzleError(f"cell {p.position_name(alone)} belongs to no group", cell=alone)
    check_layout(p.regions, p.rows, p.cells, p.box, p.diagonals)
