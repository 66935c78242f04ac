"""The Sudoku family's search at machine speed: one candidate mask per cell, singles, locked
candidates and a depth-first search that copies the state per level, over many puzzles of one
shape in one compiled call.

The state (`kakuro.engine.family_state.FamilyState`) is built once per shape; each puzzle is a
row of givens. `propagate` runs to a fixpoint:

- naked singles: a cell with one candidate left removes it from its peers (a queue of cells);
- hidden singles: a value with one place left in a house goes there (a house missing a value
  everywhere is a wipe-out), all houses scanned once the queue is empty;
- cages (a Killer's, and the innies of its houses: `family_state.Cages`), when singles run dry:
  a cage keeps the values of the combinations of its size and sum that hold its fixed values
  and lie within its candidates; a cage of at most MOST_MATCHED cells keeps in each cell
  exactly the values some one-value-per-cell assignment of such a combination gives it (its
  sum and all-different at once: `_matchings`), a larger one the values of the combinations
  that give each of its cells one; a fixed value leaves the others;
  a value every such combination holds, with one place left in the cage, goes there, and with
  all its places in the cage in one house leaves the rest of that house; then the
  sums of a few cells (the innies and outies of one to three rows, columns or boxes: the rule
  of 45) keep each cell's values within what the others' lowest and highest leave;
- locked candidates, when all that runs dry and the state asks for them: where two houses cross
  (a box and a row), a value that house A has only in the crossing leaves the rest of B
  (pointing), and one that B has only there leaves the rest of A (claiming).

The search guesses on a cell with the fewest candidates (the first of two), its lowest value;
in a puzzle with cages, on the cell with the fewest candidates per guess refuted on it so far
(plus one: dom/wdeg, which spares the heavy tails of Killers whose first choices were wrong):
the level's candidates are copied to the next level (a few hundred bytes), the guess made and
propagated; when that subtree is done the value is removed at the level it was guessed on and
propagated there (binary branching), and the search goes on from that level. It counts
solutions up to `limit` (2 proves uniqueness) and keeps the first `keep`. Every
`CLOCK_EVERY` nodes it reads the clock: a run stops at the batch's deadline, on Ctrl-C or a
stop request (`kakuro.engine.interrupt`), and a puzzle stops at its own budget.

`solve_givens(state, givens, ..., cages=...)` is the batch entry: givens (P, N) -> a `Batch` of answers
(P, keep, N) and outcomes (P, OUTCOME) (code, count, nodes, fails, time). Answers are checked by
`kakuro.engine.verify`, which reads the puzzle's groups, not this state.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kakuro.clock import Deadline
from kakuro.engine.bits import highest_bit_index, lowest_bit_index, popcount
from kakuro.engine.compile import compiled, entry_point
from kakuro.engine.family_state import FULL, LOCKED, REMOVED, STRIDE, SUM, SUM_CELLS, Cages, FamilyState, cages_for, family_state, no_cages
from kakuro.engine.interrupt import arm, clock_ns, raise_if_interrupted, should_stop
from kakuro.engine.layout import CLOCK_EVERY, EXHAUSTED, LIMIT, NO_DEADLINE, STOP, STOPPED, TICKS
from kakuro.puzzle import Puzzle

# outcome columns
CODE = 0
"""EXHAUSTED (the search finished: `COUNT` is exact, 0 means no solution), LIMIT (`limit`
solutions found), STOPPED (deadline, budget, interrupt or stop request: at least `COUNT`) or
CUT (its cap of guesses reached: at least `COUNT`)."""
COUNT = 1
NODES = 2
"""Guesses made."""
FAILS = 3
"""Propagations that ended in a wipe-out."""
TIME = 4
"""Nanoseconds the puzzle's search took (the kernels' clock)."""
OUTCOME = 5
CUT = -1
"""A CODE: the search gave up at its cap of guesses (a heavy tail another search may not have)."""
NO_CAP = np.iinfo(np.int64).max


# --------------------------------------------------------------------- propagation
@compiled
def _remove(st: FamilyState, cand: np.ndarray, k: int, start: int, end: int, mask: int, qlen: int) -> int:
    """Remove `mask` from the cells of the pieces `crossings[k, start:end]`; cells left with one
    candidate join the queue. Returns the queue's new length, -1 on a wipe-out."""
    pieces = st.pieces
    for j in range(start, end):
        p = st.crossings[k, j]
        for t in range(pieces.shape[1]):
            c = pieces[p, t]
            m = cand[c]
            if m & mask:
                m &= ~mask
                cand[c] = m
                if m == 0:
                    return -1
                if m & (m - 1) == 0:
                    st.queue[qlen] = c
                    qlen += 1
    return qlen


