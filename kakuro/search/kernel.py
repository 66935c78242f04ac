"""The one compiled search state every native algorithm runs on (numba, nopython mode).

A `State` is a named tuple of numpy arrays built once per solve by `build_state`:

- per cell: `dom` (int64 bitmask, bit v = value v, values 0..62), `val` (assigned value,
  -1 = free, so a range starting at 0 works), `size` (popcount of `dom` for a free cell,
  `ASSIGNED` for an assigned one, so choosing the smallest domain is one scan) and
  `cell_runs` (its across and down run, -1 where it has none);
- per run, `runs[r, TARGET | SUM | FREE | QUEUED]`: the clue, the sum of the assigned cells,
  the number of free cells, and whether it waits in the propagation `queue`;
- `members`: run r's cells are `members[members[r]:members[r + 1]]` (offsets first);
- `combos`: run r's combinations (`kakuro.combos.run_tables`) are
  `combos[combos[r]:combos[r + 1]]` (offsets first; no combinations under `fc`);
- `trail` (undo): pairs (cell, old domain) for a domain change, (-cell - 1, old domain) for an
  assignment; `undo(state, mark)` pops back to a mark (a trail length);
- `info`: trail length, free cells, stop flag, mode, deadline, generator ... then the stats
  counters (`NODES` ... `RESTARTS`); `sol` (the captured solution), `work` (scratch of
  `revise_run`) and `givens` ((cell, value) rows, assigned by `root_propagate`).

The state is few arrays on purpose: numba passes every array of the tuple to every kernel call
as seven machine words, and each extra array was measured to cost about 3 ns per assignment.

`assign(state, cell, value)` assigns and propagates at the state's strength:

- `fc` (`MODE_FC`): Cazenave's (2010) forward checking, exactly: remove the value from the free
  cells of the cell's runs, remove values above target - partial sum from them, check the sum
  of a completed run, fail on an empty domain;
- `gac` (`MODE_GAC`): exact run-level reasoning (`revise_run`): a value stays in a cell only if
  some combination of distinct values with the run's sum, matched one-to-one onto the run's
  free cells within their domains, gives it to that cell; runs are revised from a queue to a
  fixpoint (`propagate`).

Monte-Carlo searches (`iterative_sampling`, `nested`, `flat`, `uct`) share `playout`, built from
`choose_move` (the random move, by `info[SELECTION]`), `play_move` (the move, then by
`info[STRATEGY]` every forced cell under max-inference) and `candidate_moves` (the moves of a
tree node); `configure` sets both slots (0, 0 = Cazenave's playout). `uct` keeps its statistics
in an open-addressing table of numpy arrays keyed by Zobrist hashes (`_tt_slot`).

`retarget` gives a `gac` state the clues of another filling of the same layout and resets it
to its root, so the classic generator's search (`kakuro.generate.unique`) builds one state per
layout instead of one per filling.

Time limits: `assign` reads CLOCK_MONOTONIC (the clock of `time.perf_counter` on Linux) every
`CLOCK_EVERY` assignments and `revise_run` every `CLOCK_EVERY_COMBOS` combinations; past the
deadline it raises the stop flag and fails, and every search loop returns `STOPPED` at once.
No kernel is recursive, so all are cached on disk (`cache=True`).

Kernels are compiled without numba's reference-counting runtime (`_nrt=False`, see
`compiled`): with it, passing the state to a function costs two atomic reference-count
operations per array (measured: 395 ns instead of 37 ns for one smallest-domain scan of a
64-cell state). So no kernel allocates: every buffer is a numpy array made in Python (the
state's, or `depth_first`'s stack and `nested`'s frames), and copies are explicit loops.
"""

from __future__ import annotations

from functools import lru_cache

import time
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from kakuro.combos import MAX_COMBINATIONS, run_tables
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle
from kakuro.solver import Deadline, Outcome, Status


def compiled(fn):  # type: ignore[no-untyped-def]
    """The decorator of every kernel: nopython, cached on disk, no reference counting (so the
    function must not allocate arrays or assign to slices; it fails to compile if it does)."""
    return njit(cache=True, _nrt=False)(fn)


def inlined(fn):  # type: ignore[no-untyped-def]
    """`compiled`, and inlined by numba into every caller. Only for `assign`, the call of every
    search step: inlining it made nested Monte-Carlo 26-30 % faster (LLVM does not inline it by
    itself; inlining `undo` or `select_variable` as well gained nothing)."""
    return njit(cache=True, _nrt=False, inline="always")(fn)


# --------------------------------------------------------------------- constants
MODE_FC = 0
MODE_GAC = 1
MODES = {"fc": MODE_FC, "gac": MODE_GAC}

# runs[r, field]
TARGET = 0
SUM = 1
FREE = 2
QUEUED = 3
RUN_FIELDS = 4

# info slots: control
TRAIL = 0
NFREE = 1
STOP = 2
MODE = 3
END_NS = 4
TICKS = 5
QHEAD = 6
QLEN = 7
ROOT_SOLVED = 8
RNG = 9
# info slots: stats counters
NODES = 10
FAILS = 11
ASSIGNMENTS = 12
SAMPLES = 13
PROPAGATIONS = 14
RESTARTS = 15
# info slots: Monte-Carlo settings (0 = Cazenave's playout, so a fresh state behaves as before)
STRATEGY = 16
SELECTION = 17
INFO_SIZE = 18
STAT_SLOTS = {"nodes": NODES, "fails": FAILS, "assignments": ASSIGNMENTS, "samples": SAMPLES,
              "propagations": PROPAGATIONS, "restarts": RESTARTS}

