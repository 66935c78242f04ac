"""Parameter checks the generators share (UsageError names the parameter and the value)."""

from __future__ import annotations

from kakuro.errors import UsageError
from kakuro.values import is_integer


def check_count_and_seed(count: object, seed: object) -> None:
    """`count` puzzles (a positive integer) from `seed` (a non-negative integer)."""
    if not is_integer(count) or count < 1:
        raise UsageError(f"count must be a positive integer, not {count!r}")
    if not is_integer(seed) or seed < 0:
        raise UsageError(f"seed must be a non-negative integer, not {seed!r}")
