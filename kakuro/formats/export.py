"""Helpers shared by the write-only export formats (DIMACS, MiniZinc, XCSP3 JSON)."""

from __future__ import annotations

from collections.abc import Sequence

from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle


def single(puzzles: Sequence[Puzzle], what: str) -> Puzzle:
    """The one puzzle of `puzzles`; KakuroError when there are none or several, because a
    `what` file holds one problem (write each puzzle to its own file)."""
    if len(puzzles) != 1:
        raise KakuroError(
            f"a {what} file holds exactly one puzzle, got {len(puzzles)}; write each puzzle to its own file"
        )
    return puzzles[0]
