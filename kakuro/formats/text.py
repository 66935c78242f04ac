"""The de facto "down\\right" text grid, and the toolkit's canonical native format.

One puzzle is a block of lines; blocks are separated by blank lines. Each grid line holds one
token per grid position, separated by whitespace, ',', tabs or '|':

- black: `#`, `x`, `X` or a lone backslash `\\`
- clue: `16\\` (down sum), `\\17` (across sum), `16\\17` (both)
- white: `_` (or a run of underscores, `_____`), `.` or `0`; a digit (or a number, for wider
  ranges) is a given
- optional header lines before the grid: `values: 1..12` (default 1..9), `id: NAME`,
  and any other `key: text` kept as metadata;
- comment lines before the grid: a line that starts with `#`, is not a row of cells and holds
  no backslash (so `# x x` is a row, `# from kakuros.com` a comment, and `# 3\\ oops` an
  error); `# key: value` is a header line. A block of comments alone (a file's preamble, as
  kakuros.com-style `.kakuro` files and picat-style grids have) is skipped, its header lines
  going to the next puzzle.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from kakuro.errors import PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, cell_token, gather, header_lines, parse_number
from kakuro.puzzle import Puzzle
from kakuro.wellformed import MAX_SIDE, GridCell

NAME = "text"
EXTENSIONS = (".txt", ".kakuro", ".kak")

_SOLVE_SUMMARY = re.compile(r".+: [a-z]+ in [0-9.]+ s \([^()]+\)\s*")
"""The line `kakuro solve` prints above a solved grid (`NAME: solved in 0.001 s (auto)`): a
puzzle without an id is named `FILE#K`, which no header line matches."""
_TOKEN = re.compile(r"[^\s,|]+")
_BLACK = {"#", "x", "X"}
_EMPTY = {"_", ".", "0"}
_UNDERSCORES = re.compile(r"_+")

Block = list[tuple[int, str]]
"""The non-blank (line number, line) pairs of one puzzle."""


def sniff(text: str) -> bool:
    """Anything can be tried as text: this is the fallback format."""
    return True


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every puzzle block of `text`; PuzzleFormatError names the line and column of a problem
    (with `on_bad`, a bad block is reported and skipped)."""

    def attempts() -> Iterator[Callable[[], Puzzle]]:
        preamble: Block = []
        for block in _blocks(text):
            if all(_is_comment(line) for _, line in block):
                preamble += block  # comments alone: their header lines go to the next puzzle
                continue
            yield partial(_parse_block, preamble + block, file)
            preamble = []

    return gather(attempts(), on_bad, file=file, empty="no puzzle found (the text is empty)")


def parse_solved_grid(text: str, file: str | None = None) -> list[list[GridCell | None]]:
    """The grid of the first block of `text`, header skipped, without building a Puzzle: a
    solved grid (a digit in every white cell, as `render_grid(..., solved=True)` writes it)
    reads this way whatever its digits are. Every number is a digit, 0 included (a value
    range may start at 0); `_` and `.` are empty cells (None)."""
    blocks = _blocks(text)
    if not blocks:
        raise PuzzleFormatError("no grid found (the text is empty)", file=file, line=1, column=1)
    return _read_block(blocks[0], file, solved=True)[1]


def _blocks(text: str) -> list[Block]:
    blocks: list[Block] = []
    block: Block = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            block.append((number, line))
        elif block:
            blocks.append(block)
            block = []
    if block:
        blocks.append(block)
    return blocks


def _read_block(
    block: Block, file: str | None, *, solved: bool = False
) -> tuple[Header, list[list[GridCell]], list[list[tuple[int, int]]]]:
    """The header, the grid rows, and the (line, column) of every grid token of one block
    (`solved`: tokens as `parse_solved_grid` reads them)."""
    header = Header()
    rows: list[list[GridCell]] = []
    places: list[list[tuple[int, int]]] = []
    for number, line in block:
        if not rows and header.take(line, file=file, line=number):
            continue
        if solved and not rows and _SOLVE_SUMMARY.fullmatch(line):  # `kakuro solve`'s line above its grid
            continue
        if not rows and _is_comment(line):
            at = line.index("#") + 1
            header.take(line[at:], file=file, line=number, column=at + 1)
            continue
        tokens = list(itertools.islice(_TOKEN.finditer(line), MAX_SIDE + 1))  # never a whole huge line
        if len(tokens) > MAX_SIDE:
            raise PuzzleFormatError(f"this row has more than {MAX_SIDE} cells, the most a grid may have",
                                    file=file, line=number, column=tokens[MAX_SIDE].start() + 1)
        if len(rows) == MAX_SIDE:
            raise PuzzleFormatError(f"this grid has more than {MAX_SIDE} rows, the most a grid may have",
                                    file=file, line=number, column=1)
        row = [_parse_token(t.group(), file, number, t.start() + 1, solved=solved) for t in tokens]
        if rows and len(row) != len(rows[0]):
            expected = len(rows[0])
            extra = tokens[expected] if len(tokens) > expected else None
            column = extra.start() + 1 if extra else tokens[-1].end() + 1 if tokens else 1
            raise PuzzleFormatError(
                f"this row has {len(row)} cells, the first row has {expected}",
                file=file, line=number, column=column, text=extra.group()[:20] if extra else None,
            )
        rows.append(row)
        places.append([(number, t.start() + 1) for t in tokens])
    if not rows:
        raise PuzzleFormatError("a header without a grid", file=file, line=block[-1][0], column=1)
    return header, rows, places


