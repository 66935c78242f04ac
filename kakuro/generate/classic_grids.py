"""Classic Kakuro puzzles: black/white grids whose clue cells give run sums.

1. layout: the grid's first row and column are black; the interior is black/white, symmetric
   under a half turn, every white cell in an across and a down run of 2..`longest` cells (runs
   of one cell are blackened, longer runs cut), white cells connected, black share near
   `density`;
2. filling: digits 1..9 all different along every run (randomized depth-first search); the
   clues are the runs' sums;
3. with `unique`: local search changes the filling until propagation proves the puzzle has
   exactly one solution (`kakuro.generate.unique`); an attempt that does not converge within
   its move budget starts afresh with a new layout.

Every puzzle's `meta` records the parameters, the black share, the attempts, and when unique
the search's moves and kicks, the difficulty `grade` (`kakuro.generate.grade`) and the human
`rating` (`kakuro.explain`: the score of the hardest technique needed), and the hidden
`solution` (JSON-lines layout).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from typing import Any

from kakuro.clock import Deadline
from kakuro.deduction import STOPPED
from kakuro.deduction.deduce import explanation_of
from kakuro.errors import KakuroError, LimitReachedError, UsageError
from kakuro.generate.checks import check_count_and_seed
from kakuro.generate.grade import grade as grade_of
from kakuro.generate.unique import unique_filling, warm_up
from kakuro.puzzle import DEFAULT_VALUES, Puzzle
from kakuro.values import is_integer, is_number
from kakuro.wellformed import BLACK, GridCell

Cell = tuple[int, int]
"""An interior position (row, column), 0-based; grid position (row + 1, column + 1)."""

MIN_SIDE = 3
MAX_SIDE = 120
"""Longest side: a unique 31x101 (the size of the largest public puzzles) takes about 17 s."""
LAYOUT_TRIES = 200
FILL_NODES = 200_000
FILL_CHECK_EVERY = 1024
"""Assignments of the random filling between two looks at the deadline."""
DENSITY_TOLERANCE = 0.05
MIN_LONGEST = 4
"""Shorter longest runs cut layouts into fragments (every cut strands neighbouring cells)."""
MOVES_PER_CELL = 40
MIN_MOVES = 2000
"""Local search moves one attempt may take (the larger of MIN_MOVES and MOVES_PER_CELL per
white cell) before a new layout is drawn: attempts either converge or stall, so restarting
beats persisting."""
TARGET_GRADES = ("rdv", "gac", "gac+shaving")
"""Grades `classic` can be asked for ("search" cannot: the search proves uniqueness by
propagation)."""
GRADE_ATTEMPTS = 100
"""Attempts one puzzle of an asked grade or rating may take before KakuroError (some are rare at
some sizes: `rdv` above about 12x12)."""
TARGET_RATINGS = (1, 2, 3, 4, 5, 6)
"""Rating levels `classic` can be asked for (`kakuro.deduction.techniques`; 7, search, cannot:
a unique puzzle the generator certifies never needs it)."""
LEVELS_OF_GRADE = {"rdv": (1, 2), "gac": (2, 4), "gac+shaving": (5, 6)}
"""The rating levels a puzzle of each grade can have: the techniques of levels 1-2 include the
RDV rules, levels 1-4 reach exactly GAC, and levels 5-6 are needed exactly when shaving is."""


def classic(
    rows: int,
    cols: int,
    density: float = 0.3,
    count: int = 1,
    seed: int = 0,
    unique: bool = True,
    longest: int = 5,
    time_limit: float | None = None,
    grade: str | None = None,
    rating: int | None = None,
) -> list[Puzzle]:
    """`count` classic puzzles of `rows` x `cols` grid positions (clue row and column included)
    with about `density` (0.1..0.6) of the interior black and runs of 2..`longest` (4..9)
    cells, from `seed`.

    With `unique` every puzzle has exactly one solution (certified by propagation) and, when
    `grade` is given (one of TARGET_GRADES), that difficulty grade; when `rating` is given (a
    level of TARGET_RATINGS), a human rating of that level (`kakuro.explain`). `time_limit` (seconds per
    puzzle, None = none) bounds everything that makes one (layout, filling, uniqueness, grade and
    rating: each loop looks at the deadline), and LimitReachedError ("... within the time limit")
    is raised when it runs out.
    The k-th puzzle depends only on the parameters and k. Raises UsageError on parameters that
    cannot make a puzzle.
    """
    _check_parameters(rows, cols, density, count, seed, longest, time_limit, unique, grade, rating)
    if unique:
        warm_up()  # before any deadline: time_limit counts searching only
    puzzles = []
    for k in range(count):
        wanted = (f" {grade}" if grade else "") + (f" rating {rating}" if rating else "")
        rng = random.Random(f"classic {rows} {cols} {density} {longest} {seed} {k}" + wanted)
        start = time.perf_counter()
        deadline = Deadline.after(time_limit)
        name = (f"classic-{rows}x{cols}-d{density:g}-s{seed}-{k}" + (f"-{grade}" if grade else "")
                + (f"-r{rating}" if rating else ""))
        meta: dict[str, Any] = dict(generator="classic", rows=rows, cols=cols, density=density, longest=longest,
                                    seed=seed, index=k, unique=unique)
        if grade:
            meta["target_grade"] = grade
        if rating:
            meta["target_rating"] = rating
        black, filling = _make(rows - 1, cols - 1, density, longest, rng, unique, grade, rating, deadline, name, meta)
        meta["seconds"] = round(time.perf_counter() - start, 3)
        puzzles.append(puzzle_of(black, filling, meta, name))
    return puzzles


def _make(height: int, width: int, density: float, longest: int, rng: random.Random, unique: bool,
          grade: str | None, rating: int | None, deadline: Deadline, name: str,
          meta: dict[str, Any]) -> tuple[list[list[bool]], dict[Cell, int]]:
    """A layout and filling (unique, of `grade` and `rating`, when asked); `meta` gains
    attempts, and for a unique puzzle the search's moves and kicks, the grade and the rating."""
    what = "unique " + (f"{grade} " if grade else "") + "puzzle" + (f" rated {rating}.x" if rating else "")
    beyond_gac = grade == "gac+shaving" or (rating is not None and rating >= LEVELS_OF_GRADE["gac+shaving"][0])
    attempts = 0
    while True:
        attempts += 1
        if deadline.expired():
            raise LimitReachedError(f"{name}: no {what if unique else 'puzzle'} within the time limit ({attempts - 1} "
                                    "attempts)")
        try:
            black = layout(height, width, density, longest, rng, deadline)
            filling = random_filling(black, rng, deadline)
        except OutOfTime:
            continue  # reported at the top of the loop
        if filling is None:
            continue
        if not unique:
            meta["attempts"] = attempts
            return black, filling
        if (grade or rating) and attempts > GRADE_ATTEMPTS:
            rare = "this grade" if not rating else "this rating" if not grade else "this grade and rating"
            raise KakuroError(f"{name}: no {what} in {GRADE_ATTEMPTS} attempts; {rare} is rare at this size")
        puzzle = puzzle_of(black, filling, {}, name)
        found = unique_filling(puzzle, [filling[_interior(p)] for p in puzzle.cells], rng.randrange(1 << 62),
                               max(MIN_MOVES, MOVES_PER_CELL * puzzle.size), deadline, beyond_gac=beyond_gac)
        if found is None:
            continue
        filling = {_interior(p): v for p, v in zip(puzzle.cells, found.values)}
        made = puzzle_of(black, filling, {}, name)
        graded = grade_of(made)
        if grade is not None and graded != grade:
            continue
        explained = explanation_of(made, deadline)
        if explained.status == STOPPED:
            continue  # the deadline passed: reported at the top of the loop
        rated = explained.rating
        if rating is None or rated.level == rating:
            meta.update(attempts=attempts, moves=found.moves, kicks=found.kicks, grade=graded, rating=rated.score)
            return black, filling


