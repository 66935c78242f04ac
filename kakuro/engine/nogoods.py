"""Nogoods on a LearningState: explained run propagation, conflict analysis, watched nogoods.

A *nogood* is a list of (cell, mask) pairs saying that not every cell of it avoids its mask:
not all of (x_c not in M_c). Its *literal* on cell c, "x_c not in M_c", is true once no value
of M_c is left in c's domain, and false once every value left is in M_c. When all literals
but one are true, the last one must be false: that cell's domain shrinks to M_c (unit
propagation); when all are true, the nogood fails. Each nogood is watched on two literals not
true, each on one value of its mask still in the domain, so only the removal of that value
looks at it (`propagate_nogoods`; measured on a 31x101 grid, a watch per cell was looked at
43 times per changed cell, 40 % of the search's time). A literal that is true when watched is
watched on the value it lost last, the first a backtrack brings back.

Explanations come from the trail (lazy clause generation): a run revision that removed values
from cell c at trail entry t is explained by the other cells of the run: they had their
domains of just before t, i.e. "x_c' not in (root domain - domain before t)" for each. A
nogood's unit propagation is explained by its other literals. `analyze` resolves the latest
entries of the conflict's decision level with their explanations until one is left (the first
unique implication point, 1-UIP); the learned nogood is unit after backjumping to the highest
other level, where its UIP literal is asserted.

Store layout, at a nogood's offset o: length, LBD (the distinct decision levels of its
literals when learned), the two watched pairs, then `length` (cell, mask) pairs. A change a
nogood made has reason NOGOOD_BASE - o. Nogoods are deleted only at the root (`reduce`), when
no change above the root can name them. Found solutions' nogoods (LBD `PERMANENT`) are never
deleted, so counting stays exact: the search stops before one would take more than half the
store (`has_room`) and its Python driver grows the store (`make_room`), so a reduction always
leaves room for any nogood.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kakuro.engine.bits import lowest_bit_index
from kakuro.engine.build import watch_pool_size
from kakuro.engine.compile import compiled
from kakuro.engine.layout import (
    DECISION,
    DELETED,
    FAILED,
    NG_COUNT,
    NG_KEPT,
    NG_TOP,
    NGQ_HEAD,
    NGQ_LEN,
    NOGOOD_BASE,
    REASON,
    TRAIL,
    UNBALANCED,
    W_FREE,
    W_TOP,
    LearningState,
)
from kakuro.engine.trail import enqueue_cell_runs, set_domain, trail_cell

HEADER = 4
LENGTH, LBD, WATCH_A, WATCH_B = range(HEADER)
GLUE = 2
"""Learned nogoods of LBD up to GLUE ("glue clauses") survive every ordinary reduction."""
PERMANENT = 0
"""The LBD given to a found solution's nogood: no reduction deletes it (counting stays exact)."""


class Analysis(NamedTuple):
    """The buffers of conflict analysis and of one search's decision levels (made by
    `analysis_buffers`)."""

    level_start: np.ndarray
    """Per decision level L >= 1: the trail index of its decision (level 0 is the root)."""
    root_dom: np.ndarray
    """Per cell: its domain at the root (refreshed whenever the search is back there)."""
    masks: np.ndarray
    """Per cell: its mask in the nogood being learned (0: not in it)."""
    touched: np.ndarray
    """The cells with a mask, in the order they got one (each once: see `in_nogood`)."""
    in_nogood: np.ndarray
    """Per cell: 1 while it is in `touched` (its mask may drop to 0 meanwhile)."""
    seen: np.ndarray
    """Per trail entry: 1 while it is an entry of the conflict level still to resolve."""
    out_cells: np.ndarray
    out_masks: np.ndarray
    out_levels: np.ndarray
    """The learned nogood's pairs and their levels, the UIP first, the highest other level
    second."""
    level_mark: np.ndarray
    """Scratch per level: counting distinct levels (LBD)."""


