"""The deduction: apply the simplest technique that makes progress, one step at a time.

After every step the deduction starts again from the simplest technique, as a person would.
A technique is tried only on the kinds of puzzle it names (`Technique.kinds`): Kakuro's
clue-based combinations are not tried on a Sudoku, a Sudoku's hidden singles and locked
candidates not on a Kakuro; a Killer gets both.
To keep that cheap, each technique keeps the groups (or cells, or region sums) it has not looked
at since they last changed: a technique that found nothing in a run is not asked again about
that run until one of its cells loses a candidate. The order of `RULES` is the order of
`kakuro.deduction.techniques.TECHNIQUES`.

A deadline is looked at before every run, cell or region a technique examines and handed to
the board-wide techniques (whose engine calls stop at it), so a deduction stops within a
fraction of a second of it with the steps found so far (`Deduction.stopped`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from kakuro.clock import Deadline
from kakuro.deduction.assumptions import contradiction, search
from kakuro.deduction.board import Board
from kakuro.deduction.cage_sums import CageSum, cage_sums, rule_of_45
from kakuro.deduction.combination_rules import (
    combination_digits,
    combination_placement,
    intersection,
    required_digit,
    unique_combination,
)
from kakuro.deduction.finding import Finding, to_step
from kakuro.deduction.rating import rate
from kakuro.deduction.regions import region_arithmetic
from kakuro.deduction.singles import last_cell, naked_single
from kakuro.deduction.subsets import hidden_subset, naked_subset
from kakuro.deduction.sudoku_rules import hidden_single, locked_candidates
from kakuro.deduction.techniques import BY_NAME, level_of
from kakuro.deduction.trace import (
    SEVERAL,
    SOLVED,
    STOPPED,
    UNSATISFIABLE,
    Explanation,
    Step,
)
from kakuro.puzzle import Puzzle
from kakuro.reasoning.implied import RegionSum, region_sums

GROUP, CELL, REGION, BOARD = "group", "cell", "region", "board"
"""What a technique looks at once: one run, one cell, one region sum, or the whole board."""


@dataclass(frozen=True)
class Rule:
    technique: str
    scope: str
    find: Callable[..., Finding | None]


def region_step(board: Board, region: RegionSum | CageSum) -> Finding | None:
    """Region arithmetic on a Kakuro's block sum or a Killer's rule-of-45 sum."""
    if isinstance(region, CageSum):
        return rule_of_45(board, region)
    return region_arithmetic(board, region)


RULES: tuple[Rule, ...] = (
    Rule("unique-combination", GROUP, unique_combination),
    Rule("naked-single", CELL, naked_single),
    Rule("hidden-single", GROUP, hidden_single),
    Rule("last-cell", GROUP, last_cell),
    Rule("locked-candidates", GROUP, locked_candidates),
    Rule("intersection", CELL, intersection),
    Rule("combination-digits", GROUP, combination_digits),
    Rule("required-digit", GROUP, required_digit),
    Rule("naked-subset", GROUP, naked_subset),
    Rule("hidden-subset", GROUP, hidden_subset),
    Rule("combination-placement", GROUP, combination_placement),
    Rule("region-arithmetic", REGION, region_step),
    Rule("contradiction", BOARD, contradiction),
    Rule("search", BOARD, search),
)


def explanation_of(puzzle: Puzzle, deadline: Deadline = Deadline()) -> Explanation:
    """`kakuro.deduction.explain`: the deduction of `puzzle` until it ends or `deadline`
    passes, its status and rating."""
    board = Board(puzzle)
    deduction = Deduction(board, deadline=deadline)
    steps = tuple(deduction.steps())
    return finish(puzzle, board, steps, deduction.chose, deduction.stopped)


def finish(puzzle: Puzzle, board: Board, steps: tuple[Step, ...], chose: bool, stopped: bool = False) -> Explanation:
    """The explanation of a deduction on `board` that ended, or `stopped` at its deadline."""
    if stopped:
        return Explanation(puzzle, steps, STOPPED, None, rate(steps, puzzle.kind))
    if board.wiped_out() is not None:
        return Explanation(puzzle, steps, UNSATISFIABLE, None, rate(steps, puzzle.kind))
    return Explanation(puzzle, steps, SEVERAL if chose else SOLVED, board.solution(), rate(steps, puzzle.kind))


class Deduction:
    """The deduction on `board` (changed in place as steps are taken), with the techniques of
    level `up_to` and below (all by default) that are tried on its puzzle's kind, until
    `deadline` passes."""

    def __init__(self, board: Board, up_to: int = 7, deadline: Deadline = Deadline()) -> None:
        self.board = board
        self.deadline = deadline
        self.stopped = False
        """True once the deadline stopped the deduction before it ended."""
        kind = board.puzzle.kind
        self.rules = [rule for rule in RULES if level_of(rule.technique) <= up_to and kind in BY_NAME[rule.technique].kinds]
        self.chose = False
        """True once a `search` step chose between several solutions."""
        self.open = sum(1 for d in board.cands if d & (d - 1))
        """Cells with more than one candidate."""
        self.emptied = board.wiped_out() is not None
        """True once some cell has no candidate left."""
        n_groups, n_cells = len(board.group_cells), len(board.cands)
        self.regions: list[RegionSum | CageSum] | None = None
        self.cell_regions: list[list[int]] = []
        self.pending: list[list[int]] = []
        self.waiting: list[bytearray] = []
        for rule in self.rules:
            size = {GROUP: n_groups, CELL: n_cells}.get(rule.scope, 0)
            self.pending.append(list(range(size)))
            self.waiting.append(bytearray([1]) * size)

    def steps(self) -> Iterator[Step]:
        """Take steps until every cell is placed (and the groups check), a cell is emptied or the
        deadline passes (then `stopped` is True)."""
        while not self.emptied and not (self.open == 0 and not self.board.puzzle.check(self.board.solution())):
            finding = self.next_finding()
            if finding is None:
                return
            yield self.take(finding)

    def take(self, finding: Finding) -> Step:
        """Apply a finding: remove its candidates, make the changed cells pending again."""
        step = to_step(self.board, finding)
        self.chose = self.chose or finding.chosen
        cands = self.board.cands
        for c, gone in finding.removals.items():
            before = cands[c]
            after = cands[c] = before & ~gone
            self.open -= bool(before & (before - 1)) - bool(after & (after - 1))
            self.emptied = self.emptied or after == 0
        self.changed(list(finding.removals))
        return step

    def changed(self, cells: Sequence[int]) -> None:
        """Make every run, cell and region sum that `cells` belong to pending again for every
        technique."""
        board = self.board
        groups = {r for c in cells for r in board.cell_groups[c]}
        regions = {k for c in cells for k in self.cell_regions[c]} if self.regions is not None else set()
        by_scope: dict[str, Any] = {GROUP: groups, CELL: cells, REGION: regions}
        for i, rule in enumerate(self.rules):
            items = by_scope.get(rule.scope, ())
            waiting, pending = self.waiting[i], self.pending[i]
            for item in items:
                if not waiting[item]:
                    waiting[item] = 1
                    heapq.heappush(pending, item)

    def next_finding(self) -> Finding | None:
        """The finding of the simplest technique that applies (lowest run, cell or region
        first within a technique), or None (with `stopped` set when the deadline passed)."""
        for i, rule in enumerate(self.rules):
            if self._out_of_time():
                return None
            if rule.scope == BOARD:
                found = rule.find(self.board, self.deadline)
                if found is not None:
                    return found
                if self._out_of_time():  # the engine may have stopped short: its "nothing" is not final
                    return None
                continue
            if rule.scope == REGION and self.regions is None:
                self._find_regions(i)
            pending, waiting, regions = self.pending[i], self.waiting[i], self.regions or []
            while pending:
                if self._out_of_time():
                    return None  # the item stays pending: nothing is lost if the caller goes on
                item = heapq.heappop(pending)
                waiting[item] = 0
                found = rule.find(self.board, regions[item] if rule.scope == REGION else item)
                if found is not None:
                    return found
        return None

    def _out_of_time(self) -> bool:
        """True (and `stopped` set) once the deadline has passed."""
        if not self.stopped and self.deadline.expired():
            self.stopped = True
        return self.stopped

    def _find_regions(self, rule_index: int) -> None:
        puzzle = self.board.puzzle
        self.regions = [*cage_sums(puzzle)] if puzzle.cages else [*region_sums(puzzle)]
        self.cell_regions = [[] for _ in self.board.cands]
        for k, region in enumerate(self.regions):
            for c in region.cells:
                self.cell_regions[c].append(k)
        self.pending[rule_index] = list(range(len(self.regions)))
        self.waiting[rule_index] = bytearray([1]) * len(self.regions)
