"""The Monte-Carlo searches on the compiled state, on one restart driver.

A *game* plays from the root until it solves the puzzle or gets stuck, and returns a score
(0 = solved and captured, > 0 = 1 + the free cells where it got stuck, -1 = stopped):

- `Sampling`: one `playout` (iterative sampling, Cazenave 2010 Sect. 2.2);
- `Nested`: `nested` at `level` (Cazenave 2010 Sect. 2.4; level 1 is meta Monte-Carlo);
- `Flat`: `flat` with `playouts` random games per candidate move (Chan, Renous and Thai 2022);
- `Uct`: `uct` with `playouts` iterations per move and exploration constant `c`, statistics in
  a Zobrist-hashed transposition table.

`restarts` plays games from the root until one solves (SOLVED) or the stop flag rises
(STOPPED); UCT starts each game with an empty table (a kept table replays the same
deterministic descent). A game's settings and buffers are one named tuple (made by
`new_game`) whose type selects the algorithm, so a backend compiles only its own game.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba.extending import overload

from kakuro.engine.build import warm_up_state
from kakuro.engine.compile import INTERNAL, compiled, entry_point, instance_of
from kakuro.engine.interrupt import raise_if_interrupted
from kakuro.engine.layout import LIMIT, NFREE, RESTARTS, SOLVED, STOP, STOPPED, TRAIL, State
from kakuro.engine.playout import GOING_ON, MAX_MOVES_PER_CELL, candidate_moves, configure, play_in_game, playout
from kakuro.engine.propagate import root_propagate
from kakuro.engine.queries import capture
from kakuro.engine.rng import random_below
from kakuro.engine.trail import undo

TABLE_BITS = 20
"""log2 of the UCT transposition table's slots (1 Mi slots, 24 MB)."""
FRAME_ROWS = 6
"""Rows of `nested`'s frames: best score, moves played, candidates, next index, move, mark."""


class Sampling(NamedTuple):
    """Iterative sampling's buffer."""

    moves: np.ndarray
    """int64 (cells): a playout's moves."""


class Nested(NamedTuple):
    """Nested search's level and buffers."""

    level: int
    seqs: np.ndarray
    """int64 (level + 1, cells): the best sequence per level."""
    frames: np.ndarray
    """int64 (FRAME_ROWS, level + 1): one frame per level."""
    cands: np.ndarray
    """int64 (level + 1, cells * MAX_MOVES_PER_CELL): candidate moves per level."""


class Flat(NamedTuple):
    """Flat Monte-Carlo's setting and buffers."""

    playouts: int
    moves: np.ndarray
    cands: np.ndarray
    """int64 (cells * MAX_MOVES_PER_CELL)."""


class Uct(NamedTuple):
    """UCT's settings, transposition table and buffers."""

    playouts: int
    c: float
    zkeys: np.ndarray
    """int64 (cells * MAX_MOVES_PER_CELL): the Zobrist key of each move."""
    keys: np.ndarray
    """int64 (2**table_bits): the key of each slot (0 = empty)."""
    visits: np.ndarray
    """int64, like `keys`: visits per slot (-1 = proven loss)."""
    wins: np.ndarray
    """float64, like `keys`: total reward per slot."""
    used: np.ndarray
    """int64 (3/4 of the table + 1): number of slots in use, then their indices."""
    path: np.ndarray
    """int64 (cells + 2): the hashes along one descent."""
    moves: np.ndarray
    cands: np.ndarray


ALGORITHMS = ("sampling", "nested", "flat", "uct")


# --------------------------------------------------------------------- nested
@compiled
def _copy_moves(src: np.ndarray, dst: np.ndarray, at: int, count: int) -> None:
    for i in range(count):
        dst[at + i] = src[i]


