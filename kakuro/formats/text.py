"""The de facto "down\\right" text grid, and the toolkit's canonical native format.

One puzzle is a block of lines; blocks are separated by blank lines. Each grid line holds one
token per grid position, separated by whitespace, ',', tabs or '|':

- black: `#`, `x` or `X`
- clue: `16\\` (down sum), `\\17` (across sum), `16\\17` (both)
- white: `_`, `.` or `0`; a digit (or a number, for wider ranges) is a given
- optional header lines before the grid: `values: 1..12` (default 1..9), `id: NAME`,
  and any other `key: text` kept as metadata.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kakuro.errors import PuzzleFormatError
from kakuro.formats.base import building, parse_number
from kakuro.puzzle import DEFAULT_VALUES, GridCell, Puzzle

NAME = "text"
EXTENSIONS = (".txt", ".kakuro", ".kak")

_TOKEN = re.compile(r"[^\s,|]+")
_HEADER = re.compile(r"\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*\Z")
_RANGE = re.compile(r"([0-9]+)\s*(?:\.\.|-)\s*([0-9]+)")
_BLACK = {"#", "x", "X"}
_EMPTY = {"_", ".", "0"}


def sniff(text: str) -> bool:
    """Anything can be tried as text: this is the fallback format."""
    return True


def parse(text: str, file: str | None = None) -> list[Puzzle]:
    """Every puzzle block of `text`; PuzzleFormatError names the line and column of a problem."""
    puzzles: list[Puzzle] = []
    block: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            block.append((number, line))
        elif block:
            puzzles.append(_parse_block(block, file))
            block = []
    if block:
        puzzles.append(_parse_block(block, file))
    if not puzzles:
        raise PuzzleFormatError("no puzzle found (the text is empty)", file=file, line=1, column=1)
    return puzzles


def _parse_block(block: list[tuple[int, str]], file: str | None) -> Puzzle:
    meta: dict[str, str] = {}
    values = DEFAULT_VALUES
    puzzle_id: str | None = None
    rows: list[list[GridCell]] = []
    places: list[list[tuple[int, int]]] = []  # (line, column) of each token
    for number, line in block:
        header = _HEADER.match(line) if not rows else None
        if header:
            key, value = header.group(1).lower(), header.group(2)
            if key == "values":
                values = _parse_range(value, file, number, line.index(value) + 1 if value else 1)
            elif key == "id":
                puzzle_id = value
            else:
                meta[key] = value
            continue
        tokens = list(_TOKEN.finditer(line))
        row = [_parse_token(t.group(), file, number, t.start() + 1) for t in tokens]
        if rows and len(row) != len(rows[0]):
            column = tokens[min(len(tokens), len(rows[0])) - 1].end() + 1 if tokens else 1
            raise PuzzleFormatError(
                f"this row has {len(row)} cells, the first row has {len(rows[0])}", file=file, line=number, column=column
            )
        rows.append(row)
        places.append([(number, t.start() + 1) for t in tokens])
    if not rows:
        raise PuzzleFormatError("a header without a grid", file=file, line=block[-1][0], column=1)

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        if cell is None:
            return block[0][0], None
        return places[cell[0]][cell[1]]

    return building(lambda: Puzzle.from_grid(rows, values=values, id=puzzle_id, meta=meta), file=file, locate=locate)


def _parse_range(text: str, file: str | None, line: int, column: int) -> tuple[int, int]:
    match = _RANGE.fullmatch(text)
    if not match:
        raise PuzzleFormatError("values must look like 1..9", file=file, line=line, column=column, text=text)
    lo = parse_number(match.group(1), file=file, line=line, column=column, what="the smallest value")
    hi = parse_number(match.group(2), file=file, line=line, column=column, what="the largest value")
    return lo, hi


def _parse_token(token: str, file: str | None, line: int, column: int) -> GridCell:
    if token in _BLACK:
        return "#"
    if token in _EMPTY:
        return 0
    if "\\" in token:
        down, sep, across = token.partition("\\")
        if "\\" in across:
            raise PuzzleFormatError("a clue has one backslash: down\\across", file=file, line=line, column=column, text=token)
        d = parse_number(down, file=file, line=line, column=column, what="a down clue") if down else None
        a = parse_number(across, file=file, line=line, column=column + len(down) + 1, what="an across clue") if across else None
        return "#" if d is None and a is None else [d, a]
    if token[0] in "0123456789":
        if token.startswith("0"):
            raise PuzzleFormatError("a given digit cannot start with 0", file=file, line=line, column=column, text=token)
        return parse_number(token, file=file, line=line, column=column, what="a given digit")
    raise PuzzleFormatError(
        "unknown cell: use #, x or X (black), D\\A, D\\ or \\A (clue), _ . or 0 (white) or a digit",
        file=file, line=line, column=column, text=token[:20],
    )


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """The puzzles as text blocks separated by a blank line (columns aligned)."""
    return "\n".join(_dump_one(p) for p in puzzles)


def _dump_one(puzzle: Puzzle) -> str:
    lines = []
    if puzzle.id:
        lines.append(f"id: {puzzle.id}")
    if puzzle.values != DEFAULT_VALUES:
        lines.append(f"values: {puzzle.values[0]}..{puzzle.values[1]}")
    for key, value in puzzle.meta.items():
        if isinstance(value, str) and "\n" not in value and key not in ("id", "values"):
            lines.append(f"{key}: {value}")
    table = [[_token(cell) for cell in row] for row in puzzle.to_grid()]
    width = max(len(t) for row in table for t in row)
    lines.extend(" ".join(t.rjust(width) for t in row).rstrip() for row in table)
    return "\n".join(lines) + "\n"


def _token(cell: GridCell) -> str:
    if cell == "#":
        return "#"
    if isinstance(cell, int):
        return str(cell) if cell else "_"
    down, across = cell  # type: ignore[misc]
    return f"{'' if down is None else down}\\{'' if across is None else across}"
