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

import re
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from kakuro.errors import PuzzleFormatError
from kakuro.formats.base import BadPuzzle, Header, building, cell_token, gather, header_lines, line_column, parse_number
from kakuro.puzzle import Puzzle
from kakuro.wellformed import MAX_SIDE, GridCell

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
    line: int
    column: int


def sniff(text: str) -> bool:
    """True when the first thing after blanks and comments is a `data(` fact."""
    layout = _LAYOUT.match(text)
    return _FACT.match(text, layout.end() if layout else 0) is not None


def parse(text: str, file: str | None = None, *, on_bad: BadPuzzle | None = None) -> list[Puzzle]:
    """Every `data(...)` fact of `text`; PuzzleFormatError names the line and column of a
    problem. With `on_bad` a bad fact is skipped up to the next `data(` (a character no fact
    can hold still stops the whole file). Tokens are read as the facts need them, so a fact
    that goes wrong early (a row far longer than its fact says) costs no more than that."""
    reader = _Reader(text, file)

    def facts() -> Iterator[Callable[[], Puzzle]]:
        while reader.peek() is not None:
            start = reader.position
            reader.forget_before(start)
            yield reader.fact
            if reader.position == start or reader.failed:
                reader.skip_past(start)

    return gather(facts(), on_bad, file=file, empty="no puzzle found (no data(...) fact)")


def _lex(text: str, file: str | None) -> Iterator[_Token]:
    """The tokens of `text` with their positions, comments included, blanks dropped. Raises
    PuzzleFormatError at a character no fact can hold."""
    line, line_start = 1, 0
    for match in _LEXER.finditer(text):
        kind = match.lastgroup or ""
        start = match.start()
        if kind == "other":
            raise PuzzleFormatError("unexpected character", file=file, line=line, column=start - line_start + 1,
                                    text=text[start : start + 10])
        if kind == "unclosed":
            raise PuzzleFormatError("a /* comment that never ends", file=file, line=line,
                                    column=start - line_start + 1, text="/*")
        if kind not in ("space", "block"):
            yield _Token(kind, match.group(), line, start - line_start + 1)
        newlines = match.group().count("\n")
        if newlines:
            line += newlines
            line_start = text.rindex("\n", start, match.end()) + 1


