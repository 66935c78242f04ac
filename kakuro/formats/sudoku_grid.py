"""The readable Sudoku grid (`.sudoku`, and text recognised by its content).

One puzzle is a block of lines; blocks are separated by blank lines. Each row is a line of n
numbers separated by blanks, `.` or `0` for an empty cell; `|` between boxes and lines of
`-`, `+` and `|` between bands are drawn for the reader and ignored::

    box: 2x3
    1 . . | . . 6
    . . 3 | 4 . .
    ------+------
    ...

Header lines before the grid (optionally after `#`): `box: RxC` (the box shape, default
square), `id: NAME`, any other `key: text` kept as metadata. Other lines starting with `#` are
comments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, gather, header_lines, parse_number
from kakuro.puzzle import Puzzle

NAME = "sudoku-grid"
EXTENSIONS = (".sudoku",)
KINDS = ("sudoku",)
"""The puzzles this format holds."""

_TOKEN = re.compile(r"[^\s|]+")
_RULE = re.compile(r"[-+=|\s]+")
_BOX = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*")
_NUMBERS = re.compile(r"[.0-9]+")
_GIVEN_CELL = re.compile(r"(?:\.|[A-Za-z][A-Za-z0-9]*):[0-9]+(?:\s|\Z)")
"""A Killer cell with its given (`a:5`), which a header line (`id: NAME`) is not."""
_SNIFF_CHARS = 1 << 12

Block = list[tuple[int, str]]
"""The non-blank (line number, line) pairs of one puzzle."""
Place = tuple[int, int]
"""(line, column) of a token, 1-based."""


def sniff(text: str) -> bool:
    """True when the first row (the first line that is no comment, header or rule) holds at
    least four numbers or dots, and nothing in the text's start is a Kakuro clue (a backslash)."""
    head = text[:_SNIFF_CHARS]
    if "\\" in head:
        return False
    for block in blocks(head):
        for _, line in block:
            if not is_extra(line):
                tokens = _TOKEN.findall(line)
                return len(tokens) >= 4 and all(_NUMBERS.fullmatch(t) for t in tokens)
    return False


def blocks(text: str) -> Iterator[Block]:
    """The blocks of non-blank lines of `text`, with their line numbers."""
    block: Block = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            block.append((number, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def is_extra(line: str) -> bool:
    """True for a line that is no row: a comment, a header line or a rule between bands."""
    stripped = line.strip()
    return (stripped.startswith("#") or (":" in stripped and not _GIVEN_CELL.match(stripped))
            or _RULE.fullmatch(stripped) is not None)


def read_block(block: Block, file: str | None) -> tuple[Header, tuple[int, int] | None, list[list[tuple[str, Place]]]]:
    """The header, box shape (None: square) and the rows of tokens (with their places) of a block."""
    header = Header()
    box = None
    rows: list[list[tuple[str, Place]]] = []
    for number, line in block:
        stripped = line.strip()
        if _RULE.fullmatch(stripped):
            continue
        if ":" in stripped and not rows and not _GIVEN_CELL.match(stripped):
            offset = line.index(stripped) + (1 if stripped.startswith("#") else 0)
            if header.take(line[offset:], file=file, line=number, column=offset + 1):
                if "box" in header.meta:
                    value = header.meta.pop("box")
                    shape = _BOX.fullmatch(value)
                    if shape is None:
                        raise PuzzleFormatError("box must look like 3x3 (rows x columns)", file=file, line=number,
                                                column=line.index(value) + 1, text=value)
                    box = (int(shape.group(1)), int(shape.group(2)))
                continue
        if stripped.startswith("#"):
            continue
        rows.append([(t.group(), (number, t.start() + 1)) for t in _TOKEN.finditer(line)])
    if not rows:
        raise PuzzleFormatError("a header without a grid", file=file, line=block[-1][0], column=1)
    return header, box, rows


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every grid block of `text`; PuzzleFormatError names the line and column of a problem."""

    def attempts() -> Iterator[Callable[[], Puzzle]]:
        for block in blocks(text):
            if all(is_extra(line) for _, line in block):
                continue  # comments alone
            yield partial(_parse_block, block, file)

    return gather(attempts(), on_bad, file=file, empty="no puzzle found (the text is empty)")


def square_rows(rows: list[list[tuple[str, Place]]], file: str | None) -> None:
    """PuzzleFormatError unless the rows make an n x n grid (n rows of n tokens)."""
    n = len(rows)
    for row in rows:
        if len(row) > n:
            line, column = row[n][1]
        elif len(row) < n:
            line, column = row[-1][1][0], row[-1][1][1] + len(row[-1][0])
        else:
            continue
        raise PuzzleFormatError(f"a Sudoku grid is square: {n} rows need {n} cells each, this row has {len(row)}",
                                file=file, line=line, column=column)


def digit(token: str, place: Place, file: str | None) -> int:
    """The digit of one cell token (`.` or `0`: 0, empty)."""
    if token == ".":
        return 0
    return parse_number(token, file=file, line=place[0], column=place[1], what="a cell")


def _parse_block(block: Block, file: str | None) -> Puzzle:
    header, box, rows = read_block(block, file)
    square_rows(rows, file)
    grid = [[digit(token, place, file) for token, place in row] for row in rows]

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return (block[0][0], None) if cell is None else rows[cell[0]][cell[1]][1]

    return building(lambda: Puzzle.sudoku(grid, box, id=header.id, meta=header.meta), file=file, locate=locate)


def sudoku_header(puzzle: Puzzle) -> list[str]:
    """The header lines of a Sudoku-family puzzle: its box when not square, id and metadata."""
    lines = [line for line in header_lines(puzzle) if not line.startswith("values:")]
    if puzzle.box is not None and puzzle.box[0] != puzzle.box[1]:
        lines.insert(0, f"box: {puzzle.box[0]}x{puzzle.box[1]}")
    return lines


def grid_lines(puzzle: Puzzle, token: Callable[[int, int], str]) -> list[str]:
    """The rows of a Sudoku-family puzzle, `token(row, col)` per cell, boxes set apart by `|`
    and bands by rules."""
    if puzzle.box is None:
        raise ValueError("grid_lines draws Sudoku-family puzzles")
    br, bc = puzzle.box
    n = puzzle.rows
    tokens = [[token(r, c) for c in range(n)] for r in range(n)]
    width = max(len(t) for row in tokens for t in row)
    lines = []
    for r, row in enumerate(tokens):
        if r and r % br == 0:
            lines.append("-+-".join("-" * ((width + 1) * bc - 1) for _ in range(n // bc)))
        lines.append(" | ".join(" ".join(t.rjust(width) for t in row[c:c + bc]) for c in range(0, n, bc)))
    return lines


def _token(grid: list[list[Any]], r: int, c: int) -> str:
    return str(grid[r][c] or ".")


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """Each puzzle as its header and grid; blocks separated by a blank line."""
    out = []
    for puzzle in puzzles:
        if puzzle.kind != "sudoku":
            raise KakuroError(f"the {NAME} format holds Sudokus; write {puzzle!r} as "
                              f"{'killer' if puzzle.kind == 'killer' else 'text'}")
        out.append("\n".join(sudoku_header(puzzle) + grid_lines(puzzle, partial(_token, puzzle.to_grid()))))
    return "\n\n".join(out) + "\n"