@compiled
def _locked_candidates(st: FamilyState, cand: np.ndarray) -> tuple[int, int]:
    """One pass of pointing and claiming over every crossing. Returns (changed, queue length):
    changed 1 when a candidate went, 0 when none, -1 on a wipe-out. The unions of the pieces are
    taken once, before the pass: one that went stale only holds more, which removes less."""
    unions, pieces, x = st.unions, st.pieces, st.crossings
    for p in range(pieces.shape[0] - 1):
        m = 0
        for t in range(pieces.shape[1]):
            m |= cand[pieces[p, t]]
        unions[p] = m
    rest = (x.shape[1] - 1) // 2
    changed = 0
    qlen = 0
    for k in range(x.shape[0]):
        shared = unions[x[k, 0]]
        in_a = 0
        in_b = 0
        for j in range(1, 1 + rest):
            in_a |= unions[x[k, j]]
            in_b |= unions[x[k, j + rest]]
        pointing = shared & ~in_a & in_b  # A has them only where it crosses B
        claiming = shared & ~in_b & in_a
        if pointing:
            qlen = _remove(st, cand, k, 1 + rest, 1 + 2 * rest, pointing, qlen)
            if qlen < 0:
                return -1, 0
            changed = 1
        if claiming:
            qlen = _remove(st, cand, k, 1, 1 + rest, claiming, qlen)
            if qlen < 0:
                return -1, 0
            changed = 1
    return changed, qlen


@compiled
def propagate(st: FamilyState, cg: Cages, cand: np.ndarray, qlen: int) -> bool:
    """Propagate the candidates `cand` (a row of `st.stack`) to a fixpoint, starting from the
    first `qlen` cells of `st.queue` (fixed cells whose value their peers still hold), with the
    cages of `cg`'s work list. False on a wipe-out."""
    queue, peers, houses = st.queue, st.peers, st.houses
    full = st.spec[FULL]
    width = houses.shape[1]
    while True:
        while qlen > 0:  # naked singles
            qlen -= 1
            c = queue[qlen]
            b = cand[c]
            for k in range(peers.shape[1]):
                p = peers[c, k]
                m = cand[p]
                if m & b:
                    m ^= b
                    cand[p] = m
                    if m == 0:
                        return False
                    if m & (m - 1) == 0:
                        queue[qlen] = p
                        qlen += 1
        found = False
        for h in range(houses.shape[0]):  # hidden singles
            once = 0
            twice = 0
            fixed = 0
            for k in range(width):
                m = cand[houses[h, k]]
                twice |= once & m
                once |= m
                if m & (m - 1) == 0:
                    fixed |= m
            if once != full:
                return False
            single = once & ~twice & ~fixed
            if single:
                for k in range(width):
                    c = houses[h, k]
                    m = cand[c] & single
                    if m:
                        if m & (m - 1):  # two values with one place each, the same place
                            return False
                        cand[c] = m
                        queue[qlen] = c
                        qlen += 1
                found = True
        if found:
            continue
        if cg.work_count[0] > 0:
            changed, qlen = _cage_pass(st, cg, cand)
            if changed == 0:
                changed, qlen = _sum_pass(st, cg, cand)
            if changed < 0:
                return False
            if changed:
                continue
        if st.spec[LOCKED] == 0:
            return True
        changed, qlen = _locked_candidates(st, cand)
        if changed < 0:
            return False
        if changed == 0:
            return True