def analysis_buffers(st: LearningState) -> Analysis:
    """Fresh analysis buffers for `st`."""
    n = st.dom.shape[0]
    return Analysis(
        level_start=np.zeros(n + 2, dtype=np.int64), root_dom=st.dom.copy(), masks=np.zeros(n, dtype=np.int64),
        touched=np.zeros(n, dtype=np.int64), in_nogood=np.zeros(n, dtype=np.int64), seen=np.zeros(st.reasons.shape[0], dtype=np.int64),
        out_cells=np.zeros(n, dtype=np.int64), out_masks=np.zeros(n, dtype=np.int64),
        out_levels=np.zeros(n, dtype=np.int64),
        level_mark=np.zeros(n + 2, dtype=np.int64),
    )


# --------------------------------------------------------------------- the trail, read back
@compiled
def _domain_after(st: LearningState, c: int, e: int) -> int:
    """The domain of cell c just after its trail entry e."""
    after = st.dom[c]
    f = st.last[c]
    while f > e:
        after = st.trail[2 * f + 1]
        f = st.links[f]
    return after


@compiled
def _domain_before(st: LearningState, c: int, t: int) -> int:
    """The domain of cell c just before trail index t."""
    d = st.dom[c]
    f = st.last[c]
    while f >= t:
        d = st.trail[2 * f + 1]
        f = st.links[f]
    return d


@compiled
def _last_removal(st: LearningState, c: int, mask: int) -> int:
    """The latest trail entry of cell c that removed a value of `mask` (-1: none since the
    trail began)."""
    after = st.dom[c]
    f = st.last[c]
    while f >= 0 and st.trail[2 * f + 1] & ~after & mask == 0:
        after = st.trail[2 * f + 1]
        f = st.links[f]
    return f


@compiled
def level_of(a: Analysis, level: int, t: int) -> int:
    """The decision level of trail index t (0: the root), `level` being the current one."""
    lo, hi = 0, level
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a.level_start[mid] <= t:
            lo = mid
        else:
            hi = mid - 1
    return lo


# --------------------------------------------------------------------- conflict analysis
@compiled
def _add(st: LearningState, a: Analysis, c: int, mask: int, level: int, count: np.ndarray) -> None:
    """Add "x_c not in mask" to the nogood being learned; count (count[0]) and mark (seen)
    the trail entries of the conflict level that removed its new values, count[1] is the
    number of touched cells."""
    new = mask & ~a.masks[c]
    if new == 0:
        return
    if a.in_nogood[c] == 0:
        a.in_nogood[c] = 1
        a.touched[count[1]] = c
        count[1] += 1
    a.masks[c] |= new
    start = a.level_start[level]
    after = st.dom[c]
    f = st.last[c]
    while f >= start:
        old = st.trail[2 * f + 1]
        if old & ~after & new and a.seen[f] == 0:
            a.seen[f] = 1
            count[0] += 1
        after = old
        f = st.links[f]


@compiled
def _explain(st: LearningState, a: Analysis, t: int, c: int, level: int, count: np.ndarray) -> None:
    """Add the explanation of trail entry t (of cell c) to the nogood being learned."""
    reason = st.reasons[t]
    if reason >= 0:  # a run revision: the run's other cells, as they were just before t
        for idx in range(st.members[reason], st.members[reason + 1]):
            other = st.members[idx]
            if other != c:
                _add(st, a, other, a.root_dom[other] & ~_domain_before(st, other, t), level, count)
    elif reason <= NOGOOD_BASE:  # a nogood's unit propagation: its other literals
        o = NOGOOD_BASE - reason
        for j in range(st.ng_store[o + LENGTH]):
            other = st.ng_store[o + HEADER + 2 * j]
            if other != c:
                _add(st, a, other, st.ng_store[o + HEADER + 2 * j + 1] & a.root_dom[other], level, count)


