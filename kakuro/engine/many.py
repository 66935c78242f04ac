"""Many puzzles of one shape through the family search, each answer checked: the engine's side
of a `solve_many` for the Sudoku family.

A `Shape` is built once from any puzzle of the shape (`shape_of`: the family search's state,
`kakuro.engine.family_state`, and the rules of the compiled check, `kakuro.engine.verify`);
`solve_same_shape(shape, puzzles)` then makes the puzzles' givens rows, solves them in one
compiled call (`kakuro.engine.family.solve_givens`) and checks every answer kept against the
rules read from the puzzle's groups. Per puzzle the Python side only compares its shape key
and reads its givens.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from kakuro.clock import Deadline
from kakuro.engine.family import COUNT, Batch, solve_givens
from kakuro.engine.family_state import FamilyState, family_state, shape_key
from kakuro.engine.verify import Rules, check_rows, rules_of
from kakuro.puzzle import Puzzle

UNCHECKED = -1
"""`Answers.broken` where no answer was kept (the puzzle has fewer solutions than that)."""


class Shape(NamedTuple):
    """A shape's `key` (`family_state.shape_key`), its search `state` and its `rules`."""

    key: tuple[object, ...]
    state: FamilyState
    rules: Rules


class Answers(NamedTuple):
    """What `solve_same_shape` found: the family search's `batch` (answers, outcomes, how many
    puzzles it reached) and `broken` (P, keep) int64, the rules each kept answer breaks: 0 for a
    checked solution, UNCHECKED where the puzzle has no k-th answer."""

    batch: Batch
    broken: np.ndarray


def shape_of(puzzle: Puzzle, locked: bool = True) -> Shape:
    """The shape of `puzzle` (its givens aside). Raises `family_state.NotFamilyError` for a puzzle
    the family search does not take."""
    return Shape(shape_key(puzzle), family_state(puzzle, locked), rules_of(puzzle))


def givens_rows(puzzles: Sequence[Puzzle], cells: int) -> np.ndarray:
    """The givens of `puzzles` (each of `cells` cells) as rows (P, cells) int8, 0 = empty."""
    givens = [p.givens for p in puzzles]
    counts = np.fromiter(map(len, givens), dtype=np.int64, count=len(givens))
    total = int(counts.sum())
    where = np.fromiter(itertools.chain.from_iterable(givens), dtype=np.int64, count=total)
    values = np.fromiter(itertools.chain.from_iterable(g.values() for g in givens), dtype=np.int64, count=total)
    rows = np.zeros((len(givens), cells), dtype=np.int8)
    rows[np.repeat(np.arange(len(givens)), counts), where] = values
    return rows


def solve_same_shape(shape: Shape, puzzles: Sequence[Puzzle], limit: int = 1, keep: int = 1,
                     deadline: Deadline = Deadline(), budget: float | None = None) -> Answers:
    """Solve `puzzles` (all of `shape`'s shape: ValueError naming the first that is not) with
    the family search (`solve_givens`: up to `limit` solutions each, the first `keep` kept, the
    run's `deadline`, each puzzle's `budget` in seconds) and check every answer kept."""
    for i, puzzle in enumerate(puzzles):
        if shape_key(puzzle) != shape.key:
            raise ValueError(f"puzzle {i} ({puzzle!r}) is not of the shape's shape")
    return solve_rows_checked(shape, givens_rows(puzzles, shape.state.cells), limit, keep, deadline, budget)


def solve_rows_checked(shape: Shape, givens: np.ndarray, limit: int = 1, keep: int = 1,
                       deadline: Deadline = Deadline(), budget: float | None = None) -> Answers:
    """`solve_same_shape` for puzzles given as their givens' rows (`givens_rows`) whose shape
    the caller has compared with `shape.key`: the answers are checked against `shape.rules`."""
    batch = solve_givens(shape.state, givens, limit, keep, deadline, budget)
    broken = np.full((len(givens), keep), UNCHECKED, dtype=np.int64)
    for k in range(keep):
        found = np.flatnonzero(batch.outcomes[:, COUNT] > k)
        if len(found) == len(givens):
            broken[:, k] = check_rows(shape.rules, givens, batch.answers[:, k])
        elif len(found):
            broken[found, k] = check_rows(shape.rules, givens[found], batch.answers[found, k])
    return Answers(batch, broken)
