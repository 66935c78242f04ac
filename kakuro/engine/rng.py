"""The state's own random numbers: a xorshift64* generator in `info[RNG]` (seeded by `arm`),
so a solve is reproducible and independent of any other generator."""

from __future__ import annotations

import numpy as np

from kakuro.engine.bits import lowest_bit_index, popcount
from kakuro.engine.compile import compiled
from kakuro.engine.layout import RNG, State


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