@compiled
def analyze(st: LearningState, a: Analysis, level: int, count: np.ndarray, cause: np.ndarray,
            causes: int) -> tuple[int, int, int]:
    """Learn a nogood from the wipe-out named by `info[FAILED]` at decision `level` >= 1
    (1-UIP; an UNBALANCED one is explained by the current domains of the first `causes` cells
    of `cause`). Its pairs go to `a.out_cells` / `a.out_masks`, the UIP first and a literal of
    the highest other level second; returns (length, backjump level, LBD). `count` is int64
    (2,) scratch."""
    count[0] = 0
    count[1] = 0
    failed = st.info[FAILED]
    if failed >= 0:
        for idx in range(st.members[failed], st.members[failed + 1]):
            c = st.members[idx]
            _add(st, a, c, a.root_dom[c] & ~st.dom[c], level, count)
    elif failed == UNBALANCED:
        for i in range(causes):
            c = cause[i]
            _add(st, a, c, a.root_dom[c] & ~st.dom[c], level, count)
    else:
        o = NOGOOD_BASE - failed
        for j in range(st.ng_store[o + LENGTH]):
            c = st.ng_store[o + HEADER + 2 * j]
            _add(st, a, c, st.ng_store[o + HEADER + 2 * j + 1] & a.root_dom[c], level, count)
    t = st.info[TRAIL] - 1
    while True:
        while t >= 0 and a.seen[t] == 0:
            t -= 1
        if t < 0:
            raise RuntimeError("conflict analysis: the wipe-out has no change of its decision level")
        if count[0] == 1:
            break
        a.seen[t] = 0
        count[0] -= 1
        c = trail_cell(st, t)
        a.masks[c] &= ~(st.trail[2 * t + 1] & ~_domain_after(st, c, t))
        _explain(st, a, t, c, level, count)
        t -= 1
    a.seen[t] = 0
    uip = trail_cell(st, t)
    # the pairs: the UIP first, then the others, the one of the highest level second
    a.out_cells[0] = uip
    a.out_masks[0] = a.masks[uip]
    a.out_levels[0] = level
    a.masks[uip] = 0
    length = 1
    for i in range(count[1]):
        c = a.touched[i]
        mask = a.masks[c]
        a.masks[c] = 0
        a.in_nogood[c] = 0
        if c == uip or mask == 0:
            continue
        f = _last_removal(st, c, mask)  # the entry making the literal true
        a.out_cells[length] = c
        a.out_masks[length] = mask
        a.out_levels[length] = level_of(a, level, f) if f >= 0 else 0
        if length >= 2 and a.out_levels[length] > a.out_levels[1]:
            a.out_cells[1], a.out_cells[length] = a.out_cells[length], a.out_cells[1]
            a.out_masks[1], a.out_masks[length] = a.out_masks[length], a.out_masks[1]
            a.out_levels[1], a.out_levels[length] = a.out_levels[length], a.out_levels[1]
        length += 1
    distinct = 0
    for i in range(length):
        if a.level_mark[a.out_levels[i]] == 0:
            a.level_mark[a.out_levels[i]] = 1
            distinct += 1
    for i in range(length):
        a.level_mark[a.out_levels[i]] = 0
    return length, a.out_levels[1] if length >= 2 else 0, distinct


# --------------------------------------------------------------------- the store and watches
@compiled
def _link(st: LearningState, e: int, c: int, v: int) -> None:
    """Put watch entry e at the head of the list of cell c's value v."""
    st.watch_next[e] = st.watch_head[c, v]
    st.watch_head[c, v] = e


@compiled
def _watched_value(st: LearningState, c: int, mask: int) -> int:
    """The value of cell c to watch the literal "x_c not in mask" on: one still in the domain
    (the literal can turn true only when it goes), or, when the literal is true, the value of
    `mask` removed last (the first one a backtrack brings back)."""
    left = st.dom[c] & mask
    if left:
        return lowest_bit_index(left)
    f = _last_removal(st, c, mask)  # the values of `mask` it removed: none is left after it
    return lowest_bit_index(st.trail[2 * f + 1] & mask if f >= 0 else mask)  # f < 0: true for good


@compiled
def _watch(st: LearningState, c: int, mask: int, o: int) -> None:
    """Watch nogood `o` on cell c, whose literal there has `mask`."""
    e = st.info[W_FREE]
    if e >= 0:
        st.info[W_FREE] = st.watch_next[e]
    else:
        e = st.info[W_TOP]
        st.info[W_TOP] = e + 1
    st.watch_nogood[e] = o
    st.watch_mask[e] = mask
    _link(st, e, c, _watched_value(st, c, mask))


