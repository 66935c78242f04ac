"""What a technique reports when it applies (`Finding`), and how it becomes a trace `Step`.

A technique looks at the board and returns a `Finding` (the cells and groups it looked at, the
candidates it removes, the reason in words) or None. `to_step` adds what the removals place
("so r3c4 is 9") and freezes it into a `Step`; the technique never changes the board itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from kakuro.combos import values_of
from kakuro.deduction.board import Board, and_list, is_single, single_value
from kakuro.deduction.trace import Placement, Removal, Step

CELL_NAME = re.compile(r"r\d+c\d+")
"""A sentence that starts with a cell name keeps its lower-case r."""


@dataclass
class Finding:
    """A technique's conclusion: remove `removals[c]` (a mask) from each cell `c`, because of
    `reason` (a clause without the final period)."""

    technique: str
    reason: str
    cells: tuple[int, ...]
    groups: tuple[int, ...]
    removals: dict[int, int] = field(default_factory=dict)
    assumption: Placement | None = None
    chosen: bool = False
    """True for a `search` step that chose between several solutions."""


def removals_from(board: Board, cells: Iterable[int], keep: int | dict[int, int]) -> dict[int, int]:
    """The candidates of `cells` outside `keep` (one mask for all, or one per cell), cells with
    nothing to remove left out."""
    out = {}
    for c in cells:
        allowed = keep if isinstance(keep, int) else keep[c]
        gone = board.cands[c] & ~allowed
        if gone:
            out[c] = gone
    return out


def to_step(board: Board, finding: Finding) -> Step:
    """The step of a finding on the board as it is before the removals."""
    removed = tuple(Removal(c, tuple(values_of(m))) for c, m in sorted(finding.removals.items()))
    placed = []
    emptied = []
    for c, gone in sorted(finding.removals.items()):
        left = board.cands[c] & ~gone
        if is_single(left):
            placed.append(Placement(c, single_value(left)))
        elif not left:
            emptied.append(c)
    sentence = finding.reason
    if placed:
        sentence += ", which places " + and_list([f"{p.value} in {board.cell_name(p.cell)}" for p in placed])
    if emptied:
        sentence += (f"{' and' if placed else ', which'} leaves {board.cells_name(emptied)} with no candidate: "
                     "the puzzle has no solution")
    if not CELL_NAME.match(sentence):
        sentence = sentence[0].upper() + sentence[1:]
    return Step(
        technique=finding.technique,
        sentence=sentence + ".",
        cells=finding.cells,
        groups=finding.groups,
        removed=removed,
        placed=tuple(placed),
        assumption=finding.assumption,
    )
