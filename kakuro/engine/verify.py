"""The answer check at machine speed: the rules of `Puzzle.check`, compiled, over many answers of
one shape at once.

`Puzzle.check` is the one oracle and stays so; it costs tens of microseconds a 9x9 answer,
more than the family search takes to find it. `check_rows` checks the same rules on answers
held as rows of values: every value within the range, every given kept, and in every group
(Kakuro's runs, a Sudoku's houses, a Killer's cages: `puzzle.groups`) no value twice and the
values adding up to the group's total. The rules are read from the puzzle's groups
(`rules_of`), never from a search's state, so a search cannot vouch for itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from kakuro.engine.build import offsets_first
from kakuro.engine.compile import compiled, entry_point
from kakuro.groups import Group
from kakuro.puzzle import Puzzle


class Rules(NamedTuple):
    """A shape's rules: `values` (lo, hi); `groups` (offsets first: group g's cells are
    `groups[groups[g]:groups[g + 1]]`); `totals`, each group's sum. int64 arrays."""

    values: np.ndarray
    groups: np.ndarray
    totals: np.ndarray


def rules_of(puzzle: Puzzle, groups: Sequence[Group] | None = None) -> Rules:
    """The rules of `puzzle`'s shape: its value range and `groups` (default all of its groups;
    its givens are each answer's own: `check_rows`)."""
    groups = puzzle.groups if groups is None else groups
    lengths = np.array([len(g) for g in groups], dtype=np.int64)
    cells = np.fromiter(itertools.chain.from_iterable(g.cells for g in groups), dtype=np.int64,
                        count=int(lengths.sum()))
    return Rules(np.array(puzzle.values, dtype=np.int64), offsets_first(lengths, cells),
                 np.array([g.total for g in groups], dtype=np.int64))


@compiled
def _broken_group(answer: np.ndarray, cells: np.ndarray, start: int, end: int, total: int) -> int:
    """How many rules the group of cells `cells[start:end]` with sum `total` breaks in `answer`:
    a value twice, a wrong sum (one each)."""
    seen = np.int64(0)
    added = np.int64(0)
    repeated = False
    for t in range(start, end):
        v = np.int64(answer[cells[t]])
        if 0 <= v <= 62:
            bit = np.int64(1) << v
            repeated |= (seen & bit) != 0
            seen |= bit
        added += v
    return repeated + (added != total)


@entry_point
def broken_rules(rules: Rules, givens: np.ndarray, answers: np.ndarray, broken: np.ndarray) -> None:
    """For each row i: `broken[i]` = how many rules answer row `answers[i]` (values, one per
    cell) breaks against its givens `givens[i]` (0 = none): values out of range, givens not
    kept, groups with a value twice, groups whose values do not add up to their total
    (each counted once): 0 exactly when `Puzzle.check` finds nothing wrong (for values within
    0..62, as many as it lists)."""
    lo, hi = rules.values[0], rules.values[1]
    groups = rules.groups
    for i in range(answers.shape[0]):
        answer = answers[i]
        bad = 0
        for c in range(answer.shape[0]):
            v = np.int64(answer[c])
            bad += (v < lo or v > hi) + (givens[i, c] != 0 and givens[i, c] != v)
        for g in range(groups[0] - 1):
            bad += _broken_group(answer, groups, groups[g], groups[g + 1], rules.totals[g])
        broken[i] = bad


@entry_point
def broken_groups(cells: np.ndarray, start: np.ndarray, totals: np.ndarray, first: np.ndarray, answers: np.ndarray,
                  broken: np.ndarray) -> None:
    """Add to `broken[i]` how many of row i's own groups (a Killer's cages) answer row
    `answers[i]` breaks: group k has the cells `cells[start[k]:start[k + 1]]` and the total
    `totals[k]`, row i's groups are `first[i]` .. `first[i + 1]` (`_broken_group`)."""
    for i in range(answers.shape[0]):
        for g in range(first[i], first[i + 1]):
            broken[i] += _broken_group(answers[i], cells, start[g], start[g + 1], totals[g])


class OwnGroups(NamedTuple):
    """Each row's own groups for `check_rows` (offsets first: see `broken_groups`)."""

    cells: np.ndarray
    start: np.ndarray
    totals: np.ndarray
    first: np.ndarray


def check_rows(rules: Rules, givens: np.ndarray, answers: np.ndarray, own: OwnGroups | None = None) -> np.ndarray:
    """How many rules each answer breaks (`broken_rules`, and `broken_groups` for each row's
    `own` groups): givens (P, N) and answers (P, N), any integer type; int64 (P,), 0 for a valid
    solution of that row's puzzle."""
    if np.shape(givens) != np.shape(answers) or np.ndim(answers) != 2:
        raise ValueError(f"givens and answers must both be (puzzles, cells), not {np.shape(givens)} and {np.shape(answers)}")
    broken = np.zeros(len(answers), dtype=np.int64)
    broken_rules(rules, np.asarray(givens), np.asarray(answers), broken)
    if own is not None:
        if len(own.first) != len(answers) + 1:
            raise ValueError(f"own groups for {len(own.first) - 1} rows, answers for {len(answers)}")
        broken_groups(own.cells, own.start, own.totals, own.first, np.asarray(answers), broken)
    return broken


def warm_up() -> None:
    """Compile the check for the family search's rows (int8 givens and answers, a cage)."""
    puzzle = Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
    rows = np.zeros((1, puzzle.size), dtype=np.int8)
    one = np.ones(1, dtype=np.int64)
    check_rows(rules_of(puzzle), rows, rows, OwnGroups(np.array([0, 1]), np.array([0, 2]), 3 * one, np.array([0, 1])))
