"""Sum / all-different combination tables, shared by every reasoning backend.

A set of values is a bitmask with bit `v` set for value `v` (so values go up to 62). A run of
`length` cells with clue `total` over the value range `(lo, hi)` can only hold one of its
*combinations*: the `length`-subsets of lo..hi that sum to `total`.

`feasible_values` is the exact (generalized arc consistent) filter of one run: a value stays
in a cell's domain only if some assignment of distinct values to all the run's cells, each
within its domain, sums to the clue and gives the cell that value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from kakuro.errors import KakuroError, UnsupportedOperationError
from kakuro.puzzle import MAX_VALUE, Group, Puzzle

MAX_COMBINATIONS = 1_000_000
"""Refuse to tabulate a (length, total, range) with more combinations than this."""


def mask_of(values: Iterable[int]) -> int:
    """The bitmask of a set of values."""
    mask = 0
    for v in values:
        mask |= 1 << v
    return mask


def values_of(mask: int) -> list[int]:
    """The values in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def fixed_values(domains: Iterable[int]) -> list[int]:
    """The value of each domain (bitmasks, each holding exactly one value), in order; of any
    nonempty domain, its highest value."""
    return [int(d).bit_length() - 1 for d in domains]


def highest_values(domains: np.ndarray) -> np.ndarray:
    """The highest value of each nonempty domain (int64 bitmasks), as an int64 array; -1 for
    an empty one (`fixed_values`, vectorised)."""
    smeared = np.array(domains, dtype=np.int64)
    for shift in (1, 2, 4, 8, 16, 32):
        smeared |= smeared >> shift
    return np.bitwise_count(smeared).astype(np.int64) - 1


def range_mask(values: tuple[int, int]) -> int:
    """The bitmask of every value lo..hi."""
    lo, hi = values
    return ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)


@cache
def count_combinations(length: int, total: int, values: tuple[int, int] = (1, 9)) -> int:
    """How many sets of `length` distinct values from `values` sum to `total` (counted, not
    listed)."""
    return count_combinations_within(length, total, range_mask(values))


@lru_cache(maxsize=1 << 16)
def count_combinations_within(length: int, total: int, allowed: int) -> int:
    """How many sets of `length` distinct values from the bitmask `allowed` sum to `total`
    (counted, not listed: a 0/1 knapsack over the values, vectorized over the sums)."""
    if length < 0 or total < 0:
        return 0
    ways = np.zeros((length + 1, total + 1), dtype=np.int64)
    ways[0, 0] = 1
    for v in values_of(allowed):
        for k in range(length, 0, -1):
            if v == 0:
                ways[k] += ways[k - 1]
            elif v <= total:
                ways[k, v:] += ways[k - 1, : total + 1 - v]
    return int(ways[length, total])


@cache
def combinations(length: int, total: int, values: tuple[int, int] = (1, 9)) -> tuple[int, ...]:
    """Every set of `length` distinct values from `values` summing to `total`, as bitmasks.

    Ascending in mask order. Raises KakuroError if there are more than MAX_COMBINATIONS.
    """
    lo, hi = values
    if not 0 <= lo <= hi <= MAX_VALUE:
        raise KakuroError(f"value range {lo}..{hi} is not within 0..{MAX_VALUE}")
    return combinations_within(length, total, range_mask(values))