@compiled
def add(st: LearningState, cells: np.ndarray, masks: np.ndarray, length: int, lbd: int) -> int:
    """Store the nogood of the first `length` >= 2 pairs, watched on its first two; returns
    its offset, or -1 when the store or the watch pool is full (`reduce` at the root)."""
    o = st.info[NG_TOP]
    if o + HEADER + 2 * length > st.ng_store.shape[0] or st.info[W_TOP] + 2 > st.watch_next.shape[0]:
        return -1
    st.ng_store[o + LENGTH] = length
    st.ng_store[o + LBD] = lbd
    st.ng_store[o + WATCH_A] = 0
    st.ng_store[o + WATCH_B] = 1
    for j in range(length):
        st.ng_store[o + HEADER + 2 * j] = cells[j]
        st.ng_store[o + HEADER + 2 * j + 1] = masks[j]
    st.info[NG_TOP] = o + HEADER + 2 * length
    st.info[NG_COUNT] += 1
    if lbd == PERMANENT:
        st.info[NG_KEPT] += HEADER + 2 * length
    _watch(st, cells[0], masks[0], o)
    _watch(st, cells[1], masks[1], o)
    return o


@compiled
def add_at_root(st: LearningState, cells: np.ndarray, masks: np.ndarray, length: int, lbd: int) -> int:
    """`add` at the root (after a `reduce`), watching two literals that are not true there: a
    literal the root made true would never wake its watch again. When fewer than two are left
    not true, nothing is stored: one false at the root satisfies the nogood for good; one
    left not true (and not false) is asserted at the root (the caller propagates it); none
    left: returns NO_LITERAL_LEFT (no further solution). Otherwise `add`'s answer (-1: full)."""
    found = 0
    for j in range(length):
        if found == 2:
            break
        if st.dom[cells[j]] & masks[j] != 0:  # not true: move it to the next watched place
            cells[found], cells[j] = cells[j], cells[found]
            masks[found], masks[j] = masks[j], masks[found]
            found += 1
    if found == 2:
        return add(st, cells, masks, length, lbd)
    if found == 0:
        return NO_LITERAL_LEFT
    c = cells[0]
    if st.dom[c] & ~masks[0] != 0:  # not false either: the last literal that can hold must
        st.info[REASON] = DECISION
        set_domain(st, c, st.dom[c] & masks[0])
        enqueue_cell_runs(st, c)
    return ASSERTED


NO_LITERAL_LEFT = -2
ASSERTED = -3
"""`add_at_root`'s answers besides an offset and -1 (full): every literal is true at the root;
the nogood was decided at the root and not stored."""


@compiled
def has_room(st: LearningState, length: int) -> bool:
    """True when a found solution's nogood of `length` pairs keeps found solutions' nogoods
    within half the store (so a `reduce` to them leaves room for any learned nogood)."""
    return st.info[NG_KEPT] + HEADER + 2 * length <= st.ng_store.shape[0] // 2


def make_room(st: LearningState) -> None:
    """Grow the store of `st` (and its watch pool), in place (`numpy.ndarray.resize`: no view
    of those arrays may be held), by doubling until found solutions' nogoods take at most half
    of it with room for one more of any length; nothing when they already do. Between two
    calls of a search only (they keep offsets into the store, never its address). Raises
    MemoryError when memory runs out."""
    n = st.dom.shape[0]
    size = st.ng_store.shape[0]
    while int(st.info[NG_KEPT]) + HEADER + 2 * n > size // 2:
        size *= 2
    if size == st.ng_store.shape[0]:
        return
    pool = watch_pool_size(size, n)
    for array in (st.watch_next, st.watch_nogood, st.watch_mask):
        array.resize(pool, refcheck=False)  # the new entries are zero, like a fresh store's
    st.ng_store.resize(size, refcheck=False)


