"""puzz.link Kakuro URLs, as pzprjs encodes them: `https://puzz.link/p?kakuro/{cols}/{rows}/{body}`.

Size convention: pzprjs keeps the top clue row and the left clue column *outside* its board
(its "excells"), so `{cols}/{rows}` count the cells inside that frame. A `6/5` URL is a grid of
7 columns and 6 rows here, where the grid includes the clue row and column.

The body (pzprjs `encodeKakuro`/`decodeKakuro`) first walks the inner cells in row-major order:
`k`..`z` skip 1..16 white cells, `.` is a black cell, and any other character starts a clue cell
written as two clue characters, down then across. Then come one clue character per column whose
top inner cell is white (the down clue above it) and one per row whose leftmost inner cell is
white (the across clue left of it). A clue character is `0`-`9`, `a`-`j` (10..19) or `A`-`Z`
(20..45); `-` (current pzprjs) and `0` (older pzprjs) mean no clue.

Any `https://host/path?kakuro/...` prefix is accepted (puzz.link, pzv.jp's `p.html`,
pzprxs.vercel.app, or none). A file holds one URL per line; a line starting with `#` is a
comment, and `# id: NAME`, `# values: ...`, `# key: value` before a URL are its header as in the
text format. The URL itself has no room for givens, value ranges other than 1..9 or clues above
45: writing such a puzzle raises KakuroError.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, gather, header_lines, parse_number
from kakuro.puzzle import DEFAULT_VALUES, Puzzle
from kakuro.values import position_name
from kakuro.wellformed import MAX_SIDE, GridCell

NAME = "puzzlink"
EXTENSIONS = (".puzzlink",)

PREFIX = "https://puzz.link/p?kakuro/"
"""What `dumps` writes before the size."""
MAX_CLUE = 45
"""Largest clue a clue character can hold."""

_URL = re.compile(r"(?P<prefix>[^\s?]*)\?(?P<type>[^/\s]*)/(?P<rest>\S*)")
_SKIP_FIRST = ord("k")
_SKIP_MAX = 16
_NO_CLUE = "-"
_CLUE_CHARS = "123456789abcdefghijABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The characters of the sums 1..45, in order."""
_CLUES: dict[str, int | None] = {_NO_CLUE: None, "0": None} | {ch: i + 1 for i, ch in enumerate(_CLUE_CHARS)}


