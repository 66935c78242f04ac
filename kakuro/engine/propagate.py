"""Propagation on the compiled state: `assign` at the state's strength, run-level GAC with its
matching, root propagation, shaving, and retargeting a layout to new clues.

`assign(state, cell, value)` assigns and propagates by the state's mode (`info[MODE]`):

- `check` / `projected` (the backtracking family): no pruning; the runs of the cell are checked
  against the assigned cells only (no repeated value, a completed run hits its clue, a partial
  sum stays below it; `projected` also requires that the run's free cells can still reach the
  clue with distinct unused values: the k smallest and k largest of them bracket what is left);
- `fc`: Cazenave's (2010) forward checking, exactly: remove the value from the free cells of
  the cell's runs, remove values above target - partial sum from them, check the sum of a
  completed run, fail on an empty domain;
- `gac`: exact run-level reasoning (`revise_run`): a value stays in a cell only if some
  combination of distinct values with the run's sum, matched one-to-one onto the run's free
  cells within their domains, gives it to that cell; runs are revised from a queue to a
  fixpoint (`propagate`).

`revise_run` reads the clock every `CLOCK_EVERY_COMBOS` combinations, so a deadline is
honoured inside a long table too.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from kakuro.puzzle import Puzzle
from kakuro.engine import nogoods
from kakuro.engine.bits import highest_bit_index, lowest_bit_index, popcount
from kakuro.engine.build import build_state, warm_up_state
from kakuro.engine.compile import INTERNAL, compiled, entry_point, inlined, instance_of
from kakuro.engine.interrupt import raise_if_interrupted, should_stop
from kakuro.engine.layout import (
    ASSIGNMENTS,
    CLOCK_EVERY,
    FAILED,
    FREE,
    NGQ_LEN,
    PROPAGATIONS,
    QLEN,
    REASON,
    STOP,
    SUM,
    SUMS_FROM,
    TARGET,
    TICKS,
    TRAIL,
    VALUE_MASK,
    FcState,
    GacState,
    LearningState,
    ProjectedState,
    State,
)
from kakuro.engine.matching import W_CELLS, W_FDOM, W_MATCH, W_REACH, W_SUPP, matching_supports
from kakuro.engine.queries import domain_summary
from kakuro.engine.trail import (
    clear_queue,
    commit_root,
    dequeue_run,
    enqueue_cell_runs,
    enqueue_other_runs,
    enqueue_run,
    set_domain,
    set_value,
    undo,
)

CLOCK_EVERY_COMBOS = 1024
"""Combinations `revise_run` scans between two clock readings."""
# slots of `shave`'s int64 array of SHAVE_COUNTERS: counters it increments, its budget, what it saw
PROBES = 0
SWEEPS = 1
BUDGET = 2
"""In: the run revisions shaving may spend without removing a value (0: no bound)."""
CUT = 3
"""Out: 1 when the budget ended shaving before its sweeps did."""
LONGEST_DRY = 4
"""Out: the most run revisions spent before a removal since the last one (or the start)."""
SHAVE_COUNTERS = 5


@inlined
def assign(st: State, c: int, v: int) -> bool:
    """Assign value `v` to free cell `c` and propagate; False on a wipe-out (or when stopped:
    check `info[STOP]`). The caller undoes to its own mark either way."""
    st.info[ASSIGNMENTS] += 1
    st.info[TICKS] += 1
    if st.info[STOP] != 0 or (st.info[TICKS] % CLOCK_EVERY == 0 and should_stop(st)):
        return False
    if not set_value(st, c, v):
        return False
    return propagate_value(st, c, v)


def propagate_value(st: State, c: int, v: int) -> bool:
    """Propagate `c` = `v`, just set, at the state's strength; False on a wipe-out. The
    strength is the state's class, chosen when the calling kernel is compiled."""
    raise NotImplementedError("propagate_value runs inside compiled kernels")


