"""Helpers every format module shares: positions in a text, ASCII numbers, error wrapping.

A format module provides `NAME`, `EXTENSIONS`, `sniff(text) -> bool`,
`parse(text, file, *, on_bad=None) -> list[Puzzle]` and `dumps(puzzles) -> str`. A reader
that holds several puzzles reads each through `gather`, so that with `on_bad` one bad puzzle
(a line, a block, a fact) is reported and skipped instead of failing the whole file. A format
of one puzzle per line also provides `attempts(text, file)`, one maker per puzzle, which
`LazyPuzzles` builds only when a puzzle is reached.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar, cast, overload

from kakuro.errors import InvalidPuzzleError, PuzzleFormatError
from kakuro.puzzle import DEFAULT_VALUES, Puzzle
from kakuro.wellformed import GridCell

T = TypeVar("T")

BadPuzzle = Callable[[PuzzleFormatError], None]
"""Called with the error of each puzzle that cannot be read, which is then skipped."""

ASCII_NUMBER = re.compile(r"[0-9]+")
HEADER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_HEADER = re.compile(r"\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*\Z")
_RANGE = re.compile(r"([0-9]+)\s*(?:\.\.|-)\s*([0-9]+)")
MAX_NUMBER_DIGITS = 6
"""Longest number a puzzle file may hold (clues beyond 999999 are not Kakuro)."""


def parse_number(text: str, *, file: str | None, line: int, column: int, what: str = "number") -> int:
    """A non-negative integer written with ASCII digits only ('３', '1_0', '+5' are errors)."""
    if not ASCII_NUMBER.fullmatch(text):
        raise PuzzleFormatError(f"{what} must be written with the digits 0-9", file=file, line=line, column=column, text=text)
    if len(text) > MAX_NUMBER_DIGITS:
        raise PuzzleFormatError(f"{what} has more than {MAX_NUMBER_DIGITS} digits",
                                file=file, line=line, column=column, text=text[:20])
    return int(text)


def gather(attempts: Iterable[Callable[[], Puzzle]], on_bad: BadPuzzle | None, *, file: str | None, empty: str) -> list[Puzzle]:
    """Run each attempt (one per puzzle of a file). Without `on_bad` the first PuzzleFormatError
    propagates; with it, each is handed to `on_bad` and that puzzle skipped. A file with no
    puzzle at all raises PuzzleFormatError(`empty`) unless `on_bad` was given one."""
    puzzles: list[Puzzle] = []
    skipped = 0
    for attempt in attempts:
        try:
            puzzles.append(attempt())
        except PuzzleFormatError as exc:
            if on_bad is None:
                raise
            on_bad(exc)
            skipped += 1
    if not puzzles and not skipped:
        raise PuzzleFormatError(empty, file=file, line=1, column=1)
    return puzzles


class LazyPuzzles(Sequence[Puzzle]):
    """The puzzles of one file, each built when it is reached (indexed or iterated) and not
    kept: a file of 200,000 Sudokus holds a maker per line here, not 200,000 puzzles. Its
    length is the number of puzzles the file holds; a bad one raises its PuzzleFormatError
    (file, line, column) when it is built."""

    def __init__(self, attempts: Iterable[Callable[[], Puzzle]], *, file: str | None, empty: str,
                 explain: BadPuzzle | None = None) -> None:
        self._makers = list(attempts)
        self._explain = explain
        """Called with a puzzle's error before it is raised (it may raise a clearer one instead)."""
        if not self._makers:
            raise PuzzleFormatError(empty, file=file, line=1, column=1)

    def __len__(self) -> int:
        return len(self._makers)

    @overload
    def __getitem__(self, index: int) -> Puzzle: ...
    @overload
    def __getitem__(self, index: slice) -> list[Puzzle]: ...
    def __getitem__(self, index: int | slice) -> Puzzle | list[Puzzle]:
        if isinstance(index, slice):
            return [self._built(make) for make in self._makers[index]]
        return self._built(self._makers[index])

    def __iter__(self) -> Iterator[Puzzle]:
        return (self._built(make) for make in self._makers)

    def _built(self, make: Callable[[], Puzzle]) -> Puzzle:
        try:
            return make()
        except PuzzleFormatError as exc:
            if self._explain is not None:
                self._explain(exc)
            raise


