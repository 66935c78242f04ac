"""How the searches hand out their solutions: a chunk of rows at a time.

A search kernel (`kakuro.engine.tree`) writes the solutions it finds in the rows of an array; its
rows full before its limit, it stops where it is with FILLED and goes on when called again.
`drained` is the Python side of that: it calls the kernel again until it answers anything else,
reading the rows in between, so memory grows with the solutions found, never with the limit
asked for (a limit of 10**9 asked for a buffer of 10**9 rows before).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kakuro.engine.interrupt import raise_if_interrupted, request_stop
from kakuro.engine.layout import EXHAUSTED, FILLED, OUT_OF_MEMORY, State

SOLUTION_CHUNK = 1 << 20
"""Bytes of the solution rows a search driver hands a kernel at a time (`chunk_rows`): memory
grows with the solutions found, never with the limit asked for."""


def chunk_rows(cells: int, limit: int) -> int:
    """Solution rows a search driver hands a kernel at a time: `limit` when they fit in
    SOLUTION_CHUNK bytes (so a search for 1 or 2 never stops to hand them out), else as
    many as fit (at least one)."""
    return max(1, min(limit, SOLUTION_CHUNK // (8 * max(cells, 1))))


def drained(search: Callable[[], tuple[int, int]], st: State, solutions: np.ndarray,
            make_room: Callable[[], None] = lambda: None) -> tuple[int, list[list[int]]]:
    """Call the kernel `search` (a search writing rows of `solutions`) again after each FILLED,
    its rows read (and `make_room` called, the nogood store's) in between: (its last code,
    every solution it wrote as value lists). When memory runs out meanwhile (or any exception
    comes) the search is stopped and undone; MemoryError gives the code OUT_OF_MEMORY with the
    solutions read before. A kernel that stopped on Ctrl-C raises KeyboardInterrupt."""
    found: list[list[int]] = []
    code, paused = FILLED, EXHAUSTED  # paused: the kernel's last answer
    try:
        while code == FILLED:
            code, count = search()
            paused = code
            found += solutions[:count].tolist()
            if code == FILLED:
                make_room()
    except MemoryError:
        code = OUT_OF_MEMORY
    finally:
        if paused == FILLED:  # stopped between two calls: undone by one more, stopped at once
            request_stop(st.info)
            search()
    raise_if_interrupted(st)
    return int(code), found
