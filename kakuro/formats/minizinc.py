"""MiniZinc export (write-only): one self-contained `.mzn` file, data and model together.

White cell `i` (1-based) is variable `x[i]` at grid position (`row[i]`, `col[i]`), 0-based with
the clue row and column included. Each run is a set of cells with an `alldifferent` and a
`sum` constraint; givens fix their cell. The output prints the solved grid (`#` for black and
clue positions). Run it with e.g. `minizinc --solver gecode puzzle.mzn`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from kakuro.formats.export import single
from kakuro.puzzle import KINDS as PUZZLE_KINDS
from kakuro.puzzle import Puzzle

NAME = "minizinc"
KINDS = PUZZLE_KINDS
"""Every member of the family: the encoding reads the groups only."""
EXTENSIONS = (".mzn",)
parse = None
"""Write-only: kakuro cannot read puzzles back from a MiniZinc model."""

_SNIFF_CHARS = 1 << 16
_MODEL_ITEM = re.compile(r'^\s*(include\s+"|constraint\b|solve\s+satisfy\b)', re.MULTILINE)


def sniff(text: str) -> bool:
    """True for MiniZinc text (an include, constraint or solve item), so reading it is refused clearly."""
    return _MODEL_ITEM.search(text[:_SNIFF_CHARS]) is not None


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """The MiniZinc model and data of exactly one puzzle."""
    puzzle = single(puzzles, "MiniZinc")
    lo, hi = puzzle.values
    name = puzzle.id or puzzle.digest()
    cell_at = [[0] * puzzle.cols for _ in range(puzzle.rows)]
    for i, (r, c) in enumerate(puzzle.cells, start=1):
        cell_at[r][c] = i
    runs = [run.cells for run in puzzle.groups]
    givens = list(puzzle.givens.items())
    width = len(str(hi))
    black = "#".rjust(width)
    return f"""\
% Kakuro puzzle {name}: {puzzle.rows}x{puzzle.cols} grid, {puzzle.size} white cells, {len(runs)} runs, values {lo}..{hi}
% written by the kakuro toolkit. White cell i is x[i] at grid position (row[i], col[i]),
% 0-based with the clue row and column included; cell_at[r, c] is 0 for black and clue positions.
include "alldifferent.mzn";

% ---------------------------------------------------------------- data
int: lo = {lo};
int: hi = {hi};
int: n_rows = {puzzle.rows};
int: n_cols = {puzzle.cols};
int: n_cells = {puzzle.size};
array[1..n_cells] of int: row = {_array(r for r, _ in puzzle.cells)};
array[1..n_cells] of int: col = {_array(c for _, c in puzzle.cells)};
array[0..n_rows-1, 0..n_cols-1] of int: cell_at = array2d(0..n_rows-1, 0..n_cols-1, {_array(v for line in cell_at for v in line)});
int: n_runs = {len(runs)};
array[1..n_runs] of int: total = {_array(run.total for run in puzzle.groups)};
array[1..n_runs] of set of 1..n_cells: run_cells = [{", ".join(_set(c + 1 for c in cells) for cells in runs)}];
int: n_givens = {len(givens)};
array[1..n_givens] of 1..n_cells: given_cell = {_array(c + 1 for c, _ in givens)};
array[1..n_givens] of lo..hi: given_value = {_array(v for _, v in givens)};

% ---------------------------------------------------------------- model
array[1..n_cells] of var lo..hi: x;

constraint forall(g in 1..n_givens)(x[given_cell[g]] = given_value[g]);

constraint forall(r in 1..n_runs)(
    alldifferent([x[i] | i in run_cells[r]]) /\\ sum(i in run_cells[r])(x[i]) = total[r]
);

solve satisfy;

output [
    (if cell_at[r, c] = 0 then "{black}" else show_int({width}, x[cell_at[r, c]]) endif)
    ++ (if c = n_cols - 1 then "\\n" else " " endif)
    | r in 0..n_rows-1, c in 0..n_cols-1
];
"""  # noqa: E501  # the model text as MiniZinc reads it


def _array(items: Iterable[int]) -> str:
    return "[" + ", ".join(map(str, items)) + "]"


def _set(items: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, items)) + "}"
