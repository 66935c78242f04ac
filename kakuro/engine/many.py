"""Many puzzles of one shape through the family search, each answer checked: the engine's side
of a `solve_many` for the Sudoku family.

A `Shape` is built once from any puzzle of the shape (`shape_of`: the family search's state,
`kakuro.engine.family_state`, and the rules of its houses for the compiled check,
`kakuro.engine.verify`); `solve_same_shape(shape, puzzles)` then makes the puzzles' givens rows
and cages, solves them in one compiled call (`kakuro.engine.family.solve_givens`) and checks
every answer kept against the rules read from the puzzle's groups (the shape's houses, each
puzzle's cages). Per puzzle the Python side only compares its shape key and reads its givens
and cages.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from kakuro.clock import Deadline
from kakuro.engine.family import COUNT, Batch, solve_givens
from kakuro.engine.family_state import Cages, FamilyState, cages_for, family_state, house_count, shape_key
from kakuro.engine.verify import OwnGroups, Rules, check_rows, rules_of
from kakuro.puzzle import Puzzle

UNCHECKED = -1
"""`Answers.broken` where no answer was kept (the puzzle has fewer solutions than that)."""


class Shape(NamedTuple):
    """A shape's `key` (`family_state.shape_key`), its search `state` and its houses' `rules`."""

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
    return Shape(shape_key(puzzle), family_state(puzzle, locked), rules_of(puzzle, puzzle.groups[: house_count(puzzle)]))


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


def cages_of(puzzles: Sequence[Puzzle], state: FamilyState) -> Cages:
    """The cages of `puzzles` (their groups after the houses, `house_count`) for `state`."""
    own = [p.groups[house_count(p):] for p in puzzles]
    cages = list(itertools.chain.from_iterable(own))
    lengths = np.fromiter(map(len, cages), dtype=np.int64, count=len(cages))
    cells = np.fromiter(itertools.chain.from_iterable(g.cells for g in cages), dtype=np.int64, count=int(lengths.sum()))
    totals = np.fromiter((g.total for g in cages), dtype=np.int64, count=len(cages))
    return cages_for(lengths, cells, totals, np.fromiter(map(len, own), dtype=np.int64, count=len(own)), state)


def solve_same_shape(shape: Shape, puzzles: Sequence[Puzzle], limit: int = 1, keep: int = 1,
                     deadline: Deadline = Deadline(), budget: float | None = None) -> Answers:
    """Solve `puzzles` (all of `shape`'s shape: ValueError naming the first that is not) with
    the family search (`solve_givens`: up to `limit` solutions each, the first `keep` kept, the
    run's `deadline`, each puzzle's `budget` in seconds) and check every answer kept."""
    for i, puzzle in enumerate(puzzles):
        if shape_key(puzzle) != shape.key:
            raise ValueError(f"puzzle {i} ({puzzle!r}) is not of the shape's shape")
    return solve_checked(shape, puzzles, limit, keep, deadline, budget)


def solve_checked(shape: Shape, puzzles: Sequence[Puzzle], limit: int = 1, keep: int = 1,
                  deadline: Deadline = Deadline(), budget: float | None = None, cap: int | None = None) -> Answers:
    """`solve_same_shape` for puzzles whose shape key the caller has compared with `shape.key`:
    the answers are checked against `shape.rules` and each puzzle's cages."""
    givens = givens_rows(puzzles, shape.state.cells)
    cages = cages_of(puzzles, shape.state)
    batch = solve_givens(shape.state, givens, limit, keep, deadline, budget, cages, cap)
    own = OwnGroups(cages.cells, cages.start, cages.totals, cages.first)
    broken = np.empty((len(givens), keep), dtype=np.int64)
    for k in range(keep):
        broken[:, k] = check_rows(shape.rules, givens, batch.answers[:, k], own)
        broken[batch.outcomes[:, COUNT] <= k, k] = UNCHECKED
    return Answers(batch, broken)


def search(shape: Shape, puzzle: Puzzle, limit: int, deadline: Deadline, cap: int | None = None) -> Batch:
    """Up to `limit` solutions of `puzzle` (of `shape`'s shape: ValueError if not) within `cap`
    guesses, every one kept and none checked (for a caller that checks them itself)."""
    if shape_key(puzzle) != shape.key:
        raise ValueError(f"{puzzle!r} is not of the shape's shape")
    return solve_givens(shape.state, givens_rows([puzzle], shape.state.cells), limit, limit, deadline,
                        cages=cages_of([puzzle], shape.state), cap=cap)
