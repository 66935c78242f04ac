"""The difficulty rating of a deduction: the hardest level it needs and how often.

`score = level + min(count, 9) / 10`, where `level` (1..7, `kakuro.explain.techniques`) is the
highest level among the steps and `count` the number of steps at that level: 2.0 cannot
happen, 2.1 is "level 2, once", 4.9 "level 4, nine times or more". Scores order puzzles by
their hardest technique first, then by how much of it they need. A puzzle with nothing to
deduce (every cell given) scores 0.0.
"""

from __future__ import annotations

from collections.abc import Sequence

from kakuro.explain.techniques import BY_NAME, LEVEL_NAMES, TECHNIQUES
from kakuro.explain.trace import Rating, Step

NOTHING = Rating(0, "nothing to deduce", "none", 0)


def rate(steps: Sequence[Step]) -> Rating:
    """The rating of a trace (see the module docstring)."""
    if not steps:
        return NOTHING
    level = max(step.level for step in steps)
    at_level = [step.technique for step in steps if step.level == level]
    order = {t.name: i for i, t in enumerate(TECHNIQUES)}
    hardest = max(at_level, key=order.__getitem__)
    return Rating(level, LEVEL_NAMES[level], BY_NAME[hardest].name, len(at_level))
