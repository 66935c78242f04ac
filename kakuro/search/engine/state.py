"""The one compiled search state every native algorithm runs on: arrays, trail, clock, random
numbers.

A `State` is a named tuple of numpy arrays built once per solve by `build_state`:

- per cell: `dom` (int64 bitmask, bit v = value v, values 0..62), `val` (assigned value,
  -1 = free, so a range starting at 0 works), `size` (popcount of `dom` for a free cell,
  `ASSIGNED` for an assigned one, so choosing the smallest domain is one scan) and
  `cell_runs` (its across and down run, -1 where it has none);
- per run, `runs[r, TARGET | SUM | FREE | QUEUED]`: the clue, the sum of the assigned cells,
  the number of free cells, and whether it waits in the propagation `queue`;
- `members`: run r's cells are `members[members[r]:members[r + 1]]` (offsets first);
- `combos`: run r's combinations (`kakuro.combos.run_tables`: those holding the run's givens) are
  `combos[combos[r]:combos[r + 1]]` (offsets first; only under `gac`);
- `trail` (undo): pairs (cell, old domain) for a domain change, (-cell - 1, old domain) for an
  assignment; `undo(state, mark)` pops back to a mark (a trail length);
- `info`: trail length, free cells, stop flag, mode, deadline, generator ... then the stats
  counters (`NODES` ... `RESTARTS`); `sol` (the captured solution), `work` (scratch of the
  run propagator) and `givens` ((cell, value) rows, assigned by root propagation).

The state is few arrays on purpose: numba passes every array of the tuple to every kernel call
as seven machine words, and each extra array was measured to cost about 3 ns per assignment.

The mode (`build_state`'s `consistency`; the state's class and `info[MODE]`) is the strength
of `assign` (`kakuro.search.engine.propagate`), chosen when a kernel is compiled for that class,
so a backend compiles only its own propagation: `check` (no pruning, only the assigned cells are checked:
the backtracking family), `projected` (check, and each run's free cells must still reach its
clue), `fc` (Cazenave's forward checking) or `gac` (exact run-level reasoning).

Time limits and Ctrl-C: kernels read CLOCK_MONOTONIC (the clock of `time.perf_counter` on
Linux) and look for a pending signal every `CLOCK_EVERY` assignments (`should_stop`); past the
deadline or on an interrupt it raises the stop flag and every search loop returns `STOPPED` at
once (the Python side then raises KeyboardInterrupt: `raise_if_interrupted`). Random numbers come from the state's own xorshift64*
generator (`info[RNG]`, seeded by `arm`), so a solve is reproducible and independent of any
other generator.
"""

from __future__ import annotations

import itertools
import mmap
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from kakuro.combos import MAX_COMBINATIONS, range_mask, run_table_sizes, run_tables
from kakuro.errors import KakuroError, TablesTooLargeError
from kakuro.puzzle import Puzzle
from kakuro.search.engine.compile import INTERNAL, compiled, entry_point, instance_of

# --------------------------------------------------------------------- constants
MODE_FC = 0
MODE_GAC = 1
MODE_CHECK = 2
MODE_PROJECTED = 3
MODES = {"check": MODE_CHECK, "projected": MODE_PROJECTED, "fc": MODE_FC, "gac": MODE_GAC}
"""Propagation strengths, weakest first (see the module docstring)."""

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
# info slots: the value range as a mask (for the check modes); an interrupt (Ctrl-C) was seen
VALUE_MASK = 18
INTERRUPTED = 19
# info slots of a LearningState: the propagator making the current changes (a run r >= 0,
# DECISION, or NOGOOD_BASE - offset of a nogood), the source of the last wipe-out (same codes),
# the nogood queue, the nogood store and watch pool in use, and learning's counters
REASON = 20
FAILED = 21
NGQ_HEAD = 22
NGQ_LEN = 23
NG_TOP = 24
NG_COUNT = 25
W_TOP = 26
W_FREE = 27
LEARNED = 28
DELETED = 29
# info slot: the first row of `runs` that is an implied sum, not a run (a learning state's rows
# from there on: `with_learning`); the number of runs
SUMS_FROM = 30
INFO_SIZE = 31
DECISION = -1
"""`info[REASON]` of a search decision (or refutation): no explanation."""
NOGOOD_BASE = -2
"""`info[REASON]` of a change a nogood made: NOGOOD_BASE - the nogood's offset in the store."""
STAT_SLOTS = {"nodes": NODES, "fails": FAILS, "assignments": ASSIGNMENTS, "samples": SAMPLES,
              "propagations": PROPAGATIONS, "restarts": RESTARTS, "learned": LEARNED, "deleted": DELETED}

