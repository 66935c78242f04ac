"""Self-Adaptive Harmony Search (Panov & Koceski 2014), backend `sahs`.

Pre-computation as published: the Reducing Domain Values reduction (`kakuro.reasoning.rdv`:
combination sets per run, their intersection per cell, unique numbers). Cells left with one
value are fixed; every other cell is a decision variable whose value is an index into its
candidate list.

Harmony memory of `hms` vectors; each iteration improvises one vector: per variable, with
probability HMCR (0.9) take the value of a random memory vector and pitch-adjust it with
probability PAR by a step of 1 + floor(u * BW * (k - 1)) candidate positions (k = candidates
of the cell, u uniform in [0, 1), random direction, clipped); otherwise draw a random index.
The vector replaces the worst of memory when it is fitter. PAR rises linearly from 0.05 to
0.5 over `iterations` (the paper's Eq. 2). The paper says BW is "exponentially decreased"
but prints a linear *increasing* formula from 0.01 to 0.3 (Eq. 3): `bandwidth=increasing`
(default) implements the printed formula, `bandwidth=decreasing` the exponential decrease
from 0.3 to 0.01 that the text describes. After `iterations` improvisations without a
solution the memory is re-initialised (a restart), until solved or the time limit.

Fitness: `fitness=paper` is Eq. 5, the sum over runs of |clue - sum|, which ignores repeated
digits, so a zero may be an invalid grid (it is returned, and the checker turns it into an
ERROR result). The default `fitness=strict` adds one per repeated digit in a run, so zero
means a valid grid.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from kakuro.combos import values_of
from kakuro.limits import Limits
from kakuro.native import harmony as kernels
from kakuro.native.settings import HARMONY_KERNELS
from kakuro.native_solver import NativeSolver
from kakuro.options import Option
from kakuro.outcome import Outcome, Status
from kakuro.puzzle import Puzzle
from kakuro.reasoning.rdv import STOPPED, reduce_domains
from kakuro.registry import register

HMCR = 0.9
PAR_RANGE = (0.05, 0.5)
BW_RANGE = (0.01, 0.3)
CHUNK_SECONDS = 0.01
"""Target duration of one compiled chunk between two looks at the clock."""


@register("sahs")
class HarmonySearch(NativeSolver):
    """Self-Adaptive Harmony Search on the RDV-reduced domains (incomplete)."""

    description = "Self-Adaptive Harmony Search after RDV pre-filtering (Panov & Koceski 2014)"
    paradigm = "metaheuristic"
    complete = False
    options = {
        "hms": Option(10, "harmony memory size", minimum=2, maximum=10_000),
        "iterations": Option(10_000, "improvisations per restart (NI of the PAR/BW schedules)", minimum=1),
        "fitness": Option("strict", "strict: sums and repeated digits; paper: sums only (Eq. 5)", choices=("strict", "paper")),
        "bandwidth": Option("increasing", "BW schedule: the printed formula or the described decrease",
                            choices=("increasing", "decreasing")),
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return HARMONY_KERNELS

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        deadline = limits.deadline
        reduction = reduce_domains(puzzle, deadline)
        if reduction.stopped:
            return Outcome(Status.UNKNOWN, None, {"iterations": 0, "restarts": 0}, STOPPED, "time")
        stats: dict[str, Any] = {"root_solved": reduction.solved, "iterations": 0, "restarts": 0}
        if reduction.wiped_out:
            return Outcome(Status.UNSATISFIABLE, None, stats, "the pre-computation emptied a domain")
        values = np.array([values_of(d)[0] for d in reduction.domains], dtype=np.int64)
        variables = [c for c, d in enumerate(reduction.domains) if d & (d - 1)]
        if not variables:
            return Outcome(Status.SOLVED, values.tolist(), stats)
        candidates = [values_of(reduction.domains[c]) for c in variables]
        var_cell = np.array(variables, dtype=np.int64)
        cand_off = np.cumsum([0] + [len(c) for c in candidates]).astype(np.int64)
        cand_vals = np.array([v for c in candidates for v in c], dtype=np.int64)
        run_off = np.cumsum([0] + [len(r) for r in puzzle.groups]).astype(np.int64)
        run_cells = np.array([c for r in puzzle.groups for c in r.cells], dtype=np.int64)
        run_total = np.array([r.total for r in puzzle.groups], dtype=np.int64)
        strict = opts["fitness"] == "strict"
        hms, iterations = opts["hms"], opts["iterations"]
        memory = np.zeros((hms, len(variables)), dtype=np.int32)
        fitness = np.zeros(hms, dtype=np.int64)
        kernels.seed_generator(seed)
        chunk, done, best = 64, 0, None
        while True:
            kernels.initialise(memory, fitness, var_cell, cand_off, cand_vals, values, run_off, run_cells, run_total, strict)
            gn = 0
            while gn < iterations:
                if deadline.expired():
                    stats.update(iterations=done, best_fitness=_best(best, fitness))
                    return Outcome(Status.UNKNOWN, None, stats, "time limit reached", "time")
                count = min(chunk, iterations - gn)
                began = time.perf_counter()
                row, ran = kernels.improvise(
                    memory, fitness, var_cell, cand_off, cand_vals, values, run_off, run_cells, run_total,
                    strict, gn, count, iterations, opts["bandwidth"] == "decreasing", HMCR, *PAR_RANGE, *BW_RANGE,
                )
                spent = time.perf_counter() - began
                done += ran
                if row >= 0:
                    kernels.decode(memory[row], var_cell, cand_off, cand_vals, values)
                    stats.update(iterations=done, best_fitness=0)
                    return Outcome(Status.SOLVED, values.tolist(), stats)
                gn += count
                chunk = _next_chunk(chunk, spent)
            best = _best(best, fitness)
            stats["restarts"] += 1


def _best(previous: int | None, fitness: np.ndarray) -> int:
    current = int(fitness.min())
    return current if previous is None else min(previous, current)


def _next_chunk(chunk: int, spent: float) -> int:
    """Grow or shrink the chunk so one chunk takes about CHUNK_SECONDS."""
    if spent < CHUNK_SECONDS / 2:
        return min(chunk * 2, 1 << 20)
    if spent > CHUNK_SECONDS * 2:
        return max(chunk // 2, 1)
    return chunk
