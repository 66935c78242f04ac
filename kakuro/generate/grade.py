"""Difficulty grade: the weakest reasoning that solves a puzzle without search.

The grades, weakest first: `rdv` (Panov and Koceski's Reducing Domain Values rules), `gac`
(generalized arc consistency on every run's sum + all-different), `gac+shaving` (GAC plus
singleton arc consistency), `search` (none of them fixes every cell). Every stage is sound, so
a puzzle it solves has exactly that one solution.
"""

from __future__ import annotations

from kakuro.puzzle import Puzzle
from kakuro.reasoning import rdv, root

GRADES = ("rdv", "gac", "gac+shaving", "search")


def grade(puzzle: Puzzle) -> str:
    """The first of GRADES whose reasoning alone fixes every cell of `puzzle` ("search" when
    none does, also for unsatisfiable puzzles). Raises KakuroError for value ranges too wide
    for the GAC tables."""
    if rdv.reduce_domains(puzzle).solved:
        return "rdv"
    if root.reduce(puzzle, "none").solved:
        return "gac"
    if root.reduce(puzzle, "fixpoint").solved:
        return "gac+shaving"
    return "search"
