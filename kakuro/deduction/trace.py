"""A deduction trace as data: `Step`, `Explanation` and their JSON form.

Cells are white-cell numbers of the puzzle (`puzzle.cells[i]` is the grid position) and groups
are indices of `puzzle.groups`; the JSON form names cells by grid position `[row, col]`, a
Kakuro's runs by their clue position and direction, and a Sudoku's or Killer's groups by what
they are, their name and their cells, so a reader needs no numbering. The JSON key is "groups"
("runs" before the sixteenth session, still read).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kakuro.deduction.names import group_name, group_word
from kakuro.deduction.techniques import BY_NAME, level_names, level_of
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle, Run
from kakuro.solution import Solution

SOLVED = "solved"
"""Deduction alone fixed every cell: the puzzle has exactly this one solution."""
SEVERAL = "several-solutions"
"""A solution was reached after a `search` step chose between several: the puzzle has more than
one solution, and this is one of them."""
UNSATISFIABLE = "unsatisfiable"
"""Some cell or run was left without a value with no assumption made: no solution exists."""
STOPPED = "stopped"
"""The time limit came before the deduction ended: the steps are those found so far, and there
is no solution."""
STATUSES = (SOLVED, SEVERAL, UNSATISFIABLE, STOPPED)


@dataclass(frozen=True)
class Removal:
    """Candidates `values` (ascending) taken from `cell`."""

    cell: int
    values: tuple[int, ...]


@dataclass(frozen=True)
class Placement:
    """`cell` holds `value`."""

    cell: int
    value: int


@dataclass(frozen=True)
class Step:
    """One application of a technique.

    `cells` and `groups` (indices of `puzzle.groups`) are what it looked at; `removed` the candidates it takes away (the only
    change it makes); `placed` the cells those removals leave with one candidate;
    `assumption` the value tried by a `contradiction` step (the one it removes) or chosen by a
    `search` step; `sentence` says why, in plain words.
    """

    technique: str
    sentence: str
    cells: tuple[int, ...]
    groups: tuple[int, ...]
    removed: tuple[Removal, ...]
    placed: tuple[Placement, ...] = ()
    assumption: Placement | None = None

    @property
    def level(self) -> int:
        """The difficulty level of the technique (`kakuro.deduction.techniques`)."""
        return level_of(self.technique)


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is for a human: the hardest level its deduction needs (`level`, 1..7,
    called `name`), the hardest technique used at that level (`technique`, the latest in
    technique order) and `count`, the steps taken at that level. `score` = level + d / 10 with
    d the number of binary digits of `count` (9 at most): 4.1 is level 4 once, 4.2 two or three
    times, 4.3 four to seven times, ... 4.9 256 times or more (`kakuro.deduction.rating`)."""

    level: int
    name: str
    technique: str
    count: int

    @property
    def score(self) -> float:
        return round(self.level + min(self.count.bit_length(), 9) / 10, 1)

    def __str__(self) -> str:
        times = "once" if self.count == 1 else f"{self.count} times"
        what = self.technique if self.technique == self.name else f"{self.name}: {self.technique}"
        return f"{self.score:.1f} ({what}, {times})"


