"""A Killer's cages in the family search's propagation (`kakuro.engine.family.propagate`): the
exact check of each cage's values, its hidden singles and pointing, and the sums without
all-different of a few cells (innies and outies), over the work list built per puzzle.

- `work_list(st, cg, i)`: puzzle i's cages, then the innies of each house that wholly holds some
  of them (`family_state.Cages`), and its sums (`_region_sums`);
- `cage_pass`: one pass over the work list: a cage keeps the values of the combinations of its
  size and sum that hold its fixed values and lie within its candidates; a cage of at most
  MOST_MATCHED cells keeps in each cell exactly the values some one-value-per-cell assignment of
  such a combination gives it (its sum and all-different at once: `_matchings`), a larger one
  the values of the combinations that give each of its cells one; a fixed value leaves the
  others; a value every such combination holds, with one place left in the cage, goes there,
  and with all its places in the cage in one house leaves the rest of that house (`_confined`);
  a cage's check reads only its cells' candidates, so the search keeps each check of the
  current puzzle in `FamilyState.memo` and recalls it when the same cage comes back with the
  same candidates (`_recalled`: on generated 9x9 Killers 42% of the checks); cages of two and
  three cells are checked by enumerating their values (`_pairs`, `_triples`);
- `sum_pass`: the sums of a few cells (the innies and outies of one to three rows, columns or
  boxes: the rule of 45) keep each cell's values within what the others' lowest and highest
  leave.
"""

from __future__ import annotations

import numpy as np

from kakuro.engine.bits import highest_bit_index, lowest_bit_index
from kakuro.engine.compile import compiled
from kakuro.engine.family_state import MEMO_ROUND, REMOVED, STRIDE, SUM, SUM_CELLS, Cages, FamilyState


@compiled
def cage_pass(st: FamilyState, cg: Cages, cand: np.ndarray) -> tuple[int, int]:
    """One pass over the cages of `cg`'s work list (see the module docstring), each skipped whose
    cells hold what they held when it last ended its turn (`work_seen`: it would find nothing
    new, and it was found consistent then). Returns (changed, queue length): changed 1 when a
    candidate went, 0 when none; on a wipe-out (-1, the work item where it happened)."""
    stride = st.spec[STRIDE]
    width = st.houses.shape[1]
    cells = cg.work_cells
    changed = 0
    qlen = 0
    for j in range(cg.work_count[0]):
        a = cg.work_start[j]
        b = cg.work_start[j + 1]
        total = cg.work_totals[j]
        if b - a > width or total < 0 or total >= stride:
            return -1, j
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
                    return -1, j
                fixed |= m
        support = st.matching[SUPPORT]
        must = _recalled(st, cand, cells, a, b, j, total, union, fixed)
        if must < 0:
            return -1, j
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
                    return -1, j
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
                return -1, j
            if places == 1:
                if cand[place] != v:
                    cand[place] = v
                    st.queue[qlen] = place
                    qlen += 1
                    changed = 1
                continue
            qlen = _confined(st, cand, cells, a, b, v, place, qlen)
            if qlen < 0:
                return -1, j
            if qlen > 0 or _removed(st):
                changed = 1
        for t in range(a, b):
            cg.work_seen[t] = cand[cells[t]]
    return changed, qlen


@compiled
def _recalled(st: FamilyState, cand: np.ndarray, cells: np.ndarray, a: int, b: int, j: int, total: int, union: int,
              fixed: int) -> int:
    """`_supported` for work item j (the cage `cells[a:b]` of sum `total`, its candidates'
    `union` and `fixed` values), recalled from `st.memo` when the current puzzle's search checked
    it with the same candidates before (the check reads nothing else), else checked and stored."""
    memo, k = st.memo, b - a
    width = st.houses.shape[1]
    key = j
    for t in range(a, b):
        key = key * GOLDEN + cand[cells[t]]
    slot = (key ^ (key >> 29)) & (memo.shape[0] - 1)
    entry = memo[slot]
    support = st.matching[SUPPORT]
    hit = entry[0] == st.spec[MEMO_ROUND] and entry[1] == j
    for t in range(k):
        if not hit:
            break
        hit = entry[2 + t] == cand[cells[a + t]]
    if hit:
        for t in range(k):
            support[t] = entry[3 + width + t]
        return entry[2 + width]
    must = _supported(st, cand, cells, a, b, total, union, fixed)
    entry[0] = st.spec[MEMO_ROUND]
    entry[1] = j
    for t in range(k):
        entry[2 + t] = cand[cells[a + t]]
        entry[3 + width + t] = support[t]
    entry[2 + width] = must
    return must