@lru_cache(maxsize=64)
def combinations_within(length: int, total: int, allowed: int) -> tuple[int, ...]:
    """Every set of `length` distinct values from the bitmask `allowed` (values 0..MAX_VALUE)
    summing to `total`, as bitmasks, ascending. Enumerated over the allowed values only, so
    its cost follows the answer, not the width of the range. Raises KakuroError if there are
    more than MAX_COMBINATIONS."""
    if allowed >> (MAX_VALUE + 1) or allowed < 0:
        raise KakuroError(f"values must lie within 0..{MAX_VALUE}")
    vals = values_of(allowed)
    n = len(vals)
    prefix = [0]
    for v in vals:
        prefix.append(prefix[-1] + v)
    found: list[int] = []

    def extend(start: int, left: int, rest: int, mask: int) -> None:
        if left == 0:
            if rest == 0:
                found.append(mask)
                if len(found) > MAX_COMBINATIONS:
                    raise KakuroError(
                        f"more than {MAX_COMBINATIONS} combinations of {length} values from "
                        f"{describe_values(allowed)} sum to {total}"
                    )
            return
        largest = prefix[n] - prefix[n - left + 1]  # the left - 1 largest values
        for i in range(start, n - left + 1):
            if prefix[i + left] - prefix[i] > rest:  # the smallest completion from here
                break
            if vals[i] + largest < rest:
                continue
            extend(i + 1, left - 1, rest - vals[i], mask | (1 << vals[i]))

    if 0 <= length <= n:
        extend(0, length, total, 0)
    return tuple(sorted(found))


def describe_values(allowed: int) -> str:
    """A set of values in words: "1..62" for a range, else "1..62 but 5, 9" (at most a few
    missing values named) or the values themselves."""
    vals = values_of(allowed)
    if not vals:
        return "no values"
    lo, hi = vals[0], vals[-1]
    missing = [v for v in range(lo, hi + 1) if not allowed >> v & 1]
    if not missing:
        return f"{lo}..{hi}"
    if len(missing) <= 8:
        return f"{lo}..{hi} but {', '.join(map(str, missing))}"
    if len(vals) <= 8:
        return "{" + ", ".join(map(str, vals)) + "}"
    return f"{len(vals)} values of {lo}..{hi}"


def given_domains(puzzle: Puzzle) -> list[int]:
    """Each cell's values before any reasoning (bitmasks, cell order): a given's digit, else
    the puzzle's whole range."""
    full = range_mask(puzzle.values)
    return [1 << puzzle.givens[cell] if cell in puzzle.givens else full for cell in range(puzzle.size)]


def union_of(masks: Iterable[int]) -> int:
    """The union of a collection of value sets."""
    out = 0
    for m in masks:
        out |= m
    return out


def feasible_values(total: int, domains: Sequence[int], values: tuple[int, int] = (1, 9)) -> list[int]:
    """Exact per-cell supports of one run: the values each cell can take in some solution of
    the run alone (distinct values, each within its cell's domain, summing to `total`).

    `domains` are bitmasks, one per cell (an assigned cell is a one-value mask). Returns one
    mask per cell; all zero when the run cannot be completed.
    """
    n = len(domains)
    support = [0] * n
    reachable = union_of(domains)
    for combo in combinations(n, total, values):
        if combo & reachable != combo:
            continue
        for j, s in enumerate(_combination_supports(combo, domains)):
            support[j] |= s
    return support


def _combination_supports(combo: int, domains: Sequence[int]) -> list[int]:
    """For one combination, the values each cell takes in some perfect matching of the cells
    onto the combination's values (all zero when no such matching exists).

    Polynomial (Regin's alldifferent filtering): one perfect matching by augmenting paths,
    then a value v != m(j) stays in cell j exactly when the cell holding v in the matching can
    reach j by alternating edges (then swapping along that cycle gives j the value v). Cells
    are at most the width of the value range, so reachability is a bitset closure."""
    n = len(domains)
    masks = [d & combo for d in domains]
    owner: dict[int, int] = {}  # value bit -> the cell holding it in the matching
    held = [0] * n  # cell -> its value bit

    def augment(j: int, seen: set[int]) -> bool:
        free = masks[j]
        while free:
            bit = free & -free
            free ^= bit
            if bit in seen:
                continue
            seen.add(bit)
            other = owner.get(bit)
            if other is None or augment(other, seen):
                owner[bit] = j
                held[j] = bit
                return True
        return False

    for j in range(n):
        if not augment(j, set()):
            return [0] * n
    if len(owner) != combo.bit_count():
        return [0] * n
    reach = [0] * n  # reach[j]: cells j leads to (j -> the holder of any other value it can take)
    for j in range(n):
        others = masks[j] & ~held[j]
        while others:
            bit = others & -others
            others ^= bit
            reach[j] |= 1 << owner[bit]
    for k in range(n):  # transitive closure (Warshall, a row at a time as a bitset)
        row = reach[k]
        for j in range(n):
            if reach[j] >> k & 1:
                reach[j] |= row
    out = list(held)
    for j in range(n):
        others = masks[j] & ~held[j]
        while others:
            bit = others & -others
            others ^= bit
            if reach[owner[bit]] >> j & 1:
                out[j] |= bit
    return out


