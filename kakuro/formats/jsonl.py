"""JSON lines, the layout of `../shared/data`: one puzzle object per line.

    {"id": "janko-001", "rows": R, "cols": C, "grid": [[cell, ...], ...], "solution": [[...]] | null,
     "values": [lo, hi]}

A cell is "#" (black), [down, across] (clue; a missing half is null), 0 (empty white) or a
given digit. Rows and columns count the clue row and column. `values` is optional (1..9);
`solution`, when present, is kept as `puzzle.meta["solution"]` (a tuple of row tuples).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, building, gather
from kakuro.puzzle import DEFAULT_VALUES, Puzzle
from kakuro.values import is_integer

NAME = "jsonl"
EXTENSIONS = (".jsonl", ".ndjson")

_KNOWN = {"id", "source", "rows", "cols", "grid", "solution", "values"}
EMPTY = "no puzzle found (no JSON object)"


def sniff(text: str) -> bool:
    return text.lstrip().startswith("{")


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every line's puzzle; an error names its line (with `on_bad`, a bad line is skipped)."""
    return gather(attempts(text, file), on_bad, file=file, empty=EMPTY)


def attempts(text: str, file: str | None = None) -> Iterator[Callable[[], Puzzle]]:
    """One maker per line that is not blank, each building its puzzle when called."""
    return (partial(_parse_line, line, number, file) for number, line in enumerate(text.splitlines(), start=1)
            if line.strip())


def _parse_line(line: str, number: int, file: str | None) -> Puzzle:
    def fail(message: str, column: int | None = None, text: str | None = None) -> PuzzleFormatError:
        return PuzzleFormatError(message, file=file, line=number, column=column, text=text)

    try:
        record = json.loads(line, parse_constant=_reject_constant, parse_float=_finite)
    except NotFiniteError as exc:
        raise fail(f"{exc.text} is too large a number (it would be infinite)", line.find(exc.text) + 1, exc.text[:20]) from None
    except json.JSONDecodeError as exc:
        raise fail(f"not valid JSON: {exc.msg}", exc.colno, line[max(0, exc.pos - 10) : exc.pos + 10]) from None
    except (RecursionError, ValueError) as exc:
        raise fail(f"not valid JSON: {exc}", 1) from None
    if not isinstance(record, dict):
        raise fail("each line must hold one JSON object", 1)
    if "grid" not in record:
        raise fail('the object has no "grid"', 1)
    values = _values(record.get("values", DEFAULT_VALUES), fail)
    grid = record["grid"]
    for key in ("rows", "cols"):
        if key in record and not _matches(record[key], grid, key):
            raise fail(f'"{key}" is {record[key]!r}, which does not match the grid', 1)
    meta: dict[str, Any] = {k: v for k, v in record.items() if k not in _KNOWN and isinstance(v, (str, int, float))}
    if isinstance(record.get("source"), str):
        meta["source"] = record["source"]
    solution = record.get("solution")
    if solution is not None:
        if not _is_grid(solution):
            raise fail('"solution" must be a list of rows', 1)
        meta["solution"] = tuple(tuple(row) for row in solution)
    puzzle_id = record.get("id")
    if puzzle_id is not None and not isinstance(puzzle_id, str):
        puzzle_id = str(puzzle_id)

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return number, None

    return building(lambda: Puzzle.from_grid(grid, values=values, id=puzzle_id, meta=meta), file=file, locate=locate)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a puzzle can hold")


class NotFiniteError(ValueError):
    """A JSON number too large for a float (`1e999`), which JSON cannot write back."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text} is too large a number")
        self.text = text


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotFiniteError(text)
    return value


def _values(raw: Any, fail: Any) -> tuple[int, int]:
    ok = (
        isinstance(raw, (list, tuple))
        and len(raw) == 2
        and all(is_integer(v) for v in raw)
    )
    if not ok:
        raise fail(f'"values" must be [lo, hi], not {raw!r}', 1)
    return int(raw[0]), int(raw[1])


def _is_grid(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(row, list) for row in value)


def _matches(count: Any, grid: Any, key: str) -> bool:
    if not is_integer(count) or not _is_grid(grid) or not grid:
        return True  # the grid itself is validated by Puzzle.from_grid
    return count == (len(grid) if key == "rows" else len(grid[0]))


def record(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON object of one puzzle (the inverse of one parsed line)."""
    out: dict[str, Any] = {}
    if puzzle.id is not None:
        out["id"] = puzzle.id
    if "source" in puzzle.meta:
        out["source"] = puzzle.meta["source"]
    out["rows"], out["cols"] = puzzle.rows, puzzle.cols
    out["grid"] = puzzle.to_grid()
    if puzzle.values != DEFAULT_VALUES:
        out["values"] = list(puzzle.values)
    solution = puzzle.meta.get("solution")
    out["solution"] = [list(row) for row in solution] if solution is not None else None
    for key, value in puzzle.meta.items():  # the scalar metadata the reader keeps
        if key not in _KNOWN and key not in out and isinstance(value, (str, int, float)):
            out[key] = value
    return out


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """One JSON object a line. KakuroError for a puzzle whose metadata holds a number JSON
    cannot write (NaN, infinity), which no reader would take back."""
    lines = []
    for puzzle in puzzles:
        try:
            lines.append(json.dumps(record(puzzle), separators=(",", ":"), allow_nan=False) + "\n")
        except ValueError as exc:
            name = f"puzzle {puzzle.id!r}" if puzzle.id else "a puzzle"
            raise KakuroError(f"{name} cannot be written as JSON: {exc}") from None
    return "".join(lines)
