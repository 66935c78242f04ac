"""The "R,C" grid of university course projects (`.txt`, `.kak`, and `Board.json` lists of them).

Several Kakuro projects of the FIB-UPC programming-projects course (PROP) read and write this
layout, e.g. github.com/marcizhu/KakuroApp (`data/*.kak`, `data/DB/Board.json`), whose README
defines it; a first line with the numbers of rows and columns (clue row and column included),
then one line per row of comma-separated cells::

    4,4
    *,C16,C24,*
    F16,?,?,C17
    F23,?,?,?
    *,F14,?,?

- `*`: black cell; `?`: empty white cell; a digit 1-9: a white cell with that digit given
  (`0` is an empty white cell too);
- `C<n>`: a clue cell with the down sum n ("columna") over the run below it, `F<n>`: the
  across sum n ("fila") over the run to its right, `C<n>F<n>`: both; a sum of 0 means none.

Blanks around cells and blank lines are ignored; a file may hold several puzzles one after
the other, each with its own `R,C` line. `Board.json` holds a JSON list whose items are such
texts, or objects whose `"cells"` is the text without its `R,C` line (with `"width"` and
`"height"`; an `"id"` becomes the puzzle's id). Values are 1..9: this layout has no room for a
value range, and no comments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, building, cell_token, gather, line_column, parse_number
from kakuro.puzzle import DEFAULT_VALUES, Puzzle, is_digit
from kakuro.wellformed import MAX_SIDE, GridCell

NAME = "course"
EXTENSIONS: tuple[str, ...] = ()
"""None of its own: `.kak`, `.txt` and `.json` files are recognised by their content."""

_SIZE = re.compile(r"\s*([0-9]+)\s*,\s*([0-9]+)\s*")
_CELL = re.compile(r"\*|\?|[0-9]+|C([0-9]+)|F([0-9]+)|C([0-9]+)F([0-9]+)")
_SNIFF_CHARS = 1 << 12


def sniff(text: str) -> bool:
    """True for an `R,C` line followed by a row of course cells, or a JSON list (Board.json)."""
    head = text[:_SNIFF_CHARS].lstrip()
    if head.startswith("["):
        return '"cells"' in head or head[1:].lstrip().startswith('"')
    lines = [line for line in head.splitlines() if line.strip()]
    if len(lines) < 2 or not _SIZE.fullmatch(lines[0]):
        return False
    cells = [cell.strip() for cell in lines[1].split(",")]
    return all(_CELL.fullmatch(cell) for cell in cells) and any(not cell.isdigit() for cell in cells)


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every puzzle of an `R,C` text, or of a Board.json list (detected by its leading `[`)."""
    if text.lstrip().startswith("["):
        return _parse_board_json(text, file, on_bad)
    return gather(_grids(text, file), on_bad, file=file, empty="no puzzle found (no R,C line)")


