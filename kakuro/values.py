"""What user input counts as an integer or a number: never a bool (`True` is an `int` in
Python, but a limit, a seed or a digit of `True` is a mistake, not 1); and how a number
(`shown`) and a grid position (`position_name`, counted from 1) are written in a message."""

from __future__ import annotations

import numbers
from typing import TypeGuard


def is_integer(value: object) -> TypeGuard[int]:
    """True for an `int` that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """True for an `int` or a `float` that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_digit(value: object) -> bool:
    """True for what a cell can hold: an integer (Python's or numpy's), never a bool, a float
    (not even 3.0) or a string. Whether it lies in the value range is `Puzzle.check`'s job."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


SHOWN_DIGITS = 30
"""Digits `shown` prints of a number at the most."""


def shown(value: int) -> str:
    """`value` in decimal, or "an integer of about N digits" past `SHOWN_DIGITS` digits: a
    message stays short, and Python refuses to print an int of over 4,300 digits at all."""
    if -(10**SHOWN_DIGITS) < value < 10**SHOWN_DIGITS:
        return str(value)
    digits = int(abs(value).bit_length() * 0.30102999566398) + 1  # log10(2): exact or one over
    return f"{'a negative' if value < 0 else 'an'} integer of about {digits:,} digits"


def position_name(position: tuple[int, int], *, border: bool = True) -> str:
    """"r3c4": grid position (row, col) as a player names it, in every message. A Kakuro's grid
    (`border`) has its clue row and clue column at row 0 and column 0, around the white cells,
    which so count from 1 (r1c1 is the top-left cell inside the border); a Sudoku's or a
    Killer's rows and columns count from 1 (r1c1 is grid position (0, 0))."""
    shift = 0 if border else 1
    return f"r{position[0] + shift}c{position[1] + shift}"
