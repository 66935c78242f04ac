"""Plain renderings: Markdown (which also reads as plain text), CSV, and the summary printed
on a terminal (rich tables) or into a pipe (Markdown)."""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from kakuro.records.record import Record
from kakuro.report.analysis import SGM_SHIFT
from kakuro.report.comparison import Scope, Section, sections
from kakuro.report.conclusions import analysis_tables
from kakuro.report.per_puzzle import per_puzzle
from kakuro.report.runs import repeats
from kakuro.report.summary import COUNTED, Row, ranking, summarize
from kakuro.report.tables import Table, group_table, show, summary_table


def markdown(table: Table, *, title: bool = True) -> str:
    """A Markdown table (columns padded, so it also reads as plain text), bold cells as
    `**...**`, under a `###` title."""
    text = [list(table.header)] + [
        [f"**{show(c)}**" if (i, j) in table.bold and show(c) else show(c) for j, c in enumerate(row)]
        for i, row in enumerate(table.rows)
    ]
    widths = [max(len(line[i]) for line in text) for i in range(len(table.header))]
    lines = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths)) + " |" for line in text]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    caption = f"\n{show(table.caption)}\n" if table.caption else ""
    return (f"### {table.title}\n\n" if title else "") + "\n".join(lines) + "\n" + caption


def heading(section: Section, title: str) -> str:
    """One line saying what a section holds: title, runs, puzzles, limit, repeats."""
    text = f"{title}: " if title else ""
    text += f"{len(section.runs)} runs, {len(section.puzzles)} puzzles compared, time limit {section.time_limit:g} s"
    counts = repeats(section.runs)
    if set(counts) - {1}:
        text += f"; repeats aggregated per (puzzle, backend): median time, solved by majority ({_runs_text(counts)})"
    return text


def _runs_text(counts: Any) -> str:
    return ", ".join(f"{pairs} pair{'s' if pairs > 1 else ''} with {n} run{'s' if n > 1 else ''}"
                     for n, pairs in sorted(counts.items()))


def section_tables(section: Section, group_by: str, sgm_shift: float = SGM_SHIFT) -> list[Table]:
    """The tables of a section: the summary per backend, then per group when there are several,
    then the analysis (`kakuro.report.conclusions`: conclusions, pairwise tests, per group);
    none when there is nothing to compare (`Section.empty`: its note says so)."""
    if section.empty:
        return []
    rows = summarize(section, group_by=group_by)
    grouped = group_table(section, rows, group_by)
    return [summary_table(section, rows), *([grouped] if grouped else []), *analysis_tables(section, group_by, sgm_shift)]


def markdown_report(parts: Sequence[Section], *, group_by: str = "source", title: str = "",
                    sgm_shift: float = SGM_SHIFT) -> str:
    """Every section's heading, note and summary tables as Markdown."""
    out = []
    for section in parts:
        out.append(heading(section, title) + "\n\n" + "\n\n".join(section.notes()) + "\n")
        out.extend(markdown(table) for table in section_tables(section, group_by, sgm_shift))
    return "\n".join(out)


def print_summary(
    records: Sequence[Record],
    *,
    group_by: str = "source",
    title: str = "",
    scope: Scope = "common",
    file: TextIO | None = None,
) -> list[Section]:
    """Print the summary of `records` with a section per time limit (see `print_sections`).
    Returns the sections."""
    parts = sections(records, by_limit=True, scope=scope)
    print_sections(parts, group_by=group_by, title=title, file=file)
    return parts


