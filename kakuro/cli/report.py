"""`kakuro report FILE...` (and `python -m kakuro.report`): tables, PAR-2, per-puzzle tables,
LaTeX, HTML and plots from compare results files (the renderers are `kakuro.report`, imported
when the command runs).

Exit codes (`kakuro.cli.exits`): 0 done; 1 for unreadable input, a silent mix of time limits,
backends that ran no puzzle in common (nothing to compare), an output file that exists (never
overwritten unless --force; checked before anything is printed) or an output that cannot be
written (then none is written); 2 for a usage error."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kakuro.cli.arguments import CommandParser, positive_seconds
from kakuro.cli.exits import EXIT_ERROR, EXIT_OK
from kakuro.errors import KakuroError, UsageError, did_you_mean
from kakuro.files import refuse_existing, write_all

if TYPE_CHECKING:
    from kakuro.records.record import Record
    from kakuro.report.comparison import Section

PER_PUZZLE_FORMATS = (".csv", ".md", ".tex")
GROUPINGS = ("source", "size")
"""How the summary's rows are grouped: `kakuro.report.summary.GROUPINGS`, written here so that
the parser is built without importing the report (a test checks they are the same)."""
PLOT_FORMATS = ("png", "pdf", "svg")
"""The plots' file formats: `kakuro.report.plots.FORMATS`, likewise."""
Output = tuple[Path, Callable[[], str | bytes]]
"""A file asked for: its path, and how to make its content."""

PROG = "python -m kakuro.report"
"""The program's name in usage lines of `python -m kakuro.report`."""
HELP = "tables, PAR-2, LaTeX, HTML and plots from compare results files (kakuro report --help)"
DESCRIPTION = "Tables, PAR-2, per-puzzle tables, LaTeX, HTML and plots from kakuro.compare results files (JSON lines)."
EPILOG = (
    "Backends are compared on the puzzles they all ran; repeats are aggregated per (puzzle, backend): median "
    "time, solved by majority, WRONG if any run is. PAR-2: mean over puzzles of the time when answered (SOLVED/UNSATISFIABLE), "
    "else 2x the time limit. Every output file is checked before anything is printed, and they are written all or "
    f"none. Exit codes as kakuro --help lists them: {EXIT_OK} done; {EXIT_ERROR} unreadable input, mixed time "
    "limits, backends that ran no puzzle in common (nothing to compare), an output that exists or cannot be written."
)


def add_commands(commands: Any) -> None:
    """Add `report` to the `kakuro` parser's subparsers."""
    _declare(commands.add_parser("report", help=HELP, description=DESCRIPTION, epilog=EPILOG))


def parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The parser of `python -m kakuro.report` (named `prog` in its usage): the arguments of
    `kakuro report`."""
    return _declare(CommandParser(prog=prog, description=DESCRIPTION, epilog=EPILOG))


def main(argv: Sequence[str] | None = None, *, prog: str = PROG) -> int:
    """`python -m kakuro.report ARGV` (default: sys.argv[1:]); returns the exit code."""
    from kakuro.cli import run_program

    return run_program(lambda: parser(prog), argv)


def _declare(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of a report, on `p`."""
    p.add_argument("results", nargs="+", metavar="FILE",
                   help="results files (records of several files are merged), or runs tables of any harness: CSV with "
                   "the columns solver, instance, status, time (seconds), which need --time-limit")
    p.add_argument("--group", choices=GROUPINGS, default="source", help="group by puzzle file (default) or grid size")
    p.add_argument("--time-limit", type=positive_seconds, default=None, metavar="S",
                   help="report only the runs with this time limit (needed when the files mix limits, unless --by-limit); "
                   "the time limit of the runs of a runs table")
    p.add_argument("--by-limit", action="store_true", help="when the files mix time limits, a separate report per limit")
    p.add_argument("--puzzles", choices=("common", "each"), default="common",
                   help="compare backends on the puzzles they all ran (default), or each on all its own puzzles")
    p.add_argument("--title", default=None,
                   help="the campaign's title in reports (default: the file names); plots have none: it is a caption's")
    p.add_argument("--csv", metavar="FILE", help="write every summary row (group 'all' first) as CSV")
    p.add_argument("--markdown", metavar="FILE", help="write the summary tables as Markdown")
    p.add_argument("--latex", metavar="FILE", help="write the summary tables as LaTeX (booktabs)")
    p.add_argument("--per-puzzle", metavar="FILE",
                   help="write the per-puzzle table (a row per puzzle, a column per backend, best time marked) as "
                   ".csv, .md or .tex (booktabs longtable), by the file's extension")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report (sortable tables, plots, campaign facts)")
    p.add_argument("--plot", metavar="DIR", help="write the cactus plot and scatter plots into DIR, one column wide")
    p.add_argument("--plot-format", choices=PLOT_FORMATS, default="png",
                   help="the plots' file format (default png, 300 dpi; pdf and svg are vector graphics)")
    p.add_argument("--scatter", nargs=2, metavar=("A", "B"),
                   help="the two backends of the scatter plot (default: the best against the next ones)")
    p.add_argument("--json", metavar="FILE",
                   help="write the analysis as JSON: solved, PAR-2, SGM, Borda, VBS contribution, average rank and PAR-2 "
                   "interval per backend, the VBS, Friedman's p and the critical difference, the pairwise tests, per group")
    p.add_argument("--cd-diagram", metavar="FILE",
                   help="draw the critical-difference diagram (average ranks, Nemenyi CD) as .svg, .pdf or .png")
    p.add_argument("--sgm-shift", type=positive_seconds, default=None, metavar="S",
                   help="the shift of the shifted geometric mean, in seconds (default 0.01)")
    p.add_argument("--force", action="store_true", help="replace existing output files")
    p.add_argument("--overwrite", dest="force", action="store_true", help=argparse.SUPPRESS)  # its old name
    p.set_defaults(run=_run_report)
    return p


