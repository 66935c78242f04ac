"""XCSP3 / PyCSP3 JSON export (write-only): the data layout of PyCSP3-models' Kakuro model.

    {"nRows": R, "nCols": C, "clues": [[{"x": across, "y": down}, ...], ...]}

`x` is the across sum of the run to the right of a position and `y` the down sum of the run
below it; -1 where a position has no such clue (black cells are {-1, -1}) and {0, 0} marks a
white cell. Compile it to XCSP3 with `python Kakuro.py -data=puzzle.json` from
xcsp3team/PyCSP3-models (recreational/Kakuro). That model fixes the values to 1..9 and has no
givens, so puzzles with givens or another value range are refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kakuro.errors import KakuroError
from kakuro.formats.export import single
from kakuro.puzzle import DEFAULT_VALUES, Puzzle

NAME = "xcsp"
EXTENSIONS = (".json",)
parse = None
"""Write-only: kakuro cannot read puzzles back from this layout."""

_SNIFF_CHARS = 1 << 12

_NONE = -1
_WHITE = {"x": 0, "y": 0}


def sniff(text: str) -> bool:
    """True for PyCSP3 Kakuro data (a JSON object with "nRows"), so reading it is refused clearly."""
    return text.lstrip().startswith("{") and '"nRows"' in text[:_SNIFF_CHARS]


def data(puzzle: Puzzle) -> dict[str, Any]:
    """The PyCSP3 data object of `puzzle`; KakuroError when the model cannot express it."""
    name = puzzle.id or puzzle.digest()
    if puzzle.values != DEFAULT_VALUES:
        lo, hi = puzzle.values
        raise KakuroError(f"puzzle {name}: the PyCSP3 Kakuro model only knows values 1..9, this puzzle uses {lo}..{hi}")
    if puzzle.givens:
        raise KakuroError(f"puzzle {name}: the PyCSP3 Kakuro model has no given digits, this puzzle has {len(puzzle.givens)}")
    clues: list[list[dict[str, int]]] = []
    for r in range(puzzle.rows):
        line = []
        for c in range(puzzle.cols):
            if (r, c) in puzzle.index:
                line.append(dict(_WHITE))
                continue
            down, across = puzzle.clues.get((r, c), (None, None))
            line.append({"x": _NONE if across is None else across, "y": _NONE if down is None else down})
        clues.append(line)
    return {"nRows": puzzle.rows, "nCols": puzzle.cols, "clues": clues}


def dumps(puzzles: Sequence[Puzzle]) -> str:
    """The JSON data file of exactly one puzzle (indented like the PyCSP3-models examples)."""
    return json.dumps(data(single(puzzles, "PyCSP3 JSON data")), indent=2) + "\n"
