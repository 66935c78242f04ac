"""Checking a trace: replay its steps from the puzzle, and find removals a solution contradicts.

`replay` trusts nothing in the trace: each removal must take candidates the cell still has,
and each placement must be what the removals leave. `unsound_removals` lists every removal of a
value that a known solution has (a sound trace has none before its first `search` choice).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kakuro.combos import mask_of, values_of
from kakuro.deduction.board import initial_candidates
from kakuro.deduction.trace import Step
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution


def replay(puzzle: Puzzle, steps: Iterable[Step], candidates: Sequence[int] | None = None) -> list[int]:
    """The candidates (bitmasks, cell order) after `steps`, from `candidates` (default: the
    puzzle's start, its givens placed). Raises KakuroError naming the first step (1-based)
    that removes a candidate the cell no longer has or places what its removals do not leave."""
    cands = list(candidates) if candidates is not None else initial_candidates(puzzle)
    for number, step in enumerate(steps, start=1):
        for removal in step.removed:
            if not 0 <= removal.cell < puzzle.size:
                raise KakuroError(f"step {number} ({step.technique}) names cell {removal.cell}, not a cell of the puzzle")
            mask = mask_of(removal.values)
            if cands[removal.cell] & mask != mask:
                missing = values_of(mask & ~cands[removal.cell])
                raise KakuroError(f"step {number} ({step.technique}) removes {missing} from "
                                  f"{puzzle.cells[removal.cell]}, which no longer has them")
            cands[removal.cell] &= ~mask
        for placement in step.placed:
            if cands[placement.cell] != 1 << placement.value:
                raise KakuroError(f"step {number} ({step.technique}) places {placement.value} in "
                                  f"{puzzle.cells[placement.cell]}, whose candidates are {values_of(cands[placement.cell])}")
    return cands


def unsound_removals(steps: Iterable[Step], solution: Solution) -> list[tuple[int, int, int]]:
    """(step number, cell, value) of every removal of a value `solution` has."""
    found = []
    for number, step in enumerate(steps, start=1):
        for removal in step.removed:
            value = solution.values[removal.cell]
            if value in removal.values:
                found.append((number, removal.cell, value))
    return found