def _run_report(args: argparse.Namespace) -> int:
    """Read the results files, print the sections, write every output asked for."""
    from kakuro.report.comparison import sections
    from kakuro.report.text import print_sections

    warn = lambda text: print(f"warning: {text}", file=sys.stderr)  # noqa: E731
    if args.per_puzzle and Path(args.per_puzzle).suffix.lower() not in PER_PUZZLE_FORMATS:
        raise UsageError(f"--per-puzzle {args.per_puzzle}: use a file ending in {', '.join(PER_PUZZLE_FORMATS)}")
    records: list[Record] = [r for path in args.results for r in _read(path, args.time_limit, warn)]
    title = args.title or ", ".join(Path(path).stem for path in args.results)
    parts = sections(records, time_limit=args.time_limit, by_limit=args.by_limit, scope=args.puzzles)
    empty = [section for section in parts if section.empty]
    if empty:
        raise KakuroError(_nothing_to_compare(empty, args.results))
    pairs = _pairs(parts, args.scatter)
    outputs = _outputs(args, records, parts, title, pairs)
    refuse_existing([path for path, _ in outputs], args.force)  # before anything is printed
    print_sections(parts, group_by=args.group, title=title, sgm_shift=_shift(args))
    for path in write_all([(path, make()) for path, make in outputs], overwrite=args.force):
        print(f"wrote {path}")
    return EXIT_OK


def _read(path: str, time_limit: float | None, warn: Callable[[str], None]) -> list[Record]:
    """The records of a results file, or of a runs table (which needs the time limit)."""
    from kakuro.records.files import read_results
    from kakuro.records.runs_table import is_runs_table, read_runs_table

    if not is_runs_table(path):
        return read_results(path, warn=warn)
    if time_limit is None:
        raise UsageError(f"{path} is a runs table, which holds no time limit: give it with --time-limit S")
    return read_runs_table(path, time_limit, warn=warn)


def _shift(args: argparse.Namespace) -> float:
    """The shifted geometric mean's shift asked for (seconds), or the default."""
    from kakuro.report.analysis import SGM_SHIFT

    return float(args.sgm_shift) if args.sgm_shift is not None else SGM_SHIFT


def _nothing_to_compare(empty: Sequence[Section], files: Sequence[str]) -> str:
    """The one-line message for sections whose backends ran no puzzle in common."""
    counts = "; ".join(f"time limit {s.time_limit:g} s: {s.own_counts}" for s in empty)
    each = " and ".join(f"python -m kakuro.report {name}" for name in files) if len(files) > 1 else ""
    return (f"nothing to compare: the backends ran no puzzle in common (puzzles per backend, {counts}); "
            + (f"see each file with {each}, or " if each else "see ")
            + "each backend on its own puzzles with --puzzles each (not comparable with each other)")


def _pairs(parts: Sequence[Section], chosen: Sequence[str] | None) -> list[tuple[str, str]] | None:
    """The `--scatter` pair, checked against every section's backends (None: the default)."""
    if chosen is None:
        return None
    for section in parts:
        missing = [name for name in chosen if name not in section.backends]
        if missing:
            raise UsageError(f"--scatter: no results for {', '.join(missing)} (time limit {section.time_limit:g} s)"
                             f"{did_you_mean(missing[0], section.backends)} (backends: {', '.join(section.backends)})")
    return [(chosen[0], chosen[1])]


