"""Combination tables and the exact run filter, against brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from kakuro.combos import combinations, feasible_values, mask_of, range_mask, run_tables, values_of


def brute_combinations(length: int, total: int, lo: int, hi: int) -> list[int]:
    return sorted(mask_of(c) for c in itertools.combinations(range(lo, hi + 1), length) if sum(c) == total)


@pytest.mark.parametrize("values", [(1, 9), (1, 7), (0, 9), (1, 12), (3, 14)])
def test_combinations_match_brute_force(values: tuple[int, int]) -> None:
    lo, hi = values
    for length in range(0, hi - lo + 2):
        for total in range(0, hi * length + 2):
            assert list(combinations(length, total, values)) == brute_combinations(length, total, lo, hi), (length, total)


def test_wide_ranges_stay_small_where_they_are_tight() -> None:
    assert combinations(30, 465, (1, 30)) == (range_mask((1, 30)),)
    assert len(combinations(3, 6, (1, 30))) == 1


def test_mask_helpers() -> None:
    assert values_of(mask_of([3, 1, 9])) == [1, 3, 9]
    assert range_mask((2, 4)) == mask_of([2, 3, 4])


def brute_supports(total: int, domains: list[int]) -> list[int]:
    support = [0] * len(domains)
    for assignment in itertools.product(*(values_of(d) for d in domains)):
        if len(set(assignment)) == len(assignment) and sum(assignment) == total:
            for i, v in enumerate(assignment):
                support[i] |= 1 << v
    return support


def test_feasible_values_match_brute_force_on_random_runs() -> None:
    rng = random.Random(7)
    for _ in range(1500):
        length = rng.randint(1, 5)
        values = rng.choice([(1, 9), (1, 6), (2, 11)])
        full = range_mask(values)
        domains = []
        for _ in range(length):
            d = 0
            while d == 0:
                d = full & rng.getrandbits(values[1] + 1)
            domains.append(d)
        total = rng.randint(length, values[1] * length)
        assert feasible_values(total, domains, values) == brute_supports(total, domains), (total, domains)


def test_feasible_values_needs_a_matching_not_just_a_cover() -> None:
    # Two cells can only take 1; a combination {1, 2} covers their union but has no matching.
    assert feasible_values(3, [mask_of([1]), mask_of([1])]) == [0, 0]
    assert feasible_values(3, [mask_of([1, 2]), mask_of([1])]) == [mask_of([2]), mask_of([1])]


def test_run_tables_are_flat_per_run(cazenave) -> None:
    offsets, masks = run_tables(cazenave)
    assert len(offsets) == len(cazenave.groups) + 1
    for r, run in enumerate(cazenave.groups):
        assert tuple(int(m) for m in masks[offsets[r] : offsets[r + 1]]) == combinations(len(run), run.total)