@compiled
def _cage_pass(st: FamilyState, cg: Cages, cand: np.ndarray) -> tuple[int, int]:
    """One pass over the cages of `cg`'s work list (see the module docstring), each skipped whose
    cells hold what they held when it last ended its turn (`work_seen`: it would find nothing
    new, and it was found consistent then). Returns (changed, queue length): changed 1 when a
    candidate went, 0 when none, -1 on a wipe-out."""
    combos, rows, stride = st.combos, st.combo_start, st.spec[STRIDE]
    width = st.houses.shape[1]
    cells = cg.work_cells
    changed = 0
    qlen = 0
    for j in range(cg.work_count[0]):
        a = cg.work_start[j]
        b = cg.work_start[j + 1]
        total = cg.work_totals[j]
        if b - a > width or total < 0 or total >= stride:
            return -1, 0
        same = True
        for t in range(a, b):
            if cg.work_seen[t] != cand[cells[t]]:
                same = False
                break
        if same:  # as when this cage last ended its turn: nothing new to find in it
            continue
        union = 0
        fixed = 0
        for t in range(a, b):
            m = cand[cells[t]]
            union |= m
            if m & (m - 1) == 0:
                if fixed & m:  # one value twice in the cage
                    return -1, 0
                fixed |= m
        allowed = 0
        must = union
        row = (b - a) * stride + total
        support = st.matching[SUPPORT]
        for t in range(b - a):
            support[t] = 0
        for q in range(rows[row], rows[row + 1]):
            m = combos[q]
            if fixed & ~m or m & ~union:
                continue
            if _fits(st, cand, cells, a, b, m):
                allowed |= m
                must &= m
        if allowed == 0:
            return -1, 0
        for t in range(a, b):
            c = cells[t]
            m = cand[c]
            if m & (m - 1) == 0:
                continue
            kept = m & support[t - a] & ~fixed
            if kept != m:
                cand[c] = kept
                changed = 1
                if kept == 0:
                    return -1, 0
                if kept & (kept - 1) == 0:
                    st.queue[qlen] = c
                    qlen += 1
        need = must & ~fixed
        while need:
            v = need & -need
            need ^= v
            place = -1
            places = 0
            for t in range(a, b):
                if cand[cells[t]] & v:
                    places += 1
                    place = cells[t]
            if places == 0:
                return -1, 0
            if places == 1:
                if cand[place] != v:
                    cand[place] = v
                    st.queue[qlen] = place
                    qlen += 1
                    changed = 1
                continue
            qlen = _confined(st, cand, cells, a, b, v, place, qlen)
            if qlen < 0:
                return -1, 0
            if qlen > 0 or _removed(st):
                changed = 1
        for t in range(a, b):
            cg.work_seen[t] = cand[cells[t]]
    return changed, qlen


HAS = np.array([0xAAAAAAAA, 0xCCCCCCCC, 0xF0F0F0F0, 0xFF00FF00, 0xFFFF0000], dtype=np.int64)
"""HAS[j]: the sets S of up to five values that hold value j, as the bits S of an int (`_matchings`)."""
MOST_MATCHED = len(HAS)
"""The largest cage (and house's innies) whose values `_matchings` checks exactly: the sets of
its combination's values are the bits of an int64. A house's innies of more cells are left out
of the work list (on generated 9x9 Killers their looser check cost more guesses and time than
it saved)."""
# rows of FamilyState.matching
HELD = 0
"""The candidates of each cell of the cage within the combination being checked."""
SUPPORT = 1
"""The values of the cage's cells that some combination checked so far gives them."""
OWN = 2
"""HELD with the combination's j-th value as bit j."""
AHEAD = 3
"""The sets of values the cells before each can take, one each (bits as HAS)."""


