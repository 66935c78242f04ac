"""Shared fixtures: golden puzzles and the shared data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import kakuro
from kakuro import Puzzle

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
EXAMPLES = ROOT / "instances" / "examples"

CAZENAVE_TABLE2 = [
    [1, 7, 5, 3, 2],
    [4, 5, 3, 8, 6],
    [5, 6, 7, 2, 8],
    [8, 4, 1, 6, 7],
    [6, 3, 4, 7, 1],
]
"""The solution Cazenave (2010) prints in Table 2 for the grid of Table 1."""

TWO_SOLUTIONS = """
#   3\\  3\\
\\3  _   _
\\3  _   _
"""
UNSATISFIABLE = """
#   4\\  4\\
\\3  _   _
\\3  _   _
"""


PUZZLINK_URL = "https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"

AVAILABLE = [info.name for info in kakuro.backend_info() if info.available]
"""The registered backends whose engine can run here."""


def shared_data_or_skip() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared puzzle data is absent: {SHARED_DATA} does not exist")
    return SHARED_DATA


@pytest.fixture(scope="session")
def cazenave() -> Puzzle:
    return kakuro.read(EXAMPLES / "cazenave-2010-table1.txt")[0]


@pytest.fixture(scope="session")
def two_solutions() -> Puzzle:
    return kakuro.read(TWO_SOLUTIONS)[0]


@pytest.fixture(scope="session")
def unsatisfiable() -> Puzzle:
    return kakuro.read(UNSATISFIABLE)[0]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; skips the test (saying why) when it is absent."""
    return shared_data_or_skip()


@pytest.fixture(scope="session")
def puzzlink_url() -> str:
    return PUZZLINK_URL


@pytest.fixture(scope="session")
def puzzlink() -> Puzzle:
    """The puzz.link test vector of issue 2 (6x5 inside its clue frame): exactly one solution."""
    return kakuro.read(PUZZLINK_URL)[0]


@pytest.fixture(scope="session")
def janko() -> list[Puzzle]:
    return kakuro.read(shared_data_or_skip() / "janko.jsonl")


def hard_for_gac(size: int = 12) -> Puzzle:
    """An empty all-white grid over 1..size+1 whose sums are moved so that no filling exists
    while the row sums still add up to the column sums (`cazenave(..., unsatisfiable=True)`):
    neither run-level reasoning nor the totals check sees it, so the native search works for
    minutes; SAT refutes the 12x12 in about 0.3 s, not the 16x16 in 10 s."""
    from kakuro.generate import cazenave as generate

    return generate(size, size + 1, 100, count=1, seed=1, unsatisfiable=True)[0]


@pytest.fixture(scope="session")
def hard() -> Puzzle:
    """An empty 9x9 all-white grid, values 1..10, with unsatisfiable sums: every row sums to
    45 but the column sums are shifted (still 9 distinct values each), so the totals disagree
    (405 vs 406) and a search must work to find out."""
    rows = [45] * 9
    cols = [45] * 8 + [46]
    return Puzzle.all_white(rows, cols, values=(1, 10), id="hard-unsat")