@compiled
def nested(st: State, top: int, seqs: np.ndarray, frames: np.ndarray, cands: np.ndarray) -> int:
    """One nested Monte-Carlo search of level `top` >= 1 from the current state (Cazenave
    2010, Sect. 2.4), written iteratively with one frame per level.

    At each step of level l: try every `candidate_moves` move (by default every value of the
    smallest-domain cell), score each by a level l-1 search (level 0 = `playout`; an immediate
    wipe-out scores 1 + free cells), keep the best sequence found so far (strictly better
    replaces it) and play its next move (`play_move`). `seqs[l]` holds level l's moves from
    its entry: the played prefix, then the best continuation. Returns 0 (solved; captured),
    the score (> 0) or -1 when stopped. Does not undo.
    """
    best, played, count, index, move, mark = frames[0], frames[1], frames[2], frames[3], frames[4], frames[5]
    step, next_value, result, play, leave = 0, 1, 2, 3, 4
    level = top
    best[level] = st.info[NFREE] + 1
    played[level] = 0
    phase = step
    score = 0
    child_len = 0
    while True:
        if phase == step:
            count[level] = candidate_moves(st, cands[level])
            index[level] = 0
            mark[level] = st.info[TRAIL]
            phase = next_value
        elif phase == next_value:
            i = index[level]
            if i >= count[level]:
                phase = play
                continue
            index[level] = i + 1
            m = cands[level, i]
            move[level] = m
            outcome = play_in_game(st, m)
            if outcome == 0 or outcome == -1:
                return outcome
            if outcome > 0:
                score = outcome
                child_len = 0
                phase = result
            elif level == 1:
                score, child_len = playout(st, seqs[0])
                if score <= 0:
                    return score
                phase = result
            else:
                level -= 1
                best[level] = st.info[NFREE] + 1
                played[level] = 0
                phase = step
        elif phase == result:
            undo(st, mark[level])
            if score < best[level]:
                best[level] = score
                p = played[level]
                seqs[level, p] = move[level]
                _copy_moves(seqs[level - 1], seqs[level], p + 1, child_len)
            phase = next_value
        elif phase == play:
            p = played[level]
            m = seqs[level, p]
            played[level] = p + 1
            outcome = play_in_game(st, m)
            if outcome == 0 or outcome == -1:
                return outcome
            if outcome > 0:
                score = outcome
                phase = leave
            else:
                phase = step
        else:  # leave: level returns `score` with its played moves as its sequence
            if level == top:
                return score
            child_len = played[level]
            level += 1
            phase = result


# --------------------------------------------------------------------- flat
@compiled
def _best_of_playouts(st: State, playouts: int, moves: np.ndarray) -> int:
    """The best (lowest) score of `playouts` playouts from the current state, each undone;
    0 when one solves (captured; not undone), -1 when stopped."""
    mark = st.info[TRAIL]
    best = st.info[NFREE] + 1
    for _ in range(playouts):
        score, _ = playout(st, moves)
        if score == 0:
            return 0
        undo(st, mark)
        if score < 0:
            return -1
        if score < best:
            best = score
    return best


@compiled
def flat(st: State, playouts: int, moves: np.ndarray, cands: np.ndarray) -> int:
    """One flat Monte-Carlo game from the current state: at each position score every
    `candidate_moves` move by the best of `playouts` playouts after it (an immediate wipe-out
    scores 1 + free cells), play the best (first on ties) and go on until solved or wiped out.
    Returns 0 (solved; captured), the score (> 0) or -1 when stopped. Does not undo."""
    while True:
        k = candidate_moves(st, cands)
        if k == 0:
            capture(st)
            return 0
        mark = st.info[TRAIL]
        best = st.info[NFREE] + 2
        best_move = cands[0]
        for i in range(k):
            m = cands[i]
            score = play_in_game(st, m)
            if score == 0 or score == -1:
                return score
            if score == GOING_ON:
                score = _best_of_playouts(st, playouts, moves)
                if score == 0:
                    return 0
                if score < 0:
                    return -1
            undo(st, mark)
            if score < best:
                best = score
                best_move = m
        outcome = play_in_game(st, best_move)
        if outcome != GOING_ON:
            return outcome


# --------------------------------------------------------------------- UCT
@compiled
def random_key(st: State) -> int:
    """A random 64-bit Zobrist key (draws of the state's generator)."""
    hi = random_below(st, 1 << 31)
    lo = random_below(st, 1 << 31)
    return (hi << 33) ^ (lo << 2) ^ random_below(st, 4) ^ 1


@entry_point
def _fill_keys(st: State, zkeys: np.ndarray) -> None:
    for i in range(zkeys.shape[0]):
        zkeys[i] = random_key(st)


@compiled
def _tt_slot(keys: np.ndarray, h: int, insert: bool, used: np.ndarray) -> int:
    """Slot of key `h` in the open-addressing table `keys` (length a power of two, 0 = empty),
    linear probing; with `insert` a missing key is added while the table has room (`used[0]`
    keys so far, their slots in `used[1:]`, which is 3/4 of the table long). -1 when missing
    (and not inserted)."""
    size = keys.shape[0]
    i = (h ^ (h >> 29)) & (size - 1)
    while True:
        k = keys[i]
        if k == h:
            return i
        if k == 0:
            if insert and used[0] + 1 < used.shape[0]:
                keys[i] = h
                used[0] += 1
                used[used[0]] = i
                return i
            return -1
        i = (i + 1) & (size - 1)


