"""The one-line-per-puzzle Sudoku format (`.sdm`, and text recognised by its content).

Each puzzle is one line of n x n characters, row after row: `.` or `0` for an empty cell, a
digit `1`-`9`, then letters for 10 and up as 16x16 puzzles are commonly written (`A` = 10 ...
`G` = 16; `P` = 25 for 25x25; either case). n is 4, 9, 16, 25 ... (square boxes: a 6x6 with
2x3 boxes needs the grid format, which names its box). A Jigsaw is a line of twice as many
characters, as Jigsaw collections write them: its n x n givens, then n x n region labels (one
digit or letter per cell, the same label for the cells of one region; `A` and `a` differ), for
any n from 4 to 35. Blank lines are skipped; a line that starts with `#` is a comment, and
`# key: value` before a puzzle gives it an id (`id: NAME`) or metadata, as in the other
formats; `# diagonals: yes` makes it a Sudoku X (or Jigsaw X). A line may end with blanks and a
comment after them (`  # note` or `  // note`), as puzzle collections often have.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, gather
from kakuro.formats.sudoku_grid import map_regions, region_numbers, sudoku_header, yes_or_no
from kakuro.puzzle import Position, Puzzle

NAME = "sudoku"
EXTENSIONS = (".sdm",)
KINDS = ("sudoku", "sudoku-x", "jigsaw", "jigsaw-x")
"""The puzzles this format holds (a Kakuro format holds only Kakuro)."""

DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The character of each digit 1..35 in a one-line puzzle."""
_ALLOWED = frozenset(".0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_LINE = re.compile(r"([.0-9A-Za-z]+)(?:\s+(?:#|//).*)?\s*")
_FIRST_WORD = re.compile(r"[.0-9A-Za-z]+(?=\s|$)")
_SNIFF_CHARS = 1 << 12


def sniff(text: str) -> bool:
    """True when the first line that is not blank or a comment starts like a one-line Sudoku:
    a word of at least 16 characters, all `.`, digits or letters (so a line one character
    short, or one with words after its cells, is read as a Sudoku and reported as such)."""
    for line in text[:_SNIFF_CHARS].splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            word = _FIRST_WORD.match(stripped)
            return word is not None and len(word.group()) >= 16
    return False


EMPTY = "no puzzle found (the text is empty)"


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every puzzle line of `text`; PuzzleFormatError names the line and column of a problem."""
    return gather(attempts(text, file), on_bad, file=file, empty=EMPTY)


def attempts(text: str, file: str | None = None) -> Iterator[Callable[[], Puzzle]]:
    """One maker per puzzle line, in order, each building its puzzle when called (a line is not
    looked at before); a malformed `# values:` comment raises here, naming its line."""
    header: Header | None = None  # made only for a puzzle with comments: a maker per line stays small
    diagonals = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            header = header or Header()
            header.take(stripped[1:], file=file, line=number, column=line.index("#") + 2)
            if "diagonals" in header.meta:
                value = header.meta.pop("diagonals")
                diagonals = yes_or_no(value, "diagonals", file=file, line=number, column=line.rindex(value) + 1)
            continue
        yield partial(_parse_line, line, number, file, header, diagonals)
        header, diagonals = None, False


def _side(length: int) -> tuple[int, bool] | None:
    """(n, whether it is a Jigsaw) of a line of `length` characters, None for no puzzle's."""
    side = math.isqrt(length)
    if side * side == length and side >= 4 and math.isqrt(side) ** 2 == side:
        return side, False
    side = math.isqrt(length // 2)
    return (side, True) if 2 * side * side == length and 4 <= side <= len(DIGITS) else None


def _parse_line(line: str, number: int, file: str | None, header: Header | None, diagonals: bool = False) -> Puzzle:
    header = header or Header()
    start = len(line) - len(line.lstrip())
    match = _LINE.fullmatch(line.strip())
    if match is None:
        bad = next((i for i, ch in enumerate(line) if i >= start and ch not in _ALLOWED), start)
        if line[bad].isspace():  # the cells, then more than a comment
            bad = len(line) - len(line[bad:].lstrip())
            raise PuzzleFormatError("after a one-line Sudoku's cells only blanks and a comment ('#' or '//') may follow",
                                    file=file, line=number, column=bad + 1, text=line[bad:].rstrip())
        raise PuzzleFormatError("a one-line Sudoku holds only '.', digits and letters", file=file, line=number,
                                column=bad + 1, text=line[bad])
    cells = match.group(1)
    side = _side(len(cells))
    if side is None:
        raise PuzzleFormatError(f"a one-line Sudoku has n x n characters for n = 4, 9, 16, 25 ... (a Jigsaw 2 x n x n); "
                                f"this line has {len(cells)}", file=file, line=number, column=start + 1)
    n, jigsaw = side
    grid = [[0] * n for _ in range(n)]
    for i, ch in enumerate(cells[:n * n]):
        if ch in ".0":
            continue
        digit = DIGITS.find(ch.upper()) + 1
        if not 1 <= digit <= n:
            raise PuzzleFormatError(f"{ch!r} is not a digit of a {n}x{n} Sudoku (1-{DIGITS[n - 1]}, '.' or '0' empty)",
                                    file=file, line=number, column=start + i + 1, text=ch)
        grid[i // n][i % n] = digit

    def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
        return (number, None) if cell is None else (number, start + cell[0] * n + cell[1] + 1)

    if not jigsaw:
        return building(lambda: Puzzle.sudoku(grid, diagonals=diagonals, id=header.id, meta=header.meta), file=file,
                        locate=locate)
    regions = _regions(cells[n * n:], n, number, start + n * n, file)
    return building(lambda: Puzzle.jigsaw(grid, regions, diagonals=diagonals, id=header.id, meta=header.meta),
                    file=file, locate=locate)


def _regions(labels: str, n: int, number: int, start: int, file: str | None) -> list[list[Position]]:
    """A Jigsaw line's regions from its n x n `labels` (from column `start` + 1 of line `number`)."""
    members: dict[str, list[Position]] = {}
    for i, ch in enumerate(labels):
        if ch == ".":
            raise PuzzleFormatError("a region label is a digit or a letter; every cell of a Jigsaw is in a region",
                                    file=file, line=number, column=start + i + 1, text=ch)
        members.setdefault(ch, []).append(divmod(i, n))
    return map_regions(members, n, file, lambda cell: (number, start + cell[0] * n + cell[1] + 1))


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """One line per puzzle, each after its `# id: ...` comment when it has an id or metadata."""
    lines = []
    for puzzle in puzzles:
        square = puzzle.box is None or puzzle.box[0] == puzzle.box[1]
        if puzzle.kind not in KINDS or not square or puzzle.rows > len(DIGITS) or (puzzle.box is None and puzzle.rows < 4):
            raise KakuroError(f"the {NAME} format holds Sudokus with square boxes and Jigsaws up to "
                              f"{len(DIGITS)}x{len(DIGITS)} (Jigsaws from 4x4); write {puzzle!r} as sudoku-grid, "
                              "jigsaw or killer")
        lines += [f"# {line}" for line in sudoku_header(puzzle)]
        values = [puzzle.givens.get(c, 0) for c in range(puzzle.size)]
        labels = "".join(DIGITS[k] for k in region_numbers(puzzle)) if puzzle.box is None else ""
        lines.append("".join(DIGITS[v - 1] if v else "." for v in values) + labels)
    return "\n".join(lines) + "\n"
