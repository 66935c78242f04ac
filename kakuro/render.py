"""Pictures of puzzles as a puzzle book prints them: SVG (text) or PNG (matplotlib).

Black cells are dark; a clue cell is split by a diagonal from its top-left to its bottom-right
corner, the down sum in the lower-left triangle and the across sum in the upper-right one;
givens are bold, solution digits (when a solution is drawn) are blue. A deduction step
(`kakuro.explain`) is drawn with `Marks`: the cells it looks at shaded, the clues of its runs
framed, every open cell's candidates small, the removed ones struck through in red and the
digits it places in green. A Sudoku's boxes and a Jigsaw's regions have thick borders, Sudoku
X's diagonals are shaded; a Killer's cages are drawn just inside their edges in red, each sum in
its top-left cell. One layout function (`layout`) produces the shapes; the SVG writer
and the matplotlib painter only draw them.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from kakuro.errors import KakuroError, UsageError
from kakuro.files import refuse_existing, write_new
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution
from kakuro.values import is_number

CELL = 40
"""Side of one grid cell in SVG user units (pixels at 100% zoom)."""
MAX_CELL_SIZE = 1000
"""Largest cell side in pixels that `render` accepts (a bigger picture is a typo, not a wish)."""
INK = "#1b1b1b"
PAPER = "#ffffff"
CLUE_TEXT = "#ffffff"
SOLUTION_TEXT = "#1f5fbf"
HIGHLIGHT = "#fff1b8"
"""Fill of the white cells a step looks at."""
DIAGONAL = "#e4e9f0"
"""Fill of the cells on Sudoku X's diagonals."""
CLUE_HIGHLIGHT = "#d9822b"
"""Frame of the clues of the runs a step looks at."""
CANDIDATE_TEXT = "#6b6b6b"
STRUCK = "#d62728"
"""Removed candidates and their strike-through line."""
CAGE = "#c0392b"
"""A Killer cage's border and sum."""
PLACED = "#1a8a3a"
"""Candidates a step leaves alone in their cell (the digits it places)."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    size: float
    fill: str
    key: str = ""
    """The SVG element's id (none when empty), for pages that change a picture in place."""


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float = 1
    key: str = ""


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    size: float
    colour: str
    bold: bool = False
    key: str = ""


Shape = Box | Line | Label


@dataclass(frozen=True)
class Marks:
    """What a picture of a deduction step adds to the grid (cells are white-cell numbers,
    masks have bit v for value v): `digits` written in placed cells, the `candidates` of open
    cells drawn small, of which `struck` are crossed out and `kept` drawn in green; `cells`
    shaded and the clues at `clues` (grid positions) framed."""

    digits: Mapping[int, int] = field(default_factory=dict)
    candidates: Mapping[int, int] = field(default_factory=dict)
    struck: Mapping[int, int] = field(default_factory=dict)
    kept: Mapping[int, int] = field(default_factory=dict)
    cells: frozenset[int] = frozenset()
    clues: frozenset[tuple[int, int]] = frozenset()