@overload(propagate_value, jit_options=INTERNAL, inline="always")
def _propagate_value(st, c, v):  # type: ignore[no-untyped-def]
    if instance_of(st, GacState) or instance_of(st, LearningState):
        def gac(st, c, v):  # type: ignore[no-untyped-def]
            enqueue_cell_runs(st, c)
            return propagate(st)

        return gac
    if instance_of(st, FcState):
        return lambda st, c, v: forward_check(st, c, v)
    if instance_of(st, ProjectedState):
        return lambda st, c, v: consistent(st, c, True)
    return lambda st, c, v: consistent(st, c, False)


# --------------------------------------------------------------------- check only
@compiled
def consistent(st: State, c: int, projected: bool) -> bool:
    """Check the runs of cell `c`, just assigned, against the assigned cells only: no repeated
    value, a completed run sums to its clue, a partial sum does not exceed it; with
    `projected`, the free cells can still reach the clue with distinct unused values."""
    v = st.val[c]
    for k in range(st.cell_runs.shape[1]):
        r = st.cell_runs[c, k]
        if r < 0:
            continue
        used = np.int64(0)
        for idx in range(st.members[r], st.members[r + 1]):
            m = st.members[idx]
            if m != c and st.val[m] >= 0:
                if st.val[m] == v:
                    return False
                used |= np.int64(1) << st.val[m]
        used |= np.int64(1) << v
        total = st.runs[r, SUM]
        target = st.runs[r, TARGET]
        free = st.runs[r, FREE]
        if free == 0:
            if total != target:
                return False
        elif total > target:
            return False
        elif projected:
            # can `free` distinct unused values sum to what is left? only the bracket is
            # tested: the sum of the smallest ones <= rest <= the sum of the largest ones
            unused = st.info[VALUE_MASK] & ~used
            if popcount(unused) < free:
                return False
            rest = target - total
            low = 0
            high = 0
            small = unused
            large = unused
            for _ in range(free):
                b = lowest_bit_index(small)
                low += b
                small ^= np.int64(1) << b
                t = highest_bit_index(large)
                high += t
                large ^= np.int64(1) << t
            if not low <= rest <= high:
                return False
    return True


# --------------------------------------------------------------------- forward checking
@compiled
def keep_at_most(maxval: int) -> int:
    """The mask of values 0..maxval (empty below 0, everything from 62 up)."""
    if maxval < 0:
        return 0
    if maxval >= 62:
        return -1
    return (np.int64(1) << (maxval + 1)) - 1


@compiled
def prune_run(st: State, r: int, keep: int) -> bool:
    """Intersect the free cells of run `r` with `keep`; False on an empty domain."""
    for idx in range(st.members[r], st.members[r + 1]):
        c = st.members[idx]
        if st.val[c] < 0:
            d = st.dom[c]
            nd = d & keep
            if nd != d:
                set_domain(st, c, nd)
                if nd == 0:
                    return False
    return True


@compiled
def forward_check(st: State, c: int, v: int) -> bool:
    """Cazenave's forward checking after `c` = `v`, on every run of `c`."""
    others = ~(np.int64(1) << v)
    for k in range(st.cell_runs.shape[1]):
        r = st.cell_runs[c, k]
        if r < 0:
            continue
        if st.runs[r, FREE] == 0:
            if st.runs[r, SUM] != st.runs[r, TARGET]:
                st.info[FAILED] = r
                return False
            continue
        keep = keep_at_most(st.runs[r, TARGET] - st.runs[r, SUM]) & others
        if not prune_run(st, r, keep):
            st.info[FAILED] = r
            return False
    return True


# --------------------------------------------------------------------- GAC
@compiled
def propagate(st: State) -> bool:
    """Revise queued runs (GAC) until the queue is empty, a learning state's nogoods first each
    time; False on a wipe-out or stop."""
    while st.info[QLEN] > 0 or nogoods_pending(st):
        if not nogoods_propagated(st):
            clear_queue(st)
            return False
        if st.info[QLEN] == 0:
            break
        if not revise_run(st, dequeue_run(st)):
            clear_queue(st)
            forget_nogood_queue(st)
            return False
    return True