def free_part(puzzle: Puzzle, run: Group) -> tuple[int, int, int, int]:
    """What the givens leave open in `run`: `(length, total, allowed, given)`, the number of its
    cells without a given, its clue minus the given digits, the puzzle's values minus the given
    digits (a bitmask) and the given digits (a bitmask). Givens that repeat a digit leave
    total -1 (nothing can complete the run)."""
    given = rest = length = 0
    for cell in run.cells:
        digit = puzzle.givens.get(cell)
        if digit is None:
            length += 1
        elif given >> digit & 1:
            return length, -1, 0, given
        else:
            given |= 1 << digit
            rest += digit
    return length, run.total - rest, range_mask(puzzle.values) & ~given, given


def free_parts(puzzle: Puzzle) -> list[tuple[int, int, int, int]]:
    """`free_part` of every run, in run order (fast without givens: a classic grid of a
    million cells has half a million runs)."""
    if puzzle.givens:
        return [free_part(puzzle, run) for run in puzzle.groups]
    full = range_mask(puzzle.values)
    return [(len(run.cells), run.total, full, 0) for run in puzzle.groups]


def count_run_combinations(puzzle: Puzzle, run: Group) -> int:
    """How many combinations `run_combinations(puzzle, run)` has (counted, not listed)."""
    length, total, allowed, _ = free_part(puzzle, run)
    return count_combinations_within(length, total, allowed)


def run_combinations_up_to(puzzle: Puzzle, run: Group, most: int) -> tuple[int, ...] | None:
    """`run_combinations(puzzle, run)` when there are at most `most`, else None: counted first
    (a dynamic programme), since listing a million combinations takes seconds."""
    return run_combinations(puzzle, run) if count_run_combinations(puzzle, run) <= most else None


def run_table_sizes(puzzle: Puzzle, givens: bool = True) -> list[int]:
    """`count_run_combinations` of every run, in run order: the sizes of `run_tables`; with
    `givens=False`, of the (length, total) tables over the whole range instead."""
    if not givens:
        return [count_combinations(len(run.cells), run.total, puzzle.values) for run in puzzle.groups]
    return [count_combinations_within(length, total, allowed) for length, total, allowed, _ in free_parts(puzzle)]


def run_combinations(puzzle: Puzzle, run: Group) -> tuple[int, ...]:
    """The combinations of `run` that hold every given digit of its cells, as bitmasks,
    ascending: the sets G | c for G its given digits and c a set of distinct values from the
    range minus G, one per other cell, summing to the clue minus G's sum. A run without givens
    gets exactly `combinations(len(run), run.total, puzzle.values)`. Givens are fixed in every
    solution, so no other combination of the run's (length, total) table can be used: the
    tables differ, the reasoning on them does not. Raises KakuroError above MAX_COMBINATIONS."""
    length, total, allowed, given = free_part(puzzle, run)
    if not given:
        return combinations(length, total, puzzle.values)
    return _given_combinations(run, length, total, allowed, given)


