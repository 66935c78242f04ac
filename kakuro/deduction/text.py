"""Explanations and hints as lines of text (what `kakuro explain` and `kakuro hint` print)."""

from __future__ import annotations

from kakuro.deduction.hints import HINT_LEVELS, STEP, Hint
from kakuro.deduction.names import cell_name, group_name
from kakuro.deduction.techniques import KAKURO, level_names, level_of
from kakuro.deduction.trace import STOPPED, Explanation
from kakuro.puzzle import Puzzle


def explanation_lines(explanation: Explanation) -> list[str]:
    """A heading (id, status, steps, rating), one numbered line per step, the counts."""
    name = explanation.puzzle.id or "puzzle"
    steps = explanation.steps
    if explanation.status == STOPPED:
        lines = [f"{name}: stopped at the time limit after {len(steps)} steps; rating so far {explanation.rating}"]
    else:
        lines = [f"{name}: {explanation.status} in {len(steps)} steps; rating {explanation.rating}"]
    width = len(str(len(steps)))
    lines += [f"{k:>{width}}. [{step.technique}] {step.sentence}" for k, step in enumerate(steps, start=1)]
    lines.append("techniques: " + ", ".join(f"{t} {n}" for t, n in explanation.counts.items()))
    return lines


def hint_lines(found: Hint, puzzle: Puzzle | None = None, level: int = HINT_LEVELS[-1]) -> list[str]:
    """The hint's message; for a step, graded by `level` (HINT_LEVELS): 1 the technique, 2 also
    the cells and groups it looks at (named from `puzzle`, needed then), 3 the digit with the
    earlier steps it builds on and the step itself."""
    if found.kind != STEP or found.step is None:
        return [f"{found.kind}: {found.message}"]
    if level not in HINT_LEVELS:
        raise ValueError(f"level must be one of {HINT_LEVELS}, not {level!r}")
    step = found.step
    names = level_names(puzzle.kind if puzzle is not None else KAKURO)
    what = f"next: use {step.technique} (level {step.level}, {names[level_of(step.technique)]})"
    if level == 1:
        return [what, "  (--level 2 shows where, --level 3 the digit)"]
    if level == 2:
        if puzzle is None:
            raise ValueError("hint_lines needs the puzzle to name the cells at level 2")
        cells = ", ".join(cell_name(puzzle, c) for c in step.cells)
        groups = "; ".join(group_name(puzzle, r) for r in step.groups)
        return [what, f"  look at {cells}" + (f" ({groups})" if groups else ""), "  (--level 3 shows the digit)"]
    steps = [*found.reasons, found.step]
    lines = [f"next: {found.message}" + (f" (after {len(found.reasons)} earlier "
                                         f"step{'s' if len(found.reasons) > 1 else ''})" if found.reasons else "")]
    lines += [f"  {k}. [{step.technique}] {step.sentence}" for k, step in enumerate(steps, start=1)]
    return lines