def nogoods_pending(st: State) -> bool:
    """True when a learning state's cells wait for their nogoods."""
    raise NotImplementedError("nogoods_pending runs inside compiled kernels")


def nogoods_propagated(st: State) -> bool:
    """Propagate a learning state's nogoods (`nogoods.propagate_nogoods`; the queue is left
    empty on a wipe-out); True for other states."""
    raise NotImplementedError("nogoods_propagated runs inside compiled kernels")


def forget_nogood_queue(st: State) -> None:
    """Empty a learning state's nogood queue (nothing for other states)."""
    raise NotImplementedError("forget_nogood_queue runs inside compiled kernels")


@overload(nogoods_pending, jit_options=INTERNAL, inline="always")
def _nogoods_pending(st):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        return lambda st: st.info[NGQ_LEN] > 0
    return lambda st: False


@overload(nogoods_propagated, jit_options=INTERNAL, inline="always")
def _nogoods_propagated(st):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        def learning(st):  # type: ignore[no-untyped-def]
            if nogoods.propagate_nogoods(st):
                return True
            nogoods.clear_queue(st)
            return False

        return learning
    return lambda st: True


@overload(forget_nogood_queue, jit_options=INTERNAL, inline="always")
def _forget_nogood_queue(st):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        return lambda st: nogoods.clear_queue(st)
    return lambda st: None


@compiled
def revise_run(st: State, r: int) -> bool:
    """Make run `r` generalized arc consistent: keep in each free cell exactly the values some
    combination (distinct values, the run's sum, covering the assigned values) gives it in a
    one-to-one matching onto the free cells. Runs of changed cells are queued. False on a
    wipe-out, on repeated assigned values or a wrong full sum, or when stopped. A row of
    `runs` from `info[SUMS_FROM]` on is an implied sum: `revise_sum`."""
    if r >= st.info[SUMS_FROM]:
        return revise_implied(st, r)
    cells, fdom, supp = st.work[W_CELLS], st.work[W_FDOM], st.work[W_SUPP]
    st.info[PROPAGATIONS] += 1
    st.info[REASON] = r  # the explanation of what this revision changes (a learning state)
    st.info[FAILED] = r  # and of a wipe-out, when it fails
    k = np.int64(0)  # not a literal 0: numba would also compile the callees for a constant
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
        if seen % CLOCK_EVERY_COMBOS == 0 and should_stop(st):
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
            matching_supports(st, k, rest)
        done = True
        for j in range(k):
            if supp[j] != fdom[j]:
                done = False
                break
        if done:
            break
    for j in range(k):  # a wipe-out changes nothing: the run explains it with its domains as they are
        if supp[j] == 0:
            return False
    for j in range(k):
        nd = supp[j]
        if nd != fdom[j]:
            c = cells[j]
            set_domain(st, c, nd)
            enqueue_other_runs(st, c, r)
    return True


def revise_implied(st: State, r: int) -> bool:
    """`revise_sum` on a learning state, the only kind with implied sums: a plain state's
    kernels compile none of it (it cost the first solve's root kernel a sixth of its compile
    time, for rows that state never has)."""
    raise NotImplementedError("revise_implied runs inside compiled kernels")


@overload(revise_implied, jit_options=INTERNAL, inline="always")
def _revise_implied(st, r):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        return lambda st, r: revise_sum(st, r)
    return lambda st, r: False  # (no row from SUMS_FROM on: never called)


