"""`python -m kakuro.report FILE...`: tables, PAR-2, per-puzzle tables, LaTeX, HTML and plots
from compare results files. Returns 0, or 1 for unreadable input, a silent mix of time
limits, or an output file that exists (never overwritten unless --force)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from kakuro.arguments import positive_seconds, run_command
from kakuro.compare.results import Record, read_results
from kakuro.errors import KakuroError
from kakuro.report.about import about
from kakuro.report.comparison import Section, sections
from kakuro.files import refuse_existing, write_new
from kakuro.report.html import html_report
from kakuro.report.latex import per_puzzle_latex, summary_latex
from kakuro.report.plots import cactus, render, safe_name, scatter
from kakuro.report.summary import GROUPINGS, ranking
from kakuro.report.tables import puzzle_table
from kakuro.report.text import markdown, markdown_report, per_puzzle_csv, print_sections, summary_csv

PER_PUZZLE_FORMATS = (".csv", ".md", ".tex")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kakuro.report",
        description="Tables, PAR-2, per-puzzle tables, LaTeX, HTML and plots from kakuro.compare results files (JSON lines).",
        epilog="Backends are compared on the puzzles they all ran; repeats are aggregated per (puzzle, backend): median "
        "time, solved by majority, WRONG if any run is. PAR-2: mean over puzzles of the time when answered (SOLVED/UNSAT), "
        "else 2x the time limit.",
    )
    p.add_argument("results", nargs="+", metavar="FILE", help="results files; records of several files are merged")
    p.add_argument("--group", choices=GROUPINGS, default="source", help="group by puzzle file (default) or grid size")
    p.add_argument("--time-limit", type=positive_seconds, default=None, metavar="S",
                   help="report only the runs with this time limit (needed when the files mix limits, unless --by-limit)")
    p.add_argument("--by-limit", action="store_true", help="when the files mix time limits, a separate report per limit")
    p.add_argument("--puzzles", choices=("common", "each"), default="common",
                   help="compare backends on the puzzles they all ran (default), or each on all its own puzzles")
    p.add_argument("--title", default=None, help="the campaign's title in plots and reports (default: the file names)")
    p.add_argument("--csv", metavar="FILE", help="write every summary row (group 'all' first) as CSV")
    p.add_argument("--markdown", metavar="FILE", help="write the summary tables as Markdown")
    p.add_argument("--latex", metavar="FILE", help="write the summary tables as LaTeX (booktabs)")
    p.add_argument("--per-puzzle", metavar="FILE",
                   help="write the per-puzzle table (a row per puzzle, a column per backend, best time marked) as "
                   ".csv, .md or .tex (booktabs longtable), by the file's extension")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report (sortable tables, plots, campaign facts)")
    p.add_argument("--plot", metavar="DIR", help="write cactus.png and scatter plots (PNG) into DIR")
    p.add_argument("--scatter", nargs=2, metavar=("A", "B"),
                   help="the two backends of the scatter plot (default: the best against the next ones)")
    p.add_argument("--force", action="store_true", help="replace existing output files")
    p.add_argument("--overwrite", dest="force", action="store_true", help=argparse.SUPPRESS)  # its old name
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m kakuro.report`; returns the exit status (see the module docstring)."""
    args = parser().parse_args(argv)
    return run_command("kakuro.report", lambda: _report(args))


def _report(args: argparse.Namespace) -> int:
    warn = lambda text: print(f"warning: {text}", file=sys.stderr)  # noqa: E731
    try:
        if args.per_puzzle and Path(args.per_puzzle).suffix.lower() not in PER_PUZZLE_FORMATS:
            raise KakuroError(f"--per-puzzle {args.per_puzzle}: use a file ending in {', '.join(PER_PUZZLE_FORMATS)}")
        records: list[Record] = [r for path in args.results for r in read_results(path, warn=warn)]
        title = args.title or ", ".join(Path(path).stem for path in args.results)
        parts = sections(records, time_limit=args.time_limit, by_limit=args.by_limit, scope=args.puzzles)
        pairs = _pairs(parts, args.scatter)
        print_sections(parts, group_by=args.group, title=title)
        for path, data in _outputs(args, records, parts, title, pairs):
            print(f"wrote {write_new(path, data, overwrite=args.force)}")
    except KakuroError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _pairs(parts: Sequence[Section], chosen: Sequence[str] | None) -> list[tuple[str, str]] | None:
    """The `--scatter` pair, checked against every section's backends (None: the default)."""
    if chosen is None:
        return None
    for section in parts:
        missing = [name for name in chosen if name not in section.backends]
        if missing:
            raise KakuroError(f"--scatter: no results for {', '.join(missing)} (time limit {section.time_limit:g} s); "
                              f"backends: {', '.join(section.backends)}")
    return [(chosen[0], chosen[1])]


def _outputs(
    args: argparse.Namespace, records: Sequence[Record], parts: Sequence[Section], title: str,
    pairs: list[tuple[str, str]] | None,
) -> list[tuple[Path, str | bytes]]:
    """Every file asked for, as (path, content), made before any is written."""
    out: list[tuple[Path, str | bytes]] = []
    if args.csv:
        out.append((Path(args.csv), summary_csv(parts, group_by=args.group)))
    if args.markdown:
        out.append((Path(args.markdown), markdown_report(parts, group_by=args.group, title=title)))
    if args.latex:
        out.append((Path(args.latex), summary_latex(parts, group_by=args.group, title=title)))
    if args.per_puzzle:
        path = Path(args.per_puzzle)
        kind = path.suffix.lower()
        if kind == ".csv":
            text = per_puzzle_csv(parts)
        elif kind == ".tex":
            text = per_puzzle_latex(parts, title=title)
        else:
            text = "\n".join(markdown(puzzle_table(section, ranking(section))) for section in parts)
        out.append((path, text))
    if args.html:
        facts = about(records, title=title, files=args.results)
        out.append((Path(args.html), html_report(parts, facts, group_by=args.group, pairs=pairs)))
    if args.plot:
        folder = Path(args.plot)
        for section in parts:
            suffix = f"-{section.time_limit:g}s".replace(".", "_") if len(parts) > 1 else ""
            order = ranking(section)
            out.append((folder / f"cactus{suffix}.png", render(cactus(section, order, title=title), "png")))
            chosen = pairs if pairs is not None else [(order[0], b) for b in order[1:2]]
            for a, b in chosen:
                name = f"scatter-{safe_name(a)}-vs-{safe_name(b)}{suffix}.png"
                out.append((folder / name, render(scatter(section, a, b, title=title), "png")))
    refuse_existing([path for path, _ in out], args.force)
    return out
