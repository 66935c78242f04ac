"""Shared checks of the paradigm backends' tests (mip, asp, smt, dimacs, minizinc): generated puzzles with known
counts, a janko sample, a puzzle too wide to tabulate, and Ctrl-C sent to a child mid-search."""

from __future__ import annotations

import functools
import random
import signal
import subprocess
import sys

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.generate import cazenave, classic
from tests.conftest import EXAMPLES, hard_for_gac, shared_set
from tests.random_puzzles import random_puzzles
from tests.timing import timed


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
    janko = shared_set("janko")
    return tuple(janko[::150] + [janko[256]])


def wide_range_puzzle() -> Puzzle:
    """A 2x12 all-white grid over 1..40 from a Latin rectangle, two givens: its rows have
    5,596,530 and 3,056,101 combinations, too many to tabulate; at least two solutions."""
    rng = random.Random(4)
    symbols = rng.sample(range(1, 41), 12)
    grid = [[symbols[(r + c) % 12] for c in range(12)] for r in range(2)]
    return Puzzle.all_white([sum(row) for row in grid], [grid[0][j] + grid[1][j] for j in range(12)],
                            values=(1, 40), givens={(0, 0): grid[0][0], (1, 3): grid[1][3]}, id="wide-2x12-v40")


def solves_the_examples(spec: str, stats: set[str]) -> None:
    """`spec` solves every example puzzle and reports `stats`."""
    for path in sorted(EXAMPLES.glob("*.txt")):
        puzzle = kakuro.read(path)[0]
        result = kakuro.solve(puzzle, spec, time_limit=30)
        assert result.solved, (path.name, result.message)
        assert stats <= set(result.stats), (spec, sorted(result.stats))


def kinds_of_puzzles() -> list[Puzzle]:
    """Small generated puzzles of every kind: unique, several solutions, none."""
    return (cazenave(4, 6, 100, count=2, seed=9) + cazenave(5, 6, 70, count=2, seed=9)
            + cazenave(4, 5, 100, count=2, seed=3, unsatisfiable=True)
            + classic(8, 8, count=2, seed=3, unique=False) + classic(8, 8, count=1, seed=3))


def each_kind() -> list[Puzzle]:
    """A fixed sample of `kinds_of_puzzles`, each kind of answer in it: a Cazenave grid with several
    solutions, an unsatisfiable one, a classic grid with several and the unique one (for backends
    that start a program per call, where the whole set took seconds)."""
    kinds = kinds_of_puzzles()
    return [kinds[0], kinds[4], kinds[6], kinds[8]]


PUZZLE_SETS = {"generated": generated_puzzles, "kinds": kinds_of_puzzles, "each kind": each_kind}
"""The generated sets a backend's counts are checked on (`counts_agree_with_gac`)."""


@functools.cache
def _with_gac_counts(name: str) -> tuple[tuple[Puzzle, kakuro.Count], ...]:
    """The puzzles of `PUZZLE_SETS[name]`, each with `gac`'s count to 2: counted once per process."""
    return tuple((puzzle, kakuro.count_solutions(puzzle, "gac", limit=2, time_limit=30)) for puzzle in PUZZLE_SETS[name]())


def counts_agree_with_gac(spec: str, puzzles: str = "generated") -> list[kakuro.Count]:
    """`spec`'s counts (to 2) on the set `puzzles` of `PUZZLE_SETS`, each checked equal to
    `gac`'s (status, count, exhausted); returned, for the kinds of answers seen."""
    counts = []
    for puzzle, reference in _with_gac_counts(puzzles):
        mine = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert (mine.status, mine.count, mine.exhausted) == (reference.status, reference.count, reference.exhausted), puzzle.id
        counts.append(mine)
    return counts


def limit_is_honoured(spec: str, limit: float = 0.4, overrun: float = 0.8) -> None:
    """`solve` and `count_solutions` with `spec` on `hard_for_gac(12)` stop UNKNOWN at `limit`
    seconds, within `overrun` seconds past it as on an idle core (`tests.timing`)."""
    hard = hard_for_gac(12)
    for call in (kakuro.solve, kakuro.count_solutions):
        with timed() as t:
            result = call(hard, spec, time_limit=limit)
        assert result.status is Status.UNKNOWN and t.quiet(t.wall - limit) < overrun, (call.__name__, t)


def unavailable_without(monkeypatch: pytest.MonkeyPatch, module: str, backend: str) -> kakuro.BackendInfo:
    """`backend`'s listing with `module` made unimportable."""
    monkeypatch.setitem(sys.modules, module, None)
    return kakuro.backend_info(backend)[0]


def one_line(text: str) -> str:
    """`text`, checked to be one line without a traceback."""
    assert len(text.strip().splitlines()) == 1 and "Traceback" not in text, text
    return text


def janko_sample_is_solved(spec: str) -> None:
    """`spec` solves every puzzle of `janko_sample` (the library checked each answer)."""
    for puzzle in janko_sample():
        result = kakuro.solve(puzzle, spec, time_limit=30)
        assert result.status is kakuro.Status.SOLVED, (puzzle.id, result.status, result.message)


def as_from_a_terminal() -> None:
    """`preexec_fn` for a child that is sent Ctrl-C: SIGINT at its default, as in a process a
    terminal starts. A test worker may run with SIGINT ignored (inherited, or left so by
    something in-process), and a child inherits an ignored signal through exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted_after(spec: str, size: int = 12) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Solve `hard_for_gac(size)` with `spec` and no limit in a child process, Ctrl-C it mid-search
    (`tests.test_interrupts.interrupt`); (seconds from the signal to its exit, its output:
    "interrupted" when the library raised KeyboardInterrupt)."""
    from tests.test_interrupts import interrupt

    return interrupt(
        "import kakuro\n"
        "from tests.conftest import hard_for_gac\n"
        f"puzzle = hard_for_gac({size})\n"
        f"solver = kakuro.get_solver({spec!r})\n"
        "solver.ensure_warm()\n"
        "print('go', flush=True)\n"
        "try:\n"
        "    solver.solve(puzzle)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
