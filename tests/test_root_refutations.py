"""The root's whole-grid counts (`totals_refutation`, `values_refutation`) are numpy-vectorised:
they must say what their definition says, word for word, on every published janko puzzle and
every puzzle of instances/hard, at the GAC root and on random narrower domains (where the
bounds are tight and the messages not empty)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import kakuro
from kakuro.combos import fixed_values, highest_values, range_mask, values_of
from kakuro.engine.build import build_state
from kakuro.engine.propagate import root_propagate
from kakuro.engine.state import State
from kakuro.puzzle import Puzzle, Run
from kakuro.reasoning.root import run_values, totals_refutation, values_refutation
from tests.conftest import SWEEP_EVERY

HARD = Path(__file__).resolve().parent.parent / "instances" / "hard"


def defined_totals(puzzle: Puzzle, domains: np.ndarray) -> str:
    """`totals_refutation` as its docstring defines it, run by run and cell by cell."""
    sign = [0] * puzzle.size
    totals = {"across": 0, "down": 0}
    for run in (g for g in puzzle.groups if isinstance(g, Run)):
        for cell in run.cells:
            sign[cell] += 1 if run.direction == "across" else -1
        totals[run.direction] += run.total
    lowest = [(int(d) & -int(d)).bit_length() - 1 if d else 64 for d in domains]
    highest = fixed_values(domains)
    low = sum(lowest[c] for c in range(puzzle.size) if sign[c] > 0) - sum(highest[c] for c in range(puzzle.size) if sign[c] < 0)
    high = sum(highest[c] for c in range(puzzle.size) if sign[c] > 0) - sum(lowest[c] for c in range(puzzle.size) if sign[c] < 0)
    if low <= totals["across"] - totals["down"] <= high:
        return ""
    return (f"the across clues add up to {totals['across']} and the down clues to {totals['down']}, but both add up "
            f"the same digits" + ("" if low == high == 0 else f" except for a difference between {low} and {high}"))


def defined_values(puzzle: Puzzle, st: State) -> str:
    """`values_refutation` as its docstring defines it, value by value."""
    sets = run_values(puzzle, st)
    if sets is None:
        return ""
    full = range_mask(puzzle.values)
    counts = []  # per value: across runs surely holding it, maybe holding it; down runs the same
    for way in ("across", "down"):
        runs = [r for r, run in enumerate(puzzle.groups) if isinstance(run, Run) and run.direction == way]
        for bits in sets:
            counts.append(Counter(v for r in runs for v in values_of(int(bits[r]) & full)))
    a_low, a_high, d_low, d_high = counts
    for v in range(puzzle.values[0], puzzle.values[1] + 1):
        if a_high[v] < d_low[v] or d_high[v] < a_low[v]:
            def between(low: int, high: int) -> str:
                return str(low) if low == high else f"{low} to {high}"
            return (f"the value {v} is in {between(a_low[v], a_high[v])} across runs but in "
                    f"{between(d_low[v], d_high[v])} down runs, though every cell is in one of each")
    return ""


def narrowed(domains: np.ndarray, rng: np.random.Generator, single: bool) -> np.ndarray:
    """Each of `domains` cut to a random nonempty part of it, to one value with `single` (its
    lowest value where the random mask leaves nothing)."""
    mask = 1 << rng.integers(0, 63, size=domains.size, dtype=np.int64) if single else \
        rng.integers(0, 1 << 62, size=domains.size, dtype=np.int64)
    cut = domains & mask
    return np.where(cut != 0, cut, domains & -domains)


def check_same(puzzles: list[Puzzle], seed: int, every: int = 1) -> int:
    """Compare both counts with their definitions on each puzzle's GAC root and, on every
    `every`-th puzzle, on random parts of its full domains (values kept at random, one value
    kept, by turns); returns how many of the comparisons had something to refute."""
    rng = np.random.default_rng(seed)
    refuted = 0
    for i, puzzle in enumerate(puzzles):
        st = build_state(puzzle, "gac")
        full = st.dom.copy()
        root_propagate(st)
        tried = [st.dom.copy()] + ([narrowed(full, rng, i // every % 2 == 1)] if i % every == 0 else [])
        for domains in tried:
            st.dom[:] = domains
            said = (totals_refutation(puzzle, st.dom, st.cell_runs), totals_refutation(puzzle, st.dom),
                    values_refutation(puzzle, st))
            defined = (defined_totals(puzzle, st.dom),) * 2 + (defined_values(puzzle, st),)
            assert said == defined, puzzle.id
            refuted += any(said)
    return refuted


def test_highest_values_is_fixed_values_vectorised() -> None:
    rng = np.random.default_rng(7)
    domains = np.concatenate([rng.integers(0, 1 << 62, size=500, dtype=np.int64), [0, 1, 1 << 62, (1 << 63) - 1]])
    assert highest_values(domains).tolist() == fixed_values(domains)


@pytest.mark.slow
def test_the_counts_say_what_they_define_on_janko(janko: list[Puzzle]) -> None:
    """Every puzzle at its root; the narrowed domains on every SWEEP_EVERY-th (the suite's time)."""
    assert check_same(janko, seed=1, every=SWEEP_EVERY) > len(janko) // SWEEP_EVERY // 3


def test_the_counts_say_what_they_define_on_the_hard_set() -> None:
    puzzles = [p for path in sorted(HARD.glob("*.jsonl")) for p in kakuro.read(path)]
    assert check_same(puzzles, seed=2) >= len([p for p in puzzles if p.meta.get("unsatisfiable")])