class OutOfTime(KakuroError):
    """The deadline passed inside a step of the generator (layout, repair, filling)."""


def _check_time(deadline: Deadline) -> None:
    """Raise OutOfTime once `deadline` has passed."""
    if deadline.expired():
        raise OutOfTime("the time limit was reached")


# --------------------------------------------------------------------- layout
def layout(height: int, width: int, density: float, longest: int, rng: random.Random,
           deadline: Deadline = Deadline()) -> list[list[bool]]:
    """A height x width interior of black (True) / white cells, symmetric under a half turn,
    every white cell in an across and a down run of 2..`longest` cells, white cells connected
    and in every row and column,
    black share within DENSITY_TOLERANCE of `density` when the tries allow (else the closest).
    Raises OutOfTime once `deadline` passes (looked at in every loop)."""
    seed_rate = density / 2
    best: tuple[float, list[list[bool]]] | None = None
    for _ in range(LAYOUT_TRIES):
        _check_time(deadline)
        black = [[False] * width for _ in range(height)]
        for r in range(height):
            for c in range(width):
                if (r, c) <= (height - 1 - r, width - 1 - c) and rng.random() < seed_rate:
                    _blacken(black, (r, c))
        repair_layout(black, longest, rng, deadline)
        if not _keep_largest_region(black) or not _spans(black):
            continue
        share = black_share(black)
        if best is None or abs(share - density) < best[0]:
            best = (abs(share - density), black)
        if abs(share - density) <= DENSITY_TOLERANCE:
            return black
        seed_rate = min(0.9, max(0.0, seed_rate + (density - share) / 2))
    if best is None:
        raise KakuroError(f"no connected {height + 1}x{width + 1} layout found; try a lower density")
    return best[1]