def layout(puzzle: Puzzle, solution: Solution | None = None,
           marks: Marks | None = None) -> tuple[float, float, list[Shape]]:
    """(width, height, shapes) of the picture; y grows downwards, units as `CELL`."""
    if solution is not None and solution.puzzle != puzzle:
        raise KakuroError("the solution belongs to another puzzle")
    shapes: list[Shape] = []
    shaded = {puzzle.cells[c] for c in marks.cells} if marks is not None else set()
    n = puzzle.rows
    crossed = {(i, i) for i in range(n)} | {(i, n - 1 - i) for i in range(n)} if puzzle.diagonals else set()
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            x, y = c * CELL, r * CELL
            if (r, c) in puzzle.index:
                key = f"cell-{puzzle.index[(r, c)]}" if marks is not None else ""
                fill = HIGHLIGHT if (r, c) in shaded else DIAGONAL if (r, c) in crossed else PAPER
                shapes.append(Box(x, y, CELL, fill, key))
                continue
            shapes.append(Box(x, y, CELL, INK))
            clue = puzzle.clues.get((r, c))
            if clue is None:
                continue
            shapes.append(Line(x, y, x + CELL, y + CELL, CLUE_TEXT))
            down, across = clue
            small = CELL * 0.3
            if down is not None:
                shapes.append(Label(x + CELL * 0.3, y + CELL * 0.78, str(down), small, CLUE_TEXT))
            if across is not None:
                shapes.append(Label(x + CELL * 0.7, y + CELL * 0.38, str(across), small, CLUE_TEXT))
    for i in range(puzzle.size):
        if i in puzzle.givens:
            shapes.append(digit_label(puzzle, i, puzzle.givens[i], bold=True))
        elif solution is not None:
            shapes.append(digit_label(puzzle, i, solution.values[i], SOLUTION_TEXT))
        elif marks is not None:
            shapes.extend(_marks_of(puzzle, i, marks))
    width, height = puzzle.cols * CELL, puzzle.rows * CELL
    for r in range(puzzle.rows + 1):
        shapes.append(Line(0, r * CELL, width, r * CELL, INK))
    for c in range(puzzle.cols + 1):
        shapes.append(Line(c * CELL, 0, c * CELL, height, INK))
    shapes += _boxes_and_cages(puzzle)
    if marks is not None:
        for r, c in sorted(marks.clues):
            shapes += clue_frame(r, c)
    return width, height, shapes


def _boxes_and_cages(puzzle: Puzzle) -> list[Shape]:
    """A Sudoku's box borders or a Jigsaw's region borders (thick) and a Killer's cages: a thin
    line just inside every cage edge and the cage's sum small in its top-left cell (nothing for
    Kakuro)."""
    if not puzzle.regions:
        return []
    shapes = _box_borders(puzzle) if puzzle.box is not None else _region_borders(puzzle)
    inset = CELL * 0.1
    for cage in puzzle.cages:
        cells = {puzzle.cells[i] for i in cage.cells}
        for r, c in cells:
            x, y = c * CELL, r * CELL
            for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (x, y + inset, x + CELL, y + inset)),
                                               ((1, 0), (x, y + CELL - inset, x + CELL, y + CELL - inset)),
                                               ((0, -1), (x + inset, y, x + inset, y + CELL)),
                                               ((0, 1), (x + CELL - inset, y, x + CELL - inset, y + CELL))):
                if (r + dr, c + dc) not in cells:
                    shapes.append(Line(x1, y1, x2, y2, CAGE, 0.8))
        r, c = min(cells)
        shapes.append(Label(c * CELL + CELL * 0.3, r * CELL + CELL * 0.32, str(cage.total), CELL * 0.22, CAGE))
    return shapes


def _box_borders(puzzle: Puzzle) -> list[Shape]:
    """Thick lines between a Sudoku's bands and stacks of boxes, and around the grid."""
    br, bc = puzzle.box or (puzzle.rows, puzzle.cols)
    side = puzzle.rows * CELL
    shapes: list[Shape] = [Line(0, r * CELL, side, r * CELL, INK, 3) for r in range(0, puzzle.rows + 1, br)]
    shapes += [Line(c * CELL, 0, c * CELL, side, INK, 3) for c in range(0, puzzle.cols + 1, bc)]
    return shapes


def _region_borders(puzzle: Puzzle) -> list[Shape]:
    """A Jigsaw's thick lines: around the grid, and along every cell edge between two regions."""
    n, side = puzzle.rows, puzzle.rows * CELL
    owner = {puzzle.cells[c]: k for k, region in enumerate(puzzle.boxes) for c in region.cells}
    shapes: list[Shape] = [Line(0, 0, side, 0, INK, 3), Line(0, side, side, side, INK, 3),
                           Line(0, 0, 0, side, INK, 3), Line(side, 0, side, side, INK, 3)]
    for (r, c), k in sorted(owner.items()):
        if c + 1 < n and owner[(r, c + 1)] != k:
            shapes.append(Line((c + 1) * CELL, r * CELL, (c + 1) * CELL, (r + 1) * CELL, INK, 3))
        if r + 1 < n and owner[(r + 1, c)] != k:
            shapes.append(Line(c * CELL, (r + 1) * CELL, (c + 1) * CELL, (r + 1) * CELL, INK, 3))
    return shapes