@dataclass(frozen=True)
class Explanation:
    """The deduction of one puzzle: its `steps` in order, the `status` it ends in (one of
    STATUSES), the `solution` it reaches (None when unsatisfiable or stopped) and its `rating`
    (of the steps taken: for STOPPED, a lower bound)."""

    puzzle: Puzzle = field(repr=False, compare=False)
    steps: tuple[Step, ...]
    status: str
    solution: Solution | None
    rating: Rating

    @property
    def counts(self) -> dict[str, int]:
        """Steps per technique, in technique order (techniques not used are left out)."""
        used = {name: 0 for name in BY_NAME}
        for step in self.steps:
            used[step.technique] += 1
        return {name: n for name, n in used.items() if n}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: puzzle id, status, rating, counts, steps, solution grid."""
        return {
            "id": self.puzzle.id,
            "status": self.status,
            "rating": {"score": self.rating.score, "level": self.rating.level, "name": self.rating.name,
                       "technique": self.rating.technique, "count": self.rating.count},
            "counts": self.counts,
            "steps": [step_to_dict(self.puzzle, step) for step in self.steps],
            "solution": self.solution.to_grid() if self.solution is not None else None,
        }


# --------------------------------------------------------------------- JSON
def step_to_dict(puzzle: Puzzle, step: Step) -> dict[str, Any]:
    """The JSON form of one step (cells as [row, col], groups as `group_to_dict` gives them)."""
    return {
        "technique": step.technique,
        "level": step.level,
        "sentence": step.sentence,
        "cells": [list(puzzle.cells[c]) for c in step.cells],
        "groups": [group_to_dict(puzzle, r) for r in step.groups],
        "removed": [{"cell": list(puzzle.cells[x.cell]), "values": list(x.values)} for x in step.removed],
        "placed": [{"cell": list(puzzle.cells[x.cell]), "value": x.value} for x in step.placed],
        "assumption": (None if step.assumption is None else
                       {"cell": list(puzzle.cells[step.assumption.cell]), "value": step.assumption.value}),
    }


def group_to_dict(puzzle: Puzzle, index: int) -> dict[str, Any]:
    """A Kakuro run as its direction, clue, total and length; a Sudoku's or Killer's group as
    what it is ("row", "column", "box", "cage"), its name ("row 3"), total and cells."""
    group = puzzle.groups[index]
    if isinstance(group, Run):
        return {"direction": group.direction, "clue": list(group.clue), "total": group.total, "length": len(group)}
    return {"group": group_word(puzzle, index), "name": group_name(puzzle, index), "total": group.total,
            "cells": [list(puzzle.cells[c]) for c in group.cells]}


def step_from_dict(puzzle: Puzzle, data: Mapping[str, Any]) -> Step:
    """The step a `step_to_dict` dict describes; KakuroError naming what does not fit the puzzle."""
    try:
        technique = str(data["technique"])
        if technique not in BY_NAME:
            raise KakuroError(f"unknown technique {technique!r}")
        assumption = data.get("assumption")
        return Step(
            technique=technique,
            sentence=str(data["sentence"]),
            cells=tuple(_cell(puzzle, p) for p in data["cells"]),
            groups=tuple(_group(puzzle, r) for r in data["groups" if "groups" in data else "runs"]),
            removed=tuple(Removal(_cell(puzzle, x["cell"]), tuple(int(v) for v in x["values"])) for x in data["removed"]),
            placed=tuple(Placement(_cell(puzzle, x["cell"]), int(x["value"])) for x in data["placed"]),
            assumption=None if assumption is None else Placement(_cell(puzzle, assumption["cell"]), int(assumption["value"])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise KakuroError(f"a step is not in the trace's JSON form: {exc!r}") from None


def explanation_from_dict(puzzle: Puzzle, data: Mapping[str, Any]) -> Explanation:
    """The explanation of `puzzle` that `Explanation.to_dict` wrote (KakuroError if it does not fit)."""
    try:
        status = str(data["status"])
        if status not in STATUSES:
            raise KakuroError(f"unknown status {status!r}")
        rating = data["rating"]
        level = int(rating["level"])
        steps = tuple(step_from_dict(puzzle, s) for s in data["steps"])
        grid = data["solution"]
        solution = None if grid is None else puzzle.solution([int(grid[r][c]) for r, c in puzzle.cells])
        return Explanation(puzzle, steps, status, solution,
                           Rating(level, level_names(puzzle.kind)[level], str(rating["technique"]),
                                  int(rating["count"])))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise KakuroError(f"not an explanation in JSON form: {exc!r}") from None


def _cell(puzzle: Puzzle, position: Any) -> int:
    key = (int(position[0]), int(position[1]))
    if key not in puzzle.index:
        raise KakuroError(f"{list(key)} is not a white cell of the puzzle")
    return puzzle.index[key]


def _group(puzzle: Puzzle, data: Mapping[str, Any]) -> int:
    if "cells" in data:
        cells = {_cell(puzzle, p) for p in data["cells"]}
        for index, group in enumerate(puzzle.groups):
            if set(group.cells) == cells and group.total == int(data["total"]):
                return index
        raise KakuroError(f"the puzzle has no group {data.get('name', '')!r} with those cells and total {data['total']}")
    clue, direction = (int(data["clue"][0]), int(data["clue"][1])), data["direction"]
    for index, run in enumerate(puzzle.groups):
        if isinstance(run, Run) and run.clue == clue and run.direction == direction:
            return index
    raise KakuroError(f"the puzzle has no {direction} run with its clue at {list(clue)}")