@compiled
def _fits(st: FamilyState, cand: np.ndarray, cells: np.ndarray, a: int, b: int, m: int) -> bool:
    """Whether the cage `cells[a:b]` can take the values of `m` (as many as it has cells) one
    each within its candidates, adding to `st.matching[SUPPORT]` the values of `m` that such an
    assignment gives each cell: exactly for a cage of at most MOST_MATCHED cells, else (or when
    every cell holds all of `m`) whenever each cell holds a value of `m`, adding all of `m`."""
    held, support = st.matching[HELD], st.matching[SUPPORT]
    known = True  # every value of m each cell holds is supported already
    whole = True  # every cell holds all of m
    for t in range(b - a):
        x = cand[cells[a + t]] & m
        if x == 0:
            return False
        held[t] = x
        known &= x & ~support[t] == 0
        whole &= x == m
    if whole or b - a > MOST_MATCHED:
        for t in range(b - a):
            support[t] |= m
        return True
    return _matchings(st, b - a, m, known)


@compiled
def _matchings(st: FamilyState, k: int, m: int, known: bool) -> bool:
    """Whether k <= MOST_MATCHED cells whose candidates within `m` (k values) are
    `st.matching[HELD]` can take the values of `m` one each; unless `known`, each value such an
    assignment gives a cell is added to `st.matching[SUPPORT]`. A set of values S is bit S of an
    int (bit j of S: the j-th lowest value of `m`): the forward pass keeps the sets the cells
    before each can take (AHEAD), the backward pass the sets whose complement the cells from
    it on can take (`behind`); cell t can take value j when a set before it without j, with j
    added, is one behind it."""
    held, support, own, ahead = st.matching[HELD], st.matching[SUPPORT], st.matching[OWN], st.matching[AHEAD]
    for t in range(k):
        own[t] = 0
    rest = m
    for j in range(k):
        v = lowest_bit_index(rest)
        rest &= rest - 1
        for t in range(k):
            own[t] |= ((held[t] >> v) & 1) << j
    sets = np.int64(1)  # the empty set
    for t in range(k):
        ahead[t] = sets
        grown = 0
        y = own[t]
        while y:
            j = lowest_bit_index(y)
            y &= y - 1
            grown |= (sets & ~HAS[j]) << (1 << j)
        sets = grown
    everything = (1 << k) - 1
    if sets >> everything == 0:  # no assignment takes every value of m
        return False
    if known:
        return True
    behind = np.int64(1) << everything  # after the last cell: every value taken
    for t in range(k - 1, -1, -1):
        y = own[t]
        grown = 0
        kept = 0
        while y:
            j = lowest_bit_index(y)
            y &= y - 1
            if ((ahead[t] & ~HAS[j]) << (1 << j)) & behind:
                kept |= 1 << j
            grown |= (behind & HAS[j]) >> (1 << j)
        behind = grown
        rest = m
        for j in range(k):
            v = rest & -rest
            rest ^= v
            if kept >> j & 1:
                support[t] |= v
    return True


@compiled
def _confined(st: FamilyState, cand: np.ndarray, cells: np.ndarray, a: int, b: int, v: int, place: int,
              qlen: int) -> int:
    """A value `v` that the cage `cells[a:b]` must hold, whose places in it (`place` one of them)
    all lie in one house, leaves the rest of that house (a Killer's pointing). Returns the queue's
    new length, -1 on a wipe-out; `st.spec[REMOVED]` says whether a candidate went."""
    st.spec[REMOVED] = 0
    for e in range(st.cell_houses.shape[1]):
        h = st.cell_houses[place, e]
        if h < 0:
            break
        inside = True
        for t in range(a, b):
            c = cells[t]
            if cand[c] & v and st.member[h, c] == 0:
                inside = False
                break
        if not inside:
            continue
        for t in range(a, b):
            st.marks[cells[t]] = 1
        for k in range(st.houses.shape[1]):
            c = st.houses[h, k]
            m = cand[c]
            if m & v and st.marks[c] == 0:
                m ^= v
                cand[c] = m
                st.spec[REMOVED] = 1
                if m == 0:
                    qlen = -1
                    break
                if m & (m - 1) == 0:
                    st.queue[qlen] = c
                    qlen += 1
        for t in range(a, b):
            st.marks[cells[t]] = 0
        if qlen < 0:
            return -1
    return qlen


