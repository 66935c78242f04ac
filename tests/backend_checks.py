"""Shared checks of the paradigm backends' tests (asp, smt): generated puzzles with known
counts, a janko sample, a puzzle too wide to tabulate, and Ctrl-C sent to a child mid-search."""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time

import pytest

import kakuro
from kakuro import Puzzle
from kakuro.generate import cazenave, classic
from tests.conftest import ROOT, shared_data_or_skip
from tests.random_puzzles import random_puzzles


def generated_puzzles() -> list[Puzzle]:
    """Small generated puzzles: random all-white ones (with givens, often unsatisfiable),
    Cazenave grids (many solutions), unsatisfiable Cazenave grids whose sums add up, and a
    loose classic grid."""
    return (random_puzzles(7, 10)
            + cazenave(4, 6, 100, count=1, seed=9)
            + cazenave(5, 6, 70, count=1, seed=9)
            + cazenave(4, 5, 100, count=2, seed=3, unsatisfiable=True)
            + classic(8, 8, density=0.25, count=1, seed=5, unique=False)
            + classic(7, 7, density=0.3, count=1, seed=2))


@functools.cache
def janko_sample() -> tuple[Puzzle, ...]:
    """Every 150th puzzle of the shared janko set and janko-257 (two solutions); skips, saying
    why, when the shared data is absent."""
    janko = kakuro.read(shared_data_or_skip() / "janko.jsonl")
    return tuple(janko[::150] + [janko[256]])


def wide_range_puzzle() -> Puzzle:
    """A 2x12 all-white grid over 1..40 from a Latin rectangle, two givens: its rows have
    5,596,530 and 3,056,101 combinations, too many to tabulate; at least two solutions."""
    rng = random.Random(4)
    symbols = rng.sample(range(1, 41), 12)
    grid = [[symbols[(r + c) % 12] for c in range(12)] for r in range(2)]
    return Puzzle.all_white([sum(row) for row in grid], [grid[0][j] + grid[1][j] for j in range(12)],
                            values=(1, 40), givens={(0, 0): grid[0][0], (1, 3): grid[1][3]}, id="wide-2x12-v40")


SEARCH_SECONDS = 0.7
"""How long the child searches before it is interrupted (its search would take far longer)."""


def interrupted_after(spec: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Solve `hard_for_gac(12)` with `spec` and no limit in a child process (default SIGINT
    handler), send SIGINT after SEARCH_SECONDS; (seconds from the signal to its exit, its
    output: "interrupted" when the library raised KeyboardInterrupt)."""
    script = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import kakuro\n"
        "from tests.conftest import hard_for_gac\n"
        "puzzle = hard_for_gac(12)\n"
        f"solver = kakuro.get_solver({spec!r})\n"
        "solver.ensure_warm()\n"
        "print('go', flush=True)\n"
        "try:\n"
        "    solver.solve(puzzle)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None and child.stdout.readline().strip() == "go", child.communicate()[1][-1500:]
    time.sleep(SEARCH_SECONDS)
    if child.poll() is not None:
        pytest.fail(f"{spec}: the search ended before the interrupt")
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    return time.perf_counter() - sent, subprocess.CompletedProcess(child.args, child.returncode, out, err)
