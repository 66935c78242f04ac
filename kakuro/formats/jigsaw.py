"""The Jigsaw Sudoku format (`.jigsaw`, and text recognised by its region map).

One puzzle is a block of lines (blocks separated by blank lines): n rows of n region names, a
cell's name saying which region it is in, as a Killer's cage map does; a cell with a given
digit writes it after its name (`a:5`). A name is a letter followed by letters or digits; the
n names stand for the n regions of n cells that take the place of boxes. Header lines as in the
Sudoku grid format (`id: NAME`; `diagonals: yes` for a Jigsaw X)::

    a:1 a   b   b
    a   a   b   b:3
    c   c:4 d   d
    c   c   d   d

`dumps` then `parse` gives the same puzzle back (regions named a, b, c ... in the order their
first cells come in reading order). The one-line format (`sudoku`) holds a Jigsaw too: n x n
givens, then n x n region labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, building, gather
from kakuro.formats.sudoku_grid import (
    Block,
    blocks,
    grid_lines,
    is_extra,
    map_cells,
    map_name,
    map_regions,
    read_block,
    region_numbers,
    square_rows,
    sudoku_header,
)
from kakuro.puzzle import Puzzle

NAME = "jigsaw"
EXTENSIONS = (".jigsaw",)
KINDS = ("jigsaw", "jigsaw-x")
"""The puzzles this format holds."""

_NAMED = re.compile(r"[A-Za-z][A-Za-z0-9]*(?::[0-9]+)?")
_TOKEN = re.compile(r"[^\s|]+")
_SNIFF_CHARS = 1 << 12


def sniff(text: str) -> bool:
    """True when the first row (the first line that is no comment, header or rule) holds at
    least four region names, each maybe with its given (`a:5`), and nothing else."""
    for block in blocks(text[:_SNIFF_CHARS]):
        for _, line in block:
            tokens = _TOKEN.findall(line)
            if tokens and all(_NAMED.fullmatch(t) for t in tokens):
                return len(tokens) >= 4
            if not is_extra(line):
                return False
    return False


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every Jigsaw block of `text`; PuzzleFormatError names the line and column of a problem."""

    def attempts() -> Iterator[Callable[[], Puzzle]]:
        for block in blocks(text):
            if all(line.strip().startswith("#") for _, line in block):
                continue
            yield partial(_parse_block, block, file)

    return gather(attempts(), on_bad, file=file, empty="no puzzle found (the text is empty)")


def _parse_block(block: Block, file: str | None) -> Puzzle:
    found = read_block(block, file)
    rows, header = found.rows, found.header
    if found.box is not None:
        raise PuzzleFormatError("a Jigsaw has regions, not boxes: drop the box line", file=file, line=found.box_line,
                                column=1)
    square_rows(rows, file)
    n = len(rows)
    grid, members = map_cells(rows, file, what="region")
    regions = map_regions(members, n, file, lambda cell: rows[cell[0]][cell[1]][1])

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return (block[0][0], None) if cell is None else rows[cell[0]][cell[1]][1]

    return building(lambda: Puzzle.jigsaw(grid, regions, diagonals=found.diagonals, id=header.id, meta=header.meta),
                    file=file, locate=locate)


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """Each Jigsaw as its header and region map; blocks separated by a blank line."""
    return "\n\n".join(_dump_one(puzzle) for puzzle in puzzles) + "\n"


def _dump_one(puzzle: Puzzle) -> str:
    if puzzle.kind not in KINDS:
        raise KakuroError(f"the {NAME} format holds Jigsaw Sudokus (and Jigsaw X); {puzzle!r} is not one")
    number = region_numbers(puzzle)
    n = puzzle.rows

    def token(r: int, c: int) -> str:
        given = puzzle.givens.get(r * n + c)
        return map_name(number[r * n + c]) + ("" if given is None else f":{given}")

    return "\n".join(sudoku_header(puzzle) + grid_lines(puzzle, token))