@compiled
def _removed(st: FamilyState) -> bool:
    """Whether the last `_confined` removed a candidate."""
    return st.spec[REMOVED] != 0


@compiled
def _sum_pass(st: FamilyState, cg: Cages, cand: np.ndarray) -> tuple[int, int]:
    """One pass over the sums of `cg` (bounds: each cell keeps the values that the lowest and
    highest of the others leave room for). Returns (changed, queue length) as `_cage_pass`."""
    cells = cg.sum_cells
    changed = 0
    qlen = 0
    for j in range(cg.sum_count[0]):
        a = cg.sum_start[j]
        b = cg.sum_start[j + 1]
        total = cg.sum_totals[j]
        low = 0
        high = 0
        for t in range(a, b):
            m = cand[cells[t]]
            low += lowest_bit_index(m)
            high += highest_bit_index(m)
        if low > total or high < total:
            return -1, 0
        for t in range(a, b):
            c = cells[t]
            m = cand[c]
            least = total - (high - highest_bit_index(m))  # the values the others leave room for
            most = total - (low - lowest_bit_index(m))
            if least > lowest_bit_index(m) or most < highest_bit_index(m):
                kept = m
                if most < least or most < 0 or least > 62:
                    kept = 0
                else:
                    if most < 62:
                        kept &= (np.int64(1) << (most + 1)) - 1
                    if least > 0:
                        kept &= ~((np.int64(1) << least) - 1)
                cand[c] = kept
                changed = 1
                if kept == 0:
                    return -1, 0
                if kept & (kept - 1) == 0:
                    st.queue[qlen] = c
                    qlen += 1
                low += lowest_bit_index(kept) - lowest_bit_index(m)
                high += highest_bit_index(kept) - highest_bit_index(m)
    return changed, qlen


@compiled
def _region_sums(st: FamilyState, cg: Cages, i: int) -> None:
    """`cg`'s sums for puzzle i: for each region of houses (`FamilyState.regions`) not cut by
    overlapping cages, the sum of its innies (the cells outside the cages wholly inside it,
    several houses only: one house's are a cage) and, when cages cover it, of its outies (the
    cells of the cages it cuts that lie outside it), each kept when it has 1..SUM_CELLS cells."""
    regions, houses, marks, cells = st.regions, st.houses, st.marks, cg.cells
    most = st.spec[SUM_CELLS]
    width = houses.shape[1]
    pos = 0
    count = 0
    cg.sum_start[0] = 0
    for r in range(regions[0] - 1):
        k = regions[r + 1] - regions[r]
        for t in range(regions[r], regions[r + 1]):
            for w in range(width):
                marks[houses[regions[t], w]] = 1
        inside = 0
        cut = 0
        covered = 0
        overlap = False
        for j in range(cg.first[i], cg.first[i + 1]):
            within = 0
            for t in range(cg.start[j], cg.start[j + 1]):
                within += marks[cells[t]] == 1
                overlap |= marks[cells[t]] == 2
            if within == cg.start[j + 1] - cg.start[j]:
                inside += cg.totals[j]
                for t in range(cg.start[j], cg.start[j + 1]):
                    marks[cells[t]] = 2
            elif within:
                cut += cg.totals[j]
            covered += within
        whole = k * st.spec[SUM]
        start = pos
        if not overlap and k > 1 and inside:  # innies
            for t in range(regions[r], regions[r + 1]):
                for w in range(width):
                    c = houses[regions[t], w]
                    if marks[c] == 1 and pos - start <= most:
                        cg.sum_cells[pos] = c
                        pos += 1
            if 0 < pos - start <= most:
                cg.sum_totals[count] = whole - inside
                count += 1
                cg.sum_start[count] = pos
            else:
                pos = start
        start = pos
        if not overlap and cut and covered == k * width:  # outies
            for j in range(cg.first[i], cg.first[i + 1]):
                within = 0
                for t in range(cg.start[j], cg.start[j + 1]):
                    within += marks[cells[t]] != 0
                if 0 < within < cg.start[j + 1] - cg.start[j]:
                    for t in range(cg.start[j], cg.start[j + 1]):
                        if marks[cells[t]] == 0 and pos - start <= most:
                            cg.sum_cells[pos] = cells[t]
                            pos += 1
            if 0 < pos - start <= most:
                cg.sum_totals[count] = inside + cut - whole
                count += 1
                cg.sum_start[count] = pos
            else:
                pos = start
        for t in range(regions[r], regions[r + 1]):
            for w in range(width):
                marks[houses[regions[t], w]] = 0
    cg.sum_count[0] = count


