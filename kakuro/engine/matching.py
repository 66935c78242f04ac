"""Which values a run's free cells take in the one-to-one assignments of a combination's values
(perfect matchings): the inner step of run-level GAC (`kakuro.engine.propagate.revise_run`),
on the rows of the state's `work` scratch (each SCRATCH long). Up to three cells every
assignment is tried; beyond, one matching is found (Kuhn's augmenting paths) and the others
read off its alternating cycles."""

from __future__ import annotations

import numpy as np

from kakuro.engine.bits import lowest_bit_index
from kakuro.engine.compile import compiled
from kakuro.engine.layout import State

# rows of `work`: slots' cells, domains and supports, the matching and its search
W_CELLS, W_FDOM, W_SUPP, W_REACH, W_MATCH, W_OWNER, W_SCELL, W_SVAL, W_SCAND = range(9)


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
def perfect_matching(st: State, k: int, rest: int) -> bool:
    """Match the k slots of row W_FDOM one-to-one onto the k values of `rest` (rows W_MATCH:
    slot -> value, W_OWNER: value -> slot); False when no perfect matching exists."""
    fdom, match, owner = st.work[W_FDOM], st.work[W_MATCH], st.work[W_OWNER]
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
            return False
    return True


@compiled
def _one_to_one(fdom: np.ndarray, supp: np.ndarray, x: int, y: int, z: int) -> None:
    """Slots 0, 1, 2 take the values (bits) x, y, z when their domains allow it."""
    if fdom[0] & x and fdom[1] & y and fdom[2] & z:
        supp[0] |= x
        supp[1] |= y
        supp[2] |= z


@compiled
def _few_supports(fdom: np.ndarray, supp: np.ndarray, k: int, rest: int) -> None:
    """`matching_supports` for 2 or 3 slots, by trying every one-to-one assignment (at most
    six): the common short run costs no matching search."""
    a = rest & -rest
    others = rest ^ a
    b = others & -others
    if k == 2:
        if fdom[0] & a and fdom[1] & b:
            supp[0] |= a
            supp[1] |= b
        if fdom[0] & b and fdom[1] & a:
            supp[0] |= b
            supp[1] |= a
        return
    c = others ^ b
    _one_to_one(fdom, supp, a, b, c)
    _one_to_one(fdom, supp, a, c, b)
    _one_to_one(fdom, supp, b, a, c)
    _one_to_one(fdom, supp, b, c, a)
    _one_to_one(fdom, supp, c, a, b)
    _one_to_one(fdom, supp, c, b, a)


@compiled
def matching_supports(st: State, k: int, rest: int) -> None:
    """OR into supp[j] the values free-cell slot j takes in some perfect matching of the k
    slots onto the k values of `rest` (nothing when no perfect matching exists)."""
    if k == 2 or k == 3:  # (one slot never gets here: revise_run's complete case takes it)
        _few_supports(st.work[W_FDOM], st.work[W_SUPP], k, rest)
        return
    fdom, supp, reach = st.work[W_FDOM], st.work[W_SUPP], st.work[W_REACH]
    match, owner = st.work[W_MATCH], st.work[W_OWNER]
    if not perfect_matching(st, k, rest):
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
