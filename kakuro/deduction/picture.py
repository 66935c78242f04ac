"""Pictures of one deduction step: the grid with the candidates before the step, the cells it
looks at shaded, the clues of its runs framed (a Sudoku's and Killer's groups have no clue: the
shading shows them, over the boxes and cages `kakuro.render` draws), what it removes struck
through and what it places in green (`kakuro.render.Marks`)."""

from __future__ import annotations

import os
from pathlib import Path

from kakuro.combos import mask_of
from kakuro.deduction.replay import replay
from kakuro.deduction.trace import Explanation
from kakuro.errors import UsageError
from kakuro.puzzle import Run
from kakuro.render import Marks, render


def step_marks(explanation: Explanation, index: int) -> Marks:
    """The marks of step `index` (0-based) of `explanation`, on the candidates before it."""
    puzzle = explanation.puzzle
    if not 0 <= index < len(explanation.steps):
        raise UsageError(f"the explanation has {len(explanation.steps)} steps; there is no step {index + 1}")
    step = explanation.steps[index]
    before = replay(puzzle, explanation.steps[:index])
    struck = {r.cell: mask_of(r.values) for r in step.removed}
    digits = {c: d.bit_length() - 1 for c, d in enumerate(before)
              if d & (d - 1) == 0 and d and c not in struck and c not in puzzle.givens}
    candidates = {c: d for c, d in enumerate(before) if c not in digits}
    return Marks(
        digits=digits,
        candidates=candidates,
        struck=struck,
        kept={p.cell: 1 << p.value for p in step.placed},
        cells=frozenset(step.cells),
        clues=frozenset(run.clue for run in map(puzzle.groups.__getitem__, step.groups) if isinstance(run, Run)),
    )


def hardest_step(explanation: Explanation) -> int:
    """The index of the first step at the explanation's hardest level (0 without steps)."""
    level = explanation.rating.level
    return next((i for i, step in enumerate(explanation.steps) if step.level == level), 0)


def render_step(explanation: Explanation, index: int, path: str | os.PathLike[str], *,
                overwrite: bool = False) -> Path:
    """Draw step `index` (0-based) of `explanation` to `path` (.svg or .png); never replaces a
    file unless `overwrite`."""
    return render(explanation.puzzle, path, overwrite=overwrite, marks=step_marks(explanation, index))