# kernel return codes
SOLVED = 0
STOPPED = 1
EXHAUSTED = 2
LIMIT = 3

# playing strategies (info[STRATEGY]) and random move selections (info[SELECTION])
STRAT_PRIORITY = 0
STRAT_NAIVE = 1
STRAT_MAX_INFERENCE = 2
STRATEGIES = {"priority": STRAT_PRIORITY, "naive": STRAT_NAIVE, "max-inference": STRAT_MAX_INFERENCE}
SEL_PRIORITY = 0
SEL_VALUES = 1
SEL_CELLS = 2
SELECTIONS = {"priority": SEL_PRIORITY, "values": SEL_VALUES, "cells": SEL_CELLS}

ASSIGNED = 1 << 20
"""`size` of an assigned cell: larger than any domain, so variable choice skips it."""
NO_DEADLINE = np.iinfo(np.int64).max
CLOCK_EVERY = 16
"""Assignments between two clock readings (a reading costs about 30 ns)."""
CLOCK_EVERY_COMBOS = 1024
MAX_TABLE = 20_000_000
"""Most combinations (all runs together) a `gac` state tabulates: 160 MB of masks."""
VALUE_BITS = 6
"""A move is encoded as cell << VALUE_BITS | value."""
SCRATCH = 64
"""Length of each `work` row: more than the longest possible run (63 values 0..62)."""
# work rows (each SCRATCH long) used by revise_run and its matching
W_CELLS, W_FDOM, W_SUPP, W_REACH, W_MATCH, W_OWNER, W_SCELL, W_SVAL, W_SCAND = range(9)
WORK_ROWS = 9


class State(NamedTuple):
    """The compiled search state (see the module docstring); build it with `build_state`."""

    dom: np.ndarray
    val: np.ndarray
    size: np.ndarray
    cell_runs: np.ndarray
    runs: np.ndarray
    members: np.ndarray
    combos: np.ndarray
    trail: np.ndarray
    queue: np.ndarray
    info: np.ndarray
    sol: np.ndarray
    work: np.ndarray
    givens: np.ndarray


# --------------------------------------------------------------------- intrinsics
@intrinsic
def _clock_ns(typingctx):  # type: ignore[no-untyped-def]
    """CLOCK_MONOTONIC in nanoseconds, via libc clock_gettime (vDSO, about 30 ns)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i64, i32 = ir.IntType(64), ir.IntType(32)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [ir.Constant(i32, 1), ts])  # 1 = CLOCK_MONOTONIC on Linux
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return sig, codegen


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of an int64 (LLVM ctpop)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero int64 (LLVM cttz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@compiled
def clock_ns() -> int:
    """The kernels' clock: CLOCK_MONOTONIC, nanoseconds."""
    return _clock_ns()