def _given_combinations(run: Group, length: int, total: int, allowed: int, given: int) -> tuple[int, ...]:
    """`run_combinations` of a run with givens, from its `free_part`."""
    try:
        free = combinations_within(length, total, allowed)
    except KakuroError as exc:
        raise KakuroError(f"{run.name} ({len(run)} cells, {len(run) - length} given) "
                          f"has too many combinations: {exc}") from None
    return tuple(given | c for c in free)


def run_tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """Flat combination tables of every run of `puzzle` (`run_combinations`: the givens
    are in every combination), for compiled kernels.

    Returns `(offsets, masks)`: the combinations of run `r` are `masks[offsets[r]:offsets[r+1]]`
    (int64 bitmasks, bit v for value v).
    """
    tables = [
        np.array(_given_combinations(run, length, total, allowed, given), dtype=np.int64) if given  # this puzzle's own: not kept
        else _table_array(length, total, puzzle.values)
        for run, (length, total, allowed, given) in zip(puzzle.groups, free_parts(puzzle))
    ]
    offsets = np.zeros(len(tables) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in tables], out=offsets[1:])
    masks = np.concatenate(tables) if tables else np.zeros(0, dtype=np.int64)
    return offsets, masks


@cache
def _table_array(length: int, total: int, values: tuple[int, int]) -> np.ndarray:
    """`combinations(length, total, values)` as a read-only int64 array (built once)."""
    table = np.array(combinations(length, total, values), dtype=np.int64)
    table.flags.writeable = False
    return table


@cache
def combination_library(longest: int, values: tuple[int, int] = (1, 9)) -> tuple[np.ndarray, np.ndarray]:
    """Every table of runs up to `longest` cells over `values`, for kernels that change clues.

    Returns `(bounds, masks)` (read-only, cached): the combinations of a `length`-cell run with
    clue `total` are `masks[bounds[length, total, 0]:bounds[length, total, 1]]` for `length` in
    0..`longest` and `total` in 0..the sum of the `longest` largest values (empty where none).
    """
    lo, hi = values
    top = sum(range(max(lo, hi - longest + 1), hi + 1))
    bounds = np.zeros((longest + 1, top + 1, 2), dtype=np.int64)
    tables = []
    start = 0
    for length in range(longest + 1):
        for total in range(top + 1):
            table = _table_array(length, total, values) if length else np.zeros(0, dtype=np.int64)
            bounds[length, total] = start, start + len(table)
            tables.append(table)
            start += len(table)
    masks = np.concatenate(tables)
    bounds.flags.writeable = masks.flags.writeable = False
    return bounds, masks


MAX_TABLE_ROWS = 2_000_000
"""Refuse to tabulate a run with more permutations than this (a table model would not fit)."""


@cache
def permutation_table(length: int, total: int, values: tuple[int, int] = (1, 9)) -> np.ndarray:
    """Every sequence of `length` distinct values summing to `total`, one per row (int32,
    read-only, cached): the rows of an unrestricted table constraint. Raises KakuroError above
    MAX_TABLE_ROWS rows."""
    combos = combinations(length, total, values)
    count = len(combos) * math.factorial(length)
    if count > MAX_TABLE_ROWS:
        raise KakuroError(
            f"a run of {length} cells summing to {total} over {values[0]}..{values[1]} has {count} "
            f"permutations, more than {MAX_TABLE_ROWS}; model it another way (automaton, decomposition)"
        )
    members = np.array([values_of(c) for c in combos], dtype=np.int32).reshape(len(combos), length)
    table = members[:, _orderings(length)].reshape(-1, length)
    table.setflags(write=False)
    return table


@cache
def _orderings(length: int) -> np.ndarray:
    """All permutations of range(length), one per row (built by inserting k at every place)."""
    perms = np.zeros((1, 0), dtype=np.int8)
    for k in range(length):
        m = len(perms)
        grown = np.empty((m * (k + 1), k + 1), dtype=np.int8)
        for place in range(k + 1):
            block = grown[place * m : (place + 1) * m]
            block[:, :place] = perms[:, :place]
            block[:, place] = k
            block[:, place + 1 :] = perms[:, place:]
        perms = grown
    return perms