@compiled
def _tt_clear(keys: np.ndarray, visits: np.ndarray, wins: np.ndarray, used: np.ndarray) -> None:
    """Empty the transposition table (only the slots in use, listed in `used[1:]`)."""
    for j in range(1, used[0] + 1):
        i = used[j]
        keys[i] = 0
        visits[i] = 0
        wins[i] = 0.0
    used[0] = 0


@compiled
def _mark_lost(keys: np.ndarray, visits: np.ndarray, used: np.ndarray, h: int) -> None:
    """Record position `h` as a proven loss (visits -1: never selected again)."""
    slot = _tt_slot(keys, h, True, used)
    if slot >= 0:
        visits[slot] = -1


@compiled
def _most_visited(st: State, here: int, zkeys: np.ndarray, keys: np.ndarray, visits: np.ndarray,
                  used: np.ndarray, cands: np.ndarray) -> int:
    """The candidate move from position `here` with the most visits, skipping proven losses;
    -1 when every candidate is a proven loss."""
    k = candidate_moves(st, cands)
    best_n = -1
    best_move = -1
    for i in range(k):
        m = cands[i]
        child = _tt_slot(keys, here ^ zkeys[m], False, used)
        n = visits[child] if child >= 0 else 0
        if n > best_n:
            best_n = n
            best_move = m
    return best_move


@compiled
def uct(
    st: State, playouts: int, c: float, zkeys: np.ndarray, keys: np.ndarray, visits: np.ndarray,
    wins: np.ndarray, used: np.ndarray, path: np.ndarray, moves: np.ndarray, cands: np.ndarray,
) -> int:
    """One UCT game from the current state: before each move run `playouts` iterations
    (descend by UCB1 = mean reward + c sqrt(ln N / n), unvisited children first; expand the
    first unvisited one; playout; back up reward 1 - score / (free cells at the root + 1)),
    then play the most visited move. Statistics live in a transposition table (`keys`,
    `visits`, `wins`) keyed by the Zobrist hash of the partial assignment of decisions (XOR of
    `zkeys[cell * 64 + value]` over the moves played from the root; 0 is the root itself,
    stored as 1). A move whose propagation wipes out, and a position whose moves are all such
    losses, is marked lost (visits -1) and never descended into again; when the current
    position is lost the game ends there. Returns 0 (solved; captured), the score (> 0) or -1
    when stopped. Does not undo."""
    scale = 1.0 / (st.info[NFREE] + 1)
    here = np.int64(1)
    while True:
        mark = st.info[TRAIL]
        for _ in range(playouts):
            h = here
            depth = 0
            path[0] = h
            score = 0
            lost = False
            while True:
                k = candidate_moves(st, cands)
                if k == 0:
                    capture(st)
                    return 0
                slot = _tt_slot(keys, h, False, used)
                parent_n = visits[slot] if slot >= 0 else 0
                log_n = np.log(parent_n + 1.0)
                best = -1.0
                chosen = -1
                expand = False
                for i in range(k):
                    m = cands[i]
                    child = _tt_slot(keys, h ^ zkeys[m], False, used)
                    if child >= 0 and visits[child] < 0:
                        continue
                    if child < 0 or visits[child] == 0:
                        chosen = m
                        expand = True
                        break
                    n = visits[child]
                    u = wins[child] / n + c * np.sqrt(log_n / n)
                    if u > best:
                        best = u
                        chosen = m
                if chosen < 0:  # every move from h is a proven loss: so is h
                    score = 1 + st.info[NFREE]
                    lost = True
                    break
                h = h ^ zkeys[chosen]
                depth += 1
                path[depth] = h
                outcome = play_in_game(st, chosen)
                if outcome == 0 or outcome == -1:
                    return outcome
                if outcome > 0:
                    score = outcome
                    lost = True
                    break
                if expand:
                    score, _ = playout(st, moves)
                    if score <= 0:
                        return score
                    break
            reward = 1.0 - score * scale
            top = depth - 1 if lost else depth
            for d in range(top + 1):
                slot = _tt_slot(keys, path[d], True, used)
                if slot >= 0 and visits[slot] >= 0:
                    visits[slot] += 1
                    wins[slot] += reward
            undo(st, mark)
            if lost:
                _mark_lost(keys, visits, used, path[depth])
                if depth == 0:
                    return score
        best_move = _most_visited(st, here, zkeys, keys, visits, used, cands)
        if best_move < 0:
            return 1 + st.info[NFREE]
        here = here ^ zkeys[best_move]
        outcome = play_in_game(st, best_move)
        if outcome != GOING_ON:
            return outcome