@compiled
def revise_sum(st: State, r: int) -> bool:
    """Make implied sum `r` (a row of `runs` from `info[SUMS_FROM]`: its cells add up to its
    TARGET, values not necessarily distinct) generalized arc consistent: a value stays in a
    cell when the other cells' domains reach the rest. The sums reachable by the cells before
    and after each one are bitmasks (bit s: sum s; TARGET <= 62). Runs and sums of changed
    cells are queued. False on a wipe-out (nothing changed)."""
    st.info[PROPAGATIONS] += 1
    st.info[REASON] = r
    st.info[FAILED] = r
    total = st.runs[r, TARGET]
    within = keep_at_most(total)
    first = st.members[r]
    k = st.members[r + 1] - first
    before, after, keep = st.work[W_REACH], st.work[W_MATCH], st.work[W_FDOM]
    before[0] = 1
    for j in range(k):
        before[j + 1] = _shifted_by(before[j], st.dom[st.members[first + j]]) & within
    if total < 0 or (before[k] >> total) & 1 == 0:  # (no shift by a negative amount)
        return False
    after[k] = 1
    for j in range(k - 1, -1, -1):
        after[j] = _shifted_by(after[j + 1], st.dom[st.members[first + j]]) & within
    for j in range(k):
        others = _shifted_by(after[j + 1], before[j])  # the sums the other cells reach
        d = st.dom[st.members[first + j]]
        kept = np.int64(0)
        while d:
            v = lowest_bit_index(d)
            d &= d - 1
            if v <= total and (others >> (total - v)) & 1:
                kept |= np.int64(1) << v
        if kept == 0:
            return False
        keep[j] = kept
    for j in range(k):
        c = st.members[first + j]
        if keep[j] != st.dom[c]:
            set_domain(st, c, keep[j])
            enqueue_other_runs(st, c, r)
    return True


@compiled
def _shifted_by(sums: int, values: int) -> int:
    """The sums `sums` (a bitmask) plus each of `values` (a bitmask): their sumset (bits past
    63 are lost)."""
    out = np.int64(0)
    while values:
        v = lowest_bit_index(values)
        values &= values - 1
        out |= sums << v
    return out


@compiled
def propagate_implied(st: State) -> bool:
    """Queue every implied sum of the state (none but a learning state's) and propagate; False
    on a wipe-out (the puzzle has no solution) or stop."""
    for r in range(st.info[SUMS_FROM], st.runs.shape[0]):
        enqueue_run(st, r)
    return propagate(st)


# --------------------------------------------------------------------- root
def root_propagate(st: State) -> bool:
    """Propagate the empty assignment and the givens; the result becomes the root (the trail
    is committed). `gac`: assign the givens, then revise every run to a fixpoint. `fc`: remove
    values above each run's target, then assign the givens one by one with forward checking.
    `check`, `projected`: assign and check the givens. False when the puzzle is found
    unsatisfiable (or the deadline passed: see info[STOP]). (From Python: a kernel calls the
    kernel of its state, `gac_root_propagate` or `any_root_propagate`.)"""
    if isinstance(st, GacState):
        return bool(gac_root_propagate(st))
    return bool(any_root_propagate(st))


@entry_point
def gac_root_propagate(st: State) -> bool:
    """`root_propagate` of a gac state, written out over `revise_run`: the first kernel a solve
    compiles, kept two calls shallower than `any_root_propagate`'s (a numba function compiles
    with a copy of everything it calls: each level over the run propagator cost a cold start
    0.3-0.7 s of CPU)."""
    ok = _givens_set_runs_queued(st)
    while ok and st.info[QLEN] > 0:  # `propagate` without a learning state's nogoods: a level less to compile
        ok = revise_run(st, dequeue_run(st))
    clear_queue(st)
    commit_root(st)
    return ok


@entry_point
def any_root_propagate(st: State) -> bool:
    """`root_propagate` of a state of any strength (a learning state's too)."""
    ok = root_of_strength(st)
    commit_root(st)
    return ok


def root_of_strength(st: State) -> bool:
    """The root propagation of the state's strength (see `root_propagate`)."""
    raise NotImplementedError("root_of_strength runs inside compiled kernels")


@overload(root_of_strength, jit_options=INTERNAL, inline="always")
def _root_of_strength(st):  # type: ignore[no-untyped-def]
    if instance_of(st, GacState) or instance_of(st, LearningState):
        return lambda st: _gac_root(st)
    if instance_of(st, FcState):
        return lambda st: _fc_root(st)
    return lambda st: _assign_givens(st)