@compiled
def clear_queue(st: LearningState) -> None:
    """Forget the cells waiting for their nogoods (after a wipe-out or a backjump)."""
    n = st.ng_queue.shape[0]
    while st.info[NGQ_LEN] > 0:
        st.ng_queued[st.ng_queue[st.info[NGQ_HEAD]]] = 0
        st.info[NGQ_HEAD] = (st.info[NGQ_HEAD] + 1) % n
        st.info[NGQ_LEN] -= 1


@compiled
def _literal_not_true(st: LearningState, o: int, skip_a: int, skip_b: int) -> int:
    """The index of a literal of nogood `o` that is not true, other than `skip_a` and
    `skip_b`; -1 when there is none."""
    base = o + HEADER
    for j in range(st.ng_store[o + LENGTH]):
        if j != skip_a and j != skip_b and st.dom[st.ng_store[base + 2 * j]] & st.ng_store[base + 2 * j + 1] != 0:
            return j
    return -1


@compiled
def propagate_nogoods(st: LearningState) -> bool:
    """For each value each queued cell lost, look at the nogoods watching that value: move a
    watch whose literal is not true to another value of it still there, or, when the literal
    became true, to another literal not true; when there is none, shrink the other watched
    cell (its literal is the last one not true; its runs are queued), or fail
    (`info[FAILED]` = the nogood) when it is true too. A true literal left watched stays on
    the value just lost: it was lost at the current level, so any backtrack brings it back."""
    n = st.ng_queue.shape[0]
    while st.info[NGQ_LEN] > 0:
        c = st.ng_queue[st.info[NGQ_HEAD]]
        st.info[NGQ_HEAD] = (st.info[NGQ_HEAD] + 1) % n
        st.info[NGQ_LEN] -= 1
        st.ng_queued[c] = 0
        lost = st.ng_before[c] & ~st.dom[c]
        while lost:
            v = lowest_bit_index(lost)
            lost ^= np.int64(1) << v
            previous = -1
            e = st.watch_head[c, v]
            while e >= 0:
                following = st.watch_next[e]
                target = c
                mask = st.watch_mask[e]
                left = st.dom[c] & mask
                if left == 0:  # the literal is true: is another one not?
                    o = st.watch_nogood[e]
                    mine, theirs = (WATCH_A, WATCH_B) if st.ng_store[o + HEADER + 2 * st.ng_store[o + WATCH_A]] == c \
                        else (WATCH_B, WATCH_A)
                    other = st.ng_store[o + theirs]
                    j = _literal_not_true(st, o, st.ng_store[o + mine], other)
                    if j < 0:  # the other watched literal is the last that can hold: it must
                        co = st.ng_store[o + HEADER + 2 * other]
                        nd = st.dom[co] & st.ng_store[o + HEADER + 2 * other + 1]
                        if nd == 0:
                            st.info[FAILED] = NOGOOD_BASE - o
                            return False
                        if nd != st.dom[co]:
                            st.info[REASON] = NOGOOD_BASE - o
                            set_domain(st, co, nd)
                            enqueue_cell_runs(st, co)
                        previous = e
                        e = following
                        continue
                    st.ng_store[o + mine] = j
                    target = st.ng_store[o + HEADER + 2 * j]
                    mask = st.ng_store[o + HEADER + 2 * j + 1]
                    left = st.dom[target] & mask
                # move the watch to a value of its literal still in the domain
                if previous >= 0:
                    st.watch_next[previous] = following
                else:
                    st.watch_head[c, v] = following
                st.watch_mask[e] = mask
                _link(st, e, target, lowest_bit_index(left))
                e = following
    return True