def rng_state(seed: int) -> int:
    """The generator state for `seed` (splitmix64 of it; never 0), as a signed int64."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    z = (z ^ (z >> 31)) or 1
    return z - 2**64 if z >= 2**63 else z


@compiled
def random_below(st: State, k: int) -> int:
    """A uniform integer in 0..k-1 (1 <= k < 2**32) from the state's xorshift64* generator
    (`info[RNG]`, set from the seed by `begin`): a solve is reproducible and independent of
    any other generator."""
    x = np.uint64(st.info[RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st.info[RNG] = np.int64(x)
    r = (x * np.uint64(2685821657736338717)) >> np.uint64(32)
    return np.int64((r * np.uint64(k)) >> np.uint64(32))


# --------------------------------------------------------------------- trail, assign, undo
@compiled
def _set_domain(st: State, c: int, nd: int) -> None:
    """Shrink free cell `c` to `nd`, trailing the old domain."""
    t = st.info[TRAIL]
    st.trail[2 * t] = c
    st.trail[2 * t + 1] = st.dom[c]
    st.info[TRAIL] = t + 1
    st.dom[c] = nd
    st.size[c] = popcount(nd)


@compiled
def _assign_raw(st: State, c: int, v: int) -> bool:
    """Assign without propagation; False if `v` is not in the domain of free cell `c`."""
    bit = np.int64(1) << v
    if st.val[c] >= 0 or st.dom[c] & bit == 0:
        return False
    t = st.info[TRAIL]
    st.trail[2 * t] = -c - 1
    st.trail[2 * t + 1] = st.dom[c]
    st.info[TRAIL] = t + 1
    st.dom[c] = bit
    st.size[c] = ASSIGNED
    st.val[c] = v
    st.info[NFREE] -= 1
    for k in range(2):
        r = st.cell_runs[c, k]
        if r >= 0:
            st.runs[r, SUM] += v
            st.runs[r, FREE] -= 1
    return True


@compiled
def undo(st: State, mark: int) -> None:
    """Restore the state as it was when the trail length was `mark`."""
    t = st.info[TRAIL]
    while t > mark:
        t -= 1
        c = st.trail[2 * t]
        if c < 0:
            c = -c - 1
            v = st.val[c]
            for k in range(2):
                r = st.cell_runs[c, k]
                if r >= 0:
                    st.runs[r, SUM] -= v
                    st.runs[r, FREE] += 1
            st.val[c] = -1
            st.info[NFREE] += 1
        d = st.trail[2 * t + 1]
        st.dom[c] = d
        st.size[c] = popcount(d)
    st.info[TRAIL] = t


@compiled
def _out_of_time(st: State) -> bool:
    """Read the clock; past the deadline raise the stop flag. True when stopped."""
    if _clock_ns() >= st.info[END_NS]:
        st.info[STOP] = 1
    return st.info[STOP] != 0


@inlined
def assign(st: State, c: int, v: int) -> bool:
    """Assign value `v` to free cell `c` and propagate; False on a wipe-out (or when stopped:
    check `info[STOP]`). The caller undoes to its own mark either way."""
    st.info[ASSIGNMENTS] += 1
    st.info[TICKS] += 1
    if st.info[STOP] != 0 or (st.info[TICKS] % CLOCK_EVERY == 0 and _out_of_time(st)):
        return False
    if not _assign_raw(st, c, v):
        return False
    if st.info[MODE] == MODE_FC:
        return _forward_check(st, c, v)
    return _propagate_assignment(st, c)


# --------------------------------------------------------------------- forward checking
@compiled
def _keep_at_most(maxval: int) -> int:
    """The mask of values 0..maxval (empty below 0, everything from 62 up)."""
    if maxval < 0:
        return 0
    if maxval >= 62:
        return -1
    return (np.int64(1) << (maxval + 1)) - 1


@compiled
def _prune_run(st: State, r: int, keep: int) -> bool:
    """Intersect the free cells of run `r` with `keep`; False on an empty domain."""
    for idx in range(st.members[r], st.members[r + 1]):
        c = st.members[idx]
        if st.val[c] < 0:
            d = st.dom[c]
            nd = d & keep
            if nd != d:
                _set_domain(st, c, nd)
                if nd == 0:
                    return False
    return True


@compiled
def _forward_check(st: State, c: int, v: int) -> bool:
    """Cazenave's forward checking after `c` = `v`, on both runs of `c`."""
    others = ~(np.int64(1) << v)
    for k in range(2):
        r = st.cell_runs[c, k]
        if r < 0:
            continue
        if st.runs[r, FREE] == 0:
            if st.runs[r, SUM] != st.runs[r, TARGET]:
                return False
            continue
        keep = _keep_at_most(st.runs[r, TARGET] - st.runs[r, SUM]) & others
        if not _prune_run(st, r, keep):
            return False
    return True


# --------------------------------------------------------------------- GAC
@compiled
def _enqueue(st: State, r: int) -> None:
    if st.runs[r, QUEUED] == 0:
        m = st.queue.shape[0]
        st.queue[(st.info[QHEAD] + st.info[QLEN]) % m] = r
        st.info[QLEN] += 1
        st.runs[r, QUEUED] = 1


@compiled
def _clear_queue(st: State) -> None:
    m = st.queue.shape[0]
    while st.info[QLEN] > 0:
        st.runs[st.queue[st.info[QHEAD]], QUEUED] = 0
        st.info[QHEAD] = (st.info[QHEAD] + 1) % m
        st.info[QLEN] -= 1


@compiled
def _propagate_assignment(st: State, c: int) -> bool:
    """GAC after assigning `c`: queue its runs and propagate."""
    for k in range(2):
        if st.cell_runs[c, k] >= 0:
            _enqueue(st, st.cell_runs[c, k])
    return propagate(st)


@compiled
def propagate(st: State) -> bool:
    """Revise queued runs (GAC) until the queue is empty; False on a wipe-out or stop."""
    m = st.queue.shape[0]
    while st.info[QLEN] > 0:
        r = st.queue[st.info[QHEAD]]
        st.info[QHEAD] = (st.info[QHEAD] + 1) % m
        st.info[QLEN] -= 1
        st.runs[r, QUEUED] = 0
        if not revise_run(st, r):
            _clear_queue(st)
            return False
    return True


@compiled
def _augment(st: State, start: int, rest: int) -> bool:
    """Kuhn's augmenting path (iterative DFS) for free-cell slot `start` onto values `rest`."""
    fdom, match, owner = st.work[W_FDOM], st.work[W_MATCH], st.work[W_OWNER]
    scell, sval, scand = st.work[W_SCELL], st.work[W_SVAL], st.work[W_SCAND]
    visited = np.int64(0)
    top = 0
    scell[0] = start
    scand[0] = fdom[start] & rest
    while top >= 0:
        cand = scand[top] & ~visited
        if cand == 0:
            top -= 1
            continue
        b = cand & -cand
        visited |= b
        scand[top] = cand ^ b
        v = lowest_bit_index(b)
        sval[top] = v
        o = owner[v]
        if o < 0:
            for t in range(top + 1):
                match[scell[t]] = sval[t]
                owner[sval[t]] = scell[t]
            return True
        top += 1
        scell[top] = o
        scand[top] = fdom[o] & rest
    return False