def clue_frame(row: int, col: int, key: str = "") -> list[Line]:
    """The frame around the clue at grid position (`row`, `col`) that marks a step's run: its
    top, right, bottom and left sides (ids `key-0` to `key-3` when `key` is given)."""
    inset = 2
    x, y, side = col * CELL + inset, row * CELL + inset, CELL - 2 * inset
    sides = ((x, y, x + side, y), (x + side, y, x + side, y + side), (x, y + side, x + side, y + side), (x, y, x, y + side))
    return [Line(*ends, CLUE_HIGHLIGHT, 3, key=f"{key}-{k}" if key else "") for k, ends in enumerate(sides)]


def digit_label(puzzle: Puzzle, cell: int, digit: int | str, colour: str = INK, bold: bool = False,
                key: str = "") -> Label:
    """The big digit written in white cell `cell`."""
    r, c = puzzle.cells[cell]
    return Label(c * CELL + CELL / 2, r * CELL + CELL * 0.66, str(digit), CELL * 0.5, colour, bold, key)


def candidate_place(puzzle: Puzzle, cell: int, value: int) -> tuple[float, float, float]:
    """(x, y, font size) of candidate `value` drawn small in white cell `cell`: the values of
    the range fill a k x k grid inside the cell (3 x 3 for 1..9), reading order."""
    lo, hi = puzzle.values
    k = math.ceil(math.sqrt(hi - lo + 1))
    r, c = puzzle.cells[cell]
    row, col = divmod(value - lo, k)
    pitch = CELL / k
    return c * CELL + (col + 0.5) * pitch, r * CELL + (row + 0.82) * pitch, pitch * 0.8


def candidate_label(puzzle: Puzzle, cell: int, value: int, colour: str = CANDIDATE_TEXT, bold: bool = False,
                    key: str = "") -> Label:
    """Candidate `value` of white cell `cell`, written small at its `candidate_place`."""
    x, y, size = candidate_place(puzzle, cell, value)
    return Label(x, y, str(value), size, colour, bold, key)


def strike_line(puzzle: Puzzle, cell: int, value: int, key: str = "") -> Line:
    """The line that crosses out candidate `value` of `cell`."""
    x, y, size = candidate_place(puzzle, cell, value)
    half = size * 0.45
    return Line(x - half, y - size * 0.1, x + half, y - size * 0.6, STRUCK, 1.2, key=key)


def _marks_of(puzzle: Puzzle, cell: int, marks: Marks) -> list[Shape]:
    if cell in marks.digits:
        return [digit_label(puzzle, cell, marks.digits[cell])]
    out: list[Shape] = []
    mask = marks.candidates.get(cell, 0)
    struck, kept = marks.struck.get(cell, 0), marks.kept.get(cell, 0)
    for value in range(puzzle.values[0], puzzle.values[1] + 1):
        if not mask >> value & 1:
            continue
        gone, stays = struck >> value & 1, kept >> value & 1
        colour = STRUCK if gone else PLACED if stays else CANDIDATE_TEXT
        out.append(candidate_label(puzzle, cell, value, colour, bold=bool(stays)))
        if gone:
            out.append(strike_line(puzzle, cell, value))
    return out


def to_svg(puzzle: Puzzle, solution: Solution | None = None, marks: Marks | None = None,
           cell_size: float = CELL) -> str:
    """The picture as an SVG document, each grid cell `cell_size` pixels wide at 100% zoom."""
    width, height, shapes = layout(puzzle, solution, marks)
    return svg_document(width, height, shapes, puzzle.id, scale=_scale(cell_size))