def permutations(total: int, domains: Sequence[int], values: tuple[int, int] = (1, 9)) -> np.ndarray:
    """The rows of `permutation_table` whose every value lies in its cell's domain (bitmasks):
    the run's table restricted to the current domains, as an int32 array."""
    table = permutation_table(len(domains), total, values)
    keep = np.ones(len(table), dtype=bool)
    for j, domain in enumerate(domains):
        allowed = np.array([(domain >> v) & 1 for v in range(values[1] + 1)], dtype=bool)
        keep &= allowed[table[:, j]]
    return table[keep]


@cache
def subset_automaton(
    length: int, total: int, values: tuple[int, int] = (1, 9)
) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    """A deterministic automaton accepting exactly the permutations of the run's combinations.

    States are the sets of values used so far (bitmasks; the start is 0), a transition reads a
    value not yet used and stays inside some combination, the accepting states are the
    combinations. Returns `(transitions, accepting)` with transitions as (state, value, next).
    """
    accepting = combinations(length, total, values)
    transitions: set[tuple[int, int, int]] = set()
    for combo in accepting:
        layer = {0}
        for _ in range(length):
            following = set()
            for state in layer:
                for v in values_of(combo & ~state):
                    transitions.add((state, v, state | (1 << v)))
                    following.add(state | (1 << v))
            layer = following
    return tuple(sorted(transitions)), accepting


MAX_AUTOMATON_STATES = 1 << 18


@cache
def automaton_bounds(length: int, total: int, allowed: int) -> tuple[int, int]:
    """Upper bounds on the states and transitions of the run automaton (`subset_automaton`) of
    `length` cells summing to `total` over the values of the bitmask `allowed`, counted without
    building it (a dynamic programme and binomials): every state is a subset of a combination
    (at most combinations x 2^length; at most the sets of up to `length` values) and a state of k
    values has k transitions into it. Exact for a run with one combination."""
    combos = count_combinations_within(length, total, allowed)
    if not combos:
        return 1, 0
    n = allowed.bit_count()
    states = min(combos << length, sum(math.comb(n, k) for k in range(length + 1)))
    transitions = min((combos * length << length) >> 1, sum(k * math.comb(n, k) for k in range(1, length + 1)))
    return states, transitions
"""Largest automaton (bound on the states for one run) the regular and mdd models build."""


@dataclass(frozen=True)
class RunAutomaton:
    """A layered DFA over the values of one run. State `i` is the set of values used so far
    (`states[i]`, a bitmask); state 0 is the empty set, the initial state. `transitions` are
    (source, value, target) triples, sorted; `finals` are the states that are combinations."""

    length: int
    states: tuple[int, ...]
    transitions: tuple[tuple[int, int, int], ...]
    finals: tuple[int, ...]


@cache
def run_automaton(length: int, total: int, values: tuple[int, int] = (1, 9)) -> RunAutomaton:
    """`kakuro.combos.subset_automaton` with its states numbered 0.. in mask order (the empty
    set first; masks grow along every transition, so the numbering is topological). Raises
    UnsupportedOperationError when the combinations allow more than MAX_AUTOMATON_STATES
    states (bound: combinations x 2^length)."""
    bound = len(combinations(length, total, values)) << length
    if bound > MAX_AUTOMATON_STATES:
        raise UnsupportedOperationError(
            f"the automaton of a run of {length} cells summing to {total} over {values[0]}..{values[1]} "
            f"may have {bound} states, more than {MAX_AUTOMATON_STATES}; use model=decomposition"
        )
    arcs, accepting = subset_automaton(length, total, values)
    states = tuple(sorted({0} | {target for _, _, target in arcs}))
    index = {m: i for i, m in enumerate(states)}
    transitions = tuple((index[s], v, index[t]) for s, v, t in arcs)
    return RunAutomaton(length, states, transitions, tuple(index[c] for c in accepting))
