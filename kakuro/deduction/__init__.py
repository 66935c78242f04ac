"""Explaining and grading puzzles as a person solves them: a step-by-step deduction with named
techniques (`explain`, also `kakuro.explain`), the next step from a partly filled grid or its
first mistake (`hint`), and a difficulty rating (`Rating`, on the scale of
`kakuro.deduction.techniques`).

This package imports only its data types; the deduction (and numpy with it) is loaded by the
first call, so `import kakuro` stays light. (The package is not named `kakuro.explain`: that
name is the function, which would hide a package of the same name from `import kakuro.explain.x`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kakuro.deduction.techniques import LEVEL_NAMES, TECHNIQUES, Technique
from kakuro.deduction.trace import (
    SEVERAL,
    SOLVED,
    STATUSES,
    UNSATISFIABLE,
    Explanation,
    Placement,
    Rating,
    Removal,
    Step,
)
from kakuro.puzzle import Puzzle, Solution

if TYPE_CHECKING:
    from kakuro.deduction.hints import Hint


def explain(puzzle: Puzzle) -> Explanation:
    """The step-by-step deduction of `puzzle` with named human techniques, simplest first.

    Returns a frozen `Explanation`: `steps` (each a `Step`: technique, the cells and runs it
    looked at, the candidates it removes and the digits that places, one plain sentence),
    `status` (SOLVED: deduction alone fixed every cell, so the solution is unique; SEVERAL: a
    `search` step had to choose between solutions; UNSATISFIABLE), `solution` and `rating`
    (the hardest level needed and how often). `to_dict()` gives its JSON form. Every removal is
    sound: no solution has the removed value (a `search` step's choice aside). Raises
    KakuroError for puzzles whose runs have too many combinations to reason about by hand.
    """
    from kakuro.deduction.deduce import explanation_of

    return explanation_of(puzzle)


def hint(puzzle: Puzzle, progress: Sequence[Sequence[Any]] | Solution | None = None, *,
         source: str | None = None) -> Hint:
    """The first mistake in `progress` (a grid in the JSON-lines layout, None or 0 for an empty
    cell), or the next digit the deduction places from it with the steps it builds on; `source`
    names the grid's file in errors. See `kakuro.deduction.hints.hint`."""
    from kakuro.deduction.hints import hint as hint_of

    return hint_of(puzzle, progress, source=source)


__all__ = [
    "LEVEL_NAMES",
    "SEVERAL",
    "SOLVED",
    "STATUSES",
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