@compiled
def _matching_supports(st: State, k: int, rest: int) -> None:
    """OR into supp[j] the values free-cell slot j takes in some perfect matching of the k
    slots onto the k values of `rest` (nothing when no perfect matching exists)."""
    fdom, supp, reach = st.work[W_FDOM], st.work[W_SUPP], st.work[W_REACH]
    match, owner = st.work[W_MATCH], st.work[W_OWNER]
    m = rest
    while m:
        b = m & -m
        owner[lowest_bit_index(b)] = -1
        m ^= b
    unmatched = rest
    for j in range(k):
        d = fdom[j] & unmatched
        if d:
            b = d & -d
            v = lowest_bit_index(b)
            match[j] = v
            owner[v] = j
            unmatched ^= b
        else:
            match[j] = -1
    for j in range(k):
        if match[j] < 0 and not _augment(st, j, rest):
            return
    # an edge (j, v) off the matching lies in some perfect matching iff the slot owning v
    # reaches j in the graph j -> owner(v) for v in dom(j) (an alternating cycle)
    for j in range(k):
        a = np.int64(0)
        d = fdom[j] & rest & ~(np.int64(1) << match[j])
        while d:
            b = d & -d
            a |= np.int64(1) << owner[lowest_bit_index(b)]
            d ^= b
        reach[j] = a
    for i in range(k):
        bi = np.int64(1) << i
        ri = reach[i]
        for j in range(k):
            if reach[j] & bi:
                reach[j] |= ri
    for j in range(k):
        s = np.int64(1) << match[j]
        d = fdom[j] & rest & ~s
        while d:
            b = d & -d
            if (reach[owner[lowest_bit_index(b)]] >> j) & 1:
                s |= b
            d ^= b
        supp[j] |= s


@compiled
def revise_run(st: State, r: int) -> bool:
    """Make run `r` generalized arc consistent: keep in each free cell exactly the values some
    combination (distinct values, the run's sum, covering the assigned values) gives it in a
    one-to-one matching onto the free cells. Runs of changed cells are queued. False on a
    wipe-out, on repeated assigned values or a wrong full sum, or when stopped."""
    cells, fdom, supp = st.work[W_CELLS], st.work[W_FDOM], st.work[W_SUPP]
    st.info[PROPAGATIONS] += 1
    k = 0
    required = np.int64(0)
    union = np.int64(0)
    for idx in range(st.members[r], st.members[r + 1]):
        c = st.members[idx]
        if st.val[c] >= 0:
            b = np.int64(1) << st.val[c]
            if required & b:
                return False
            required |= b
        else:
            cells[k] = c
            fdom[k] = st.dom[c]
            supp[k] = 0
            union |= st.dom[c]
            k += 1
    if k == 0:
        return st.runs[r, SUM] == st.runs[r, TARGET]
    seen = 0
    for q in range(st.combos[r], st.combos[r + 1]):
        seen += 1
        if seen % CLOCK_EVERY_COMBOS == 0 and _out_of_time(st):
            return False
        combo = st.combos[q]
        if combo & required != required:
            continue
        rest = combo ^ required
        if rest & ~union:
            continue
        need = np.int64(0)
        complete = True
        for j in range(k):
            dj = fdom[j] & rest
            need |= dj & ~supp[j]
            if dj != rest:
                complete = False
        if need == 0:
            continue
        if complete:
            for j in range(k):
                supp[j] |= rest
        else:
            _matching_supports(st, k, rest)
        done = True
        for j in range(k):
            if supp[j] != fdom[j]:
                done = False
                break
        if done:
            break
    for j in range(k):
        nd = supp[j]
        if nd == 0:
            return False
        if nd != fdom[j]:
            c = cells[j]
            _set_domain(st, c, nd)
            for e in range(2):
                other = st.cell_runs[c, e]
                if other >= 0 and other != r:
                    _enqueue(st, other)
    return True


# --------------------------------------------------------------------- root
@compiled
def root_propagate(st: State) -> bool:
    """Propagate the empty assignment and the givens; the result becomes the root (the trail
    is committed). `fc`: remove values above each run's target, then assign the givens one by
    one with forward checking. `gac`: assign the givens, then revise every run to a fixpoint.
    False when the puzzle is found unsatisfiable (or the deadline passed: see info[STOP])."""
    ok = True
    m = st.runs.shape[0]
    if st.info[MODE] == MODE_FC:
        for r in range(m):
            if not _prune_run(st, r, _keep_at_most(st.runs[r, TARGET])):
                ok = False
                break
        if ok:
            for g in range(st.givens.shape[0]):
                if not assign(st, st.givens[g, 0], st.givens[g, 1]):
                    ok = False
                    break
    else:
        for g in range(st.givens.shape[0]):
            if not _assign_raw(st, st.givens[g, 0], st.givens[g, 1]):
                ok = False
                break
        if ok:
            for r in range(m):
                _enqueue(st, r)
            ok = propagate(st)
    st.info[TRAIL] = 0
    return ok


@compiled
def retarget(st: State, values: np.ndarray, bounds: np.ndarray, masks: np.ndarray, full: int) -> None:
    """Reset a `gac` state without givens to its unpropagated root for the clues of a filling:
    run r's target becomes the sum of `values` (one per cell) over its cells and its
    combinations the library's (`kakuro.combos.combination_library`: `bounds`, `masks`); every
    domain becomes `full`, nothing is assigned, the trail and the queue are empty. `st.combos`
    must have room for each run's largest table (`kakuro.generate.unique` sizes it)."""
    m = st.runs.shape[0]
    at = m + 1
    for r in range(m):
        first, last = st.members[r], st.members[r + 1]
        total = 0
        for idx in range(first, last):
            total += values[st.members[idx]]
        st.runs[r, TARGET] = total
        st.runs[r, SUM] = 0
        st.runs[r, FREE] = last - first
        st.runs[r, QUEUED] = 0
        st.combos[r] = at
        for q in range(bounds[last - first, total, 0], bounds[last - first, total, 1]):
            st.combos[at] = masks[q]
            at += 1
    st.combos[m] = at
    width = popcount(full)
    for c in range(st.dom.shape[0]):
        st.dom[c] = full
        st.val[c] = -1
        st.size[c] = width
    st.info[TRAIL] = 0
    st.info[NFREE] = st.dom.shape[0]
    st.info[QHEAD] = 0
    st.info[QLEN] = 0


