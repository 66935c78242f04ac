"""Self-Adaptive Harmony Search kernels (Panov & Koceski 2014): fitness, decoding, the
harmony memory's initialisation and improvisation (the backend is `kakuro.solvers.sahs`).

A harmony is a vector of candidate indices, one per decision variable (`var_cell[i]` is its
cell, its candidates are `cand_vals[cand_off[i]:cand_off[i + 1]]`). These kernels draw from
numba's `np.random` generator (seeded by `seed_generator`), so they need numba's runtime.
"""

from __future__ import annotations

import numpy as np

from kakuro.engine.compile import cached_function


@cached_function
def seed_generator(seed: int) -> None:
    np.random.seed(seed)


@cached_function
def fitness_of(values, run_off, run_cells, run_total, strict):
    """Sum over runs of |clue - sum| (+ one per repeated digit when `strict`)."""
    total = 0
    for r in range(run_total.shape[0]):
        s = 0
        seen = np.int64(0)
        repeats = 0
        for k in range(run_off[r], run_off[r + 1]):
            v = values[run_cells[k]]
            s += v
            bit = np.int64(1) << v
            if seen & bit:
                repeats += 1
            seen |= bit
        total += abs(run_total[r] - s)
        if strict:
            total += repeats
    return total


@cached_function
def decode(vector, var_cell, cand_off, cand_vals, values):
    for i in range(vector.shape[0]):
        values[var_cell[i]] = cand_vals[cand_off[i] + vector[i]]


@cached_function
def initialise(memory, fitness, var_cell, cand_off, cand_vals, values, run_off, run_cells, run_total, strict):
    """Fill the harmony memory with random vectors and their fitness."""
    for h in range(memory.shape[0]):
        for i in range(memory.shape[1]):
            memory[h, i] = np.random.randint(cand_off[i + 1] - cand_off[i])
        decode(memory[h], var_cell, cand_off, cand_vals, values)
        fitness[h] = fitness_of(values, run_off, run_cells, run_total, strict)


@cached_function
def improvise(
    memory, fitness, var_cell, cand_off, cand_vals, values, run_off, run_cells, run_total,
    strict, start, count, iterations, decreasing_bw, hmcr, par_min, par_max, bw_min, bw_max,
):
    """Run improvisations `start .. start + count - 1` of the current restart.

    Returns (memory row of a zero-fitness harmony or -1, improvisations done).
    """
    hms, n = memory.shape
    new = np.empty(n, dtype=memory.dtype)
    for gn in range(start, start + count):
        progress = gn / iterations
        par = par_min + (par_max - par_min) * progress
        if decreasing_bw:
            bw = bw_max * (bw_min / bw_max) ** progress
        else:
            bw = bw_min + (bw_max - bw_min) * progress
        for i in range(n):
            k = cand_off[i + 1] - cand_off[i]
            if np.random.random() < hmcr:
                x = memory[np.random.randint(hms), i]
                if np.random.random() < par:
                    step = 1 + int(np.random.random() * bw * (k - 1))
                    x = x - step if np.random.random() < 0.5 else x + step
                    x = min(max(x, 0), k - 1)
            else:
                x = np.random.randint(k)
            new[i] = x
        decode(new, var_cell, cand_off, cand_vals, values)
        score = fitness_of(values, run_off, run_cells, run_total, strict)
        worst = np.argmax(fitness)
        if score < fitness[worst]:
            memory[worst, :] = new
            fitness[worst] = score
            if score == 0:
                return worst, gn + 1 - start
    return -1, count


def warm_up() -> None:
    """Compile every kernel on a two-cell problem."""
    values = np.zeros(2, dtype=np.int64)
    var_cell = np.arange(2, dtype=np.int64)
    cand_off = np.array([0, 2, 4], dtype=np.int64)
    cand_vals = np.array([1, 2, 1, 2], dtype=np.int64)
    run_off = np.array([0, 2], dtype=np.int64)
    run_cells = np.arange(2, dtype=np.int64)
    run_total = np.array([3], dtype=np.int64)
    memory = np.zeros((2, 2), dtype=np.int32)
    fitness = np.zeros(2, dtype=np.int64)
    seed_generator(0)
    for strict in (True, False):
        initialise(memory, fitness, var_cell, cand_off, cand_vals, values, run_off, run_cells, run_total, strict)
        for decreasing in (True, False):
            improvise(memory, fitness, var_cell, cand_off, cand_vals, values, run_off, run_cells, run_total,
                      strict, 0, 2, 2, decreasing, 0.9, 0.05, 0.5, 0.01, 0.3)