def repair_layout(black: list[list[bool]], longest: int, rng: random.Random,
                  deadline: Deadline = Deadline()) -> None:
    """Blacken single white cells between black ones and cut runs longer than `longest` (with
    mirror cells) until every white cell lies in two runs of 2..`longest` cells (in place).
    Sweeps the rows, then the columns, again until a sweep changes nothing; a sweep skips the
    lines in which no cell was blackened since it last looked at them (it would find what it
    found then: the same grid, the same random draws, in a fraction of the time).
    Raises OutOfTime once `deadline` passes (looked at before every line of cells)."""
    height, width = len(black), len(black[0])
    lines = _lines(height, width)
    dirty = [True] * len(lines)  # the rows, then the columns

    def blacken(cell: Cell) -> None:
        r, c = cell
        mirror_r, mirror_c = _blacken(black, cell)
        dirty[r] = dirty[mirror_r] = dirty[height + c] = dirty[height + mirror_c] = True

    changed = True
    while changed:
        changed = False
        for k, line in enumerate(lines):
            if not dirty[k]:
                continue
            dirty[k] = False
            _check_time(deadline)
            for run in _line_segments(black, line):
                if len(run) == 1:
                    blacken(run[0])
                    changed = True
                elif len(run) > longest:
                    blacken(_cut(black, run, longest, rng))
                    changed = True


def _cut(black: list[list[bool]], run: list[Cell], longest: int, rng: random.Random) -> Cell:
    """The cell at which to cut a run longer than `longest`: one leaving a first part of
    2..`longest` cells and a rest of at least 2 (an end cell of a run of 3 or 4), preferring cells whose
    blackening leaves no one-cell line across the run (random among the best)."""
    if len(run) < 5:  # 3 or 4 cells over a shorter `longest`: cut an end cell
        choices = [run[0], run[-1]]
    else:
        choices = run[2:min(longest, len(run) - 3) + 1]
    across = run[0][0] == run[1][0]
    return min(choices, key=lambda cell: (_strands(black, cell, across), rng.random()))


