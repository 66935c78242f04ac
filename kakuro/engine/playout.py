"""Moves and playouts on the compiled state: what every Monte-Carlo search shares.

A move is `cell << VALUE_BITS | value`. `choose_move` draws the random move of a playout (by
`info[SELECTION]`), `play_move` plays one (then, by `info[STRATEGY]`, every forced cell under
max-inference), `candidate_moves` lists the moves of a tree node, and `playout` plays a random
game to the end. `configure` sets both slots; (priority, priority) is Cazenave's (2010)
playout: smallest-domain cell, random value. The strategies and selections are those of Chan,
Renous and Thai (2022).
"""

from __future__ import annotations

import numpy as np

from kakuro.engine.bits import lowest_bit_index
from kakuro.engine.compile import compiled
from kakuro.engine.layout import ASSIGNED, NFREE, SAMPLES, SELECTION, STOP, STRATEGY, State
from kakuro.engine.propagate import assign
from kakuro.engine.queries import capture, select_variable
from kakuro.engine.rng import random_below, random_value

VALUE_BITS = 6
"""A move is encoded as cell << VALUE_BITS | value."""
MAX_MOVES_PER_CELL = 1 << VALUE_BITS
"""Room per cell in a buffer of candidate moves."""

# playing strategies (info[STRATEGY]) and random move selections (info[SELECTION])
STRAT_PRIORITY = 0
STRAT_NAIVE = 1
STRAT_MAX_INFERENCE = 2
STRATEGIES = {"priority": STRAT_PRIORITY, "naive": STRAT_NAIVE, "max-inference": STRAT_MAX_INFERENCE}
SEL_PRIORITY = 0
SEL_VALUES = 1
SEL_CELLS = 2
SELECTIONS = {"priority": SEL_PRIORITY, "values": SEL_VALUES, "cells": SEL_CELLS}


def configure(st: State, strategy: str = "priority", selection: str = "priority") -> None:
    """Set the playing strategy and random move selection of the state's playouts."""
    st.info[STRATEGY] = STRATEGIES[strategy]
    st.info[SELECTION] = SELECTIONS[selection]


@compiled
def _smallest_cell_rule(st: State) -> bool:
    """True when moves are made in the smallest-domain cell (strategy or selection priority)."""
    return st.info[STRATEGY] == STRAT_PRIORITY or st.info[SELECTION] == SEL_PRIORITY


@compiled
def choose_move(st: State) -> int:
    """The random move of a playout (cell << VALUE_BITS | value), -1 when no cell is free.

    Strategy or selection `priority`: a uniform value of the smallest-domain cell (Cazenave);
    selection `values`: uniform over all (free cell, value) pairs; `cells`: a uniform free
    cell, then a uniform value of it.
    """
    if _smallest_cell_rule(st):
        c = select_variable(st)
        if c < 0:
            return -1
        return (c << VALUE_BITS) | random_value(st, st.dom[c])
    n = st.size.shape[0]
    total = 0
    for c in range(n):
        if st.size[c] != ASSIGNED:
            total += st.size[c] if st.info[SELECTION] == SEL_VALUES else 1
    if total == 0:
        return -1
    r = random_below(st, total)
    for c in range(n):
        if st.size[c] == ASSIGNED:
            continue
        w = st.size[c] if st.info[SELECTION] == SEL_VALUES else 1
        if r < w:
            if st.info[SELECTION] == SEL_VALUES:
                mask = st.dom[c]
                for _ in range(r):
                    mask &= mask - 1
                return (c << VALUE_BITS) | lowest_bit_index(mask)
            return (c << VALUE_BITS) | random_value(st, st.dom[c])
        r -= w
    return -1


@compiled
def candidate_moves(st: State, out: np.ndarray) -> int:
    """The moves of a search-tree node, written to `out` (int64, at least cells *
    MAX_MOVES_PER_CELL long): the values of the smallest-domain cell (ascending) under the
    smallest-cell rule, else every (free cell, value) pair. Returns their number (0 when no
    cell is free)."""
    if _smallest_cell_rule(st):
        c = select_variable(st)
        return 0 if c < 0 else _push_values(out, np.int64(0), c, st.dom[c])
    k = np.int64(0)
    for c in range(st.size.shape[0]):
        if st.size[c] != ASSIGNED:
            k = _push_values(out, k, c, st.dom[c])
    return k


@compiled
def play_move(st: State, move: int) -> bool:
    """Play `move` by the state's strategy: assign it; under `max-inference` then assign every
    free cell whose domain is a single value, repeatedly, until none is left. False on a
    wipe-out or when stopped (the caller undoes)."""
    if not assign(st, move >> VALUE_BITS, move & ((1 << VALUE_BITS) - 1)):
        return False
    if st.info[STRATEGY] != STRAT_MAX_INFERENCE:
        return True
    changed = True
    while changed:
        changed = False
        for c in range(st.size.shape[0]):
            if st.size[c] == 1:
                if not assign(st, c, lowest_bit_index(st.dom[c])):
                    return False
                changed = True
    return True


GOING_ON = -2
"""`play_in_game`'s answer when the game goes on after the move."""


@compiled
def play_in_game(st: State, move: int) -> int:
    """Play `move` (`play_move`) inside a game: GOING_ON when the game goes on, 0 when it
    solved the puzzle (the solution is captured), -1 when stopped, else the score of the
    wipe-out (1 + the free cells). The caller undoes."""
    if not play_move(st, move):
        if st.info[STOP] != 0:
            return -1
        return 1 + st.info[NFREE]
    if st.info[NFREE] == 0:
        capture(st)
        return 0
    return GOING_ON


@compiled
def _push_values(out: np.ndarray, k: int, c: int, values: int) -> int:
    """Write the moves of cell `c` to the values of the mask `values` (ascending) at `out[k:]`;
    returns the new length."""
    while values:
        b = values & -values
        out[k] = (c << VALUE_BITS) | lowest_bit_index(b)
        k += 1
        values ^= b
    return k


@compiled
def playout(st: State, moves: np.ndarray) -> tuple[int, int]:
    """A random game: `choose_move`, `play_move`, until solved or wiped out.

    Writes the chosen moves (the failing move included; inferred moves are not written:
    `play_move` replays them) into `moves`. Returns (score, number of moves), scored like
    `play_in_game`: 0 when solved (the solution is captured), -1 when stopped, else 1 + the
    number of free cells after the failing move. Does not undo.
    """
    st.info[SAMPLES] += 1
    length = 0
    while True:
        m = choose_move(st)
        if m < 0:
            capture(st)
            return 0, length
        moves[length] = m
        length += 1
        if not play_move(st, m):
            return (-1 if st.info[STOP] != 0 else 1 + st.info[NFREE]), length
        if st.info[NFREE] == 0:
            capture(st)
            return 0, length