# kernel return codes
SOLVED = 0
STOPPED = 1
EXHAUSTED = 2
LIMIT = 3
FULL = 4
"""A search that learns ran out of room for the nogoods that keep its count exact."""

ASSIGNED = 1 << 20
"""`size` of an assigned cell: larger than any domain, so variable choice skips it."""
NO_DEADLINE = np.iinfo(np.int64).max
CLOCK_EVERY = 16
"""Assignments between two clock readings (a reading costs about 30 ns)."""
MAX_TABLE = 20_000_000
"""Most combinations (all runs together) a `gac` state tabulates: 160 MB of masks."""
SCRATCH = 64
"""Length of each `work` row: more than the longest possible run (63 values 0..62)."""
MAX_SUM_TOTAL = 62
"""The largest total of an implied sum (`with_learning`): its reachable sums are bits of an int64."""
WORK_ROWS = 9
"""Rows of `work`, the run propagator's scratch (`kakuro.search.engine.propagate`)."""

WARM_UP_PUZZLE = Puzzle.all_white([6, 9, 8], [6, 9, 8], values=(1, 4), givens={(0, 0): 1})
"""The tiny puzzle every module's `warm_up` runs its kernels on (3x3, two solutions)."""


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


class CheckState(State):
    """A `check` state: `assign` only checks the assigned cells of the cell's runs."""


class ProjectedState(State):
    """A `projected` state: `check`, and the free cells of a run must still reach its clue."""


class FcState(State):
    """An `fc` state: `assign` forward checks (Cazenave 2010)."""


class GacState(State):
    """A `gac` state: `assign` keeps every run generalized arc consistent."""


STATE_CLASSES = {MODE_CHECK: CheckState, MODE_PROJECTED: ProjectedState, MODE_FC: FcState, MODE_GAC: GacState}
"""The class of a state by its mode: the engine compiles each kernel for the classes it meets."""


LEARNING_FIELDS = {
    "reasons": "per trail entry: the propagator that made it (`info[REASON]` at the time)",
    "links": "per trail entry: the previous entry of the same cell (-1: none)",
    "last": "per cell: its latest trail entry (-1: none)",
    "ng_queued": "per cell: 1 while it waits in `ng_queue`",
    "ng_queue": "cells whose domain changed since their nogoods were looked at (a ring)",
    "ng_store": "the nogoods, one after another: length, LBD, the two watched pairs, then (cell, mask) "
                "pairs; a nogood is named by its offset",
    "ng_before": "per queued cell: its domain when it was queued (the values it lost since are the news)",
    "watch_head": "per cell and value: the first watch entry of the nogoods watching that value (-1: none)",
    "watch_next": "per watch entry: the next entry of the same cell and value",
    "watch_nogood": "per watch entry: the watching nogood's offset",
    "watch_mask": "per watch entry: the watched literal's mask (its nogood's mask of the cell), read without the store",
    "cell_sums": "per cell: its implied sums (rows of `runs` from `info[SUMS_FROM]`) are "
                 "`cell_sums[cell_sums[c]:cell_sums[c + 1]]` (offsets first)",
}
"""The arrays a learning state has after the `State` ones, and what each holds."""

LearningState = NamedTuple(  # type: ignore[misc]
    "LearningState", [(name, np.ndarray) for name in (*State._fields, *LEARNING_FIELDS)]
)
LearningState.__doc__ = """A `gac` state that learns: the `State` arrays, then what conflict
analysis and nogood propagation need (`kakuro.search.engine.nogoods`; LEARNING_FIELDS says
what each holds). Made by `with_learning` (or `build_state(puzzle, "gac", learning=True)`)."""


# --------------------------------------------------------------------- bit intrinsics
@intrinsic
def _clock_gettime_ns(typingctx):  # type: ignore[no-untyped-def]
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