def _strands(black: list[list[bool]], cell: Cell, across: bool) -> int:
    """How many one-cell white lines blackening `cell` would leave perpendicular to the run."""
    height, width = len(black), len(black[0])

    def white(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width and not black[r][c]

    r, c = cell
    dr, dc = (1, 0) if across else (0, 1)
    return sum(white(r + k * dr, c + k * dc) and not white(r + 2 * k * dr, c + 2 * k * dc) for k in (1, -1))


def _blacken(black: list[list[bool]], cell: Cell) -> Cell:
    """Blacken `cell` and its mirror under a half turn; returns the mirror."""
    r, c = cell
    mirror = len(black) - 1 - r, len(black[0]) - 1 - c
    black[r][c] = black[mirror[0]][mirror[1]] = True
    return mirror


def _lines(height: int, width: int) -> list[list[Cell]]:
    """The cells of each row, then of each column, of a height x width interior."""
    return [[(r, c) for c in range(width)] for r in range(height)] + \
        [[(r, c) for r in range(height)] for c in range(width)]


def _segments(black: list[list[bool]]) -> Iterator[list[Cell]]:
    """Every maximal line of white cells, across then down (length 1 included)."""
    for line in _lines(len(black), len(black[0])):
        yield from _line_segments(black, line)


def _line_segments(black: list[list[bool]], line: list[Cell]) -> Iterator[list[Cell]]:
    """The maximal lines of white cells along `line` (length 1 included), each read from `black`
    as it is when reached."""
    current: list[Cell] = []
    for r, c in line:
        if black[r][c]:
            if current:
                yield current
            current = []
        else:
            current.append((r, c))
    if current:
        yield current


def runs_of(black: list[list[bool]]) -> list[list[Cell]]:
    """The runs (lines of 2 or more white cells) of a layout, across then down."""
    return [s for s in _segments(black) if len(s) > 1]


def white_cells(black: list[list[bool]]) -> list[Cell]:
    return [(r, c) for r, row in enumerate(black) for c, b in enumerate(row) if not b]


def black_share(black: list[list[bool]]) -> float:
    """Fraction of the interior that is black."""
    return 1 - len(white_cells(black)) / (len(black) * len(black[0]))


def _regions(black: list[list[bool]]) -> list[set[Cell]]:
    """The 4-connected regions of white cells."""
    whites = set(white_cells(black))
    regions = []
    while whites:
        stack = [whites.pop()]
        region = set(stack)
        while stack:
            r, c = stack.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in whites:
                    whites.discard(nb)
                    region.add(nb)
                    stack.append(nb)
        regions.append(region)
    return regions


def _spans(black: list[list[bool]]) -> bool:
    """True when every interior row and column has a white cell (no wasted grid lines)."""
    return all(not all(row) for row in black) and all(not all(col) for col in zip(*black))


def _keep_largest_region(black: list[list[bool]]) -> bool:
    """Blacken every white region but the largest, when that one is its own mirror image (the
    layout stays symmetric; in place). False when there is no white cell or the largest region
    is not symmetric (the layout is left as it was)."""
    regions = _regions(black)
    if not regions:
        return False
    largest = max(regions, key=len)
    height, width = len(black), len(black[0])
    if {(height - 1 - r, width - 1 - c) for r, c in largest} != largest:
        return False
    for region in regions:
        if region is not largest:
            for r, c in region:
                black[r][c] = True
    return True


# --------------------------------------------------------------------- filling
def random_filling(black: list[list[bool]], rng: random.Random,
                   deadline: Deadline = Deadline()) -> dict[Cell, int] | None:
    """Digits for every white cell, all different along each run; None when the randomized
    depth-first search (cells in row-major order) exceeds FILL_NODES assignments. Raises
    OutOfTime once `deadline` passes (looked at every FILL_CHECK_EVERY assignments)."""
    runs = runs_of(black)
    member: dict[Cell, list[int]] = {}
    for index, run in enumerate(runs):
        for cell in run:
            member.setdefault(cell, []).append(index)
    cells = sorted(member)
    used = [0] * len(runs)
    filling: dict[Cell, int] = {}
    digits = list(range(DEFAULT_VALUES[0], DEFAULT_VALUES[1] + 1))
    orders = [rng.sample(digits, len(digits))]
    position = nodes = 0
    while 0 <= position < len(cells):
        cell = cells[position]
        if cell in filling:  # back in this cell: release its digit
            for k in member[cell]:
                used[k] &= ~(1 << filling[cell])
            del filling[cell]
        order = orders[position]
        while order and any(used[run] >> order[-1] & 1 for run in member[cell]):
            order.pop()
        if not order:
            orders.pop()
            position -= 1
            continue
        digit = order.pop()
        nodes += 1
        if nodes > FILL_NODES:
            return None
        if nodes % FILL_CHECK_EVERY == 0:
            _check_time(deadline)
        filling[cell] = digit
        for k in member[cell]:
            used[k] |= 1 << digit
        position += 1
        if position < len(cells):
            orders.append(rng.sample(digits, len(digits)))
    return filling if position == len(cells) else None


# --------------------------------------------------------------------- puzzle
def puzzle_of(black: list[list[bool]], filling: dict[Cell, int], meta: dict[str, Any], name: str) -> Puzzle:
    """The puzzle whose clues are the run sums of `filling`, with the clue row and column added;
    `meta` gains the black share and the filling as `solution`."""
    height, width = len(black), len(black[0])
    grid: list[list[GridCell]] = [[BLACK] * (width + 1) for _ in range(height + 1)]
    solution: list[list[GridCell]] = [[BLACK] * (width + 1) for _ in range(height + 1)]
    for r, c in white_cells(black):
        grid[r + 1][c + 1] = 0
        solution[r + 1][c + 1] = filling[(r, c)]
    clues: dict[tuple[int, int], list[int | None]] = {}
    for run in runs_of(black):
        (r, c), total = run[0], sum(filling[cell] for cell in run)
        across = run[1][0] == r
        head = (r + 1, c) if across else (r, c + 1)
        clues.setdefault(head, [None, None])[1 if across else 0] = total
    for (r, c), clue in clues.items():
        grid[r][c] = clue
    full_meta = dict(meta, black_share=round(black_share(black), 3),
                     solution=tuple(tuple(row) for row in solution))
    return Puzzle.from_grid(grid, values=DEFAULT_VALUES, id=name, meta=full_meta)


def _interior(position: tuple[int, int]) -> Cell:
    """The interior cell of a grid position (the clue row and column removed)."""
    return position[0] - 1, position[1] - 1


def _check_parameters(rows: int, cols: int, density: float, count: int, seed: int, longest: int,
                      time_limit: float | None, unique: bool, grade: str | None, rating: int | None) -> None:
    for name, side in (("rows", rows), ("cols", cols)):
        if not is_integer(side) or not MIN_SIDE <= side <= MAX_SIDE:
            raise UsageError(f"{name} must be an integer from {MIN_SIDE} to {MAX_SIDE}, not {side!r}")
    if not is_number(density) or not 0.1 <= density <= 0.6:
        raise UsageError(f"density must be a black share from 0.1 to 0.6, not {density!r}")
    if not is_integer(longest) or not MIN_LONGEST <= longest <= 9:
        raise UsageError(f"longest must be a run length from {MIN_LONGEST} to 9, not {longest!r}")
    check_count_and_seed(count, seed)
    if time_limit is not None and (not is_number(time_limit) or not time_limit > 0 or math.isinf(time_limit)):
        raise UsageError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if grade is not None and grade not in TARGET_GRADES:
        raise UsageError(f"grade must be one of {', '.join(TARGET_GRADES)}, not {grade!r}")
    if grade is not None and not unique:
        raise UsageError("a grade needs a unique puzzle (unique=True; on the command line, not --no-unique)")
    if rating is not None:
        if not is_integer(rating) or rating not in TARGET_RATINGS:
            raise UsageError(f"rating must be a level from {TARGET_RATINGS[0]} to {TARGET_RATINGS[-1]}, not {rating!r}")
        if not unique:
            raise UsageError("a rating needs a unique puzzle (unique=True; on the command line, not --no-unique)")
        if grade is not None and not LEVELS_OF_GRADE[grade][0] <= rating <= LEVELS_OF_GRADE[grade][1]:
            low, high = LEVELS_OF_GRADE[grade]
            raise UsageError(f"a puzzle of grade {grade} rates {low} to {high}, never {rating}")
