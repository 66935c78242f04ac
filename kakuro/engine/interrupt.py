"""When a kernel stops: the kernels' clock, the deadline, Ctrl-C, the tree search's budgets,
and arming a state for a solve.

Kernels read CLOCK_MONOTONIC (the clock of `time.perf_counter` on Linux) and look for a
pending signal every `CLOCK_EVERY` assignments (`should_stop`); past the deadline or on an
interrupt it raises the stop flag and every search loop returns `STOPPED` at once (the Python
side then raises KeyboardInterrupt: `raise_if_interrupted`). A process racing the kernel can
raise the flag too (`with_shared_stop`, `request_stop`). Not `kakuro.clock`, the Python side's
one deadline type: this is the compiled side's reading of it.

A tree search given budgets (`bound`) stops exactly at them: before it would open a node past
its node budget (`out_of_nodes`), and at a dead end past its fail budget, which it does not
count (`out_of_fails`); it raises the stop flag and notes the cause (`stopped_by`), so a search
stopped by a budget answers everything a search of that many nodes and fails decides.
"""

from __future__ import annotations

import mmap
import time
from typing import Protocol

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from kakuro.engine.compile import compiled, entry_point
from kakuro.engine.layout import (
    BY_CLOCK,
    BY_FAILS,
    BY_NODES,
    END_NS,
    FAIL_BUDGET,
    FAILS,
    INTERRUPTED,
    NO_BUDGET,
    NO_DEADLINE,
    NODE_BUDGET,
    NODES,
    RESTARTS,
    RNG,
    STOP,
    STOPPED_BY,
    TICKS,
    State,
)
from kakuro.engine.rng import rng_state


class Armed(Protocol):
    """What the clock's helpers read and write: a state's `info` (a `State`, or the family
    search's `kakuro.engine.family_state.FamilyState`)."""

    @property
    def info(self) -> np.ndarray: ...


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


@entry_point
def clock_ns() -> int:
    """The kernels' clock: CLOCK_MONOTONIC, nanoseconds."""
    return _clock_gettime_ns()


_check_signals = types.ExternalFunction("PyErr_CheckSignals", types.int32())
_clear_error = types.ExternalFunction("PyErr_Clear", types.void())


@compiled
def should_stop(st: Armed) -> bool:
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


@compiled
def out_of_nodes(st: State) -> bool:
    """True, with the stop flag raised and the cause noted, when the search has opened as many
    nodes as its budget allows: it calls this before opening (and counting) the next one."""
    if st.info[NODES] >= st.info[NODE_BUDGET]:
        st.info[STOP] = 1
        st.info[STOPPED_BY] = BY_NODES
        return True
    return False


@compiled
def out_of_fails(st: State) -> bool:
    """True, with the stop flag raised and the cause noted, when a dead end just met is one past
    the search's fail budget: it calls this before counting the dead end, and does not count it."""
    if st.info[FAILS] >= st.info[FAIL_BUDGET]:
        st.info[STOP] = 1
        st.info[STOPPED_BY] = BY_FAILS
        return True
    return False


def bound(st: State, nodes: int | None, fails: int | None) -> None:
    """Give the tree search on an armed state its budgets: at most `nodes` nodes and `fails`
    fails, counted from the arming (None: no such budget). Root propagation and shaving count
    neither, so they are not bounded by them."""
    st.info[NODE_BUDGET] = NO_BUDGET if nodes is None else nodes
    st.info[FAIL_BUDGET] = NO_BUDGET if fails is None else fails


def stopped_by(st: State) -> int:
    """What stopped a search that returned STOPPED: BY_CLOCK (the deadline, Ctrl-C or a stop
    request), BY_NODES or BY_FAILS."""
    return int(st.info[STOPPED_BY])


def raise_if_interrupted(st: Armed) -> None:
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


def postpone(st: Armed, seconds: float) -> None:
    """Move the armed deadline `seconds` later (time spent compiling in the middle of a solve
    is not the solve's); nothing without a deadline."""
    if st.info[END_NS] != NO_DEADLINE:
        st.info[END_NS] += int(seconds * 1e9)


def resume(st: Armed, end: float | None) -> None:
    """Give a search that stopped at its deadline a new one, `end` (as in `arm`), keeping its
    counters, budgets and generator: a search resumed where it paused (its nogoods kept)."""
    st.info[END_NS] = NO_DEADLINE if end is None else kernel_ns(end)
    st.info[STOP] = 0
    st.info[STOPPED_BY] = BY_CLOCK


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


def arm(st: Armed, end: float | None, seed: int) -> None:
    """Arm the state for one solve: the deadline `end` (a `time.perf_counter` reading, None for
    no limit) and the seed of its generator; the counters start at 0, with no budget (`bound`
    gives one)."""
    resume(st, end)
    bound(st, None, None)
    st.info[INTERRUPTED] = 0
    st.info[TICKS] = 0
    st.info[NODES : RESTARTS + 1] = 0
    st.info[RNG] = rng_state(seed)



def warm_up() -> None:
    """Compile the clock (every solve reads it to arm its deadline)."""
    kernel_clock_offset()