def _outputs(
    args: argparse.Namespace, records: Sequence[Record], parts: Sequence[Section], title: str,
    pairs: list[tuple[str, str]] | None,
) -> list[Output]:
    """Every file asked for, as (path, how to make it): the paths are known before any
    content is made."""
    from kakuro.report.about import about
    from kakuro.report.html import html_report
    from kakuro.report.latex import per_puzzle_latex, summary_latex
    from kakuro.report.plots import cactus, safe_name, scatter
    from kakuro.report.summary import ranking
    from kakuro.report.tables import puzzle_table
    from kakuro.report.text import markdown, markdown_report, per_puzzle_csv, summary_csv

    out: list[Output] = []
    group, shift = args.group, _shift(args)
    if args.json:
        out.append((Path(args.json), lambda: _json(parts, group, shift)))
    if args.cd_diagram:
        out.extend(_cd_diagrams(Path(args.cd_diagram), parts, shift))
    if args.csv:
        out.append((Path(args.csv), lambda: summary_csv(parts, group_by=group)))
    if args.markdown:
        out.append((Path(args.markdown), lambda: markdown_report(parts, group_by=group, title=title, sgm_shift=shift)))
    if args.latex:
        out.append((Path(args.latex), lambda: summary_latex(parts, group_by=group, title=title, sgm_shift=shift)))
    if args.per_puzzle:
        path = Path(args.per_puzzle)
        kind = path.suffix.lower()
        if kind == ".csv":
            out.append((path, lambda: per_puzzle_csv(parts)))
        elif kind == ".tex":
            out.append((path, lambda: per_puzzle_latex(parts, title=title)))
        else:
            out.append((path, lambda: "\n".join(markdown(puzzle_table(s, ranking(s))) for s in parts)))
    if args.html:
        files = args.results
        out.append((Path(args.html),
                    lambda: html_report(parts, about(records, title=title, files=files), group_by=group, pairs=pairs,
                                        sgm_shift=shift)))
    if args.plot:
        folder, kind = Path(args.plot), args.plot_format
        for section in parts:
            suffix = f"-{section.time_limit:g}s".replace(".", "_") if len(parts) > 1 else ""
            order = ranking(section)
            out.append((folder / f"cactus{suffix}.{kind}", partial(_plot, cactus, section, order, kind=kind)))
            chosen = pairs if pairs is not None else [(order[0], b) for b in order[1:2]]
            for a, b in chosen:
                name = f"scatter-{safe_name(a)}-vs-{safe_name(b)}{suffix}.{kind}"
                out.append((folder / name, partial(_plot, scatter, section, a, b, kind=kind)))
    return out


def _json(parts: Sequence[Section], group_by: str, sgm_shift: float) -> str:
    """The analysis as JSON text (`kakuro.report.conclusions.analysis_document`)."""
    import json

    from kakuro.report.conclusions import analysis_document

    return json.dumps(analysis_document(parts, group_by, sgm_shift), indent=2, allow_nan=False) + "\n"


def _cd_diagrams(path: Path, parts: Sequence[Section], sgm_shift: float) -> list[Output]:
    """The critical-difference diagram of each section: `path` itself, or with `-<limit>s` before
    its extension when there are several time limits."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in PLOT_FORMATS:
        raise UsageError(f"--cd-diagram {path}: use a file ending in {', '.join('.' + f for f in PLOT_FORMATS)}")
    out: list[Output] = []
    for section in parts:
        suffix = f"-{section.time_limit:g}s".replace(".", "_") if len(parts) > 1 else ""
        out.append((path.with_name(f"{path.stem}{suffix}{path.suffix}"), partial(_cd_plot, section, sgm_shift, kind)))
    return out


def _cd_plot(section: Section, sgm_shift: float, kind: str) -> bytes:
    """The critical-difference diagram of `section` rendered as `kind`."""
    from kakuro.report.analysis import analyse
    from kakuro.report.critical_difference import cd_diagram
    from kakuro.report.plots import render

    return render(cd_diagram(analyse(section, sgm_shift=sgm_shift)), kind)


def _plot(draw: Callable[..., Any], *args: Any, kind: str) -> bytes:
    """`draw(*args)` rendered as `kind` (png, pdf, svg)."""
    from kakuro.report.plots import render

    return render(draw(*args), kind)