def cell_token(cell: GridCell, *, black: str, empty: str, clue: Callable[[int | None, int | None], str]) -> str:
    """One grid cell written in a format: `black` for a black cell, `empty` for an empty white
    cell, the digit of a given, `clue(down, across)` for a clue cell (a missing half is None)."""
    if cell == "#" or cell is None:
        return black
    if isinstance(cell, int):
        return str(cell) if cell else empty
    down, across = cast("tuple[int | None, int | None]", cell)  # neither black, empty nor a digit: a clue
    return clue(down, across)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset in `text`."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def building(
    make: Callable[[], T],
    *,
    file: str | None,
    locate: Callable[[tuple[int, int] | None], tuple[int, int | None]],
) -> T:
    """Run a puzzle constructor, turning InvalidPuzzleError into a PuzzleFormatError at the
    file position `locate(cell)` gives for the offending grid position."""
    try:
        return make()
    except InvalidPuzzleError as exc:
        line, column = locate(exc.cell)
        raise PuzzleFormatError(f"invalid puzzle: {exc.message}", file=file, line=line, column=column) from None


@dataclass
class Header:
    """The `key: value` lines a puzzle may carry before its grid (the text format's header;
    comments in the other formats): `values: 1..12` (default 1..9), `id: NAME`, and any other
    key kept as metadata (keys are lower-cased)."""

    values: tuple[int, int] = DEFAULT_VALUES
    id: str | None = None
    meta: dict[str, str] = field(default_factory=dict)

    def take(self, text: str, *, file: str | None, line: int, column: int = 1) -> bool:
        """Record `text` if it is a `key: value` line (found at `line`, `column`); False if not.
        Raises PuzzleFormatError for a malformed `values` range."""
        match = _HEADER.match(text)
        if not match:
            return False
        key, value = match.group(1).lower(), match.group(2)
        if key == "values":
            self.values = parse_range(value, file=file, line=line, column=column + match.start(2))
        elif key == "id":
            self.id = value
        else:
            self.meta[key] = value
        return True


def parse_range(text: str, *, file: str | None, line: int, column: int) -> tuple[int, int]:
    """A value range written `lo..hi` (or `lo-hi`) with ASCII digits."""
    match = _RANGE.fullmatch(text)
    if not match:
        raise PuzzleFormatError("values must look like 1..9", file=file, line=line, column=column, text=text[:20])
    lo = parse_number(match.group(1), file=file, line=line, column=column, what="the smallest value")
    hi = parse_number(match.group(2), file=file, line=line, column=column + match.start(2), what="the largest value")
    return lo, hi


def header_lines(puzzle: Puzzle, *, implied_id: str | None = None) -> list[str]:
    """The `key: value` lines that `Header.take` reads back into this puzzle's id, value range
    and one-line text metadata. The id is left out when it equals `implied_id` (a format that
    derives ids itself); texts are collapsed to one line so the file always reads back."""
    lines = []
    if puzzle.id and puzzle.id != implied_id:
        lines.append(f"id: {one_line(puzzle.id)}")
    if puzzle.values != DEFAULT_VALUES:
        lines.append(f"values: {puzzle.values[0]}..{puzzle.values[1]}")
    for key, value in puzzle.meta.items():
        if isinstance(value, str) and HEADER_KEY.fullmatch(key) and key.lower() not in ("id", "values"):
            lines.append(f"{key}: {one_line(value)}")
    return lines


def one_line(text: str) -> str:
    """`text` with every run of whitespace (line breaks included) turned into one space."""
    return " ".join(text.split())