@compiled
def _work_list(st: FamilyState, cg: Cages, i: int) -> bool:
    """`cg`'s work list for puzzle i: its cages, then the innies of each house that wholly holds
    some of them (none where those cages overlap; none of more than MOST_MATCHED cells). False when cages fill a house with another
    sum than the house's."""
    houses, marks = st.houses, st.marks
    pos = 0
    count = 0
    cg.work_start[0] = 0
    for j in range(cg.first[i], cg.first[i + 1]):
        for t in range(cg.start[j], cg.start[j + 1]):
            cg.work_cells[pos] = cg.cells[t]
            pos += 1
        cg.work_totals[count] = cg.totals[j]
        count += 1
        cg.work_start[count] = pos
    if count > 0:
        for h in range(houses.shape[0]):
            inside = 0
            overlap = False
            for j in range(cg.first[i], cg.first[i + 1]):
                within = True
                for t in range(cg.start[j], cg.start[j + 1]):
                    if st.member[h, cg.cells[t]] == 0:
                        within = False
                        break
                if within:
                    inside += cg.totals[j]
                    for t in range(cg.start[j], cg.start[j + 1]):
                        overlap |= marks[cg.cells[t]] != 0
                        marks[cg.cells[t]] = 1
            rest = 0
            for k in range(houses.shape[1]):
                c = houses[h, k]
                if marks[c] == 0:
                    rest += 1
                    if inside and not overlap:
                        cg.work_cells[pos] = c
                        pos += 1
                marks[c] = 0
            if not inside or overlap:
                continue
            if rest == 0:
                if inside != st.spec[SUM]:
                    return False
                continue
            if rest > MOST_MATCHED:
                pos -= rest
                continue
            cg.work_totals[count] = st.spec[SUM] - inside
            count += 1
            cg.work_start[count] = pos
    cg.work_count[0] = count
    for t in range(pos):
        cg.work_seen[t] = -1
    cg.sum_count[0] = 0
    if count > 0:
        _region_sums(st, cg, i)
    return True


# --------------------------------------------------------------------- search
@compiled
def _start(st: FamilyState, cg: Cages, i: int, givens: np.ndarray) -> bool:
    """Level 0 of the stack for puzzle i: the full range and `givens` (one value per cell, 0 for
    none), its cages' work list, propagated. False when the givens or cages already contradict."""
    if not _work_list(st, cg, i):
        return False
    cand = st.stack[0]
    full = st.spec[FULL]
    n = givens.shape[0]
    qlen = 0
    for c in range(n):
        v = np.int64(givens[c])
        if v == 0:
            cand[c] = full
            continue
        b = np.int64(1) << v
        if b & full == 0:
            return False
        cand[c] = b
        st.queue[qlen] = c
        qlen += 1
    cand[n] = 0  # the sentinel
    return propagate(st, cg, cand, qlen)


