"""What user input counts as an integer or a number: never a bool (`True` is an `int` in
Python, but a limit, a seed or a digit of `True` is a mistake, not 1)."""

from __future__ import annotations

from typing import TypeGuard


def is_integer(value: object) -> TypeGuard[int]:
    """True for an `int` that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """True for an `int` or a `float` that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