@compiled
def _simplify_all(st: LearningState) -> int:
    """`reduce`'s first pass, in place: drop each nogood's literals true at the root, mark a
    nogood with a false literal satisfied (LBD -1), keep the simplified length in its WATCH_A
    slot (unused pairs marked -1, the slot size kept). Returns the highest LBD of the
    unsatisfied nogoods, or -1 when one is left with no literal."""
    top = st.info[NG_TOP]
    highest = 0
    o = 0
    while o < top:
        length = st.ng_store[o + LENGTH]
        base = o + HEADER
        kept = 0
        satisfied = False
        for j in range(length):
            c = st.ng_store[base + 2 * j]
            m = st.ng_store[base + 2 * j + 1]
            d = st.dom[c]
            if d & m == 0:
                continue  # true at the root: drop the literal
            if d & ~m == 0:
                satisfied = True
                break
            st.ng_store[base + 2 * kept] = c
            st.ng_store[base + 2 * kept + 1] = m
            kept += 1
        if satisfied:
            st.ng_store[o + LBD] = -1
        else:
            if kept == 0:
                return -1
            for j in range(kept, length):  # keep the slot size; mark the unused pairs
                st.ng_store[base + 2 * j] = -1
            st.ng_store[o + WATCH_A] = kept  # the simplified length, for pass 2
            highest = max(highest, st.ng_store[o + LBD])
        o = base + 2 * length
    return highest


@compiled
def _lbd_threshold(st: LearningState, keep: int, glue: int, highest: int) -> int:
    """The LBD threshold of `reduce`: raised from `glue` (up to `highest`) while the nogoods
    of LBD between `glue` and it stay at most `keep`."""
    top = st.info[NG_TOP]
    threshold = glue
    while threshold < highest:
        within = 0
        o = 0
        while o < top:
            lbd = st.ng_store[o + LBD]
            if glue < lbd <= threshold + 1:
                within += 1
            o += HEADER + 2 * st.ng_store[o + LENGTH]
        if within > keep:
            break
        threshold += 1
    return threshold


@compiled
def _compact(st: LearningState, threshold: int) -> None:
    """`reduce`'s second pass over the simplified store: delete the satisfied nogoods and
    those of LBD above `threshold`, assert the unit ones at the root, move the others down and
    watch them again."""
    top = st.info[NG_TOP]
    st.watch_head.fill(-1)
    st.info[W_TOP] = 0
    st.info[W_FREE] = -1
    count = 0
    write = 0
    permanent = 0
    o = 0
    while o < top:
        length = st.ng_store[o + LENGTH]
        lbd = st.ng_store[o + LBD]
        kept = st.ng_store[o + WATCH_A]
        step = HEADER + 2 * length
        if lbd < 0 or lbd > threshold:
            st.info[DELETED] += 1
            o += step
            continue
        if kept == 1:  # unit at the root
            c = st.ng_store[o + HEADER]
            nd = st.dom[c] & st.ng_store[o + HEADER + 1]
            st.info[REASON] = NOGOOD_BASE - o
            set_domain(st, c, nd)
            enqueue_cell_runs(st, c)
            st.info[DELETED] += 1
            o += step
            continue
        st.ng_store[write + LENGTH] = kept
        st.ng_store[write + LBD] = lbd
        st.ng_store[write + WATCH_A] = 0
        st.ng_store[write + WATCH_B] = 1
        for j in range(2 * kept):
            st.ng_store[write + HEADER + j] = st.ng_store[o + HEADER + j]
        _watch(st, st.ng_store[write + HEADER], st.ng_store[write + HEADER + 1], write)
        _watch(st, st.ng_store[write + HEADER + 2], st.ng_store[write + HEADER + 3], write)
        count += 1
        if lbd == PERMANENT:
            permanent += HEADER + 2 * kept
        write += HEADER + 2 * kept
        o += step
    st.info[NG_TOP] = write
    st.info[NG_COUNT] = count
    st.info[NG_KEPT] = permanent


@compiled
def reduce(st: LearningState, keep: int, glue: int = GLUE) -> bool:
    """At the root: simplify every nogood (literals true at the root go; a nogood with a false
    literal is satisfied for good and goes), keep those of LBD at most `glue` (a found
    solution's nogood, of LBD 0, always) and the `keep` best of the others by LBD, compact
    the store and watch each kept one again (units found here are asserted at the root).
    False when a nogood is left with no literal: the puzzle has no (further) solution."""
    highest = _simplify_all(st)
    if highest < 0:
        return False
    _compact(st, _lbd_threshold(st, keep, glue, highest))
    return True
