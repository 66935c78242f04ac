"""The next step from a partly filled grid, or the first mistake in it (`hint`).

A mistake is, in this order: a digit outside the value range or a changed given; a rule the
filled digits already break (a digit repeated in a run, a run whose filled digits cannot reach
or already pass its clue); a digit that no solution shares with the digits before it (in
reading order: the first prefix of the filled digits that no solution completes). Without a
mistake, the hint is the next digit the deduction places from the filled grid, with the earlier
steps that step builds on. The deduction starts from what the grid shows a player: each filled
digit already ruled out of the other cells of its groups, so a hint is never about a digit the
player has (a cell those digits leave with one candidate is the hint itself: a naked single
there). A hint holds all it knows (technique, cells, digit); how much of it
to show at once (graded help: the technique, then the cells, then the digit) is the caller's
choice (`HINT_LEVELS`, `kakuro hint --level`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kakuro.clock import Deadline
from kakuro.deduction.assumptions import solutions
from kakuro.deduction.board import Board, and_list, initial_candidates, is_single, single_value
from kakuro.deduction.deduce import Deduction
from kakuro.deduction.names import cell_name, group_name
from kakuro.deduction.trace import Placement, Removal, Step, step_to_dict
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution
from kakuro.values import is_integer

MISTAKE = "mistake"
STEP = "step"
SOLVED = "solved"
UNSOLVABLE = "unsolvable"
STOPPED = "stopped"
"""Kinds of hint: a mistake in the grid, the next step, a correctly finished grid, a puzzle
(with the grid's digits) that no solution completes for another reason than a mistake, the
time limit reached first."""
HINT_LEVELS = (1, 2, 3)
"""How much of a STEP hint to show: 1 the technique, 2 also the cells it looks at, 3 also the
digit it places and the steps that lead to it."""


class _OutOfTime(Exception):
    """The deadline passed during a search whose answer the hint needs."""


@dataclass(frozen=True)
class Hint:
    """`kind` (MISTAKE, STEP, SOLVED, UNSOLVABLE or STOPPED), a one-line `message` ("r3c4 is
    9" for a step), the `cell` it is about (a white-cell number, or None); for STEP the `step`
    that places the next digit (its `technique` and `cells`: the graded help), the `value` it
    places in `cell`, and the earlier steps it builds on (`reasons`, in order). `unique` says
    whether the puzzle (givens only) has exactly one solution (None: not known, e.g. stopped)."""

    kind: str
    message: str
    cell: int | None = None
    step: Step | None = None
    reasons: tuple[Step, ...] = ()
    value: int | None = None
    unique: bool | None = None

    @property
    def technique(self) -> str | None:
        """The technique of the step (None unless STEP)."""
        return None if self.step is None else self.step.technique

    @property
    def cells(self) -> tuple[int, ...]:
        """The cells the step looks at (white-cell numbers; empty unless STEP)."""
        return () if self.step is None else self.step.cells


def hint(puzzle: Puzzle, progress: Sequence[Sequence[Any]] | Solution | None = None, *,
         source: str | None = None, deadline: Deadline = Deadline()) -> Hint:
    """The first mistake in `progress` (a grid in the JSON-lines layout with None or 0 for an
    empty cell, as `kakuro.formats.solution.read_solution` returns, or a Solution), or the
    next step from it (from the empty grid when None). Raises KakuroError when the grid does
    not have the puzzle's shape or holds something other than digits in a white cell (its
    message starts with `source`, the grid's file, when given). Every search stops at
    `deadline`: then the hint is STOPPED."""
    filled = _digits(puzzle, progress, f"{source}: " if source else "")
    stopped = Hint(STOPPED, "the time limit came before a hint was found")
    try:
        unique, mistake = _first_mistake(puzzle, filled, deadline)
    except _OutOfTime:
        return stopped
    if mistake is not None:
        return mistake
    if len(filled) == puzzle.size:
        return Hint(SOLVED, "every cell is filled and every rule holds", unique=unique)
    board = Board(puzzle, initial_candidates(puzzle, filled))
    _rule_out_filled(board, filled)
    single = _naked_single(board, filled)
    if single is not None:
        return _step_hint(board, single.placed[0], single, (), unique)
    taken: list[Step] = []
    deduction = Deduction(board, deadline=deadline)
    for step in deduction.steps():
        taken.append(step)
        new = [p for p in step.placed if p.cell not in filled]
        if new:
            return _step_hint(board, new[0], step, _reasons(taken[:-1], step), unique)
    if deduction.stopped:
        return Hint(STOPPED, stopped.message, unique=unique)
    return Hint(UNSOLVABLE, "no solution completes these digits", unique=unique)


def _step_hint(board: Board, placed: Placement, step: Step, reasons: tuple[Step, ...], unique: bool) -> Hint:
    return Hint(STEP, f"{board.cell_name(placed.cell)} is {placed.value}", placed.cell, step, reasons, placed.value, unique)


def _rule_out_filled(board: Board, filled: dict[int, int]) -> None:
    """Take each filled digit from the candidates of the other cells of its groups (no group
    repeats a digit): what a player sees on the grid, before any technique."""
    for cell, digit in filled.items():
        for r in board.cell_groups[cell]:
            for mate in board.group_cells[r]:
                if mate != cell:
                    board.cands[mate] &= ~(1 << digit)


def _naked_single(board: Board, filled: dict[int, int]) -> Step | None:
    """The first empty cell (reading order) that the filled digits of its groups leave with one
    candidate, as a naked-single step at that cell (None when there is none)."""
    for cell, mask in enumerate(board.cands):
        if cell in filled or not is_single(mask):
            continue
        value = single_value(mask)
        groups = tuple(board.cell_groups[cell])
        holders = tuple(dict.fromkeys(m for r in groups for m in board.group_cells[r] if m in filled))
        others = tuple(v for v in range(board.puzzle.values[0], board.puzzle.values[1] + 1) if v != value)
        sentence = (f"{board.cell_name(cell)} can only be {value}: "
                    f"{and_list([board.group_name(r) for r in groups])} hold every other digit.")
        return Step("naked-single", sentence, (cell, *holders), groups, (Removal(cell, others),), (Placement(cell, value),))
    return None


def _first_mistake(puzzle: Puzzle, filled: dict[int, int], deadline: Deadline) -> tuple[bool, Hint | None]:
    """Whether the puzzle has one solution, and the first mistake in `filled` (None if none).
    Raises _OutOfTime when `deadline` passes during a search."""
    mistake = _out_of_range(puzzle, filled) or _broken_rule(puzzle, filled)
    found = _solutions(puzzle, dict(puzzle.givens), 2, deadline)
    if mistake is not None:
        return len(found) == 1, mistake
    if not found:
        return False, Hint(UNSOLVABLE, "the puzzle has no solution")
    return len(found) == 1, _first_wrong(puzzle, filled, deadline)


def _digits(puzzle: Puzzle, progress: Sequence[Sequence[Any]] | Solution | None, where: str) -> dict[int, int]:
    """The filled digits of a progress grid, by cell; errors start with `where`."""
    if progress is None:
        return dict(puzzle.givens)
    if isinstance(progress, Solution):
        return dict(enumerate(progress.values))
    if len(progress) != puzzle.rows or any(len(row) != puzzle.cols for row in progress):
        shape = f"{len(progress)} x {len(progress[0]) if len(progress) else 0}"
        raise KakuroError(f"{where}the grid is {shape}, the puzzle {puzzle.rows} x {puzzle.cols}")
    filled = {}
    for cell, (r, c) in enumerate(puzzle.cells):
        value = progress[r][c]
        if value is None or value == 0:
            continue
        if not is_integer(value):
            raise KakuroError(f"{where}the grid holds {value!r} at {puzzle.position_name((r, c))}, where the puzzle has a "
                              "white cell")
        filled[cell] = value
    for cell, digit in puzzle.givens.items():
        filled.setdefault(cell, digit)
    return dict(sorted(filled.items()))


def _out_of_range(puzzle: Puzzle, filled: dict[int, int]) -> Hint | None:
    lo, hi = puzzle.values
    for cell, value in filled.items():
        name = cell_name(puzzle, cell)
        if not lo <= value <= hi:
            return Hint(MISTAKE, f"{name} holds {value}, outside {lo}..{hi}", cell)
        if puzzle.givens.get(cell, value) != value:
            return Hint(MISTAKE, f"{name} is given as {puzzle.givens[cell]}, not {value}", cell)
    return None


def _broken_rule(puzzle: Puzzle, filled: dict[int, int]) -> Hint | None:
    """The rule break whose cell comes first in reading order: a repeated digit (at its second
    cell), a run whose digits cannot reach or already pass its clue (at its last filled cell)."""
    found: list[Hint] = []
    for r, run in enumerate(puzzle.groups):
        name = group_name(puzzle, r)
        seen: dict[int, int] = {}
        placed = [c for c in run.cells if c in filled]
        for c in placed:
            if filled[c] in seen:
                found.append(Hint(MISTAKE, f"{cell_name(puzzle, c)} repeats the {filled[c]} of "
                                  f"{cell_name(puzzle, seen[filled[c]])} in {name}", c))
            seen.setdefault(filled[c], c)
        if not placed or len(seen) < len(placed):
            continue
        total = sum(filled[c] for c in placed)
        left = len(run) - len(placed)
        unused = [v for v in range(puzzle.values[0], puzzle.values[1] + 1) if v not in seen]  # ascending
        low = sum(unused[:left])
        high = sum(unused[len(unused) - left:]) if left else 0
        if not total + low <= run.total <= total + high:
            if left:
                what = f"its digits so far sum to {total}, and {left} more cannot bring it to {run.total}"
            else:
                what = f"it is full and sums to {total}, not {run.total}"
            last = max(placed)
            found.append(Hint(MISTAKE, f"{cell_name(puzzle, last)}: {name} cannot be right: {what}", last))
    return min(found, key=lambda h: h.cell if h.cell is not None else -1) if found else None


def _first_wrong(puzzle: Puzzle, filled: dict[int, int], deadline: Deadline) -> Hint | None:
    """The first filled digit (reading order) that no solution shares with the digits before
    it (the puzzle itself has a solution)."""
    if _solutions(puzzle, filled, 1, deadline):
        return None
    order = [c for c in filled if c not in puzzle.givens]
    low, high = 0, len(order)  # the prefix of `low` digits is completable, of `high` not
    while high - low > 1:
        middle = (low + high) // 2
        prefix = dict(puzzle.givens) | {c: filled[c] for c in order[:middle]}
        if _solutions(puzzle, prefix, 1, deadline):
            low = middle
        else:
            high = middle
    cell = order[high - 1]
    name = cell_name(puzzle, cell)
    return Hint(MISTAKE, f"{name} cannot be {filled[cell]}: no solution has it together with the digits "
                f"before it (in reading order)", cell)


def _solutions(puzzle: Puzzle, filled: dict[int, int], limit: int, deadline: Deadline) -> list[list[int]]:
    """Up to `limit` solutions with the digits of `filled`; _OutOfTime when `deadline` passes."""
    found = solutions(puzzle, initial_candidates(puzzle, filled), limit, deadline)
    if deadline.expired():
        raise _OutOfTime
    return found


def _reasons(earlier: list[Step], step: Step) -> tuple[Step, ...]:
    """The earlier steps `step` builds on: walking back, a step that removed candidates from a
    cell a kept step looked at is kept too."""
    relevant = set(step.cells)
    kept = []
    for earlier_step in reversed(earlier):
        if any(r.cell in relevant for r in earlier_step.removed):
            kept.append(earlier_step)
            relevant.update(earlier_step.cells)
    return tuple(reversed(kept))



def hint_to_dict(puzzle: Puzzle, found: Hint) -> dict[str, Any]:
    """The JSON form of a hint (cells as [row, col], steps as in `Explanation.to_dict`)."""
    return {
        "id": puzzle.id,
        "kind": found.kind,
        "message": found.message,
        "cell": None if found.cell is None else list(puzzle.cells[found.cell]),
        "step": None if found.step is None else step_to_dict(puzzle, found.step),
        "reasons": [step_to_dict(puzzle, step) for step in found.reasons],
        "technique": found.technique,
        "value": found.value,
        "unique": found.unique,
    }
