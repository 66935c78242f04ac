"""Pictures of puzzles as a puzzle book prints them: SVG (text) or PNG (matplotlib).

Black cells are dark; a clue cell is split by a diagonal from its top-left to its bottom-right
corner, the down sum in the lower-left triangle and the across sum in the upper-right one;
givens are bold, solution digits (when a solution is drawn) are blue. One layout function
(`layout`) produces the shapes; the SVG writer and the matplotlib painter only draw them.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from kakuro.errors import KakuroError
from kakuro.files import refuse_existing, write_new
from kakuro.puzzle import Puzzle, Solution

CELL = 40
"""Side of one grid cell in SVG user units (pixels at 100% zoom)."""
INK = "#1b1b1b"
PAPER = "#ffffff"
CLUE_TEXT = "#ffffff"
SOLUTION_TEXT = "#1f5fbf"


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    size: float
    fill: str


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    size: float
    colour: str
    bold: bool = False


Shape = Box | Line | Label


def layout(puzzle: Puzzle, solution: Solution | None = None) -> tuple[float, float, list[Shape]]:
    """(width, height, shapes) of the picture; y grows downwards, units as `CELL`."""
    if solution is not None and solution.puzzle != puzzle:
        raise KakuroError("the solution belongs to another puzzle")
    shapes: list[Shape] = []
    white = set(puzzle.cells)
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            x, y = c * CELL, r * CELL
            if (r, c) in white:
                shapes.append(Box(x, y, CELL, PAPER))
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
    for i, (r, c) in enumerate(puzzle.cells):
        cx, cy = c * CELL + CELL / 2, r * CELL + CELL * 0.66
        if i in puzzle.givens:
            shapes.append(Label(cx, cy, str(puzzle.givens[i]), CELL * 0.5, INK, bold=True))
        elif solution is not None:
            shapes.append(Label(cx, cy, str(solution.values[i]), CELL * 0.5, SOLUTION_TEXT))
    width, height = puzzle.cols * CELL, puzzle.rows * CELL
    for r in range(puzzle.rows + 1):
        shapes.append(Line(0, r * CELL, width, r * CELL, INK))
    for c in range(puzzle.cols + 1):
        shapes.append(Line(c * CELL, 0, c * CELL, height, INK))
    return width, height, shapes


def to_svg(puzzle: Puzzle, solution: Solution | None = None) -> str:
    """The picture as an SVG document."""
    width, height, shapes = layout(puzzle, solution)
    margin = 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2 * margin}" height="{height + 2 * margin}" '
        f'viewBox="{-margin} {-margin} {width + 2 * margin} {height + 2 * margin}" font-family="DejaVu Sans, Arial, sans-serif">'
    ]
    if puzzle.id:
        parts.append(f"<title>{escape(puzzle.id)}</title>")
    for shape in shapes:
        if isinstance(shape, Box):
            parts.append(f'<rect x="{shape.x}" y="{shape.y}" width="{shape.size}" height="{shape.size}" fill="{shape.fill}"/>')
        elif isinstance(shape, Line):
            parts.append(
                f'<line x1="{shape.x1}" y1="{shape.y1}" x2="{shape.x2}" y2="{shape.y2}" stroke="{shape.colour}" stroke-width="1"/>'
            )
        else:
            weight = ' font-weight="bold"' if shape.bold else ""
            parts.append(
                f'<text x="{shape.x:.1f}" y="{shape.y:.1f}" font-size="{shape.size:.1f}" fill="{shape.colour}" '
                f'text-anchor="middle"{weight}>{escape(shape.text)}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def to_png(puzzle: Puzzle, solution: Solution | None = None, dpi: int = 100) -> bytes:
    """The picture drawn with matplotlib (Agg), as PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.patches import Rectangle

    width, height, shapes = layout(puzzle, solution)
    figure = pyplot.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(-1, width + 1)
    axes.set_ylim(height + 1, -1)
    axes.set_axis_off()
    points_per_unit = 72 / dpi
    for shape in shapes:
        if isinstance(shape, Box):
            axes.add_patch(Rectangle((shape.x, shape.y), shape.size, shape.size, facecolor=shape.fill, edgecolor="none"))
        elif isinstance(shape, Line):
            axes.plot([shape.x1, shape.x2], [shape.y1, shape.y2], color=shape.colour, linewidth=0.8)
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
) -> Path:
    """Write the picture to `path` (.svg or .png); never replaces a file unless `overwrite`."""
    target = Path(path)
    kind = target.suffix.lower()
    if kind not in (".svg", ".png"):
        raise KakuroError(f"{target}: a picture is .svg or .png, not {kind or 'no extension'}")
    refuse_existing(target, overwrite)  # before drawing
    data = to_svg(puzzle, solution) if kind == ".svg" else to_png(puzzle, solution)
    return write_new(target, data, overwrite=overwrite)
