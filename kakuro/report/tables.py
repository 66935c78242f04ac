"""The report's tables as data (`Table`), whatever they are rendered to: the summary per
backend, the summary per group, the per-puzzle table and the raw runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kakuro.records.record import JobStatus
from kakuro.report.aggregate import PuzzleResult
from kakuro.report.comparison import Section
from kakuro.report.per_puzzle import per_puzzle
from kakuro.report.summary import ALL, COUNTED, Row, summarize

Cell = str | int | float | None
"""A table cell: text, a count, seconds (shown with three decimals), or empty."""


@dataclass(frozen=True)
class Table:
    """A titled table. `bold` marks cells (row, column) to emphasize (the best ones); `keys`,
    when given, holds a sort key per cell (numbers sort numerically, None last)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    bold: frozenset[tuple[int, int]] = frozenset()
    keys: tuple[tuple[Any, ...], ...] | None = None
    text_columns: frozenset[int] = field(default_factory=lambda: frozenset({0}))
    """Columns of text (left-aligned); the others hold numbers."""
    caption: str = ""
    """One or two sentences under the title saying what the numbers mean (empty: none)."""


HUGE = 1e7
"""Seconds from which a time (a PAR-2 of twice a 1e300 s limit) is written in e-notation."""
UNSATISFIABLE_MARK = "unsatisfiable"
"""Follows the time of an answer that there is no solution, in the per-puzzle table."""
ROOT_MARK = "\u2020"
"""A dagger: follows the time of an answer decided by root propagation, with no search."""
CERTIFIED_MARK = "certified"
"""Follows `UNSATISFIABLE_MARK` for an answer of no solution with a verified certificate
(`--certify`)."""
MARKS_LEGEND = f"{UNSATISFIABLE_MARK}: no solution; {ROOT_MARK}: decided by root propagation, no search"
CERTIFIED_LEGEND = f"{UNSATISFIABLE_MARK} {CERTIFIED_MARK}: with a verified proof"
"""Joins `MARKS_LEGEND` in a per-puzzle table that holds a certified answer."""


def seconds(value: float) -> str:
    """Seconds with three decimals; a time too short for that is `<0.001`, not `0.000`, and
    one of `HUGE` seconds or more is in e-notation (`2.000e+300`), not 301 digits."""
    if 0 < value < 0.0005:
        return "<0.001"
    return f"{value:.3e}" if abs(value) >= HUGE else f"{value:.3f}"


def show(value: Cell) -> str:
    """A cell as text: seconds (floats) as `seconds` says, None as empty; in a text, a lone
    surrogate (an undecodable byte of a file name, or a hostile record's) is written `\\udcff`,
    which every output (UTF-8 files, a terminal, HTML, LaTeX) can hold and a reader sees."""
    if value is None:
        return ""
    if isinstance(value, float):
        return seconds(value)
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


def cell_text(result: PuzzleResult | None, *, spread: bool = True) -> str:
    """A per-puzzle cell: the median time (`0.012`, with the fastest and slowest answered run as
    `0.012 [0.010, 0.015]` when there are several), followed by `ROOT_MARK` when root propagation
    decided it and by `UNSATISFIABLE_MARK` for an answer of no solution; else the status in lower
    case; `-` for a puzzle the backend did not run."""
    if result is None:
        return "-"
    if not result.answered or result.time is None:
        return result.status.value.lower()
    text = seconds(result.time)
    if result.root_solved:
        text += ROOT_MARK
    if spread and result.answered_runs > 1 and result.low is not None and result.high is not None:
        text += f" [{seconds(result.low)}, {seconds(result.high)}]"
    if result.status is JobStatus.UNSATISFIABLE:
        text += f" {UNSATISFIABLE_MARK}" + (f" {CERTIFIED_MARK}" if result.certified else "")
    return text


