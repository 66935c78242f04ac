"""Explaining and grading puzzles as a person solves them: a step-by-step deduction with named
techniques (`explain`, also `kakuro.explain`), the next step from a partly filled grid or its
first mistake (`hint`), and a difficulty rating (`Rating`, on the scale of
`kakuro.deduction.techniques`).

This package imports only its data types; the deduction (and numpy with it) is loaded by the
first call, so `import kakuro` stays light. (The package is not named `kakuro.explain`: that
name is the function, which would hide a package of the same name from `import kakuro.explain.x`.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kakuro.clock import Deadline
from kakuro.deduction.techniques import LEVEL_NAMES, TECHNIQUES, Technique
from kakuro.deduction.trace import (
    SEVERAL,
    SOLVED,
    STATUSES,
    STOPPED,
    UNSATISFIABLE,
    Explanation,
    Placement,
    Rating,
    Removal,
    Step,
)
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution
from kakuro.values import is_number

if TYPE_CHECKING:
    from kakuro.deduction.hints import Hint


def explain(puzzle: Puzzle, *, time_limit: float | None = None) -> Explanation:
    """The step-by-step deduction of `puzzle` (a Kakuro, Sudoku or Killer Sudoku) with named
    human techniques, simplest first,
    within `time_limit` seconds (None: no limit; the deduction stops within a fraction of a
    second of it, with status STOPPED and the steps found so far).

    Returns a frozen `Explanation`: `steps` (each a `Step`: technique, the cells and groups it
    looked at (its groups: a Kakuro's runs, a Sudoku's rows, columns, boxes and cages), the
    candidates it removes and the digits that places, one plain sentence),
    `status` (SOLVED: deduction alone fixed every cell, so the solution is unique; SEVERAL: a
    `search` step had to choose between solutions; UNSATISFIABLE; STOPPED), `solution` and `rating`
    (the hardest level needed and how often). `to_dict()` gives its JSON form. Every removal is
    sound: no solution has the removed value (a `search` step's choice aside). Raises
    KakuroError for puzzles whose groups have too many combinations to reason about by hand.
    """
    from kakuro.deduction.deduce import explanation_of

    return explanation_of(puzzle, deadline_after(time_limit))


def hint(puzzle: Puzzle, progress: Sequence[Sequence[Any]] | Solution | None = None, *,
         source: str | None = None, time_limit: float | None = None) -> Hint:
    """The first mistake in `progress` (a grid in the JSON-lines layout, None or 0 for an empty
    cell), or the next digit the deduction places from it with the steps it builds on; `source`
    names the grid's file in errors; within `time_limit` seconds (None: no limit; a STOPPED
    hint when it runs out). See `kakuro.deduction.hints.hint`."""
    from kakuro.deduction.hints import hint as hint_of

    return hint_of(puzzle, progress, source=source, deadline=deadline_after(time_limit))


def deadline_after(time_limit: float | None) -> Deadline:
    """The deadline `time_limit` seconds from now (None: none); KakuroError unless it is a
    positive number or None."""
    if time_limit is not None and (not is_number(time_limit) or math.isnan(time_limit) or not time_limit > 0):
        raise KakuroError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
    return Deadline.after(time_limit)


__all__ = [
    "LEVEL_NAMES",
    "SEVERAL",
    "SOLVED",
    "STATUSES",
    "STOPPED",
    "TECHNIQUES",
    "UNSATISFIABLE",
    "Explanation",
    "Placement",
    "Rating",
    "Removal",
    "Step",
    "Technique",
    "explain",
    "hint",
]
