"""Explaining and grading puzzles as a person solves them: a step-by-step deduction with named
techniques (`explain`), the next step from a partly filled grid (`kakuro.explain.hint`), and a
difficulty rating (`Rating`, on the scale of `kakuro.explain.techniques`).

This package imports only its data types; the deduction (and numpy with it) is loaded by the
first call, so `import kakuro` stays light.
"""

from __future__ import annotations

from kakuro.explain.techniques import LEVEL_NAMES, TECHNIQUES, Technique
from kakuro.explain.trace import (
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
from kakuro.puzzle import Puzzle


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
    from kakuro.explain.deduce import explanation_of

    return explanation_of(puzzle)


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
]