# --------------------------------------------------------------------- choices and playouts
@compiled
def select_variable(st: State) -> int:
    """The free cell with the smallest domain (lowest index on ties); -1 when none is free."""
    best = -1
    best_size = ASSIGNED
    for c in range(st.size.shape[0]):
        s = st.size[c]
        if s < best_size:
            best_size = s
            best = c
            if s <= 1:
                break
    return best


@compiled
def random_value(st: State, mask: int) -> int:
    """A value of the non-empty `mask`, uniformly at random."""
    skip = random_below(st, popcount(mask))
    for _ in range(skip):
        mask &= mask - 1
    return lowest_bit_index(mask)


@compiled
def _copy_values(st: State, out: np.ndarray) -> None:
    for c in range(st.val.shape[0]):
        out[c] = st.val[c]


@compiled
def capture(st: State) -> None:
    """Copy the (complete) assignment into `sol`."""
    for c in range(st.val.shape[0]):
        st.sol[c] = st.val[c]


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
    """The moves of a search-tree node, written to `out` (int32, at least cells * 64 long):
    the values of the smallest-domain cell (ascending) under the smallest-cell rule, else every
    (free cell, value) pair. Returns their number (0 when no cell is free)."""
    k = 0
    if _smallest_cell_rule(st):
        c = select_variable(st)
        if c < 0:
            return 0
        d = st.dom[c]
        while d:
            b = d & -d
            out[k] = (c << VALUE_BITS) | lowest_bit_index(b)
            k += 1
            d ^= b
        return k
    for c in range(st.size.shape[0]):
        if st.size[c] == ASSIGNED:
            continue
        d = st.dom[c]
        while d:
            b = d & -d
            out[k] = (c << VALUE_BITS) | lowest_bit_index(b)
            k += 1
            d ^= b
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


