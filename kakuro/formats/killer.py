"""The Killer Sudoku format (`.killer`, and text recognised by its sum lines).

One puzzle is a block of lines (blocks separated by blank lines): n rows of n cage names, a
cell's name saying which cage it is in (`.` for a cell in none), then the sums, `NAME=TOTAL`
separated by blanks, on as many lines as wanted. A name is a letter followed by letters or
digits; a cell with a given digit writes it after its name (`a:5`). `|` and rules between
boxes are ignored; header lines as in the Sudoku grid format (`box: 2x3`, `id: NAME`;
`diagonals: yes` for a Killer X)::

    a a b | c c d
    ...
    a=3 b=15 c=17 d=4 ...

`dumps` then `parse` gives the same puzzle back (cages in the same order).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, building, gather, parse_number
from kakuro.formats.sudoku_grid import (
    Block,
    Place,
    blocks,
    grid_lines,
    map_cells,
    map_name,
    read_block,
    square_rows,
    sudoku_header,
)
from kakuro.puzzle import Puzzle

NAME = "killer"
EXTENSIONS = (".killer",)
KINDS = ("killer", "killer-x")
"""The puzzles this format holds."""

_SUMS = re.compile(r"\s*(?:[A-Za-z][A-Za-z0-9]*\s*=\s*[0-9]+\s*)+")
_SUM = re.compile(r"([A-Za-z][A-Za-z0-9]*)\s*=\s*([0-9]+)")
_SNIFF_CHARS = 1 << 12


def sniff(text: str) -> bool:
    """True when a line of the text's start is a line of cage sums (`a=3 b=15`)."""
    return any(_SUMS.fullmatch(line) for line in text[:_SNIFF_CHARS].splitlines() if line.strip())


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every Killer block of `text`; PuzzleFormatError names the line and column of a problem."""

    def attempts() -> Iterator[Callable[[], Puzzle]]:
        for block in blocks(text):
            if all(line.strip().startswith("#") for _, line in block):
                continue
            yield partial(_parse_block, block, file)

    return gather(attempts(), on_bad, file=file, empty="no puzzle found (the text is empty)")


def _parse_block(block: Block, file: str | None) -> Puzzle:
    sums = [(n, line) for n, line in block if _SUMS.fullmatch(line)]
    found = read_block([(n, line) for n, line in block if not _SUMS.fullmatch(line)], file)
    rows, header = found.rows, found.header
    square_rows(rows, file)
    totals: dict[str, tuple[int, Place]] = {}
    for number, line in sums:
        for match in _SUM.finditer(line):
            name, place = match.group(1), (number, match.start() + 1)
            if name in totals:
                raise PuzzleFormatError(f"cage {name} has two sums", file=file, line=number, column=place[1])
            totals[name] = (parse_number(match.group(2), file=file, line=number, column=match.start(2) + 1,
                                         what="a cage sum"), place)
    n = len(rows)
    grid, members = map_cells(rows, file, what="cage")
    for name, (_, (at_line, at_column)) in totals.items():
        if name not in members:
            raise PuzzleFormatError(f"cage {name} has a sum but no cell", file=file, line=at_line, column=at_column)
    missing = next((name for name in members if name not in totals), None)
    if missing is not None:
        r, c = members[missing][0]
        at_line, at_column = rows[r][c][1]
        raise PuzzleFormatError(f"cage {missing} has no sum (add {missing}=TOTAL after the grid)", file=file,
                                line=at_line, column=at_column)
    cages = [(totals[name][0], cells) for name, cells in members.items()]

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return (block[0][0], None) if cell is None else rows[cell[0]][cell[1]][1]

    return building(lambda: Puzzle.killer(cages, size=n, givens=grid, box=found.box, diagonals=found.diagonals,
                                          id=header.id, meta=header.meta), file=file, locate=locate)


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """Each Killer as its header, cage grid and sums (ten a line); blocks separated by a blank line."""
    return "\n\n".join(_dump_one(puzzle) for puzzle in puzzles) + "\n"


def _dump_one(puzzle: Puzzle) -> str:
    if puzzle.kind not in KINDS:
        raise KakuroError(f"the {NAME} format holds Killer Sudokus (and Killer X); {puzzle!r} is not one")
    name = {c: map_name(k) for k, cage in enumerate(puzzle.cages) for c in cage.cells}
    n = puzzle.rows

    def token(r: int, c: int) -> str:
        given = puzzle.givens.get(r * n + c)
        return name.get(r * n + c, ".") + ("" if given is None else f":{given}")

    sums = [f"{map_name(k)}={cage.total}" for k, cage in enumerate(puzzle.cages)]
    lines = sudoku_header(puzzle) + grid_lines(puzzle, token)
    lines += [" ".join(sums[i:i + 10]) for i in range(0, len(sums), 10)]
    return "\n".join(lines)