def summary_table(section: Section, rows: Sequence[Row] | None = None) -> Table:
    """One row per backend, best PAR-2 first (bold; no winner over no puzzles). Status columns that
    are zero for every backend are left out, except solved and wrong; the `root-solved` column
    (answers decided by root propagation, no search; empty where not reported) is there when a
    backend reports it, and the `unsatisfiable certified` column (UNSATISFIABLE answers with a
    verified certificate) when a campaign was run with `--certify`."""
    rows = [row for row in (rows if rows is not None else summarize(section)) if row.group == ALL]
    nonzero = [n for n in COUNTED if n not in ("solved", "wrong") and any(row.counts[n] for row in rows)]
    before = ["solved"] + [n for n in nonzero if n == "unsatisfiable"]
    after = ["wrong"] + [n for n in nonzero if n != "unsatisfiable"]
    repeated = any(row.runs != row.puzzles for row in rows)
    root = any(row.root_solved is not None for row in rows)
    certified = any(row.certified is not None for row in rows)
    header = ("backend", *before, *(["unsatisfiable certified"] if certified else []), *(["root-solved"] if root else []),
              "puzzles", *(["runs"] if repeated else []), *after, "time (s)", "median (s)", "PAR-2 (s)")
    body = tuple(
        (row.backend, *(row.counts[n] for n in before), *([row.certified] if certified else []),
         *([row.root_solved] if root else []), row.puzzles,
         *([row.runs] if repeated else []), *(row.counts[n] for n in after), row.time_total, row.time_median, row.par2)
        for row in rows
    )
    best = min((row.par2 for row in rows if row.puzzles), default=None)
    bold = frozenset((i, len(header) - 1) for i, row in enumerate(rows) if row.puzzles and row.par2 == best)
    return Table(f"Backends, time limit {section.time_limit:g} s", header, body, bold)


def group_table(section: Section, rows: Sequence[Row], group_by: str) -> Table | None:
    """The per-group summary (answered = solved + unsatisfiable), or None with a single group."""
    grouped = [row for row in rows if row.group != ALL]
    if not grouped:
        return None
    header = (group_by, "backend", "answered", "puzzles", "wrong", "median (s)", "PAR-2 (s)")
    body = tuple((row.group, row.backend, row.answered, row.puzzles, row.counts["wrong"], row.time_median, row.par2)
                 for row in grouped)
    return Table(f"Per {group_by}, time limit {section.time_limit:g} s", header, body, text_columns=frozenset({0, 1}))


def puzzle_table(section: Section, backends: Sequence[str], *, spread: bool = True) -> Table:
    """A row per puzzle and a column per backend (in `backends` order): the median time, or
    the status; the best time of each row in bold. Sort keys are PAR-2 scores."""
    rows = per_puzzle(section, backends)
    header = ("puzzle", "source", *backends)
    body: list[tuple[Cell, ...]] = []
    keys: list[tuple[Any, ...]] = []
    bold: set[tuple[int, int]] = set()
    for i, row in enumerate(rows):
        results = [row.results[b] for b in backends]
        body.append((row.instance, Path(row.source).stem, *(cell_text(r, spread=spread) for r in results)))
        keys.append((row.instance, Path(row.source).stem, *(None if r is None else r.score for r in results)))
        bold.update((i, 2 + j) for j, b in enumerate(backends) if b in row.best)
    certified = any(r is not None and r.certified for row in rows for r in row.results.values())
    legend = f"{MARKS_LEGEND}; {CERTIFIED_LEGEND}" if certified else MARKS_LEGEND
    return Table(f"Per puzzle, time limit {section.time_limit:g} s (median time in seconds, best in bold; {legend})",
                 header, tuple(body), frozenset(bold), tuple(keys), frozenset({0, 1}))


RUN_COLUMNS = ("puzzle", "source", "backend", "seed", "repeat", "status", "time (s)", "wall (s)", "peak RSS (MiB)",
               "message")


def runs_table(section: Section) -> Table:
    """Every effective run of the section: the raw rows behind the aggregates."""
    body = tuple(
        (r.instance, r.source, r.backend, r.seed, r.repeat, r.status.value, r.time, r.wall, r.peak_rss_mb, r.message)
        for r in section.runs
    )
    return Table(f"All {len(body)} runs, time limit {section.time_limit:g} s", RUN_COLUMNS, body,
                 text_columns=frozenset({0, 1, 2, 5, 9}))