def print_sections(
    parts: Sequence[Section], *, group_by: str = "source", title: str = "", file: TextIO | None = None,
    sgm_shift: float = SGM_SHIFT,
) -> None:
    """Print each section's heading, note and tables (`section_tables`): rich tables on a
    terminal wide enough, Markdown otherwise."""
    from rich import box
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text

    stream = file if file is not None else sys.stdout
    if not parts:
        print((f"{title}: " if title else "") + "no results", file=stream)
        return
    console = Console(file=stream)
    for section in parts:
        tables = section_tables(section, group_by, sgm_shift)
        widths = [sum(max([len(h), *(len(show(row[i])) for row in t.rows)]) + 3 for i, h in enumerate(t.header))
                  for t in tables]
        if not console.is_terminal or max(widths, default=0) > console.width:  # too wide: plain text stays whole
            print(heading(section, title) + "\n\n" + "\n\n".join(section.notes()) + "\n", file=stream)
            print("\n".join(markdown(t) for t in tables), file=stream)
            continue
        console.print(heading(section, title), highlight=False, markup=False)  # a name is shown as it is:
        for note in section.notes():  # '[/]' is no markup here
            console.print(note, highlight=False, markup=False)
        for table in tables:
            drawn = RichTable(title=Text(table.title), box=box.SIMPLE_HEAD)
            for j, column in enumerate(table.header):
                drawn.add_column(column, justify="left" if j in table.text_columns else "right", no_wrap=True)
            for i, row in enumerate(table.rows):
                drawn.add_row(*(Text(show(c), style="bold" if (i, j) in table.bold else "") for j, c in enumerate(row)))
            console.print(drawn)
            if table.caption:
                console.print(show(table.caption), highlight=False, markup=False)


SUMMARY_COLUMNS = ("time limit (s)", "group", "backend", "puzzles", "runs", *COUNTED, "time (s)", "median (s)", "PAR-2 (s)",
                   "root solved", "unsatisfiable certified")
"""`root solved`: answers decided by root propagation, no search; `unsatisfiable certified`:
UNSATISFIABLE answers with a verified certificate (`--certify`); empty: not reported."""


def summary_csv(parts: Sequence[Section], *, group_by: str = "source") -> str:
    """Every summary row of every section (group `all` first) as CSV, times in seconds."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(SUMMARY_COLUMNS)
    for section in parts:
        for row in summarize(section, group_by=group_by):
            writer.writerow(_csv_row(section, row))
    return buffer.getvalue()


def _csv_row(section: Section, row: Row) -> list[Any]:
    return [f"{section.time_limit:g}", row.group, row.backend, row.puzzles, row.runs,
            *(row.counts[name] for name in COUNTED), row.time_total, _blank(row.time_median), row.par2,
            _blank(row.root_solved), _blank(row.certified)]


def per_puzzle_csv(parts: Sequence[Section]) -> str:
    """The per-puzzle table of every section as CSV (a header per section, backends best PAR-2
    first): for each backend its aggregated status, median time, fastest and slowest answered run
    (seconds), number of runs, whether root propagation decided the answer and whether an
    UNSATISFIABLE answer is certified (true, false, or empty: not reported); then the best
    backends."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for section in parts:
        backends = ranking(section)
        writer.writerow(["time limit (s)", "puzzle", "source", "digest", "rows", "cols",
                         *(f"{b}: {field}" for b in backends
                           for field in ("status", "time (s)", "min (s)", "max (s)", "runs", "root solved",
                                                         "certified")),
                         "best"])
        for row in per_puzzle(section, backends):
            cells: list[Any] = []
            for b in backends:
                r = row.results[b]
                cells += ["", "", "", "", 0, "", ""] if r is None else [
                    r.status.value, _blank(r.time), _blank(r.low), _blank(r.high), len(r.runs),
                    _flag(r.root_solved), _flag(r.certified)]
            writer.writerow([f"{section.time_limit:g}", row.instance, row.source, row.digest, _blank(row.rows),
                             _blank(row.cols), *cells, " ".join(b for b in backends if b in row.best)])
    return buffer.getvalue()


def _flag(value: bool | None) -> str:
    """`true`, `false`, or empty for not reported."""
    return "" if value is None else str(value).lower()


def _blank(value: Any) -> Any:
    return "" if value is None else value