def _parse_block(block: Block, file: str | None) -> Puzzle:
    header, rows, places = _read_block(block, file)

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        if cell is None:
            return block[0][0], None
        return places[cell[0]][cell[1]]

    return building(
        lambda: Puzzle.from_grid(rows, values=header.values, id=header.id, meta=header.meta), file=file, locate=locate
    )


def _is_comment(line: str) -> bool:
    """True for a line that starts with `#`, is not a row of cells and holds no backslash (a
    mistyped row, which has clues, is reported as an error instead of being taken for a
    comment)."""
    if not line.lstrip().startswith("#") or "\\" in line:
        return False
    try:
        for match in itertools.islice(_TOKEN.finditer(line), MAX_SIDE + 1):
            _parse_token(match.group(), None, 1, 1)
    except PuzzleFormatError:
        return True
    return False


def _parse_token(token: str, file: str | None, line: int, column: int, *, solved: bool = False) -> GridCell:
    """One grid cell; in a `solved` grid `0` is the digit 0 and an empty cell is None."""
    if token in _BLACK:
        return "#"
    if solved and token == "0":
        return 0
    if token in _EMPTY or _UNDERSCORES.fullmatch(token):
        return None if solved else 0
    if "\\" in token:
        down, sep, across = token.partition("\\")
        if "\\" in across:
            raise PuzzleFormatError("a clue has one backslash: down\\across",
                                    file=file, line=line, column=column, text=token[:20])
        d = parse_number(down, file=file, line=line, column=column, what="a down clue") if down else None
        a = parse_number(across, file=file, line=line, column=column + len(down) + 1, what="an across clue") if across else None
        return "#" if d is None and a is None else [d, a]
    if token[0] in "0123456789":
        if token.startswith("0"):
            raise PuzzleFormatError("a given digit cannot start with 0", file=file, line=line, column=column, text=token[:20])
        return parse_number(token, file=file, line=line, column=column, what="a given digit")
    raise PuzzleFormatError(
        "unknown cell: use #, x, X or \\ (black), D\\A, D\\ or \\A (clue), _ . or 0 (white) or a digit",
        file=file, line=line, column=column, text=token[:20],
    )


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """The puzzles as text blocks separated by a blank line (columns aligned)."""
    return "\n".join(_dump_one(p) for p in puzzles)


def _dump_one(puzzle: Puzzle) -> str:
    return "\n".join(header_lines(puzzle) + render_grid(puzzle.to_grid())) + "\n"


def render_grid(grid: Sequence[Sequence[GridCell]], *, solved: bool = False) -> list[str]:
    """The lines of a grid in this format, columns right-aligned. A `solved` grid (a digit in
    every white cell) shows every digit, 0 included, and reads back with `parse_solved_grid`;
    a puzzle's grid shows an empty cell (0) as `_`."""
    table = [[token(cell, solved=solved) for cell in row] for row in grid]
    width = max((len(t) for row in table for t in row), default=1)
    return [" ".join(t.rjust(width) for t in row).rstrip() for row in table]


def token(cell: GridCell, *, solved: bool = False) -> str:
    """The text of one grid cell: `#`, `_` (empty white), a digit, or a `down\\across` clue.
    In a `solved` grid 0 is the digit 0, never an empty cell."""
    if solved and cell == 0 and not isinstance(cell, bool):
        return "0"
    return cell_token(cell, black="#", empty="_", clue=_clue)


def _clue(down: int | None, across: int | None) -> str:
    return f"{'' if down is None else down}\\{'' if across is None else across}"