def _grids(text: str, file: str | None, *, size: tuple[int, int] | None = None,
           id: str | None = None) -> Iterator[Callable[[], Puzzle]]:
    """One attempt per puzzle of `text`; `size` (rows, cols) when the text has no `R,C` line."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    at = 0
    while at < len(lines):
        number = lines[at][0]
        if size is None:
            line = lines[at][1]
            match = _SIZE.fullmatch(line)
            if match is None:
                yield partial(_fail, "expected the numbers of rows and columns, like 9,9", file, number, line)
                return
            rows = parse_number(match.group(1), file=file, line=number, column=match.start(1) + 1, what="rows")
            cols = parse_number(match.group(2), file=file, line=number, column=match.start(2) + 1, what="columns")
            at += 1
        else:
            rows, cols = size
        if rows > MAX_SIDE or cols > MAX_SIDE:
            yield partial(_fail, f"a {rows}x{cols} grid is larger than {MAX_SIDE}x{MAX_SIDE}", file, number, "")
            return
        block = lines[at : at + rows]
        at += rows
        yield partial(_parse_grid, block, rows, cols, file, id, number)
        if size is not None:
            if at < len(lines):
                yield partial(_fail, f"the grid has more than the {rows} rows its size says", file, *lines[at])
            return


def _fail(message: str, file: str | None, number: int, line: str) -> Puzzle:
    raise PuzzleFormatError(message, file=file, line=number, column=1, text=line.strip()[:20])


def _parse_grid(block: list[tuple[int, str]], rows: int, cols: int, file: str | None, id: str | None,
                size_line: int) -> Puzzle:
    """The puzzle of `block` (its (line number, text) rows); `size_line` is where its size was."""
    if len(block) < rows:
        last = block[-1][0] if block else size_line
        raise PuzzleFormatError(f"the size says {rows} rows, the file ends after {len(block)}", file=file, line=last)
    grid: list[list[GridCell]] = []
    places: list[list[tuple[int, int]]] = []
    for number, line in block:
        if line.count(",") + 1 != cols:  # counted before splitting: a huge row is never cut into pieces
            raise PuzzleFormatError(f"this row has {line.count(',') + 1} cells, the size says {cols}", file=file,
                                    line=number, column=1, text=line.strip()[:20])
        row: list[GridCell] = []
        where: list[tuple[int, int]] = []
        offset = 0
        for raw in line.split(","):
            column = offset + len(raw) - len(raw.lstrip()) + 1
            row.append(_cell(raw.strip(), file, number, column))
            where.append((number, column))
            offset += len(raw) + 1
        grid.append(row)
        places.append(where)

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return places[cell[0]][cell[1]] if cell is not None else (size_line, None)

    return building(lambda: Puzzle.from_grid(grid, id=id), file=file, locate=locate)


def _cell(token: str, file: str | None, line: int, column: int) -> GridCell:
    match = _CELL.fullmatch(token)
    if match is None:
        raise PuzzleFormatError(
            "unknown cell: use * (black), ? (white), a digit (given), C<sum>, F<sum> or C<sum>F<sum> (clue)",
            file=file, line=line, column=column, text=token[:20],
        )
    if token == "*":
        return "#"
    if token == "?":
        return 0
    if token.isdigit():
        return parse_number(token, file=file, line=line, column=column, what="a given digit")
    down = match.group(1) or match.group(3)
    across = match.group(2) or match.group(4)
    sums = [parse_number(part, file=file, line=line, column=column, what="a sum") if part else None for part in (down, across)]
    clue = [total or None for total in sums]  # a sum of 0 means no clue
    return "#" if clue == [None, None] else clue


def _parse_board_json(text: str, file: str | None, on_bad: BadPuzzle | None) -> list[Puzzle]:
    try:
        items = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        line, column = (exc.lineno, exc.colno) if isinstance(exc, json.JSONDecodeError) else (1, 1)
        raise PuzzleFormatError(f"not valid JSON: {exc}", file=file, line=line, column=column) from None
    if not isinstance(items, list):
        raise PuzzleFormatError("expected a JSON list of boards", file=file, line=1, column=1)
    return gather(_board_items(items, text, file), on_bad, file=file, empty="no puzzle found (an empty list)")


def _board_items(items: list[Any], text: str, file: str | None) -> Iterator[Callable[[], Puzzle]]:
    """One attempt per board of the list; an error names the item's line in the file and the
    line and column inside the item's text."""
    lines = _item_lines(text, len(items))
    for number, item in enumerate(items, start=1):
        line = lines[number - 1]
        size = _item_size(item) if isinstance(item, dict) and isinstance(item.get("cells"), str) else None
        if isinstance(item, str):
            attempts: Iterator[Callable[[], Puzzle]] = _grids(item, file)
        elif size is not None:
            item_id = item.get("id")
            attempts = _grids(item["cells"], file, size=size, id=None if item_id is None else str(item_id))
        else:
            message = 'is neither a board text nor an object with "cells", "height" and "width"'
            attempts = iter([partial(_fail, message, file, 1, "")])
        for attempt in attempts:
            yield partial(_in_item, attempt, number, line, file)


def _in_item(attempt: Callable[[], Puzzle], number: int, line: int, file: str | None) -> Puzzle:
    try:
        return attempt()
    except PuzzleFormatError as exc:
        inside = f", its line {exc.line}" + (f" column {exc.column}" if exc.column else "") if exc.line else ""
        raise PuzzleFormatError(f"board {number} of the list{inside}: {exc.message}", file=file, line=line,
                                text=exc.text) from None


def _item_size(item: dict[str, Any]) -> tuple[int, int] | None:
    height, width = item.get("height"), item.get("width")
    if all(is_digit(v) and v > 0 for v in (height, width)):  # type: ignore[operator]  # JSON gives Python ints only
        return height, width  # type: ignore[return-value]  # both digits, just checked
    return None


def _item_lines(text: str, count: int) -> list[int]:
    """The line on which each top-level list item starts (1 for all if the list is on one line
    the items share it): found by decoding the items one by one."""
    decoder = json.JSONDecoder()
    starts = []
    at = text.index("[") + 1
    for _ in range(count):
        while text[at] in " \t\r\n,":
            at += 1
        starts.append(line_column(text, at)[0])
        at = decoder.raw_decode(text, at)[1]
    return starts


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """Each puzzle as an `R,C` line and its rows (values 1..9 only; ids are not kept)."""
    return "\n".join(_dump_one(puzzle) for puzzle in puzzles)


def _dump_one(puzzle: Puzzle) -> str:
    if puzzle.values != DEFAULT_VALUES:
        name = f"puzzle {puzzle.id!r}" if puzzle.id else "this puzzle"
        lo, hi = puzzle.values
        raise KakuroError(f"{name} uses values {lo}..{hi}; the R,C course format has 1..9 only")
    rows = [",".join(_token(cell) for cell in row) for row in puzzle.to_grid()]
    return "\n".join([f"{puzzle.rows},{puzzle.cols}", *rows]) + "\n"


def _token(cell: GridCell) -> str:
    return cell_token(cell, black="*", empty="?", clue=_clue)


def _clue(down: int | None, across: int | None) -> str:
    return ("" if down is None else f"C{down}") + ("" if across is None else f"F{across}")
