"""Reading a solution file for `kakuro check`: a grid to hand to `puzzle.check`.

Two layouts are accepted:

- JSON: a list of rows (the JSON-lines layout: a digit per white cell, "#" elsewhere), or an
  object whose `"solution"` is such a list (what `kakuro solve --format json` prints, and what
  a JSON-lines record holds);
- text: the text format's grid with a digit in every white cell (what `kakuro solve` prints);
  header lines are skipped, only the first block is read; every number is a digit (`0` too,
  for a value range that starts at 0), `_` and `.` are empty cells.

The grid is not validated here beyond its syntax: judging it is `puzzle.check`'s job.
"""

from __future__ import annotations

import json
import os
from typing import Any

from kakuro.errors import PuzzleFormatError
from kakuro.formats import decode_text, load_source, text


def read_solution(source: str | os.PathLike[str] | bytes) -> list[list[Any]]:
    """The solution grid in a file (or in a text); empty cells are None.

    Raises PuzzleFormatError (file, line, column) when the file is not a grid in either layout.
    """
    name, data = load_source(source)
    content = decode_text(data, name)
    if content.lstrip().startswith(("{", "[")):
        return _from_json(content, name)
    return text.parse_solved_grid(content, name)


def _from_json(content: str, file: str | None) -> list[list[Any]]:
    try:
        value = json.loads(content)
    except json.JSONDecodeError as exc:
        raise PuzzleFormatError(f"not valid JSON: {exc.msg}", file=file, line=exc.lineno, column=exc.colno) from None
    except (RecursionError, ValueError) as exc:
        raise PuzzleFormatError(f"not valid JSON: {exc}", file=file, line=1, column=1) from None
    grid = value.get("solution") if isinstance(value, dict) else value
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        raise PuzzleFormatError(
            'expected a list of rows, or an object whose "solution" is one', file=file, line=1, column=1
        )
    return grid