def sniff(text: str) -> bool:
    """True when the first line that is not blank or a `#` comment holds `?kakuro/`."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return "?kakuro/" in stripped
    return False


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every URL of `text` (one a line; `#` comments before a URL are its header). With
    `on_bad` a bad URL (or a bad header before it) is reported and skipped."""

    def attempts() -> Iterator[Callable[[], Puzzle]]:
        comments: list[tuple[int, int, str]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped:
                continue
            indent = len(line) - len(line.lstrip())
            if stripped.startswith("#"):
                comments.append((number, indent + 2, stripped[1:]))
                continue
            yield partial(_parse_commented_url, stripped, comments, file, number, indent + 1)
            comments = []

    return gather(attempts(), on_bad, file=file, empty="no puzzle found (no puzz.link URL)")


def _parse_commented_url(url: str, comments: list[tuple[int, int, str]], file: str | None, line: int, column: int) -> Puzzle:
    header = Header()
    for number, start, comment in comments:
        header.take(comment, file=file, line=number, column=start)
    return _parse_url(url, header, file, line, column)


def _parse_url(url: str, header: Header, file: str | None, line: int, column: int) -> Puzzle:
    """One URL found at (`line`, `column`); the body is decoded as pzprjs does."""
    decoder = _Decoder(url, file, line, column)
    cols, rows, body = decoder.size()
    i = decoder.read_cells(body, rows, cols)
    i = decoder.read_frame(body, rows, cols, i)
    if i < len(body):
        raise decoder.fail("unexpected text after the last clue", decoder.start + i, body[i : i + 20])
    decoder.check_runs()
    grid = decoder.grid
    return building(
        lambda: Puzzle.from_grid(grid, values=header.values, id=header.id, meta=header.meta), file=file,
        locate=decoder.locate,
    )


@dataclass
class _Decoder:
    """The decoding of one URL found at (`line`, `column`) of `file`, step by step: its size,
    its cells, its frame of clues; `places` keeps where each grid cell came from, for the
    messages."""

    url: str
    file: str | None
    line: int
    column: int
    start: int = 0
    """Offset of the body in `url`."""
    grid: list[list[GridCell]] = field(default_factory=list)
    places: list[list[tuple[int, int]]] = field(default_factory=list)

    def fail(self, message: str, offset: int, text: str | None = None) -> PuzzleFormatError:
        """The error for `offset` characters into the URL."""
        return PuzzleFormatError(message, file=self.file, line=self.line, column=self.column + offset, text=text)

    def clue(self, offset: int) -> int | None:
        """The sum of the clue character at `offset` of the URL (None: no clue)."""
        char = self.url[offset]
        if char not in _CLUES:
            raise self.fail("not a clue character: use 1-9, a-j (10-19), A-Z (20-45) or - (none)", offset, char)
        return _CLUES[char]

    def size(self) -> tuple[int, int, str]:
        """(columns, rows, body) of the URL, checked; sets `start`, and `grid` and `places` to
        an all-black grid of that size (clue row and column included)."""
        match = _URL.fullmatch(self.url)
        if match is None:
            raise self.fail("not a puzz.link URL like https://puzz.link/p?kakuro/COLS/ROWS/BODY", 0, self.url[:40])
        if match.group("type") != "kakuro":
            raise self.fail("not a Kakuro URL", match.start("type"), match.group("type")[:20])
        parts = match.group("rest").split("/")
        if len(parts) != 3:
            raise self.fail("expected COLS/ROWS/BODY after ?kakuro/", match.start("rest"), match.group("rest")[:40])
        offsets = [match.start("rest")]
        for part in parts[:-1]:
            offsets.append(offsets[-1] + len(part) + 1)
        cols, rows = (
            parse_number(part, file=self.file, line=self.line, column=self.column + offset, what=what)
            for part, offset, what in zip(parts, offsets, ("the number of columns", "the number of rows"))
        )
        for count, offset, what in ((cols, offsets[0], "columns"), (rows, offsets[1], "rows")):
            if not 1 <= count < MAX_SIDE:
                raise self.fail(f"the number of {what} must be 1..{MAX_SIDE - 1}", offset, str(count))
        body, self.start = parts[2], offsets[2]
        if len(body) * _SKIP_MAX < rows * cols:
            raise self.fail(f"a body of {len(body)} characters cannot describe {rows * cols} cells", self.start, body[:20])
        self.grid = [["#"] * (cols + 1) for _ in range(rows + 1)]
        self.places = [[(self.line, self.column + self.start)] * (cols + 1) for _ in range(rows + 1)]
        return cols, rows, body

    def read_cells(self, body: str, rows: int, cols: int) -> int:
        """Decode the inner cells (skips, black cells, clue cells) into `grid`; returns the
        position in `body` after them."""
        start = self.start
        i, cell = 0, 0
        while cell < rows * cols:
            if i >= len(body):
                raise self.fail(f"the URL ends after {cell} of the {rows * cols} cells", start + i)
            char = body[i]
            r, c = divmod(cell, cols)
            if "k" <= char <= "z":
                skip = ord(char) - _SKIP_FIRST + 1
                if cell + skip > rows * cols:
                    raise self.fail("this skips past the last cell", start + i, char)
                for j in range(cell, cell + skip):
                    rr, cc = divmod(j, cols)
                    self.grid[rr + 1][cc + 1] = 0
                    self.places[rr + 1][cc + 1] = (self.line, self.column + start + i)
                cell += skip
                i += 1
                continue
            self.places[r + 1][c + 1] = (self.line, self.column + start + i)
            if char != ".":
                if i + 1 >= len(body):
                    raise self.fail("a clue cell needs two characters, down and across", start + i, char)
                down, across = (self.clue(start + j) for j in (i, i + 1))
                if down is not None or across is not None:
                    self.grid[r + 1][c + 1] = [down, across]
                i += 1
            cell += 1
            i += 1
        return i

    def read_frame(self, body: str, rows: int, cols: int, i: int) -> int:
        """Decode the clues of the frame (above each column, left of each row that starts
        white) from position `i` of `body`; returns the position after them."""
        grid = self.grid
        frame = [(0, c + 1) for c in range(cols) if grid[1][c + 1] == 0]
        frame += [(r + 1, 0) for r in range(rows) if grid[r + 1][1] == 0]
        for r, c in frame:
            where = f"the run down column {c}" if r == 0 else f"the run along row {r}"
            if i >= len(body):
                raise self.fail(f"the URL ends before the clue of {where}", self.start + i)
            total = self.clue(self.start + i)
            if total is not None:
                grid[r][c] = [total, None] if r == 0 else [None, total]
            self.places[r][c] = (self.line, self.column + self.start + i)
            i += 1
        return i

    def check_runs(self) -> None:
        """Refuse a run of two or more cells without a sum (puzz.link allows them)."""
        unclued = _unclued_run(self.grid)
        if unclued is not None:
            (r, c), where = unclued
            offset = self.places[r][c][1] - self.column
            raise self.fail(
                f"{where} has no sum: puzz.link allows runs of two or more cells without one, kakuro's puzzles do not",
                offset, self.url[offset],
            )

    def locate(self, position: tuple[int, int] | None) -> tuple[int, int | None]:
        """Where grid cell `position` came from (the URL's start for None)."""
        return self.places[position[0]][position[1]] if position is not None else (self.line, self.column)


def _unclued_run(grid: list[list[GridCell]]) -> tuple[tuple[int, int], str] | None:
    """The first run of two or more white cells whose clue cell has no sum for it: the clue
    cell's position and a description, or None."""
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            cell = grid[r][c]
            if cell == 0:
                continue
            for (dr, dc), half, name in (((0, 1), 1, "across"), ((1, 0), 0, "down")):
                length = 0
                while (r + dr * (length + 1) < rows and c + dc * (length + 1) < cols
                       and grid[r + dr * (length + 1)][c + dc * (length + 1)] == 0):
                    length += 1
                total = None if cell == "#" else cell[half]  # type: ignore[index]
                if length >= 2 and total is None:
                    return (r, c), f"the {name} run of {length} cells after grid cell {position_name((r, c))}"
    return None


def _char(total: int | None) -> str:
    """The clue character of a sum (1..45), `-` for no clue."""
    return _NO_CLUE if total is None else _CLUE_CHARS[total - 1]


def url(puzzle: Puzzle) -> str:
    """The puzz.link URL of `puzzle`; KakuroError if the URL cannot hold it (fewer than two
    rows or columns, givens, a value range other than 1..9, a white cell in the clue row or
    column, a clue above 45)."""
    name = f"puzzle {puzzle.id!r}" if puzzle.id else "this puzzle"
    if puzzle.values != DEFAULT_VALUES:
        raise KakuroError(f"{name} uses values {puzzle.values[0]}..{puzzle.values[1]}; puzz.link Kakuro has 1..9")
    if puzzle.givens:
        raise KakuroError(f"{name} has given digits, which a puzz.link URL cannot hold")
    if any(r == 0 or c == 0 for r, c in puzzle.cells):
        raise KakuroError(f"{name} has white cells in its first row or column, where puzz.link keeps only clues")
    if puzzle.rows < 2 or puzzle.cols < 2:
        raise KakuroError(f"{name} is {puzzle.rows}x{puzzle.cols}; a puzz.link URL holds a clue row and a clue column "
                          "around at least one more row and column")
    if any(t is not None and t > MAX_CLUE for clue in puzzle.clues.values() for t in clue):
        raise KakuroError(f"{name} has a clue above {MAX_CLUE}, which a puzz.link URL cannot hold")
    grid = puzzle.to_grid()
    rows, cols = puzzle.rows - 1, puzzle.cols - 1
    body: list[str] = []
    whites = 0
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            cell = grid[r][c]
            if cell == 0:
                whites += 1
                if whites == _SKIP_MAX:
                    body.append(_skip(whites))
                    whites = 0
                continue
            if whites:
                body.append(_skip(whites))
                whites = 0
            body.append("." if cell == "#" else _char(cell[0]) + _char(cell[1]))  # type: ignore[index, arg-type]
    if whites:
        body.append(_skip(whites))
    body += [_char(_half(grid[0][c], 0)) for c in range(1, cols + 1) if grid[1][c] == 0]
    body += [_char(_half(grid[r][0], 1)) for r in range(1, rows + 1) if grid[r][1] == 0]
    return f"{PREFIX}{cols}/{rows}/{''.join(body)}"


def _skip(count: int) -> str:
    return chr(_SKIP_FIRST + count - 1)


def _half(cell: GridCell, which: int) -> int | None:
    return None if cell == "#" else cell[which]  # type: ignore[index, return-value]


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """One URL a line, each after `# key: value` comments for its id and metadata."""
    lines = []
    for puzzle in puzzles:
        lines += [f"# {line}" for line in header_lines(puzzle)]
        lines.append(url(puzzle))
    return "\n".join(lines) + "\n"
