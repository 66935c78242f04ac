"""Parameter checks the generators share (KakuroError names the parameter and the value)."""

from __future__ import annotations

from kakuro.errors import KakuroError
from kakuro.values import is_integer


def check_count_and_seed(count: object, seed: object) -> None:
    """`count` puzzles (a positive integer) from `seed` (a non-negative integer)."""
    if not is_integer(count) or count < 1:
        raise KakuroError(f"count must be a positive integer, not {count!r}")
    if not is_integer(seed) or seed < 0:
        raise KakuroError(f"seed must be a non-negative integer, not {seed!r}")
