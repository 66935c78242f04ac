"""The candidates of every cell during a deduction, the groups' combinations, and the words that
name cells, groups and digit sets in a step's sentence.

A candidate set is a bitmask (bit v = value v, as in `kakuro.combos`). A cell is *placed* when
one candidate is left. Cells and groups are named as `kakuro.deduction.names` says.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kakuro.combos import combinations, count_combinations, fixed_values, range_mask, values_of
from kakuro.deduction.names import cell_name as cell_name  # re-exported: callers name cells through the board
from kakuro.deduction.names import group_name as group_name
from kakuro.deduction.names import group_word
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution

MAX_RUN_COMBINATIONS = 20_000
"""Most combinations one run may have: the techniques enumerate them in Python, which is made
for human-sized puzzles (1..9: at most 126), not for wide Cazenave ranges."""


def is_single(mask: int) -> bool:
    """True when `mask` holds exactly one value."""
    return mask != 0 and mask & (mask - 1) == 0


def single_value(mask: int) -> int:
    """The value of a one-value mask."""
    return mask.bit_length() - 1


def initial_candidates(puzzle: Puzzle, placed: Mapping[int, int] | None = None) -> list[int]:
    """Every value of the range in each cell, its digit in a cell of `placed` (cell -> digit;
    default: the puzzle's givens)."""
    full = range_mask(puzzle.values)
    known = puzzle.givens if placed is None else placed
    return [1 << known[c] if c in known else full for c in range(puzzle.size)]


class Board:
    """`cands[c]`: the candidates of cell `c`; `tables[r]`: every combination of run `r`'s clue
    (bitmasks); `group_cells[r]`, `cell_groups[c]` as in the puzzle. Only `cands` changes."""

    def __init__(self, puzzle: Puzzle, candidates: Sequence[int] | None = None) -> None:
        self.puzzle = puzzle
        self.cands: list[int] = list(candidates) if candidates is not None else initial_candidates(puzzle)
        self.group_cells = [run.cells for run in puzzle.groups]
        self.cell_groups = puzzle.cell_groups
        self.totals = [run.total for run in puzzle.groups]
        self.tables = [_table(puzzle, r) for r in range(len(puzzle.groups))]

    # ----------------------------------------------------------------- run views
    def placed_digits(self, r: int) -> int:
        """The digits of run `r`'s placed cells (a mask)."""
        out = 0
        for c in self.group_cells[r]:
            d = self.cands[c]
            if d & (d - 1) == 0:
                out |= d
        return out

    def open_cells(self, r: int) -> list[int]:
        """The cells of run `r` with more than one candidate."""
        return [c for c in self.group_cells[r] if self.cands[c] & (self.cands[c] - 1)]

    def fitting(self, r: int) -> tuple[list[int], int]:
        """The combinations of run `r` that fit its cells (each holds the run's placed digits,
        its other digits are candidates of some open cell, and every open cell has a candidate
        among them), and the run's placed digits (a mask), which the test needs anyway."""
        placed = 0
        cover = 0
        opens = []
        for c in self.group_cells[r]:
            d = self.cands[c]
            if d & (d - 1) == 0:
                placed |= d
            else:
                cover |= d
                opens.append(d)
        out = []
        for combo in self.tables[r]:
            rest = combo & ~placed
            if combo & placed == placed and rest & ~cover == 0 and all(d & rest for d in opens):
                out.append(combo)
        return out, placed

    def required_digits(self, r: int) -> int | None:
        """The digits, not yet placed in run `r`, that every fitting combination holds (a mask),
        or None when no combination fits."""
        fits, placed = self.fitting(r)
        if not fits:
            return None
        required = fits[0]
        for m in fits[1:]:
            required &= m
        return required & ~placed

    def solution(self) -> Solution:
        """The solution the candidates spell once every cell is placed."""
        return self.puzzle.solution(fixed_values(self.cands))

    def wiped_out(self) -> int | None:
        """A cell with no candidate left, or None."""
        for c, d in enumerate(self.cands):
            if d == 0:
                return c
        return None

    # ----------------------------------------------------------------- words
    def cell_name(self, c: int) -> str:
        return cell_name(self.puzzle, c)

    def cells_name(self, cells: Iterable[int]) -> str:
        return and_list([self.cell_name(c) for c in cells])

    def group_name(self, r: int) -> str:
        return group_name(self.puzzle, r)

    def group_word(self, r: int) -> str:
        return group_word(self.puzzle, r)

    def stated(self, r: int) -> bool:
        """True when group `r`'s sum is a rule of the puzzle (a Kakuro clue, a Killer cage's
        sum), False for a Sudoku row, column or box (every value once)."""
        return self.puzzle.groups[r].stated


def only_place(board: Board, cells: Sequence[int], values: int) -> tuple[int, int] | None:
    """The first value of `values` (a bitmask, lowest first) that exactly one of `cells` can
    still take, as (its bit, that cell); None when every value has none or several places."""
    while values:
        bit = values & -values
        values ^= bit
        able = [c for c in cells if board.cands[c] & bit]
        if len(able) == 1:
            return bit, able[0]
    return None


def digits(mask: int) -> str:
    """A digit set in words: "7" for one digit, "{1,2,4}" for several, "nothing" for none."""
    found = values_of(mask)
    if not found:
        return "nothing"
    if len(found) == 1:
        return str(found[0])
    return "{" + ",".join(str(v) for v in found) + "}"


def either(mask: int) -> str:
    """A set of alternatives in words: "7", "7 or 9", "1, 2 or 4"."""
    return and_list([str(v) for v in values_of(mask)], "or")


def and_list(items: Sequence[str], word: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _table(puzzle: Puzzle, r: int) -> tuple[int, ...]:
    run = puzzle.groups[r]
    count = count_combinations(len(run), run.total, puzzle.values)
    if count > MAX_RUN_COMBINATIONS:
        lo, hi = puzzle.values
        raise KakuroError(
            f"explain works on human-sized puzzles: {run.name} has {count:,} "
            f"combinations over {lo}..{hi} (more than {MAX_RUN_COMBINATIONS:,})"
        )
    return combinations(len(run), run.total, puzzle.values)
