"""Plots of a section, sized for one column of a paper (3.5 in wide), with the time limit
drawn and no title (a title belongs in the caption; pass `title=` to draw one anyway).

- cactus: for each backend, its answered puzzles sorted by (median) time: x the number of
  puzzles answered, y the time on a log scale; the time limit is a dashed line and the legend
  says how many puzzles each backend answered out of how many.
- scatter: one point per puzzle, backend A's time against B's on log-log axes with the
  diagonal; puzzles that one of them did not answer are drawn apart, as crosses in a band
  beyond the time limit (and WRONG answers as triangles), never mixed with real times.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

from kakuro.errors import KakuroError
from kakuro.records.record import JobStatus
from kakuro.report.aggregate import PuzzleResult
from kakuro.report.comparison import Section

UNANSWERED_AT = 2.0
"""Where an unanswered puzzle is drawn, in multiples of the time limit."""
SMALLEST = 1e-4
"""Seconds: shorter times are drawn at this time (log axes have no zero)."""
LARGEST = 1e6
"""Seconds: a longer time limit (compare accepts up to 1e300) is drawn at the larger of this
and ten times the slowest answer, with its label giving the real limit."""
HIGHEST = 1e100
"""Seconds: the highest a time or a time limit is drawn (a record may hold up to 1.8e308, more
than the log axes of matplotlib take with their margins)."""
FORMATS = ("png", "pdf", "svg")
"""What `render` writes."""
COLUMN_WIDTH = 3.5
"""Inches: one column of a two-column paper."""
FONT_SIZE = 8
"""Points, for every text of a plot."""
LABEL_CHARS = 80
"""Characters of a name (a backend's, a title) drawn in a plot; a longer one is cut."""


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "kakuro-report"  # the same plot gives the same SVG
    import matplotlib.pyplot as plt

    return plt


def subplots(height: float) -> tuple[Any, Any]:
    """A figure one column wide and `height` inches high, every text `FONT_SIZE` points."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(COLUMN_WIDTH, height))
    axes.tick_params(labelsize=FONT_SIZE)
    return figure, axes


def drawn_limit(limit: float, times: list[float]) -> float:
    """Where a time limit (seconds) is drawn on a log axis: the limit itself, unless it is
    beyond `LARGEST` and ten times the slowest of `times` (then that larger one); always
    between `SMALLEST` and `HIGHEST`."""
    return _drawn(min(limit, max(LARGEST, 10 * max(times, default=0.0))))


def _limit_text(limit: float, drawn: float) -> str:
    return f"time limit {limit:g} s" + ("" if drawn == limit else f" (drawn at {drawn:g} s)")


def cactus(section: Section, backends: list[str], *, title: str | None = None) -> Any:
    """The cactus plot of `backends` (in legend order) over the section's puzzles; a time
    limit too large to draw (see `drawn_limit`) is drawn lower with its real value in the label."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = subplots(3.4)
    total = len(section.puzzles)
    answered = [r.time for r in section.results if r.backend in backends and r.answered and r.time is not None]
    limit = drawn_limit(section.time_limit, answered)
    lowest = limit
    lines, labels = [], []
    for backend in backends:
        mine = [r for r in section.results if r.backend == backend]
        times = sorted(_drawn(r.time) for r in mine if r.answered and r.time is not None)
        if times:
            lowest = min(lowest, times[0])
            drawn = axes.step(range(1, len(times) + 1), times, where="post", marker="." if len(times) < 40 else None)
        else:
            drawn = axes.plot([], [])
        lines.append(drawn[0])
        labels.append(f"{literal(backend)} ({len(times)}/{len(mine)} answered)")
    axes.axhline(limit, color="black", linestyle="--", linewidth=1)
    axes.text(0.01, limit, " " + _limit_text(section.time_limit, limit), transform=axes.get_yaxis_transform(),
              va="bottom", fontsize=FONT_SIZE - 1)
    axes.set_yscale("log")
    axes.set_ylim(lowest / 2, limit * 2)
    axes.set_xlim(0, max(total, 1) + 0.5)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("puzzles answered (SOLVED or UNSATISFIABLE)", fontsize=FONT_SIZE)
    axes.set_ylabel("median time per puzzle (s, log scale)", fontsize=FONT_SIZE)
    if title is not None:
        axes.set_title(f"{literal(title)}\ncactus plot: {total} puzzles, {_limit_text(section.time_limit, limit)}",
                       fontsize=FONT_SIZE, parse_math=False)
    axes.grid(True, which="both", alpha=0.3)
    _legend_below(axes, lines, labels)
    tight(figure)
    return figure


def scatter(section: Section, a: str, b: str, *, title: str | None = None) -> Any:
    """Backend `a`'s time (x) against `b`'s (y) on the puzzles both ran; the time limit is
    drawn as `drawn_limit` says."""
    mine: dict[str, dict[tuple[str, str], PuzzleResult]] = {a: {}, b: {}}
    for result in section.results:
        if result.backend in mine:
            mine[result.backend][result.puzzle] = result
    shared = [p for p in mine[a] if p in mine[b]]
    answered = [t for n in (a, b) for p in shared if mine[n][p].answered and (t := mine[n][p].time) is not None]
    limit = drawn_limit(section.time_limit, answered)
    out = limit * UNANSWERED_AT
    kinds: dict[str, tuple[list[float], list[float]]] = {"both answered": ([], []), "unanswered by one or both": ([], []),
                                                        "a wrong answer": ([], [])}
    for puzzle in shared:
        x, y = (_position(mine[name][puzzle], out) for name in (a, b))
        wrong = any(mine[name][puzzle].status is JobStatus.WRONG for name in (a, b))
        kind = "a wrong answer" if wrong else "both answered" if x < out and y < out else "unanswered by one or both"
        kinds[kind][0].append(x)
        kinds[kind][1].append(y)
    figure, axes = subplots(4.0)
    times = [v for xs, ys in kinds.values() for v in xs + ys if v < out]
    low = min(times, default=limit / 10) / 2
    high = out * 1.4
    axes.axvspan(limit, high, color="grey", alpha=0.12, linewidth=0)
    axes.axhspan(limit, high, color="grey", alpha=0.12, linewidth=0)
    axes.axvline(limit, color="black", linestyle="--", linewidth=1)
    axes.axhline(limit, color="black", linestyle="--", linewidth=1)
    axes.plot([low, high], [low, high], color="grey", linewidth=0.8)
    styles = {"both answered": ("o", "tab:blue"), "unanswered by one or both": ("x", "tab:red"),
              "a wrong answer": ("v", "black")}
    points, labels = [], []
    for kind, (xs, ys) in kinds.items():
        if xs:
            marker, color = styles[kind]
            labels.append(f"{kind} ({len(xs)})")
            points.append(axes.scatter(xs, ys, s=16, marker=marker, color=color, alpha=0.75, label=labels[-1]))
    axes.text(out, low * 1.1, "unanswered", rotation=90, ha="center", va="bottom", fontsize=FONT_SIZE)
    axes.text(limit / 1.2, out, "unanswered", ha="right", va="center", fontsize=FONT_SIZE)
    axes.text(limit, low * 1.1, " " + _limit_text(section.time_limit, limit).replace("time limit", "limit"),
              rotation=90, ha="right", va="bottom", fontsize=FONT_SIZE - 1)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_xlabel(f"{literal(a)}: median time (s)", fontsize=FONT_SIZE, parse_math=False)
    axes.set_ylabel(f"{literal(b)}: median time (s)", fontsize=FONT_SIZE, parse_math=False)
    if title is not None:
        axes.set_title(f"{literal(title)}\n{literal(a)} vs {literal(b)}: {len(shared)} puzzles, "
                       f"{_limit_text(section.time_limit, limit)}", fontsize=FONT_SIZE, parse_math=False)
    axes.grid(True, which="both", alpha=0.3)
    if shared:
        _legend_below(axes, points, labels)
    tight(figure)
    return figure


def tight(figure: Any) -> None:
    """Margins fitted to the texts; a long backend name that cannot fit widens the saved
    picture instead (`render` saves with a tight bounding box), without a warning."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Tight layout not applied", UserWarning)
        figure.tight_layout()


def _legend_below(axes: Any, handles: list[Any], labels: list[str]) -> None:
    """The legend under the plot, where it hides no point. Its labels are given, not taken from
    the artists (which hides a name starting with `_`), and drawn as typed (no mathtext)."""
    legend = axes.legend(handles, labels, fontsize=FONT_SIZE, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1,
                         frameon=False)
    for text in legend.get_texts():
        text.set_parse_math(False)


def literal(name: str) -> str:
    """`name` as a plot draws it, to be drawn with `parse_math=False` (`$...$` shown as typed,
    not as mathtext): cut to `LABEL_CHARS`, and a lone surrogate (an undecodable byte of a file
    name) written `\\udcff`, as no font can draw it."""
    if len(name) > LABEL_CHARS:
        name = name[: LABEL_CHARS - 3] + "..."
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _position(result: PuzzleResult, out: float) -> float:
    if result.answered and result.time is not None:
        return _drawn(result.time)
    return out


def _drawn(seconds: float) -> float:
    """Where a time is drawn on a log axis: between `SMALLEST` and `HIGHEST`."""
    return min(max(seconds, SMALLEST), HIGHEST)


def render(figure: Any, kind: str) -> bytes:
    """The figure as `png` (300 dpi), `pdf` or `svg` bytes (the same figure gives the same
    bytes: no dates are written), then closes it."""
    plt = _pyplot()
    if kind not in FORMATS:
        plt.close(figure)
        raise KakuroError(f"plot format {kind!r}: use {', '.join(FORMATS)}")
    dates = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}.get(kind)
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format=kind, dpi=300, metadata=dates, bbox_inches="tight")
    finally:
        plt.close(figure)
    return buffer.getvalue()


FILE_NAME_CHARS = 40
"""Characters of a backend's name kept in a plot's file name (a name has at most 255 bytes)."""


def safe_name(text: str) -> str:
    """`text` as a file-name part: letters, digits, - and _ kept, anything else `_`; cut to
    `FILE_NAME_CHARS`."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text[:FILE_NAME_CHARS])