@intrinsic
def highest_bit_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit of a non-zero int64 (63 - LLVM ctlz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen


# --------------------------------------------------------------------- clock
@entry_point
def clock_ns() -> int:
    """The kernels' clock: CLOCK_MONOTONIC, nanoseconds."""
    return _clock_gettime_ns()


_check_signals = types.ExternalFunction("PyErr_CheckSignals", types.int32())
_clear_error = types.ExternalFunction("PyErr_Clear", types.void())


@compiled
def should_stop(st: State) -> bool:
    """Read the clock and look for a signal; past the deadline, or on Ctrl-C, raise the stop
    flag. True when stopped.

    Kernels hold the GIL, so Python's signal handlers can run here (`PyErr_CheckSignals`,
    a few ns when nothing is pending): the SIGINT handler's KeyboardInterrupt is cleared and
    recorded as `info[INTERRUPTED]`, which `raise_if_interrupted` turns back into
    KeyboardInterrupt once the kernel has returned (a kernel cannot raise)."""
    if _check_signals() != 0:
        _clear_error()
        st.info[INTERRUPTED] = 1
        st.info[STOP] = 1
    if _clock_gettime_ns() >= st.info[END_NS]:
        st.info[STOP] = 1
    return st.info[STOP] != 0


def raise_if_interrupted(st: State) -> None:
    """Raise KeyboardInterrupt when a kernel stopped on Ctrl-C (see `should_stop`)."""
    if st.info[INTERRUPTED]:
        st.info[INTERRUPTED] = 0
        raise KeyboardInterrupt


_clock_offset: float | None = None


def kernel_clock_offset() -> float:
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


def postpone(st: State, seconds: float) -> None:
    """Move the armed deadline `seconds` later (time spent compiling in the middle of a solve
    is not the solve's); nothing without a deadline."""
    if st.info[END_NS] != NO_DEADLINE:
        st.info[END_NS] += int(seconds * 1e9)


def resume(st: State, end: float | None) -> None:
    """Give a search that stopped at its deadline a new one, `end` (as in `arm`), keeping its
    counters and generator: a search resumed where it paused (its nogoods kept)."""
    st.info[END_NS] = NO_DEADLINE if end is None else kernel_ns(end)
    st.info[STOP] = 0


def kernel_ns(moment: float) -> int:
    """The kernels' clock reading (`clock_ns`) at `moment`, a `time.perf_counter` reading."""
    return int((moment - kernel_clock_offset()) * 1e9)


def with_shared_stop(st: State) -> State:
    """The same state (sharing every array but `info`) whose `info` lives in memory shared with
    the children forked after this call: a child can stop the parent's kernel by setting
    `info[STOP]` (`request_stop`), which the kernel reads with its clock."""
    shared = np.frombuffer(mmap.mmap(-1, st.info.nbytes), dtype=np.int64)
    shared[:] = st.info
    return st._replace(info=shared)


def request_stop(info: np.ndarray) -> None:
    """Ask the kernel working on the state of `info` (made by `with_shared_stop`, maybe in
    another process) to stop at its next look at the clock."""
    info[STOP] = 1


def arm(st: State, end: float | None, seed: int) -> None:
    """Arm the state for one solve: the deadline `end` (a `time.perf_counter` reading, None for
    no limit) and the seed of its generator; the counters start at 0."""
    resume(st, end)
    st.info[INTERRUPTED] = 0
    st.info[TICKS] = 0
    st.info[NODES : RESTARTS + 1] = 0
    st.info[RNG] = rng_state(seed)


# --------------------------------------------------------------------- random numbers
def rng_state(seed: int) -> int:
    """The generator state for `seed` (splitmix64 of it; never 0), as a signed int64."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    z = (z ^ (z >> 31)) or 1
    return z - 2**64 if z >= 2**63 else z


@compiled
def random_below(st: State, k: int) -> int:
    """A uniform integer in 0..k-1 (1 <= k < 2**32) from the state's xorshift64* generator."""
    x = np.uint64(st.info[RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st.info[RNG] = np.int64(x)
    r = (x * np.uint64(2685821657736338717)) >> np.uint64(32)
    return np.int64((r * np.uint64(k)) >> np.uint64(32))


@compiled
def random_value(st: State, mask: int) -> int:
    """A value of the non-empty `mask`, uniformly at random."""
    skip = random_below(st, popcount(mask))
    for _ in range(skip):
        mask &= mask - 1
    return lowest_bit_index(mask)


# --------------------------------------------------------------------- trail
def trail_pushed(st: State, c: int, t: int) -> None:
    """Note trail entry `t` of cell `c` (a learning state records its reason and link and
    queues `c` for its nogoods; other states do nothing, at no cost)."""
    raise NotImplementedError("trail_pushed runs inside compiled kernels")


def trail_popped(st: State, c: int, t: int) -> None:
    """Forget trail entry `t` of cell `c` (see `trail_pushed`)."""
    raise NotImplementedError("trail_popped runs inside compiled kernels")


@overload(trail_pushed, jit_options=INTERNAL, inline="always")
def _trail_pushed(st, c, t):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        def record(st, c, t):  # type: ignore[no-untyped-def]
            st.reasons[t] = st.info[REASON]
            st.links[t] = st.last[c]
            st.last[c] = t
            if st.ng_queued[c] == 0:
                st.ng_before[c] = st.trail[2 * t + 1]
                n = st.ng_queue.shape[0]
                st.ng_queue[(st.info[NGQ_HEAD] + st.info[NGQ_LEN]) % n] = c
                st.info[NGQ_LEN] += 1
                st.ng_queued[c] = 1

        return record
    return lambda st, c, t: None


@overload(trail_popped, jit_options=INTERNAL, inline="always")
def _trail_popped(st, c, t):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        def forget(st, c, t):  # type: ignore[no-untyped-def]
            st.last[c] = st.links[t]

        return forget
    return lambda st, c, t: None


def trail_committed(st: State) -> None:
    """The trail was emptied (`commit_root`): a learning state forgets its cells' last
    entries, which later entries would overwrite."""
    raise NotImplementedError("trail_committed runs inside compiled kernels")


@overload(trail_committed, jit_options=INTERNAL, inline="always")
def _trail_committed(st):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        def forget(st):  # type: ignore[no-untyped-def]
            for c in range(st.last.shape[0]):
                st.last[c] = -1

        return forget
    return lambda st: None


@compiled
def commit_root(st: State) -> None:
    """The current domains become the root: the trail is emptied, so nothing done so far can
    be undone (or is explained: a learning state's nogoods start from these domains)."""
    st.info[TRAIL] = 0
    trail_committed(st)


@compiled
def set_domain(st: State, c: int, nd: int) -> None:
    """Shrink free cell `c` to `nd`, trailing the old domain."""
    t = st.info[TRAIL]
    st.trail[2 * t] = c
    st.trail[2 * t + 1] = st.dom[c]
    st.info[TRAIL] = t + 1
    st.dom[c] = nd
    st.size[c] = popcount(nd)
    trail_pushed(st, c, t)


@compiled
def set_value(st: State, c: int, v: int) -> bool:
    """Assign without propagation (trailed); False if `v` is not in the domain of free cell `c`."""
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
    trail_pushed(st, c, t)
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
        trail_popped(st, c, t)
    st.info[TRAIL] = t


# --------------------------------------------------------------------- the run queue
@compiled
def enqueue_run(st: State, r: int) -> None:
    """Queue run `r` for revision (once: a queued run is not queued again)."""
    if st.runs[r, QUEUED] == 0:
        m = st.queue.shape[0]
        st.queue[(st.info[QHEAD] + st.info[QLEN]) % m] = r
        st.info[QLEN] += 1
        st.runs[r, QUEUED] = 1


@compiled
def enqueue_cell_runs(st: State, c: int) -> None:
    """Queue both runs of cell `c` (and a learning state's implied sums of `c`)."""
    enqueue_other_runs(st, c, -1)


@compiled
def enqueue_other_runs(st: State, c: int, r: int) -> None:
    """Queue the runs of cell `c` (and a learning state's implied sums of `c`) but row `r` of
    `runs`, the one whose revision changed `c`."""
    for k in range(2):
        other = st.cell_runs[c, k]
        if other >= 0 and other != r:
            enqueue_run(st, other)
    enqueue_cell_sums(st, c, r)


def enqueue_cell_sums(st: State, c: int, skip: int) -> None:
    """Queue the implied sums of cell `c` but `skip` (a learning state's; nothing for others)."""
    raise NotImplementedError("enqueue_cell_sums runs inside compiled kernels")


@overload(enqueue_cell_sums, jit_options=INTERNAL, inline="always")
def _enqueue_cell_sums(st, c, skip):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        def learning(st, c, skip):  # type: ignore[no-untyped-def]
            for idx in range(st.cell_sums[c], st.cell_sums[c + 1]):
                if st.cell_sums[idx] != skip:
                    enqueue_run(st, st.cell_sums[idx])

        return learning
    return lambda st, c, skip: None


# --------------------------------------------------------------------- queries
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
def copy_values(st: State, out: np.ndarray) -> None:
    """Copy the assignment (one value per cell, -1 for a free cell) into `out`."""
    for c in range(st.val.shape[0]):
        out[c] = st.val[c]


@compiled
def capture(st: State) -> None:
    """Copy the (complete) assignment into `sol`."""
    copy_values(st, st.sol)


@entry_point
def domain_summary(st: State) -> tuple[int, int]:
    """(sum of the domain sizes, number of one-value domains); an assigned cell counts one."""
    total = 0
    fixed = 0
    for c in range(st.dom.shape[0]):
        k = popcount(st.dom[c])
        total += k
        fixed += k == 1
    return total, fixed


def all_fixed(st: State) -> bool:
    """True when every cell is assigned or has a one-value domain."""
    return bool(np.all((st.size == ASSIGNED) | (st.size == 1)))


def stats_of(st: State, names: tuple[str, ...]) -> dict[str, int | bool]:
    """The counters `names` (keys of STAT_SLOTS) of the state, plus `root_solved`;
    `propagations` (run revisions) is only reported under gac."""
    out: dict[str, int | bool] = {
        name: int(st.info[STAT_SLOTS[name]])
        for name in names
        if name != "propagations" or st.info[MODE] == MODE_GAC
    }
    out["root_solved"] = bool(st.info[ROOT_SOLVED])
    return out


def solution_values(st: State) -> list[int]:
    """The captured solution (`sol`), one value per cell."""
    return [int(v) for v in st.sol]


# --------------------------------------------------------------------- building
class BuildStopped(Exception):
    """`build_state` was told to stop (its `expired` answered True) before the state was built."""


def nogood_store_size(cells: int) -> int:
    """int64 slots of a learning state's nogood store for a puzzle of `cells` cells: 512 per
    cell, from 2^16 (512 KB) to 2^22 (32 MB); the search reduces the store when it is full."""
    return min(1 << 22, max(1 << 16, 512 * cells))


def build_state(puzzle: Puzzle, consistency: str = "fc", expired: Callable[[], bool] | None = None, *,
                learning: bool = False, store: int | None = None, sums: Sequence[tuple[Sequence[int], int]] = ()) -> State:
    """The search state of `puzzle` before root propagation (`propagate.root_propagate`).

    `consistency` is a key of MODES; `learning` (gac only) gives a LearningState with a nogood
    store of `store` int64 slots and the implied `sums` (`with_learning`). Raises KakuroError for "gac" on a puzzle whose combination
    tables are too large (use fc, which works for every range up to 62). `expired` (the time
    limit) is asked between the steps of the build, each a fraction of a second on a 900x900
    grid; BuildStopped when it answers True.
    """
    if consistency not in MODES:
        raise KakuroError(f"consistency must be one of {', '.join(MODES)}, not {consistency!r}")
    if learning and consistency != "gac":
        raise KakuroError(f"learning needs consistency=gac (its explanations are run revisions), not {consistency!r}")

    def step() -> None:
        if expired is not None and expired():
            raise BuildStopped

    mode = MODES[consistency]
    n, m = puzzle.size, len(puzzle.runs)
    lo, hi = puzzle.values
    width = hi - lo + 1
    full = range_mask(puzzle.values)
    lengths = np.array([len(run) for run in puzzle.runs], dtype=np.int64)
    flat = np.fromiter(itertools.chain.from_iterable(run.cells for run in puzzle.runs), dtype=np.int64,
                       count=int(lengths.sum()))
    step()
    cell_runs = np.full((n, 2), -1, dtype=np.int64)
    owners = np.repeat(np.arange(m, dtype=np.int64), lengths)
    order = np.lexsort((owners, flat))  # by cell, then by run: a cell's runs in run order
    cells_sorted = flat[order]
    second = np.concatenate([[False], cells_sorted[1:] == cells_sorted[:-1]]) if len(order) else np.zeros(0, dtype=bool)
    cell_runs[cells_sorted, second.astype(np.int64)] = owners[order]  # at most one across and one down run
    runs = np.zeros((m, RUN_FIELDS), dtype=np.int64)
    runs[:, TARGET] = [run.total for run in puzzle.runs]
    runs[:, FREE] = lengths
    members = offsets_first(lengths, flat)
    step()
    if mode == MODE_GAC:
        offsets, masks = _gac_tables(puzzle)
        step()
        combos = np.concatenate([offsets + m + 1, masks]).astype(np.int64)
    else:
        combos = np.full(m + 1, m + 1, dtype=np.int64)
    capacity = n * (width + 2) + 1  # per cell along one path: width shrinks + one assignment
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[NFREE] = n
    info[MODE] = mode
    info[END_NS] = NO_DEADLINE
    info[VALUE_MASK] = full
    info[SUMS_FROM] = m
    givens = np.array(sorted(puzzle.givens.items()), dtype=np.int64).reshape(-1, 2)
    base = STATE_CLASSES[mode](
        dom=np.full(n, full, dtype=np.int64),
        val=np.full(n, -1, dtype=np.int64),
        size=np.full(n, width, dtype=np.int64),
        cell_runs=cell_runs,
        runs=runs,
        members=members,
        combos=combos,
        trail=np.zeros(2 * capacity, dtype=np.int64),
        queue=np.zeros(max(m, 1), dtype=np.int64),
        info=info,
        sol=np.full(n, -1, dtype=np.int64),
        work=np.zeros((WORK_ROWS, SCRATCH), dtype=np.int64),
        givens=givens,
    )
    return with_learning(base, store, sums) if learning else base


def offsets_first(lengths: np.ndarray, items: np.ndarray) -> np.ndarray:
    """Groups of `items` (int64) of the given `lengths` as one int64 array: the offsets of the
    groups first (group g is `out[out[g]:out[g + 1]]`), then the items."""
    starts = len(lengths) + 1 + np.concatenate([[0], np.cumsum(lengths)])
    return np.concatenate([starts, items]).astype(np.int64)


def with_learning(st: State, store: int | None = None, sums: Sequence[tuple[Sequence[int], int]] = ()) -> LearningState:
    """The gac state `st`, at its root (an empty trail: fresh, or after `commit_root`), as a
    LearningState sharing its arrays, with an empty nogood store of `store` int64 slots
    (default `nogood_store_size`) and the implied `sums` ((cells, total): the cells' values add
    up to total in every solution, total <= MAX_SUM_TOTAL; one below 0 has no solution) as
    extra rows of `runs` after the runs, kept at GAC of their sum by the search
    (`propagate.revise_sum`). So root propagation and shaving can run on the plain state and
    only a puzzle they leave open pays for the learning buffers. The buffers are allocated zeroed (pages the search never reaches cost
    nothing): every slot is written before it is read."""
    if st.info[MODE] != MODE_GAC or isinstance(st, LearningState):
        raise ValueError("with_learning needs a gac state without learning")
    if st.info[TRAIL] != 0:
        raise ValueError("with_learning needs a state at its root (an empty trail)")
    n = st.dom.shape[0]
    capacity = st.trail.shape[0] // 2
    store = nogood_store_size(n) if store is None else store
    st.info[NGQ_HEAD : DELETED + 1] = 0  # a fresh store (the info array is shared with `st`)
    st.info[W_FREE] = -1
    pool = store // 3 + 2 * n + 2
    runs, members, queue, cell_sums = _with_sums(st, sums)
    return LearningState(
        *st._replace(runs=runs, members=members, queue=queue),
        reasons=np.zeros(capacity, dtype=np.int64),
        links=np.zeros(capacity, dtype=np.int64),
        last=np.full(n, -1, dtype=np.int64),
        ng_queued=np.zeros(n, dtype=np.int64),
        ng_queue=np.zeros(max(n, 1), dtype=np.int64),
        ng_store=np.zeros(store, dtype=np.int64),
        ng_before=np.zeros(n, dtype=np.int64),
        watch_head=np.full((n, int(st.info[VALUE_MASK]).bit_length()), -1, dtype=np.int64),
        watch_next=np.zeros(pool, dtype=np.int64),
        watch_nogood=np.zeros(pool, dtype=np.int64),
        watch_mask=np.zeros(pool, dtype=np.int64),
        cell_sums=cell_sums,
    )


def _with_sums(st: State, sums: Sequence[tuple[Sequence[int], int]]) -> tuple[np.ndarray, ...]:
    """`runs`, `members` and `queue` of `st` extended by the rows of `sums`, and `cell_sums`."""
    n, m = st.dom.shape[0], st.runs.shape[0]
    for cells, total in sums:
        if total > MAX_SUM_TOTAL or not cells:
            raise ValueError(f"an implied sum needs cells and a total up to {MAX_SUM_TOTAL}, not {total}")
    sizes = np.array([len(cells) for cells, _ in sums], dtype=np.int64)
    summed = np.array([c for cells, _ in sums for c in cells], dtype=np.int64)
    members = offsets_first(np.concatenate([np.diff(st.members[: m + 1]), sizes]), np.concatenate([st.members[m + 1:], summed]))
    extra = np.zeros((len(sums), RUN_FIELDS), dtype=np.int64)
    extra[:, TARGET] = [total for _, total in sums]
    extra[:, FREE] = sizes
    owners = np.repeat(np.arange(m, m + len(sums), dtype=np.int64), sizes)  # the row of each summed cell
    cell_sums = offsets_first(np.bincount(summed, minlength=n), owners[np.argsort(summed, kind="stable")])
    return np.concatenate([st.runs, extra]), members, np.zeros(max(m + len(sums), 1), dtype=np.int64), cell_sums


def warm_up_state(strength: str) -> State:
    """The tiny puzzle's state at `strength` (a key of MODES), armed without a deadline."""
    st = build_state(WARM_UP_PUZZLE, strength)
    arm(st, None, 1)
    return st


def load_domains(st: State, domains: list[int] | tuple[int, ...] | np.ndarray) -> None:
    """Start the freshly built state `st` (nothing assigned or propagated yet) from `domains`
    (bitmasks, cell order) instead of the full value range."""
    dom = np.asarray(domains, dtype=np.int64)
    st.dom[:] = dom
    st.size[:] = np.bitwise_count(dom)


def _gac_tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """`run_tables(puzzle)` (each run's combinations holding its givens), or TablesTooLargeError
    when a run has more than MAX_COMBINATIONS or all together more than MAX_TABLE."""
    refusal = tables_refusal(run_table_sizes(puzzle))
    if refusal is not None:
        raise refusal
    try:
        offsets, masks = run_tables(puzzle)
    except KakuroError as exc:  # run_tables' own limit
        raise TablesTooLargeError(f"consistency=gac cannot tabulate this puzzle: {exc}{TABLES_HINT}") from None
    return offsets, masks


TABLES_HINT = ("; the default backend (auto) hands such puzzles to cpsat, and a backend with a consistency "
               "option accepts every range with consistency=fc")


def tables_refusal(sizes: Sequence[int]) -> TablesTooLargeError | None:
    """Why a gac state cannot tabulate runs with tables of these `sizes` (combinations per run:
    `kakuro.combos.run_table_sizes`), or None when they fit (MAX_COMBINATIONS per run, MAX_TABLE
    in all)."""
    largest = max(sizes, default=0)
    if largest > MAX_COMBINATIONS:
        return TablesTooLargeError(
            f"consistency=gac cannot tabulate this puzzle: a run has {largest:,} combinations "
            f"(more than {MAX_COMBINATIONS:,}){TABLES_HINT}"
        )
    total = sum(sizes)
    if total > MAX_TABLE:
        return TablesTooLargeError(f"consistency=gac would tabulate {total:,} combinations (more than {MAX_TABLE:,}){TABLES_HINT}")
    return None


def warm_up() -> None:
    """Compile the clock (every solve reads it to arm its deadline)."""
    kernel_clock_offset()