@compiled
def _choose(cand: np.ndarray, n: int) -> int:
    """The first cell with the fewest candidates (two at best), -1 when every cell is fixed."""
    best = -1
    fewest = 64
    for c in range(n):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if k < fewest:
                fewest = k
                best = c
                if k == 2:
                    break
    return best


@compiled
def _choose_weighted(cand: np.ndarray, n: int, weights: np.ndarray) -> int:
    """The first cell with the fewest candidates per (1 + `weights`, the guesses refuted on it),
    -1 when every cell is fixed."""
    best = -1
    fewest = 1
    per = 0  # fewest / per: the best ratio so far (none yet)
    for c in range(n):
        m = cand[c]
        if m & (m - 1):
            k = popcount(m)
            if per == 0 or k * per < fewest * (1 + weights[c]):
                fewest = k
                per = 1 + weights[c]
                best = c
    return best


@compiled
def _keep(cand: np.ndarray, answer: np.ndarray) -> None:
    """Write the fixed candidates `cand` as values into `answer`."""
    for c in range(answer.shape[0]):
        answer[c] = lowest_bit_index(cand[c])


@compiled
def _poll(st: FamilyState, end: int) -> bool:
    """Count a tick; every CLOCK_EVERY ticks read the clock: True when the run must stop (its
    deadline, Ctrl-C or a stop request: `should_stop`) or this puzzle's budget (`end`, kernel
    clock ns) is spent."""
    st.info[TICKS] += 1
    if st.info[TICKS] % CLOCK_EVERY != 0:
        return False
    return should_stop(st) or (end != NO_DEADLINE and clock_ns() >= end)


@compiled
def _search(st: FamilyState, cg: Cages, i: int, givens: np.ndarray, answers: np.ndarray, limit: int, end: int,
            cap: int, outcome: np.ndarray) -> None:
    """Count the solutions of puzzle i (`givens`, its cages in `cg`) up to `limit`, the first rows
    of `answers` (keep, N) receiving the first ones, giving up (CUT) before guess `cap` + 1; its
    outcome (CODE, COUNT, NODES, FAILS) into `outcome`."""
    n = givens.shape[0]
    stack, decisions, queue = st.stack, st.decisions, st.queue
    count, nodes, fails, code = 0, 0, 0, EXHAUSTED
    d = 0
    weighted = cg.first[i + 1] > cg.first[i]
    weights = st.weights
    for k in range(n + 1):
        weights[k] = 0
    ok = _start(st, cg, i, givens)
    if not ok:
        fails += 1
        d = -1
    while d >= 0:
        if ok:
            cand = stack[d]
            c = _choose_weighted(cand, n, weights) if weighted else _choose(cand, n)
            if c < 0:  # a solution
                if count < answers.shape[0]:
                    _keep(cand, answers[count])
                count += 1
                if count >= limit:
                    code = LIMIT
                    break
                ok = False
            else:
                if _poll(st, end):
                    code = STOPPED
                    break
                if nodes >= cap:
                    code = CUT
                    break
                b = cand[c] & -cand[c]
                decisions[d, 0] = c
                decisions[d, 1] = b
                child = stack[d + 1]
                for k in range(n + 1):
                    child[k] = cand[k]
                child[c] = b
                queue[0] = c
                nodes += 1
                d += 1
                ok = propagate(st, cg, child, 1)
                if not ok:
                    fails += 1
                    weights[c] += 1
            continue
        d -= 1  # the subtree of level d's guess is done: refute it there
        if d < 0:
            break
        cand = stack[d]
        c = decisions[d, 0]
        m = cand[c] & ~decisions[d, 1]
        cand[c] = m
        queue[0] = c
        ok = propagate(st, cg, cand, 1 if m & (m - 1) == 0 else 0)
        if not ok:
            fails += 1
            weights[c] += 1
    outcome[CODE] = code
    outcome[COUNT] = count
    outcome[NODES] = nodes
    outcome[FAILS] = fails


