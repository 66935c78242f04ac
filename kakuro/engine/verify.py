"""The answer check at machine speed: the rules of `Puzzle.check`, compiled, over many answers of
one shape at once.

`Puzzle.check` is the one oracle and stays so; it costs tens of microseconds a 9x9 answer,
more than the family search takes to find it. `check_rows` checks the same rules on answers
held as rows of values: every value within the range, every given kept, and in every group
(Kakuro's runs, a Sudoku's houses, a Killer's cages: `puzzle.runs`) no value twice and the
values adding up to the group's total. The rules are read from the puzzle's groups
(`rules_of`), never from a search's state, so a search cannot vouch for itself.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from kakuro.engine.build import offsets_first
from kakuro.engine.compile import entry_point
from kakuro.puzzle import Puzzle


class Rules(NamedTuple):
    """A shape's rules: `values` (lo, hi); `groups` (offsets first: group g's cells are
    `groups[groups[g]:groups[g + 1]]`); `totals`, each group's sum. int64 arrays."""

    values: np.ndarray
    groups: np.ndarray
    totals: np.ndarray


def rules_of(puzzle: Puzzle) -> Rules:
    """The rules of `puzzle`'s shape (its givens are each answer's own: `check_rows`)."""
    lengths = np.array([len(g) for g in puzzle.runs], dtype=np.int64)
    cells = np.fromiter(itertools.chain.from_iterable(g.cells for g in puzzle.runs), dtype=np.int64,
                        count=int(lengths.sum()))
    return Rules(np.array(puzzle.values, dtype=np.int64), offsets_first(lengths, cells),
                 np.array([g.total for g in puzzle.runs], dtype=np.int64))


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
            seen = np.int64(0)
            total = np.int64(0)
            repeated = False
            for t in range(groups[g], groups[g + 1]):
                v = np.int64(answer[groups[t]])
                if 0 <= v <= 62:
                    bit = np.int64(1) << v
                    repeated |= (seen & bit) != 0
                    seen |= bit
                total += v
            bad += repeated + (total != rules.totals[g])
        broken[i] = bad


def check_rows(rules: Rules, givens: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """How many rules each answer breaks (`broken_rules`): givens (P, N) and answers (P, N),
    any integer type; int64 (P,), 0 for a valid solution of that row's puzzle."""
    if np.shape(givens) != np.shape(answers) or np.ndim(answers) != 2:
        raise ValueError(f"givens and answers must both be (puzzles, cells), not {np.shape(givens)} and {np.shape(answers)}")
    broken = np.zeros(len(answers), dtype=np.int64)
    broken_rules(rules, np.asarray(givens), np.asarray(answers), broken)
    return broken


def warm_up() -> None:
    """Compile the check for the family search's rows (int8 givens and answers)."""
    puzzle = Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
    rows = np.zeros((1, puzzle.size), dtype=np.int8)
    check_rows(rules_of(puzzle), rows, rows)
