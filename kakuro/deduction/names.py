"""The words that name cells and groups in a step's sentence (no numpy: the trace's JSON uses them).

Cells are named `r<row>c<col>` by grid position: in a Kakuro the clue row and column are row 0
and column 0, so the first white cells are in row 1 and column 1; in a Sudoku or Killer rows
and columns count from 1, as players name them (`r1c1` is the top-left cell, whose grid
position is (0, 0)). A Kakuro run is named by its direction, clue, length and first cell; a
Sudoku's groups as players name them: "row 3", "column 5", "box 5" (boxes count in reading
order), "the region at r4c1" (a Jigsaw's region by its top-left cell), "the main diagonal" and
"the anti-diagonal" (Sudoku X), "the 17-cage at r2c3" (a cage by its sum and its top-left cell).
"""

from __future__ import annotations

from kakuro.puzzle import Puzzle, Run


def cell_name(puzzle: Puzzle, c: int) -> str:
    """E.g. "r3c4": the grid position of white cell `c` (`Puzzle.position_name`: counted from 1 in
    a Sudoku or Killer, from the clue row and column 0 in a Kakuro), as every message names it."""
    return puzzle.position_name(puzzle.cells[c])


def group_name(puzzle: Puzzle, r: int) -> str:
    """E.g. "the across 16 in 2 at r2c1": direction, clue, length and first cell of Kakuro run
    `r`; a Sudoku-family group as players name it: "row 3", "column 5", "box 5", "the region
    at r4c1", "the main diagonal", "the 17-cage at r2c3"."""
    group = puzzle.groups[r]
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
    if word == "diagonal":
        return "the main diagonal" if first == 0 else "the anti-diagonal"
    return f"the {word} at {cell_name(puzzle, first)}"


GROUP_WORDS = ("row", "column", "box", "diagonal")
"""What a family puzzle's unstated groups are, in their order (`kakuro.regions`): n of each but
the diagonals (two)."""


def group_word(puzzle: Puzzle, r: int) -> str:
    """What group `r` is: "run" (Kakuro), "row", "column", "box", "region" (a Jigsaw's),
    "diagonal" (Sudoku X) or "cage" (Killer), from the family's order of groups."""
    group = puzzle.groups[r]
    if isinstance(group, Run):
        return "run"
    if group.stated:
        return "cage"
    k = r - (len(puzzle.groups) - len(puzzle.regions))  # its place among the regions
    word = GROUP_WORDS[min(k // puzzle.rows, 3)]
    return "region" if word == "box" and puzzle.box is None else word


def groups_word(puzzle: Puzzle) -> str:
    """What a puzzle's groups are called together: "run" (Kakuro), "row, column and box"
    (Sudoku), "row, column, region and diagonal" (Jigsaw X), "row, column, box and cage"
    (Killer) ..."""
    if not puzzle.regions:
        return "run"
    words = ["row", "column", "box" if puzzle.box is not None else "region"]
    words += ["diagonal"] * puzzle.diagonals + ["cage"] * bool(puzzle.cages)
    return ", ".join(words[:-1]) + " and " + words[-1]