@entry_point
def solve_rows(st: FamilyState, cg: Cages, givens: np.ndarray, answers: np.ndarray, outcomes: np.ndarray, limit: int,
               budget_ns: int, cap: int) -> int:
    """Search each row of `givens` (P, N; int8, 0 = empty; its cages in `cg`) in turn: answers (P, keep, N) int8,
    outcomes (P, OUTCOME) int64; each puzzle gets `budget_ns` (0: none) and `cap` guesses. Returns
    how many puzzles were searched: fewer than P when the run had to stop (the rest untouched)."""
    for i in range(givens.shape[0]):
        if _poll(st, NO_DEADLINE):
            return i
        start = clock_ns()
        end = NO_DEADLINE if budget_ns <= 0 else start + budget_ns
        _search(st, cg, i, givens[i], answers[i], limit, end, cap, outcomes[i])
        outcomes[i, TIME] = clock_ns() - start
        if st.info[STOP] != 0:
            return i + 1
    return givens.shape[0]


# --------------------------------------------------------------------- from Python
class Batch(NamedTuple):
    """The outcome of `solve_givens`: `answers` (P, keep, N) int8 (row k of puzzle i valid when
    `outcomes[i, COUNT] > k`), `outcomes` (P, OUTCOME) int64, and `searched`, how many puzzles
    the run reached (the others are STOPPED with a count of 0)."""

    answers: np.ndarray
    outcomes: np.ndarray
    searched: int


def solve_givens(st: FamilyState, givens: np.ndarray, limit: int = 1, keep: int = 1, deadline: Deadline = Deadline(),
                 budget: float | None = None, cages: Cages | None = None, cap: int | None = None) -> Batch:
    """Solve the puzzles `givens` (P, N: one row per puzzle of `st`'s shape, each cell's given
    value or 0; their `cages`, None for none) in one compiled call: count each one's solutions
    up to `limit`, keep the first `keep` (<= limit). The run stops at `deadline` (its `end`, a
    perf_counter reading), each puzzle after `budget` seconds (None: no budget) or `cap` guesses
    (None: no cap; CUT). Raises
    KeyboardInterrupt after a Ctrl-C (what was searched is lost: use `deadline` for partial
    results)."""
    if limit < 1 or not 0 <= keep <= limit:
        raise ValueError(f"limit must be >= 1 and keep 0..limit, not limit={limit}, keep={keep}")
    rows = np.ascontiguousarray(givens, dtype=np.int8)
    if rows.ndim != 2 or rows.shape[1] != st.cells:
        raise ValueError(f"givens must have one row of {st.cells} cells per puzzle, not shape {np.shape(givens)}")
    answers = np.zeros((rows.shape[0], keep, st.cells), dtype=np.int8)
    outcomes = np.zeros((rows.shape[0], OUTCOME), dtype=np.int64)
    outcomes[:, CODE] = STOPPED
    arm(st, deadline.end, 0)
    if cages is None:
        cages = no_cages(rows.shape[0], st)
    elif len(cages.first) != rows.shape[0] + 1:
        raise ValueError(f"cages for {len(cages.first) - 1} puzzles, givens for {rows.shape[0]}")
    searched = solve_rows(st, cages, rows, answers, outcomes, limit, 0 if budget is None else max(1, int(budget * 1e9)),
                          NO_CAP if cap is None else cap)
    raise_if_interrupted(st)
    return Batch(answers, outcomes, int(searched))


def warm_up() -> None:
    """Compile the family search on a 4x4 Sudoku with a cage (counting to 2, a budget and a
    deadline set)."""
    puzzle = Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
    givens = np.zeros((1, puzzle.size), dtype=np.int8)
    givens[0, [0, 15]] = 1
    st = family_state(puzzle)
    one = np.ones(1, dtype=np.int64)
    cages = cages_for(2 * one, np.array([1, 2]), 5 * one, one, st)
    solve_givens(st, givens, limit=2, keep=2, deadline=Deadline.after(60), budget=60, cages=cages)
