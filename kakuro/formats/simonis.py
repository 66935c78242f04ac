"""Helmut Simonis' ECLiPSe facts, the data files of "Kakuro as a Constraint Problem" (2008).

    data(generated,1,-,6,6,
    [](
    [](x/x, x/x, 35/x, 17/x, 16/x, x/x),
       [](x/x, 17/14, x, x, x, x/x),
       ...
    )).

One fact per puzzle: a set name, the puzzle number N, a placeholder (`-`), the numbers of rows
and columns (clue row and column included), then the grid as an ECLiPSe array of row arrays.
A cell is `x` (white), `D/A` (a clue cell: down sum D over the run below, across sum A over the
run to the right; either half may be `x`) or `x/x` (black). Beyond the original files, a bare
number is a given digit.

A puzzle's id is `SET-N` (e.g. `generated-1`) unless a comment `% id: NAME` comes before its
fact; `% values: 1..12` sets a wider value range and any other `% key: value` comment before
a fact becomes metadata, as in the text format's header. `%` line comments and `/* */` block
comments are allowed anywhere; the last fact may omit its final period.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from kakuro.errors import PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, cell_token, gather, header_lines, parse_number
from kakuro.puzzle import GridCell, Puzzle

NAME = "simonis"
EXTENSIONS = (".ecl", ".pl")

SET_NAME = "generated"
"""The set name `dumps` writes (the one Simonis' generated files use)."""

_LEXER = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<comment>%[^\n\r]*)
    | (?P<block>/\*.*?\*/)
    | (?P<unclosed>/\*)
    | (?P<array>\[\])
    | (?P<number>[0-9]+)
    | (?P<name>[a-z][A-Za-z0-9_]*)
    | (?P<variable>[A-Z_][A-Za-z0-9_]*)
    | (?P<symbol>[-(),/.])
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_LAYOUT = re.compile(r"(?:\s+|%[^\n\r]*|/\*.*?\*/)*", re.DOTALL)
"""Blanks and comments (never fails, so it never backtracks)."""
_FACT = re.compile(r"data\s*\(")
_WHITE = "x"


class _Token(NamedTuple):
    kind: str
    text: str
    offset: int


