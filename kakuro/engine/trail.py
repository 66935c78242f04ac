"""Changing the state with undo: the trail (`set_domain`, `set_value`, `undo`, `commit_root`,
with a learning state's hooks) and the queue of runs waiting for revision."""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from kakuro.engine.bits import popcount
from kakuro.engine.compile import INTERNAL, compiled, instance_of
from kakuro.engine.layout import (
    ASSIGNED,
    FREE,
    NFREE,
    NGQ_HEAD,
    NGQ_LEN,
    QHEAD,
    QLEN,
    QUEUED,
    REASON,
    SUM,
    TRAIL,
    LearningState,
    State,
)


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
    for k in range(st.cell_runs.shape[1]):
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
            for k in range(st.cell_runs.shape[1]):
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
def trail_cell(st: State, t: int) -> int:
    """The cell that trail entry `t` changed (an assignment's entry holds it as -cell - 1)."""
    c = st.trail[2 * t]
    return c if c >= 0 else -c - 1


@compiled
def dequeue_run(st: State) -> int:
    """The run at the head of the queue (which must not be empty), taken off it."""
    r = st.queue[st.info[QHEAD]]
    st.info[QHEAD] = (st.info[QHEAD] + 1) % st.queue.shape[0]
    st.info[QLEN] -= 1
    st.runs[r, QUEUED] = 0
    return r


@compiled
def clear_queue(st: State) -> None:
    """Empty the run queue (after a wipe-out: what is queued needs no revision)."""
    while st.info[QLEN] > 0:
        dequeue_run(st)


@compiled
def enqueue_cell_runs(st: State, c: int) -> None:
    """Queue every run of cell `c` (and a learning state's implied sums of `c`)."""
    enqueue_other_runs(st, c, -1)


@compiled
def enqueue_other_runs(st: State, c: int, r: int) -> None:
    """Queue the runs of cell `c` (and a learning state's implied sums of `c`) but row `r` of
    `runs`, the one whose revision changed `c`."""
    for k in range(st.cell_runs.shape[1]):
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