@compiled
def playout(st: State, moves: np.ndarray) -> tuple[int, int]:
    """A random game: `choose_move`, `play_move`, until solved or wiped out (by default
    Cazenave's sample: smallest-domain cell, random value, forward checking).

    Writes the chosen moves (cell << VALUE_BITS | value, the failing move included; inferred
    moves are not written: `play_move` replays them) into `moves`. Returns (score, number of
    moves): 0 when solved (the solution is captured), else 1 + the number of free cells after
    the failing move. Does not undo.
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
            return 1 + st.info[NFREE], length
        if st.info[NFREE] == 0:
            capture(st)
            return 0, length


# --------------------------------------------------------------------- searches
@compiled
def iterative_sampling(st: State, moves: np.ndarray) -> int:
    """Samples from the root until one solves (SOLVED) or the stop flag rises (STOPPED)."""
    root = st.info[TRAIL]
    while True:
        score, _ = playout(st, moves)
        if score == 0:
            return SOLVED
        undo(st, root)
        if st.info[STOP] != 0:
            return STOPPED
        st.info[RESTARTS] += 1


@compiled
def depth_first(st: State, ascending: bool, solutions: np.ndarray, stack: np.ndarray) -> tuple[int, int]:
    """Depth-first search (explicit stack), smallest domain first, values ascending or random.

    Stores up to `limit` = len(solutions) solutions in the rows of `solutions`; `stack` is
    int64 (3, cells + 1) scratch. Returns (code, count): code EXHAUSTED (the search
    finished), LIMIT (`limit` found) or STOPPED. The state is restored.
    """
    limit = solutions.shape[0]
    root = st.info[TRAIL]
    count = 0
    if st.info[NFREE] == 0:
        _copy_values(st, solutions[0])
        return (LIMIT if limit <= 1 else EXHAUSTED), 1
    s_var, s_vals, s_mark = stack[0], stack[1], stack[2]
    d = 0
    s_var[0] = select_variable(st)
    s_vals[0] = st.dom[s_var[0]]
    s_mark[0] = root
    while d >= 0:
        vals = s_vals[d]
        if vals == 0:
            d -= 1
            continue
        v = lowest_bit_index(vals) if ascending else random_value(st, vals)
        s_vals[d] = vals & ~(np.int64(1) << v)
        undo(st, s_mark[d])
        st.info[NODES] += 1
        if not assign(st, s_var[d], v):
            if st.info[STOP] != 0:
                undo(st, root)
                return STOPPED, count
            st.info[FAILS] += 1
            continue
        if st.info[NFREE] == 0:
            _copy_values(st, solutions[count])
            count += 1
            if count >= limit:
                undo(st, root)
                return LIMIT, count
            continue
        d += 1
        c = select_variable(st)
        s_var[d] = c
        s_vals[d] = st.dom[c]
        s_mark[d] = st.info[TRAIL]
    undo(st, root)
    return EXHAUSTED, count


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
    its entry: the played prefix, then the best continuation (`seqs` is int32 (top + 1,
    cells)); `frames` is int64 (6, top + 1) scratch; `cands` int32 (top + 1, cells * 64).
    Returns 0 (solved; captured), the score (> 0) or -1 when stopped. Does not undo.
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
            if not play_move(st, m):
                if st.info[STOP] != 0:
                    return -1
                score = 1 + st.info[NFREE]
                child_len = 0
                phase = result
            elif st.info[NFREE] == 0:
                capture(st)
                return 0
            elif level == 1:
                score, child_len = playout(st, seqs[0])
                if score == 0:
                    return 0
                if st.info[STOP] != 0:
                    return -1
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
            if not play_move(st, m):
                if st.info[STOP] != 0:
                    return -1
                score = 1 + st.info[NFREE]
                phase = leave
            elif st.info[NFREE] == 0:
                capture(st)
                return 0
            else:
                phase = step
        else:  # leave: level returns `score` with its played moves as its sequence
            if level == top:
                return score
            child_len = played[level]
            level += 1
            phase = result


@compiled
def nested_restarts(st: State, level: int, seqs: np.ndarray, frames: np.ndarray, cands: np.ndarray) -> int:
    """`nested(level)` from the root, restarted until solved (SOLVED) or stopped (STOPPED)."""
    root = st.info[TRAIL]
    while True:
        score = nested(st, level, seqs, frames, cands)
        if score == 0:
            return SOLVED
        undo(st, root)
        if score < 0 or st.info[STOP] != 0:
            return STOPPED
        st.info[RESTARTS] += 1


# --------------------------------------------------------------------- flat Monte-Carlo and UCT
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
        if st.info[STOP] != 0:
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
            if not play_move(st, m):
                if st.info[STOP] != 0:
                    return -1
                score = 1 + st.info[NFREE]
            elif st.info[NFREE] == 0:
                capture(st)
                return 0
            else:
                score = _best_of_playouts(st, playouts, moves)
                if score == 0:
                    return 0
                if score < 0:
                    return -1
            undo(st, mark)
            if score < best:
                best = score
                best_move = m
        if not play_move(st, best_move):
            if st.info[STOP] != 0:
                return -1
            return 1 + st.info[NFREE]
        if st.info[NFREE] == 0:
            capture(st)
            return 0


@compiled
def flat_restarts(st: State, playouts: int, moves: np.ndarray, cands: np.ndarray) -> int:
    """`flat` from the root, restarted until solved (SOLVED) or stopped (STOPPED)."""
    root = st.info[TRAIL]
    while True:
        score = flat(st, playouts, moves, cands)
        if score == 0:
            return SOLVED
        undo(st, root)
        if score < 0 or st.info[STOP] != 0:
            return STOPPED
        st.info[RESTARTS] += 1


@compiled
def random_key(st: State) -> int:
    """A random 64-bit Zobrist key (two draws of the state's generator)."""
    hi = random_below(st, 1 << 31)
    lo = random_below(st, 1 << 31)
    return (hi << 33) ^ (lo << 2) ^ random_below(st, 4) ^ 1


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
                if not play_move(st, chosen):
                    if st.info[STOP] != 0:
                        return -1
                    score = 1 + st.info[NFREE]
                    lost = True
                    break
                if st.info[NFREE] == 0:
                    capture(st)
                    return 0
                if expand:
                    score, _ = playout(st, moves)
                    if score == 0:
                        return 0
                    if st.info[STOP] != 0:
                        return -1
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
        if not play_move(st, best_move):
            if st.info[STOP] != 0:
                return -1
            return 1 + st.info[NFREE]
        if st.info[NFREE] == 0:
            capture(st)
            return 0


@compiled
def uct_restarts(
    st: State, playouts: int, c: float, zkeys: np.ndarray, keys: np.ndarray, visits: np.ndarray,
    wins: np.ndarray, used: np.ndarray, path: np.ndarray, moves: np.ndarray, cands: np.ndarray,
) -> int:
    """`uct` from the root, restarted until solved (SOLVED) or stopped (STOPPED). Each restart
    starts from an empty table: a kept table replays the same deterministic tree descent."""
    root = st.info[TRAIL]
    while True:
        score = uct(st, playouts, c, zkeys, keys, visits, wins, used, path, moves, cands)
        if score == 0:
            return SOLVED
        undo(st, root)
        _tt_clear(keys, visits, wins, used)
        if score < 0 or st.info[STOP] != 0:
            return STOPPED
        st.info[RESTARTS] += 1


# --------------------------------------------------------------------- Python side
def build_state(puzzle: Puzzle, consistency: str = "fc") -> State:
    """The search state of `puzzle` before root propagation (see `root_propagate`).

    `consistency` is "fc" or "gac". Raises KakuroError for "gac" on a puzzle whose combination
    tables are too large (use consistency=fc, which works for every range up to 62).
    """
    if consistency not in MODES:
        raise KakuroError(f"consistency must be one of {', '.join(MODES)}, not {consistency!r}")
    mode = MODES[consistency]
    n, m = puzzle.size, len(puzzle.runs)
    lo, hi = puzzle.values
    width = hi - lo + 1
    full = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
    cell_runs = np.full((n, 2), -1, dtype=np.int32)
    for c, memberships in enumerate(puzzle.cell_runs):
        cell_runs[c, : len(memberships)] = memberships  # at most one across and one down run
    runs = np.zeros((m, RUN_FIELDS), dtype=np.int64)
    runs[:, TARGET] = [run.total for run in puzzle.runs]
    runs[:, FREE] = [len(run) for run in puzzle.runs]
    members = _offsets_first([run.cells for run in puzzle.runs], np.int32)
    if mode == MODE_GAC:
        offsets, masks = _gac_tables(puzzle)
        combos = np.concatenate([offsets + m + 1, masks]).astype(np.int64)
    else:
        combos = np.full(m + 1, m + 1, dtype=np.int64)
    capacity = n * (width + 2) + 1  # per cell along one path: width shrinks + one assignment
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[NFREE] = n
    info[MODE] = mode
    info[END_NS] = NO_DEADLINE
    givens = np.array(sorted(puzzle.givens.items()), dtype=np.int64).reshape(-1, 2)
    return State(
        dom=np.full(n, full, dtype=np.int64),
        val=np.full(n, -1, dtype=np.int32),
        size=np.full(n, width, dtype=np.int32),
        cell_runs=cell_runs,
        runs=runs,
        members=members,
        combos=combos,
        trail=np.zeros(2 * capacity, dtype=np.int64),
        queue=np.zeros(max(m, 1), dtype=np.int32),
        info=info,
        sol=np.full(n, -1, dtype=np.int32),
        work=np.zeros((WORK_ROWS, SCRATCH), dtype=np.int64),
        givens=givens,
    )


def _offsets_first(groups: list[tuple[int, ...]], dtype: type) -> np.ndarray:
    """One array holding len(groups) + 1 absolute offsets, then the groups' items."""
    head = len(groups) + 1
    lengths = np.array([len(g) for g in groups], dtype=np.int64)
    offsets = head + np.concatenate([[0], np.cumsum(lengths)])
    items = np.fromiter((x for g in groups for x in g), dtype=np.int64, count=int(lengths.sum()))
    return np.concatenate([offsets, items]).astype(dtype)


@lru_cache(maxsize=None)
def count_combinations(length: int, total: int, values: tuple[int, int]) -> int:
    """How many sets of `length` distinct values from `values` sum to `total` (counted, not
    listed: a 0/1 knapsack over the values, vectorized over the sums)."""
    lo, hi = values
    if length < 0 or total < 0:
        return 0
    ways = np.zeros((length + 1, total + 1), dtype=np.int64)
    ways[0, 0] = 1
    for v in range(lo, hi + 1):
        for k in range(length, 0, -1):
            if v == 0:
                ways[k] += ways[k - 1]
            elif v <= total:
                ways[k, v:] += ways[k - 1, : total + 1 - v]
    return int(ways[length, total])


def _gac_tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    hint = "; use consistency=fc, which works for every value range"
    sizes = {(len(run), run.total): count_combinations(len(run), run.total, puzzle.values) for run in puzzle.runs}
    largest = max(sizes.values(), default=0)
    if largest > MAX_COMBINATIONS:
        raise KakuroError(
            f"consistency=gac cannot tabulate this puzzle: a run has {largest:,} combinations "
            f"(more than {MAX_COMBINATIONS:,}){hint}"
        )
    total = sum(sizes[(len(run), run.total)] for run in puzzle.runs)
    if total > MAX_TABLE:
        raise KakuroError(f"consistency=gac would tabulate {total:,} combinations (more than {MAX_TABLE:,}){hint}")
    try:
        offsets, masks = run_tables(puzzle)
    except KakuroError as exc:
        raise KakuroError(f"consistency=gac cannot tabulate this puzzle: {exc}{hint}") from None
    return offsets, masks


_clock_offset: float | None = None


def _kernel_clock_offset() -> float:
    """perf_counter() - kernel clock, in seconds (0 on Linux, measured once per process)."""
    global _clock_offset
    if _clock_offset is None:
        clock_ns()
        samples = []
        for _ in range(5):
            before = time.perf_counter()
            kernel = clock_ns()
            after = time.perf_counter()
            samples.append((after - before, (before + after) / 2 - kernel * 1e-9))
        _clock_offset = min(samples)[1]
    return _clock_offset


def begin(st: State, deadline: Deadline, seed: int) -> None:
    """Arm the state for one solve: the deadline (perf_counter clock) and the seed."""
    if deadline.end is None:
        st.info[END_NS] = NO_DEADLINE
    else:
        st.info[END_NS] = int((deadline.end - _kernel_clock_offset()) * 1e9)
    st.info[STOP] = 0
    st.info[TICKS] = 0
    st.info[NODES : RESTARTS + 1] = 0
    st.info[RNG] = rng_state(seed)


def run_depth_first(st: State, ascending: bool, limit: int) -> tuple[int, list[list[int]]]:
    """`depth_first` with its buffers: (code, up to `limit` solutions as value lists)."""
    n = st.val.shape[0]
    solutions = np.zeros((limit, n), dtype=np.int32)
    code, count = depth_first(st, ascending, solutions, np.zeros((3, n + 1), dtype=np.int64))
    return int(code), solutions[:count].tolist()


def run_sampling(st: State) -> int:
    """`iterative_sampling` with its buffer: SOLVED (solution in `sol`) or STOPPED."""
    return int(iterative_sampling(st, np.zeros(st.val.shape[0], dtype=np.int32)))


def run_nested(st: State, level: int) -> int:
    """`nested_restarts` at `level` >= 1 with its buffers: SOLVED (solution in `sol`) or STOPPED."""
    seqs = np.zeros((level + 1, st.val.shape[0]), dtype=np.int32)
    cands = np.zeros((level + 1, st.val.shape[0] * 64), dtype=np.int32)
    return int(nested_restarts(st, level, seqs, np.zeros((6, level + 1), dtype=np.int64), cands))


def configure(st: State, strategy: str = "priority", selection: str = "priority") -> None:
    """Set the playing strategy and random move selection of the Monte-Carlo kernels."""
    st.info[STRATEGY] = STRATEGIES[strategy]
    st.info[SELECTION] = SELECTIONS[selection]


def run_flat(st: State, playouts: int) -> int:
    """`flat_restarts` with its buffers: SOLVED (solution in `sol`) or STOPPED."""
    n = st.val.shape[0]
    moves = np.zeros(n, dtype=np.int32)
    return int(flat_restarts(st, playouts, moves, np.zeros(n * 64, dtype=np.int32)))


TABLE_BITS = 20
"""log2 of the UCT transposition table's slots (1 Mi slots, 24 MB)."""


def run_uct(st: State, playouts: int, c: float, table_bits: int = TABLE_BITS) -> int:
    """`uct_restarts` with its buffers (Zobrist keys drawn from the state's generator, an empty
    transposition table): SOLVED (solution in `sol`) or STOPPED."""
    n = st.val.shape[0]
    zkeys = np.zeros(n * 64, dtype=np.int64)
    _fill_keys(st, zkeys)
    size = 1 << table_bits
    return int(uct_restarts(
        st, playouts, float(c), zkeys, np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.float64), np.zeros(size * 3 // 4 + 1, dtype=np.int64), np.zeros(n + 2, dtype=np.int64),
        np.zeros(n, dtype=np.int32), np.zeros(n * 64, dtype=np.int32),
    ))


@compiled
def _fill_keys(st: State, zkeys: np.ndarray) -> None:
    for i in range(zkeys.shape[0]):
        zkeys[i] = random_key(st)


def stats_of(st: State, names: tuple[str, ...]) -> dict[str, int | bool]:
    """The counters `names` (keys of STAT_SLOTS) of the state, as a Solver stats dict, plus
    `root_solved`; `propagations` (run revisions) is only reported under gac."""
    out: dict[str, int | bool] = {
        name: int(st.info[STAT_SLOTS[name]])
        for name in names
        if name != "propagations" or st.info[MODE] == MODE_GAC
    }
    out["root_solved"] = bool(st.info[ROOT_SOLVED])
    return out


def start(
    puzzle: Puzzle, consistency: str, deadline: Deadline, seed: int, stat_names: tuple[str, ...]
) -> tuple[State, Outcome | None]:
    """Build, arm and root-propagate the state of one solve. Returns the state and, when the
    root already decides (unsatisfiable, solved, or out of time), the finished Outcome.
    Stats get `root_solved`: True when root propagation alone decided the puzzle (a wipe-out,
    or every cell fixed)."""
    st = build_state(puzzle, consistency)
    begin(st, deadline, seed)
    ok = root_propagate(st)
    st.info[ROOT_SOLVED] = (not ok and st.info[STOP] == 0) or (ok and _all_fixed(st))
    stats = stats_of(st, stat_names)
    if not ok:
        if st.info[STOP] != 0:
            return st, Outcome(Status.UNKNOWN, None, stats, "time limit reached during root propagation")
        return st, Outcome(Status.UNSATISFIABLE, None, stats, "root propagation wiped out a domain")
    if st.info[NFREE] == 0:
        return st, Outcome(Status.SOLVED, [int(v) for v in st.val], stats)
    return st, None


def _all_fixed(st: State) -> bool:
    """True when every cell is assigned or has a one-value domain."""
    return bool(np.all((st.size == ASSIGNED) | (st.size == 1)))


def values_of_solution(st: State) -> list[int]:
    """The captured solution (`sol`), one value per cell."""
    return [int(v) for v in st.sol]


def root_domains(puzzle: Puzzle, consistency: str = "gac") -> list[int] | None:
    """The cell domains (bitmasks, cell order) after root propagation, or None when the
    propagation proves the puzzle unsatisfiable."""
    st = build_state(puzzle, consistency)
    if not root_propagate(st):
        return None
    return [int(d) for d in st.dom]


_warm = False


def warm_up() -> float:
    """Compile (or load from the on-disk cache) every kernel once per process by running them
    on a tiny puzzle in both modes. Returns the seconds it took (0 after the first call)."""
    global _warm
    if _warm:
        return 0.0
    start = time.perf_counter()
    tiny = Puzzle.all_white([6, 9, 8], [6, 9, 8], values=(1, 4), givens={(0, 0): 1})
    for consistency in MODES:
        st = build_state(tiny, consistency)
        begin(st, Deadline.after(10.0), 1)
        root_propagate(st)
        run_depth_first(st, True, 2)
        run_depth_first(st, False, 2)
        run_sampling(st)
        undo(st, 0)
        run_nested(st, 2)
        undo(st, 0)
        run_flat(st, 2)
        undo(st, 0)
        run_uct(st, 4, 0.2, table_bits=8)
    _kernel_clock_offset()
    _warm = True
    return time.perf_counter() - start