# --------------------------------------------------------------------- the restart driver
def play_game(st: State, game: Sampling | Nested | Flat | Uct) -> int:
    """One game from the current state, chosen by the type of `game` (compiled code only)."""
    raise NotImplementedError("play_game runs inside compiled code")


def forget(game: Sampling | Nested | Flat | Uct) -> None:
    """Clear what a game keeps between moves (UCT's table), before the next restart."""
    raise NotImplementedError("forget runs inside compiled code")


@overload(play_game, jit_options=INTERNAL, inline="always")
def _play_game(st, game):  # type: ignore[no-untyped-def]
    if instance_of(game, Sampling):
        return lambda st, game: playout(st, game.moves)[0]
    if instance_of(game, Nested):
        return lambda st, game: nested(st, game.level, game.seqs, game.frames, game.cands)
    if instance_of(game, Flat):
        return lambda st, game: flat(st, game.playouts, game.moves, game.cands)
    if instance_of(game, Uct):
        return lambda st, game: uct(st, game.playouts, game.c, game.zkeys, game.keys, game.visits, game.wins,
                                    game.used, game.path, game.moves, game.cands)
    return None


@overload(forget, jit_options=INTERNAL, inline="always")
def _forget(game):  # type: ignore[no-untyped-def]
    if instance_of(game, Uct):
        return lambda game: _tt_clear(game.keys, game.visits, game.wins, game.used)
    return lambda game: None


@entry_point
def restarts(st: State, game: Sampling | Nested | Flat | Uct, games: int) -> int:
    """Games from the root (the algorithm is the type of `game`: each is compiled on its own),
    restarted until one solves (SOLVED: the solution is in `sol`), the stop flag rises
    (STOPPED) or, when `games` > 0, that many games failed (LIMIT; the state is back at the
    root). Counts restarts in `info[RESTARTS]`."""
    root = st.info[TRAIL]
    played = 0
    while True:
        score = play_game(st, game)
        if score == 0:
            return SOLVED
        undo(st, root)
        forget(game)
        if score < 0 or st.info[STOP] != 0:
            return STOPPED
        played += 1
        if games > 0 and played >= games:
            return LIMIT
        st.info[RESTARTS] += 1


def new_game(st: State, algorithm: str, *, level: int = 1, playouts: int = 1, c: float = 0.0,
             table_bits: int = TABLE_BITS) -> Sampling | Nested | Flat | Uct:
    """The settings and fresh buffers of `algorithm` (one of ALGORITHMS) on `st`; UCT's
    Zobrist keys are drawn from the state's generator."""
    n = st.val.shape[0]
    moves = np.zeros(n, dtype=np.int64)
    if algorithm == "sampling":
        return Sampling(moves)
    if algorithm == "nested":
        return Nested(level, np.zeros((level + 1, n), dtype=np.int64), np.zeros((FRAME_ROWS, level + 1), dtype=np.int64),
                      np.zeros((level + 1, n * MAX_MOVES_PER_CELL), dtype=np.int64))
    cands = np.zeros(n * MAX_MOVES_PER_CELL, dtype=np.int64)
    if algorithm == "flat":
        return Flat(playouts, moves, cands)
    if algorithm != "uct":
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm!r}")
    size = 1 << table_bits
    zkeys = np.zeros(n * MAX_MOVES_PER_CELL, dtype=np.int64)
    _fill_keys(st, zkeys)
    return Uct(playouts, float(c), zkeys, np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
               np.zeros(size, dtype=np.float64), np.zeros(size * 3 // 4 + 1, dtype=np.int64),
               np.zeros(n + 2, dtype=np.int64), moves, cands)


def run(st: State, algorithm: str, games: int = 0, **settings: Any) -> int:
    """`restarts` of `algorithm` from the current state with fresh buffers (`new_game`'s
    settings): SOLVED (the solution in `sol`), STOPPED, or LIMIT after `games` failed
    games (0: no such bound)."""
    code = int(restarts(st, new_game(st, algorithm, **settings), games))
    raise_if_interrupted(st)
    return code


def warm_up(algorithm: str, consistency: str) -> None:
    """Compile `algorithm`'s restarts (and what it plays) for states of `consistency`."""
    st = warm_up_state(consistency)
    root_propagate(st)
    configure(st)
    run(st, algorithm, level=2, playouts=2, c=0.2, table_bits=8)
