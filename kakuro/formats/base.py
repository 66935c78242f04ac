"""Helpers every format module shares: positions in a text, ASCII numbers, error wrapping.

A format module provides `NAME`, `EXTENSIONS`, `sniff(text) -> bool`,
`parse(text, file) -> list[Puzzle]` and `dumps(puzzles) -> str`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from kakuro.errors import InvalidPuzzleError, PuzzleFormatError

T = TypeVar("T")

ASCII_NUMBER = re.compile(r"[0-9]+")
MAX_NUMBER_DIGITS = 6
"""Longest number a puzzle file may hold (clues beyond 999999 are not Kakuro)."""


def parse_number(text: str, *, file: str | None, line: int, column: int, what: str = "number") -> int:
    """A non-negative integer written with ASCII digits only ('３', '1_0', '+5' are errors)."""
    if not ASCII_NUMBER.fullmatch(text):
        raise PuzzleFormatError(f"{what} must be written with the digits 0-9", file=file, line=line, column=column, text=text)
    if len(text) > MAX_NUMBER_DIGITS:
        raise PuzzleFormatError(f"{what} has more than {MAX_NUMBER_DIGITS} digits", file=file, line=line, column=column, text=text[:20])
    return int(text)


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