def _scale(cell_size: float) -> float:
    """The drawing's scale for `cell_size` pixels per cell (the layout is in `CELL` units)."""
    if not is_number(cell_size) or not 0 < cell_size <= MAX_CELL_SIZE:
        raise UsageError(f"a cell size must be a number of pixels above 0 and at most {MAX_CELL_SIZE}, not {cell_size!r}")
    return cell_size / CELL


def svg_document(width: float, height: float, shapes: list[Shape], title: str | None = None, scale: float = 1.0) -> str:
    """An SVG document drawing `shapes` (a `layout`, perhaps with shapes added) in order, its
    size on screen `scale` times the layout's units."""
    margin = 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{(width + 2 * margin) * scale:g}" '
        f'height="{(height + 2 * margin) * scale:g}" '
        f'viewBox="{-margin} {-margin} {width + 2 * margin} {height + 2 * margin}" font-family="DejaVu Sans, Arial, sans-serif">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for shape in shapes:
        key = f' id="{escape(shape.key)}"' if shape.key else ""
        if isinstance(shape, Box):
            parts.append(f'<rect{key} x="{shape.x}" y="{shape.y}" width="{shape.size}" '
                         f'height="{shape.size}" fill="{shape.fill}"/>')
        elif isinstance(shape, Line):
            parts.append(
                f'<line{key} x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" y2="{shape.y2:g}" stroke="{shape.colour}" '
                f'stroke-width="{shape.width:g}"/>'
            )
        else:
            weight = ' font-weight="bold"' if shape.bold else ""
            parts.append(
                f'<text{key} x="{shape.x:.1f}" y="{shape.y:.1f}" font-size="{shape.size:.1f}" fill="{shape.colour}" '
                f'text-anchor="middle"{weight}>{escape(shape.text)}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def to_png(puzzle: Puzzle, solution: Solution | None = None, dpi: int = 100, marks: Marks | None = None,
           cell_size: float = CELL) -> bytes:
    """The picture drawn with matplotlib (Agg), as PNG bytes, each grid cell about `cell_size`
    pixels wide."""
    scale = _scale(cell_size)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.patches import Rectangle

    width, height, shapes = layout(puzzle, solution, marks)
    figure = pyplot.figure(figsize=(width * scale / dpi, height * scale / dpi), dpi=dpi)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(-1, width + 1)
    axes.set_ylim(height + 1, -1)
    axes.set_axis_off()
    points_per_unit = 72 / dpi * scale
    for shape in shapes:
        if isinstance(shape, Box):
            axes.add_patch(Rectangle((shape.x, shape.y), shape.size, shape.size, facecolor=shape.fill, edgecolor="none"))
        elif isinstance(shape, Line):
            axes.plot([shape.x1, shape.x2], [shape.y1, shape.y2], color=shape.colour, linewidth=0.8 * shape.width * scale)
        else:
            axes.text(
                shape.x, shape.y, shape.text, fontsize=shape.size * points_per_unit, color=shape.colour,
                ha="center", va="baseline", fontweight="bold" if shape.bold else "normal",
            )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, facecolor=PAPER)
    pyplot.close(figure)
    return buffer.getvalue()


def render(
    puzzle: Puzzle,
    path: str | os.PathLike[str],
    *,
    solution: Solution | None = None,
    overwrite: bool = False,
    marks: Marks | None = None,
    cell_size: float = CELL,
) -> Path:
    """Write the picture to `path` (.svg or .png), each grid cell `cell_size` pixels wide;
    never replaces a file unless `overwrite`. `marks` draws a deduction step over the grid
    (see `Marks`)."""
    target = Path(path)
    kind = target.suffix.lower()
    if kind not in (".svg", ".png"):
        raise UsageError(f"{target}: a picture is .svg or .png, not {kind or 'no extension'}")
    _scale(cell_size)  # a bad size is refused before anything else
    refuse_existing(target, overwrite)  # before drawing
    if kind == ".svg":
        data: str | bytes = to_svg(puzzle, solution, marks, cell_size=cell_size)
    else:
        data = to_png(puzzle, solution, marks=marks, cell_size=cell_size)
    return write_new(target, data, overwrite=overwrite)
