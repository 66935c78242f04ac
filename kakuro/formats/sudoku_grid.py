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
square), `diagonals: yes` (a Sudoku X: both main diagonals hold every digit once; `no` is the
default), `id: NAME`, any other `key: text` kept as metadata. Other lines starting with `#` are
comments. The Killer and Jigsaw formats (`killer`, `jigsaw`) read their blocks with the same
header (`read_block`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, gather, header_lines, parse_number
from kakuro.puzzle import Position, Puzzle

NAME = "sudoku-grid"
EXTENSIONS = (".sudoku",)
KINDS = ("sudoku", "sudoku-x")
"""The puzzles this format holds."""

_TOKEN = re.compile(r"[^\s|]+")
_RULE = re.compile(r"[-+=|\s]+")
_BOX = re.compile(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*")
_NUMBERS = re.compile(r"[.0-9]+")
_MAP_CELL = re.compile(r"(\.|[A-Za-z][A-Za-z0-9]*)(?::([0-9]+))?")
"""A cell of a Killer's cage map or a Jigsaw's region map: a name (or `.`: none), then its given."""
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


@dataclass
class GridBlock:
    """What `read_block` finds in a block of the family's formats: its `header` (id,
    metadata), the `box` shape (None: square, or none for a Jigsaw) and the `box_line` that
    gave it (0: none), `diagonals` (a `diagonals: yes` line: an X), and the `rows` of tokens,
    each with its place."""

    header: Header
    box: tuple[int, int] | None
    box_line: int
    diagonals: bool
    rows: list[list[tuple[str, Place]]]


def read_block(block: Block, file: str | None) -> GridBlock:
    """The header, box shape, diagonals and rows of tokens (with their places) of a block."""
    found = GridBlock(Header(), None, 0, False, [])
    for number, line in block:
        stripped = line.strip()
        if _RULE.fullmatch(stripped):
            continue
        if ":" in stripped and not found.rows and not _GIVEN_CELL.match(stripped):
            offset = line.index(stripped) + (1 if stripped.startswith("#") else 0)
            if found.header.take(line[offset:], file=file, line=number, column=offset + 1):
                _family_keys(found, line, number, file)
                continue
        if stripped.startswith("#"):
            continue
        found.rows.append([(t.group(), (number, t.start() + 1)) for t in _TOKEN.finditer(line)])
    if not found.rows:
        raise PuzzleFormatError("a header without a grid", file=file, line=block[-1][0], column=1)
    return found


def _family_keys(found: GridBlock, line: str, number: int, file: str | None) -> None:
    """Move a `box` or `diagonals` header line (`line`, numbered `number`) from the metadata
    into `found`."""
    meta = found.header.meta
    if "box" in meta:
        value = meta.pop("box")
        shape = _BOX.fullmatch(value)
        if shape is None:
            raise PuzzleFormatError("box must look like 3x3 (rows x columns)", file=file, line=number,
                                    column=line.rindex(value) + 1, text=value)
        found.box, found.box_line = (int(shape.group(1)), int(shape.group(2))), number
    if "diagonals" in meta:
        value = meta.pop("diagonals")
        found.diagonals = yes_or_no(value, "diagonals", file=file, line=number, column=line.rindex(value) + 1)


def yes_or_no(value: str, key: str, *, file: str | None, line: int, column: int) -> bool:
    """True for `yes`, False for `no` (either case): the value of a header line `key: yes`."""
    if value.lower() not in ("yes", "no"):
        raise PuzzleFormatError(f"{key} must be yes or no", file=file, line=line, column=column, text=value[:20])
    return value.lower() == "yes"


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
    found = read_block(block, file)
    rows = found.rows
    square_rows(rows, file)
    grid = [[digit(token, place, file) for token, place in row] for row in rows]
    header = found.header

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return (block[0][0], None) if cell is None else rows[cell[0]][cell[1]][1]

    return building(lambda: Puzzle.sudoku(grid, found.box, diagonals=found.diagonals, id=header.id, meta=header.meta),
                    file=file, locate=locate)


def sudoku_header(puzzle: Puzzle) -> list[str]:
    """The header lines of a Sudoku-family puzzle: its box when not square, `diagonals: yes`
    for an X, id and metadata."""
    lines = [line for line in header_lines(puzzle) if not line.startswith("values:")]
    if puzzle.diagonals:
        lines.insert(0, "diagonals: yes")
    if puzzle.box is not None and puzzle.box[0] != puzzle.box[1]:
        lines.insert(0, f"box: {puzzle.box[0]}x{puzzle.box[1]}")
    return lines


def grid_lines(puzzle: Puzzle, token: Callable[[int, int], str]) -> list[str]:
    """The rows of a Sudoku-family puzzle, `token(row, col)` per cell, boxes set apart by `|`
    and bands by rules (a Jigsaw's rows plain: its region map shows its regions)."""
    if not puzzle.regions:
        raise ValueError("grid_lines draws Sudoku-family puzzles")
    n = puzzle.rows
    br, bc = puzzle.box or (n, n)
    tokens = [[token(r, c) for c in range(n)] for r in range(n)]
    width = max(len(t) for row in tokens for t in row)
    lines = []
    for r, row in enumerate(tokens):
        if r and r % br == 0:
            lines.append("-+-".join("-" * ((width + 1) * bc - 1) for _ in range(n // bc)))
        lines.append(" | ".join(" ".join(t.rjust(width) for t in row[c:c + bc]) for c in range(0, n, bc)))
    return lines


def map_cells(rows: list[list[tuple[str, Place]]], file: str | None, *,
              what: str) -> tuple[list[list[int]], dict[str, list[Position]]]:
    """The givens grid and each name's cells (names in the order they first appear) of a map
    whose cells are names of `what` ("cage" or "region") with `:DIGIT` for a given; a cage
    map's `.` is a cell in no cage. PuzzleFormatError at a token that is not such a cell."""
    n = len(rows)
    grid = [[0] * n for _ in range(n)]
    members: dict[str, list[Position]] = {}
    for r, row in enumerate(rows):
        for c, (token, place) in enumerate(row):
            cell = _MAP_CELL.fullmatch(token)
            if cell is None or (cell.group(1) == "." and what != "cage"):
                none = " or '.'" if what == "cage" else ""
                raise PuzzleFormatError(f"a cell is a {what} name (a letter, then letters or digits){none}, "
                                        "with ':DIGIT' for a given", file=file, line=place[0], column=place[1], text=token)
            if cell.group(2) is not None:
                grid[r][c] = digit(cell.group(2), (place[0], place[1] + cell.start(2)), file)
            if cell.group(1) != ".":
                members.setdefault(cell.group(1), []).append((r, c))
    return grid, members


def map_name(k: int) -> str:
    """The k-th name of a cage or region map: a..z, A..Z, then two letters (aa, ab, ...)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[k] if k < len(letters) else map_name(k // len(letters) - 1) + letters[k % len(letters)]


def region_numbers(puzzle: Puzzle) -> list[int]:
    """For each cell of a Jigsaw, its region's number (0-based) as a reader of a region map
    numbers them: in the order their first cells come in reading order."""
    owner = {c: k for k, region in enumerate(puzzle.boxes) for c in region.cells}
    order: dict[int, int] = {}
    return [order.setdefault(owner[c], len(order)) for c in range(puzzle.size)]


def map_regions(labels: Mapping[str, list[Position]], n: int, file: str | None,
                place: Callable[[Position], Place]) -> list[list[Position]]:
    """The regions of a Jigsaw's region map over all n x n cells, `labels` (each label's cells,
    labels in the order they first appear): PuzzleFormatError unless each has n cells (so there
    are n), at the first cell of the first region at fault."""
    for label, cells in labels.items():
        line, column = place(cells[0])
        if len(cells) != n:
            raise PuzzleFormatError(f"region {label!r} has {len(cells)} cell{'s' if len(cells) > 1 else ''}; each region "
                                    f"of a {n}x{n} Jigsaw has {n}", file=file, line=line, column=column, text=label)
    return list(labels.values())


def _token(grid: list[list[Any]], r: int, c: int) -> str:
    return str(grid[r][c] or ".")


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """Each puzzle as its header and grid; blocks separated by a blank line."""
    out = []
    for puzzle in puzzles:
        if puzzle.kind not in KINDS:
            raise KakuroError(f"the {NAME} format holds Sudokus and Sudoku X; {puzzle!r} is not one")
        out.append("\n".join(sudoku_header(puzzle) + grid_lines(puzzle, partial(_token, puzzle.to_grid()))))
    return "\n\n".join(out) + "\n"
