"""The difficulty rating of a deduction: the hardest level it needs and how often.

`score = level + d / 10`, where `level` (1..7, `kakuro.deduction.techniques`) is the highest
level among the steps, `count` the number of steps at that level and d = min(9, the number of
binary digits of count): a tenth more each time the count doubles.

| count | 1 | 2-3 | 4-7 | 8-15 | 16-31 | 32-63 | 64-127 | 128-255 | 256 or more |
| d     | 1 | 2   | 3   | 4    | 5     | 6     | 7      | 8       | 9           |

So 6.1 is "one contradiction", 4.3 "four to seven exact run placements", and scores order
puzzles by their hardest technique first, then by how much of it they need (logarithmically:
the easy levels are used tens of times on a large grid). A puzzle with nothing to deduce (every
cell given) scores 0.0. A Sudoku or Killer is rated on the same levels, under its own names
(`kakuro.deduction.techniques.level_names`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kakuro.deduction.techniques import BY_NAME, KAKURO, TECHNIQUES, level_names
from kakuro.deduction.trace import Rating, Step

NOTHING = Rating(0, "nothing to deduce", "none", 0)


def rate(steps: Sequence[Step], kind: str = KAKURO) -> Rating:
    """The rating of a trace of a puzzle of `kind` (see the module docstring)."""
    if not steps:
        return NOTHING
    level = max(step.level for step in steps)
    at_level = [step.technique for step in steps if step.level == level]
    order = {t.name: i for i, t in enumerate(TECHNIQUES)}
    hardest = max(at_level, key=order.__getitem__)
    return Rating(level, level_names(kind)[level], BY_NAME[hardest].name, len(at_level))
