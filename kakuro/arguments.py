"""Argument types shared by the command lines (`kakuro`, `python -m kakuro.compare`,
`python -m kakuro.report`): numbers written in ASCII, checked, with a one-line message naming the text."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def number_where(accept: Callable[[float], bool], requirement: str) -> Callable[[str], float]:
    """An argparse type: a finite number written in ASCII (no '_', no other scripts' digits)
    that `accept` admits; `requirement` completes "must be ..." in the error."""

    def parse(text: str) -> float:
        try:
            if not text.isascii() or "_" in text:
                raise ValueError(text)
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or not accept(value):
            raise argparse.ArgumentTypeError(f"{text!r} must be {requirement}")
        return value

    return parse


positive_seconds = number_where(lambda v: v > 0, "a positive number of seconds")
non_negative_seconds = number_where(lambda v: v >= 0, "a number of seconds, 0 or more")


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least `minimum`, written with ASCII digits."""

    def parse(text: str) -> int:
        if not text.isascii() or not text.isdigit() or int(text) < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be an integer of at least {minimum}")
        return int(text)

    return parse
