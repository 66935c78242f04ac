"""Explaining and grading puzzles as a person solves them: a step-by-step deduction with named
techniques (`explain`), the next step from a partly filled grid (`hint`), and a difficulty
rating (`Rating`, on the scale of `kakuro.explain.techniques`)."""

from kakuro.explain.deduce import explain
from kakuro.explain.techniques import LEVEL_NAMES, TECHNIQUES, Technique
from kakuro.explain.trace import SEVERAL, SOLVED, STATUSES, UNSATISFIABLE, Explanation, Placement, Rating, Removal, Step

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
