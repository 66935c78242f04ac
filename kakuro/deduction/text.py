"""Explanations and hints as lines of text (what `kakuro explain` and `kakuro hint` print)."""

from __future__ import annotations

from kakuro.deduction.hints import STEP, Hint
from kakuro.deduction.trace import Explanation


def explanation_lines(explanation: Explanation) -> list[str]:
    """A heading (id, status, steps, rating), one numbered line per step, the counts."""
    name = explanation.puzzle.id or "puzzle"
    steps = explanation.steps
    lines = [f"{name}: {explanation.status} in {len(steps)} steps; rating {explanation.rating}"]
    width = len(str(len(steps)))
    lines += [f"{k:>{width}}. [{step.technique}] {step.sentence}" for k, step in enumerate(steps, start=1)]
    lines.append("techniques: " + ", ".join(f"{t} {n}" for t, n in explanation.counts.items()))
    return lines


def hint_lines(found: Hint) -> list[str]:
    """The hint's message; for a step, the earlier steps it builds on and the step itself."""
    if found.kind != STEP or found.step is None:
        return [f"{found.kind}: {found.message}"]
    steps = [*found.reasons, found.step]
    lines = [f"next: {found.message}" + (f" (after {len(found.reasons)} earlier step{'s' if len(found.reasons) > 1 else ''})" if found.reasons else "")]
    lines += [f"  {k}. [{step.technique}] {step.sentence}" for k, step in enumerate(steps, start=1)]
    return lines