class _Reader:
    """A cursor over the tokens of a file, read as they are needed; comments before a fact
    become its header. Tokens before the current fact are forgotten."""

    def __init__(self, text: str, file: str | None) -> None:
        self.text = text
        self.file = file
        self._tokens: list[_Token] = []
        """Tokens from index `_base` on (the earlier ones are forgotten)."""
        self._base = 0
        self._lexer = _lex(text, file)
        self._pending: list[_Token] = []
        self._lex_error: PuzzleFormatError | None = None
        self.comments: dict[int, list[_Token]] = {}  # token index -> comments just before it
        self.position = 0
        self.failed = False

    def token(self, index: int) -> _Token | None:
        """Token `index` (reading on as far as needed), None past the end. A character no
        fact can hold raises, every time it is reached."""
        while self._base + len(self._tokens) <= index:
            if self._lex_error is not None:
                raise self._lex_error
            try:
                token = next(self._lexer, None)
            except PuzzleFormatError as exc:
                self._lex_error = exc
                raise
            if token is None:
                return None
            if token.kind == "comment":
                self._pending.append(token)
                continue
            if self._pending:
                self.comments[self._base + len(self._tokens)] = self._pending
                self._pending = []
            self._tokens.append(token)
        return self._tokens[index - self._base] if index >= self._base else None

    def forget_before(self, index: int) -> None:
        """Drop the tokens (and their comments) before `index`: they are never read again."""
        drop = min(max(0, index - self._base), len(self._tokens))
        if drop:
            del self._tokens[:drop]
            self._base += drop
            for key in [k for k in self.comments if k < self._base]:
                del self.comments[key]

    def error(self, message: str, offset: int, text: str | None = None) -> PuzzleFormatError:
        line, column = line_column(self.text, offset)
        return PuzzleFormatError(message, file=self.file, line=line, column=column, text=text)

    def token_error(self, message: str, token: _Token, text: str | None = None) -> PuzzleFormatError:
        return PuzzleFormatError(message, file=self.file, line=token.line, column=token.column, text=text)

    def place(self, token: _Token) -> tuple[int, int]:
        return token.line, token.column

    def peek(self) -> _Token | None:
        return self.token(self.position)

    def take(self, what: str) -> _Token:
        token = self.peek()
        if token is None:
            raise self.error(f"the file ends inside a fact; expected {what}", len(self.text))
        self.position += 1
        return token

    def expect(self, text: str) -> _Token:
        token = self.take(repr(text))
        if token.text != text:
            raise self.token_error(f"expected {text!r}", token, token.text)
        return token

    def number(self, what: str) -> tuple[int, _Token]:
        token = self.take(what)
        return parse_number(token.text, file=self.file, line=token.line, column=token.column, what=what), token

    def header(self) -> Header:
        header = Header()
        for comment in self.comments.get(self.position, ()):
            line, column = self.place(comment)
            header.take(comment.text[1:], file=self.file, line=line, column=column + 1)
        return header

    def skip_past(self, start: int) -> None:
        """Move to the first `data (` after token `start` (the start of a fact that failed),
        forgetting the tokens passed."""
        self.failed = False
        position = start + 1
        while True:
            self.forget_before(position - 1)
            token = self.token(position)
            if token is None or token.text == "data" and getattr(self.token(position + 1), "text", None) == "(":
                break
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
            raise self.token_error("expected the set name (e.g. generated)", set_token, set_token.text)
        self.expect(",")
        number, _ = self.number("the puzzle number")
        self.expect(",")
        placeholder = self.take("a placeholder such as -")
        if placeholder.kind not in ("name", "number", "variable") and placeholder.text != "-":
            raise self.token_error("expected a placeholder such as -", placeholder, placeholder.text)
        self.expect(",")
        rows, rows_token = self.number("the number of rows")
        self.expect(",")
        cols, _ = self.number("the number of columns")
        if rows > MAX_SIDE or cols > MAX_SIDE:
            raise self.token_error(f"a {rows}x{cols} grid is larger than {MAX_SIDE}x{MAX_SIDE}", rows_token, rows_token.text)
        self.expect(",")
        grid, places = self.grid(cols)
        self.expect(")")
        if self.peek() is not None:  # the last fact may omit its period
            self.expect(".")
        if len(grid) != rows:
            raise self.token_error(f"the fact says {rows} rows but its grid has {len(grid)}", rows_token, rows_token.text)
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
        (line, column) of every cell. A row is refused as soon as it is longer than `cols`."""
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
                if len(row) == cols:
                    raise self.token_error(f"this row has more cells than the {cols} columns the fact says", start, "[](")
                where.append(self.place(self.peek() or start))
                row.append(self.cell())
                if self.separator():
                    break
            if len(row) != cols:
                raise self.token_error(f"this row has {len(row)} cells but the fact says {cols} columns", start, "[](")
            if len(grid) == MAX_SIDE:
                raise self.token_error(f"this grid has more than {MAX_SIDE} rows, the most a grid may have", start, "[](")
            grid.append(row)
            places.append(where)
            if self.separator():
                return grid, places

    def separator(self) -> bool:
        """Consume ',' (False: more follows) or ')' (True: the list ends)."""
        token = self.take("',' or ')'")
        if token.text not in (",", ")"):
            raise self.token_error("expected ',' or ')'", token, token.text[:20])
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
            raise self.token_error(f"expected {what}", token, token.text[:20])
        return parse_number(token.text, file=self.file, line=token.line, column=token.column, what="a clue or digit")


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