@compiled
def _supported(st: FamilyState, cand: np.ndarray, cells: np.ndarray, a: int, b: int, total: int, union: int,
               fixed: int) -> int:
    """The values every combination of the cage `cells[a:b]` (sum `total`) that fits its
    candidates holds (the `fixed` ones, within their `union`), its cells' values some one gives
    them into `st.matching[SUPPORT]` (`_fits`); -1 when none fits."""
    combos, rows = st.combos, st.combo_start
    allowed = 0
    must = union
    row = (b - a) * st.spec[STRIDE] + total
    support = st.matching[SUPPORT]
    for t in range(b - a):
        support[t] = 0
    if b - a == 2:
        return _pairs(support, cand[cells[a]], cand[cells[a + 1]], total)
    if b - a == 3:
        return _triples(support, cand[cells[a]], cand[cells[a + 1]], cand[cells[a + 2]], total)
    for q in range(rows[row], rows[row + 1]):
        m = combos[q]
        if fixed & ~m or m & ~union:
            continue
        if _fits(st, cand, cells, a, b, m):
            allowed |= m
            must &= m
    return must if allowed else -1


@compiled
def _pairs(support: np.ndarray, x: int, y: int, total: int) -> int:
    """`_supported` for a cage of two cells with candidates `x` and `y`: each pair of
    different values, one from each, that makes `total`."""
    must = x | y
    allowed = False
    rest = x
    while rest:
        u = lowest_bit_index(rest)
        rest &= rest - 1
        w = total - u
        if w != u and 0 <= w < 63 and (y >> w) & 1:
            pair = (np.int64(1) << u) | (np.int64(1) << w)
            support[0] |= np.int64(1) << u
            support[1] |= np.int64(1) << w
            must &= pair
            allowed = True
    return must if allowed else -1


@compiled
def _triples(support: np.ndarray, x: int, y: int, z: int, total: int) -> int:
    """`_supported` for a cage of three cells with candidates `x`, `y` and `z`: each triple of
    different values, one from each, that makes `total`."""
    must = x | y | z
    allowed = False
    first = x
    while first:
        u = lowest_bit_index(first)
        first &= first - 1
        bu = np.int64(1) << u
        second = y & ~bu
        while second:
            v = lowest_bit_index(second)
            second &= second - 1
            w = total - u - v
            if 0 <= w < 63 and (z >> w) & 1 and w != u and w != v:
                bv = np.int64(1) << v
                bw = np.int64(1) << w
                support[0] |= bu
                support[1] |= bv
                support[2] |= bw
                must &= bu | bv | bw
                allowed = True
    return must if allowed else -1


GOLDEN = np.int64(-0x61C8864680B583EB)
"""2^64 / the golden ratio (as a signed int64): the multiplier of `_recalled`'s hash."""
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
def sum_pass(st: FamilyState, cg: Cages, cand: np.ndarray) -> tuple[int, int]:
    """One pass over the sums of `cg` (bounds: each cell keeps the values that the lowest and
    highest of the others leave room for). Returns (changed, queue length) as `cage_pass`."""
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
            return -1, j
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
                    return -1, j
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
def work_list(st: FamilyState, cg: Cages, i: int) -> bool:
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
    st.spec[MEMO_ROUND] += 1
    for t in range(pos):
        cg.work_seen[t] = -1
    cg.sum_count[0] = 0
    if count > 0:
        _region_sums(st, cg, i)
    return True
