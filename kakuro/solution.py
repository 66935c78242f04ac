"""A puzzle's solution: one value per white cell (`Solution`); `Puzzle.check` says whether it is valid."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kakuro.errors import InvalidSolutionError
from kakuro.groups import Position
from kakuro.values import is_digit
from kakuro.wellformed import BLACK

if TYPE_CHECKING:
    from kakuro.puzzle import Puzzle


@dataclass(frozen=True)
class Solution:
    """One value per white cell of `puzzle`, in cell order. Validity is `puzzle.check(self)`."""

    puzzle: Puzzle = field(repr=False, compare=False)
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        """Keep the values as Python ints; anything that is not a digit (`is_digit`: a float,
        a bool, a string) raises InvalidSolutionError naming its cell, never rounded."""
        values = tuple(self.values)
        if set(map(type, values)) != {int}:  # Python ints only (no bool) pass at once: 2 us a 9x9, not 60
            values = self._digits(values)
        object.__setattr__(self, "values", values)
        if len(self.values) != self.puzzle.size:
            raise InvalidSolutionError(
                f"a solution needs {self.puzzle.size} values, one per white cell; got {len(self.values)}"
            )

    def _digits(self, values: tuple[object, ...]) -> tuple[int, ...]:
        """`values` as Python ints, or InvalidSolutionError naming the first that is no digit."""
        for i, v in enumerate(values):
            if not is_digit(v):
                where = f"cell {self.puzzle.position_name(self.puzzle.cells[i])}" if i < self.puzzle.size else f"value {i + 1}"
                raise InvalidSolutionError(f"{where} holds {reprlib.repr(v)}, which is not a digit (an integer)")
        return tuple(int(v) for v in values)  # type: ignore[call-overload]  # each is_digit

    def __getitem__(self, position: Position) -> int:
        """The value at grid position (row, col)."""
        return self.values[self.puzzle.index[position]]

    def to_grid(self) -> list[list[int | str]]:
        """The JSON-lines layout: rows with a digit per white cell and "#" elsewhere."""
        grid: list[list[int | str]] = [[BLACK] * self.puzzle.cols for _ in range(self.puzzle.rows)]
        for (r, c), v in zip(self.puzzle.cells, self.values):
            grid[r][c] = v
        return grid

    def __str__(self) -> str:
        """The solved grid as `kakuro solve` prints it (the text format, which reads it back):
        `#` black, `down\\across` clues, a digit in every white cell, columns right-aligned.
        `repr` stays the dataclass's."""
        tokens = [[str(cell) for cell in row] for row in self.to_grid()]
        for (r, c), (down, across) in self.puzzle.clues.items():
            tokens[r][c] = f"{'' if down is None else down}\\{'' if across is None else across}"
        width = max((len(t) for row in tokens for t in row), default=1)
        return "\n".join(" ".join(t.rjust(width) for t in row).rstrip() for row in tokens)