@compiled
def _assign_givens(st: State) -> bool:
    for g in range(st.givens.shape[0]):
        if not assign(st, st.givens[g, 0], st.givens[g, 1]):
            return False
    return True


@compiled
def _fc_root(st: State) -> bool:
    for r in range(st.runs.shape[0]):
        if not prune_run(st, r, keep_at_most(st.runs[r, TARGET])):
            return False
    return _assign_givens(st)


@compiled
def _gac_root(st: State) -> bool:
    return _givens_set_runs_queued(st) and propagate(st)


@compiled
def _givens_set_runs_queued(st: State) -> bool:
    """The start of root GAC: every given set (False when one cannot be), then every run queued."""
    for g in range(st.givens.shape[0]):
        if not set_value(st, st.givens[g, 0], st.givens[g, 1]):
            return False
    for r in range(st.runs.shape[0]):
        enqueue_run(st, r)
    return True


@entry_point
def shave(st: State, fixpoint: bool, counters: np.ndarray) -> bool:
    """Singleton arc consistency on the current (GAC) state: remove each value of a free cell
    whose assignment propagates to a wipe-out, propagating every removal. One sweep over the
    cells, or sweeps until one removes nothing (`fixpoint`). The shaved domains become the
    root (`commit_root`). `counters[PROBES]` and `counters[SWEEPS]` are incremented. Given
    `counters[BUDGET]` > 0, shaving stops (`counters[CUT]` = 1) once it has spent that many
    run revisions (`info[PROPAGATIONS]`) since its last removal (or its start): it goes on
    while it buys something and stops where it is seen to remove nothing; what it removed
    stands. `counters[LONGEST_DRY]` gets the most revisions a removal took. False
    when the puzzle is unsatisfiable, or when stopped (`info[STOP]` set)."""
    n = st.dom.shape[0]
    budget = counters[BUDGET]
    since = st.info[PROPAGATIONS]  # revisions counted from the last removal
    while True:
        counters[SWEEPS] += 1
        changed = False
        for c in range(n):
            if st.val[c] >= 0 or st.size[c] <= 1:
                continue
            left = st.dom[c]
            while left:
                b = left & -left
                left ^= b
                if st.dom[c] & b == 0:  # removed meanwhile, by the propagation of a removal
                    continue
                counters[PROBES] += 1
                mark = st.info[TRAIL]
                ok = assign(st, c, lowest_bit_index(b))
                undo(st, mark)
                dry = st.info[PROPAGATIONS] - since
                if ok:
                    if budget > 0 and dry > budget:
                        counters[CUT] = 1
                        commit_root(st)
                        return True
                    continue
                if st.info[STOP] != 0:
                    return False
                counters[LONGEST_DRY] = max(counters[LONGEST_DRY], dry)
                nd = st.dom[c] & ~b
                set_domain(st, c, nd)
                if nd == 0:
                    return False
                enqueue_cell_runs(st, c)
                if not propagate(st):
                    return False
                since = st.info[PROPAGATIONS]
                changed = True
        if not fixpoint or not changed:
            commit_root(st)
            return True


# --------------------------------------------------------------------- Python side
def root_domains(puzzle: Puzzle, consistency: str = "gac") -> list[int] | None:
    """The cell domains (bitmasks, cell order) after root propagation, or None when the
    propagation proves the puzzle unsatisfiable."""
    st = build_state(puzzle, consistency)
    ok = root_propagate(st)
    raise_if_interrupted(st)
    if not ok:
        return None
    return [int(d) for d in st.dom]


def warm_up(kernel: str, consistency: str) -> None:
    """Compile `root_propagate` ("root") or shaving and the domain summary read after it
    ("shave") for states of `consistency`."""
    st = warm_up_state(consistency)
    root_propagate(st)
    if kernel == "shave":
        shave(st, True, np.zeros(SHAVE_COUNTERS, dtype=np.int64))
        domain_summary(st)
