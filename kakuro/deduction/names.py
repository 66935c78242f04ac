"""The words that name cells and groups in a step's sentence (no numpy: the trace's JSON uses them).

Cells are named `r<row>c<col>` by grid position: in a Kakuro the clue row and column are row 0
and column 0, so the first white cells are in row 1 and column 1; in a Sudoku or Killer rows
and columns count from 1, as players name them (`r1c1` is the top-left cell, whose grid
position is (0, 0)). A Kakuro run is named by its direction, clue, length and first cell; a
Sudoku's groups as players name them: "row 3", "column 5", "box 5" (boxes count in reading
order), "the 17-cage at r2c3" (a cage by its sum and its top-left cell).
"""

from __future__ import annotations

from kakuro.puzzle import Group, Puzzle, Run


def cell_name(puzzle: Puzzle, c: int) -> str:
    """E.g. "r3c4": the grid position of white cell `c` (`Puzzle.position_name`: counted from 1 in
    a Sudoku or Killer, from the clue row and column 0 in a Kakuro), as every message names it."""
    return puzzle.position_name(puzzle.cells[c])


def run_name(puzzle: Puzzle, r: int) -> str:
    """E.g. "the across 16 in 2 at r2c1": direction, clue, length and first cell of Kakuro run
    `r`; a Sudoku's or Killer's group as players name it: "row 3", "column 5", "box 5", "the
    17-cage at r2c3"."""
    group = puzzle.runs[r]
    if isinstance(group, Run):
        return group.name  # "the across 16 in 2 at r2c1", as puzzle.check names it too
    word = group_word(puzzle, r)
    first = min(group.cells, key=puzzle.cells.__getitem__)
    row, col = puzzle.cells[first]
    if word == "row":
        return f"row {row + 1}"
    if word == "column":
        return f"column {col + 1}"
    if word == "box" and puzzle.box is not None:
        br, bc = puzzle.box
        return f"box {row // br * (puzzle.cols // bc) + col // bc + 1}"
    if word == "cage":
        return f"the {group.total}-cage at {cell_name(puzzle, first)}"
    return f"the group at {cell_name(puzzle, first)}"


def group_word(puzzle: Puzzle, r: int) -> str:
    """What group `r` is: "run" (Kakuro), "row", "column", "box" or "cage" (Sudoku, Killer)."""
    return _group_word(puzzle, puzzle.runs[r])


def _group_word(puzzle: Puzzle, group: Group) -> str:
    if isinstance(group, Run):
        return "run"
    if group.stated:
        return "cage"
    if len({puzzle.cells[c][0] for c in group.cells}) == 1:
        return "row"
    if len({puzzle.cells[c][1] for c in group.cells}) == 1:
        return "column"
    return "box"