def sniff(text: str) -> bool:
    """True when the first thing after blanks and comments is a `data(` fact."""
    layout = _LAYOUT.match(text)
    return _FACT.match(text, layout.end() if layout else 0) is not None


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every `data(...)` fact of `text`; PuzzleFormatError names the line and column of a
    problem. With `on_bad` a bad fact is skipped up to the next `data(` (a character no fact
    can hold still stops the whole file)."""
    reader = _Reader(text, file)

    def facts() -> Iterator[Callable[[], Puzzle]]:
        while reader.peek() is not None:
            start = reader.position
            yield reader.fact
            if reader.position == start or reader.failed:
                reader.skip_past(start)

    return gather(facts(), on_bad, file=file, empty="no puzzle found (no data(...) fact)")


class _Reader:
    """A cursor over the tokens of a file; comments before a fact become its header."""

    def __init__(self, text: str, file: str | None) -> None:
        self.text = text
        self.file = file
        self.tokens: list[_Token] = []
        self.comments: dict[int, list[_Token]] = {}  # token index -> comments just before it
        self.position = 0
        self.failed = False
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._lex()

    def _lex(self) -> None:
        pending: list[_Token] = []
        for match in _LEXER.finditer(self.text):
            kind = match.lastgroup
            if kind in ("space", "block"):
                continue
            if kind == "other":
                raise self.error("unexpected character", match.start(), self.text[match.start() : match.start() + 10])
            if kind == "unclosed":
                raise self.error("a /* comment that never ends", match.start(), "/*")
            token = _Token(kind or "", match.group(), match.start())
            if kind == "comment":
                pending.append(token)
                continue
            if pending:
                self.comments[len(self.tokens)] = pending
                pending = []
            self.tokens.append(token)

    def error(self, message: str, offset: int, text: str | None = None) -> PuzzleFormatError:
        line, column = self.line_column(offset)
        return PuzzleFormatError(message, file=self.file, line=line, column=column, text=text)

    def line_column(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset, in logarithmic time."""
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def place(self, token: _Token) -> tuple[int, int]:
        return self.line_column(token.offset)

    def peek(self) -> _Token | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, what: str) -> _Token:
        token = self.peek()
        if token is None:
            raise self.error(f"the file ends inside a fact; expected {what}", len(self.text))
        self.position += 1
        return token

    def expect(self, text: str) -> _Token:
        token = self.take(repr(text))
        if token.text != text:
            raise self.error(f"expected {text!r}", token.offset, token.text)
        return token

    def number(self, what: str) -> tuple[int, _Token]:
        token = self.take(what)
        line, column = self.place(token)
        return parse_number(token.text, file=self.file, line=line, column=column, what=what), token

    def header(self) -> Header:
        header = Header()
        for comment in self.comments.get(self.position, ()):
            line, column = self.place(comment)
            header.take(comment.text[1:], file=self.file, line=line, column=column + 1)
        return header

    def skip_past(self, start: int) -> None:
        """Move to the first `data (` after token `start` (the start of a fact that failed)."""
        self.failed = False
        position = start + 1
        while position < len(self.tokens) and not (
            self.tokens[position].text == "data"
            and position + 1 < len(self.tokens)
            and self.tokens[position + 1].text == "("
        ):
            position += 1
        self.position = position

    def fact(self) -> Puzzle:
        """The fact at the cursor; on an error `failed` is set and the cursor is left inside it."""
        self.failed = True
        puzzle = self._fact()
        self.failed = False
        return puzzle

    def _fact(self) -> Puzzle:
        header = self.header()
        self.expect("data")
        self.expect("(")
        set_token = self.take("the set name")
        if set_token.kind not in ("name", "number"):
            raise self.error("expected the set name (e.g. generated)", set_token.offset, set_token.text)
        self.expect(",")
        number, _ = self.number("the puzzle number")
        self.expect(",")
        placeholder = self.take("a placeholder such as -")
        if placeholder.kind not in ("name", "number", "variable") and placeholder.text != "-":
            raise self.error("expected a placeholder such as -", placeholder.offset, placeholder.text)
        self.expect(",")
        rows, rows_token = self.number("the number of rows")
        self.expect(",")
        cols, _ = self.number("the number of columns")
        self.expect(",")
        grid, places = self.grid(cols)
        self.expect(")")
        if self.peek() is not None:  # the last fact may omit its period
            self.expect(".")
        if len(grid) != rows:
            raise self.error(f"the fact says {rows} rows but its grid has {len(grid)}", rows_token.offset, rows_token.text)
        puzzle_id = header.id if header.id is not None else f"{set_token.text}-{number}"

        def locate(cell: tuple[int, int] | None) -> tuple[int, int | None]:
            return places[cell[0]][cell[1]] if cell is not None else self.place(set_token)

        return building(
            lambda: Puzzle.from_grid(grid, values=header.values, id=puzzle_id, meta=header.meta),
            file=self.file,
            locate=locate,
        )

    def grid(self, cols: int) -> tuple[list[list[GridCell]], list[list[tuple[int, int]]]]:
        """`[](ROW, ROW, ...)`, each row `[](CELL, ...)` holding `cols` cells, with the
        (line, column) of every cell."""
        grid: list[list[GridCell]] = []
        places: list[list[tuple[int, int]]] = []
        self.expect("[]")
        self.expect("(")
        while True:
            start = self.expect("[]")
            self.expect("(")
            row: list[GridCell] = []
            where: list[tuple[int, int]] = []
            while True:
                first = self.position
                row.append(self.cell())
                where.append(self.place(self.tokens[first]))
                if self.separator():
                    break
            if len(row) != cols:
                raise self.error(f"this row has {len(row)} cells but the fact says {cols} columns", start.offset, "[](")
            grid.append(row)
            places.append(where)
            if self.separator():
                return grid, places

    def separator(self) -> bool:
        """Consume ',' (False: more follows) or ')' (True: the list ends)."""
        token = self.take("',' or ')'")
        if token.text not in (",", ")"):
            raise self.error("expected ',' or ')'", token.offset, token.text[:20])
        return token.text == ")"

    def cell(self) -> GridCell:
        """`x` (white), a number (given), or `D/A` with `x` for a missing half."""
        first = self.half("a cell: x, D/A or a digit")
        following = self.peek()
        if following is None or following.text != "/":
            return 0 if first is None else first
        self.position += 1
        second = self.half("the across half of a clue (a number or x)")
        return "#" if first is None and second is None else [first, second]

    def half(self, what: str) -> int | None:
        token = self.take(what)
        if token.text == _WHITE:
            return None
        if token.kind != "number":
            raise self.error(f"expected {what}", token.offset, token.text[:20])
        line, column = self.place(token)
        return parse_number(token.text, file=self.file, line=line, column=column, what="a clue or digit")


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """The puzzles as `data(generated, N, -, Rows, Cols, [](...)).` facts, N counting from 1,
    each preceded by `% key: value` comments for what the fact cannot hold (id, value range)."""
    return "".join(_dump_one(puzzle, number) for number, puzzle in enumerate(puzzles, start=1))


def _dump_one(puzzle: Puzzle, number: int) -> str:
    comments = [f"% {line}\n" for line in header_lines(puzzle, implied_id=f"{SET_NAME}-{number}")]
    rows = ["[](" + ", ".join(_cell(cell) for cell in row) + ")" for row in puzzle.to_grid()]
    fact = f"data({SET_NAME},{number},-,{puzzle.rows},{puzzle.cols},\n[](\n" + ",\n   ".join(rows) + "\n)).\n"
    return "".join(comments) + fact


def _cell(cell: GridCell) -> str:
    return cell_token(cell, black="x/x", empty=_WHITE, clue=_clue)


def _clue(down: int | None, across: int | None) -> str:
    return f"{_WHITE if down is None else down}/{_WHITE if across is None else across}"
