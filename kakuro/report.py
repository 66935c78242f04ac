"""Tables and plots from a compare results file: per-backend and per-group summaries, PAR-2,
cactus and scatter plots.

    python -m kakuro.report results/compare-20250101-120000.jsonl --plot plots/ --markdown summary.md

Reading rules: the last record of each job counts (a re-run after a crash replaces it); an
UNSAT claim on a puzzle that any backend solved (verified) in the same records becomes WRONG.

Columns: `solved` (SOLVED), `unsat` (UNSAT), `total` jobs, `wrong`, `timeout`, `memout`,
`crash`, `error`; `time` and `median` are the sum and median of the backend's own time
(seconds) over its answered jobs (SOLVED or UNSAT); `PAR-2` is the mean over all jobs of that
time for answered jobs and twice the job's time limit for every other one.

Output files are never overwritten unless `--force` is given.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import statistics
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kakuro.compare import ANSWERED, JobStatus, KEY_FIELDS, latest, read_results
from kakuro.errors import KakuroError

ALL = "all"
"""The group name of the whole-campaign rows."""
COLUMNS = ("group", "backend", "solved", "unsat", "total", "wrong", "timeout", "memout", "crash", "error",
           "time (s)", "median (s)", "PAR-2 (s)")
_COUNTED = {
    "solved": JobStatus.SOLVED, "unsat": JobStatus.UNSAT, "wrong": JobStatus.WRONG, "timeout": JobStatus.TIMEOUT,
    "memout": JobStatus.MEMOUT, "crash": JobStatus.CRASH, "error": JobStatus.ERROR,
}


@dataclass(frozen=True)
class Row:
    """One backend's summary over one group of jobs. Times are seconds."""

    group: str
    backend: str
    total: int
    counts: Mapping[str, int]
    """Jobs per status name in lower case: solved, unsat, wrong, timeout, memout, crash, error."""
    time_total: float
    time_median: float | None
    par2: float

    def cells(self) -> list[Any]:
        """The values of `COLUMNS`, times rounded to milliseconds."""
        median = "" if self.time_median is None else round(self.time_median, 3)
        return [self.group, self.backend, self.counts["solved"], self.counts["unsat"], self.total,
                *(self.counts[name] for name in ("wrong", "timeout", "memout", "crash", "error")),
                round(self.time_total, 3), median, round(self.par2, 3)]


def effective(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The records that count: the last one per job, with every UNSAT claim on a puzzle that
    has a SOLVED record turned into WRONG (the message says who solved it)."""
    current = latest(records)
    solvers: dict[str, str] = {}
    for record in current:
        if record.get("status") == JobStatus.SOLVED.value:
            solvers.setdefault(str(record.get("digest")), str(record.get("backend")))
    for record in current:
        digest = str(record.get("digest"))
        if record.get("status") == JobStatus.UNSAT.value and digest in solvers:
            record["status"] = JobStatus.WRONG.value
            record["message"] = f"claimed unsatisfiable, but {solvers[digest]} has a verified solution"
    return current


def score(record: Mapping[str, Any]) -> float:
    """PAR-2 score of one job in seconds: its time if answered, else twice its time limit."""
    time_ = record.get("time")
    if record.get("status") in ANSWERED and isinstance(time_, (int, float)):
        return float(time_)
    return 2.0 * float(record.get("time_limit") or 0.0)


def group_of(record: Mapping[str, Any], group_by: str) -> str:
    """The group of a record: its source file's stem (`source`) or its grid `RxC` (`size`,
    counting the clue row and column)."""
    if group_by == "size":
        return f"{record.get('rows')}x{record.get('cols')}"
    if group_by == "source":
        return Path(str(record.get("source", "?"))).stem
    raise KakuroError(f"unknown grouping {group_by!r}; use source or size")


def summarize(records: Iterable[Mapping[str, Any]], *, group_by: str = "source") -> list[Row]:
    """Rows for every backend over all jobs (group `all`, best PAR-2 first), then per group
    and backend in that order. `records` are taken as they are: pass `effective(...)` records."""
    rows = list(records)
    backends = list(dict.fromkeys(str(r.get("backend")) for r in rows))
    groups = sorted({group_of(r, group_by) for r in rows})
    out = sorted((_row(ALL, b, [r for r in rows if r.get("backend") == b]) for b in backends),
                 key=lambda row: (row.par2, row.backend))
    backends = [row.backend for row in out]
    for g in groups:
        for b in backends:
            members = [r for r in rows if r.get("backend") == b and group_of(r, group_by) == g]
            if members:
                out.append(_row(g, b, members))
    return out


def _row(group: str, backend: str, records: Sequence[Mapping[str, Any]]) -> Row:
    counts = {name: sum(r.get("status") == status.value for r in records) for name, status in _COUNTED.items()}
    times = [float(r["time"]) for r in records if r.get("status") in ANSWERED and isinstance(r.get("time"), (int, float))]
    par2 = sum(score(r) for r in records) / len(records) if records else 0.0
    median = statistics.median(times) if times else None
    return Row(group, backend, len(records), counts, float(sum(times)), median, par2)


# --------------------------------------------------------------------- rendering
def tables(rows: Sequence[Row]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """(title, header, rows) of the per-backend table (status columns that are zero on every
    row are left out, except solved and wrong) and, with more than one group, the per-group
    table (answered = solved + unsat)."""
    overall = [row for row in rows if row.group == ALL]
    nonzero = [n for n in ("unsat", "timeout", "memout", "crash", "error") if any(row.counts[n] for row in overall)]
    before = ["solved"] + [n for n in nonzero if n == "unsat"]
    after = ["wrong"] + [n for n in nonzero if n != "unsat"]
    header = ["backend", *before, "jobs", *after, "time", "median", "PAR-2"]
    body = [[row.backend, *(row.counts[n] for n in before), row.total, *(row.counts[n] for n in after),
             *row.cells()[-3:]] for row in overall]
    out = [("Backends (times in seconds)", header, body)]
    grouped = [row for row in rows if row.group != ALL]
    if len({row.group for row in grouped}) > 1:
        out.append((
            "Per group (times in seconds)",
            ["group", "backend", "answered", "jobs", "wrong", "median", "PAR-2"],
            [[row.group, row.backend, row.counts["solved"] + row.counts["unsat"], row.total, row.counts["wrong"],
              *row.cells()[-2:]] for row in grouped],
        ))
    return out


def markdown(rows: Sequence[Row]) -> str:
    """The tables as Markdown (columns padded, so it also reads as plain text)."""
    parts = []
    for title, header, body in tables(rows):
        text = [[str(c) for c in header]] + [[_show(c) for c in line] for line in body]
        widths = [max(len(line[i]) for line in text) for i in range(len(header))]
        lines = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths)) + " |" for line in text]
        lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
        parts.append(f"### {title}\n\n" + "\n".join(lines) + "\n")
    return "\n".join(parts)


def print_report(
    records: Iterable[Mapping[str, Any]],
    *,
    group_by: str = "source",
    title: str = "",
    file: Any = None,
) -> list[Row]:
    """Print the tables: rich tables on a terminal, Markdown-style text otherwise. Returns
    the rows."""
    current = effective(records)
    rows = summarize(current, group_by=group_by)
    stream = file if file is not None else sys.stdout
    limits = sorted({r.get("time_limit") for r in current if r.get("time_limit") is not None})
    header = f"{title}: " if title else ""
    header += f"{len(current)} jobs, {len({(r.get('source'), r.get('index')) for r in current})} puzzles"
    if limits:
        header += ", time limit " + ", ".join(f"{x:g}" for x in limits) + " s"
    if not current:
        print(header + " (no results)", file=stream)
        return rows
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(file=stream)
    if not console.is_terminal:
        print(header + "\n", file=stream)
        print(markdown(rows), file=stream)
        return rows
    shown = tables(rows)
    widths = [sum(max([len(str(h)), *(len(_show(line[i])) for line in body)]) + 3 for i, h in enumerate(head))
              for _, head, body in shown]
    if max(widths) > console.width:  # too wide to draw: the plain layout at least stays whole
        print(header + "\n", file=stream)
        print(markdown(rows), file=stream)
        return rows
    console.print(header)
    for name, columns, body in shown:
        table = Table(title=name, box=box.SIMPLE_HEAD)
        for column in columns:
            text = column in ("group", "backend")
            table.add_column(column, justify="left" if text else "right", no_wrap=True)
        for line in body:
            table.add_row(*(_show(c) for c in line))
        console.print(table)
    return rows


def _show(value: Any) -> str:
    """A table cell: seconds with three decimals, anything else as text."""
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def write_csv(rows: Sequence[Row], path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """All rows (group `all` first) as CSV with the `COLUMNS` header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    writer.writerows(row.cells() for row in rows)
    return _write_new(path, buffer.getvalue().encode(), overwrite)


def write_markdown(rows: Sequence[Row], path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    return _write_new(path, markdown(rows).encode(), overwrite)


def _write_new(path: str | os.PathLike[str], data: bytes, overwrite: bool) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(target, "wb" if overwrite else "xb") as stream:
            stream.write(data)
    except FileExistsError:
        raise KakuroError(f"{target} already exists; choose another name or pass --force") from None
    return target


# --------------------------------------------------------------------- plots
def plot(
    records: Iterable[Mapping[str, Any]],
    folder: str | os.PathLike[str],
    *,
    scatter: tuple[str, str] | None = None,
    overwrite: bool = False,
) -> list[Path]:
    """Write `cactus.png` (answered jobs vs time, one line per backend, log time axis) and
    `scatter-A-vs-B.png` (per-puzzle PAR-2 scores of two backends: `scatter`, else the first
    two) into `folder`. Returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    current = effective(records)
    names = [row.backend for row in summarize(current) if row.group == ALL]  # best PAR-2 first
    if scatter is not None:
        missing = [n for n in scatter if n not in names]
        if missing:
            raise KakuroError(f"--scatter: no results for {', '.join(missing)}; backends in the file: {', '.join(names)}")
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []

    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    for name in names:
        times = sorted(float(r["time"]) for r in current if r.get("backend") == name and r.get("status") in ANSWERED
                       and isinstance(r.get("time"), (int, float)))
        if times:
            axes.step([max(t, 1e-6) for t in times], range(1, len(times) + 1), where="post", label=name)
    axes.set_xscale("log")
    axes.set_xlabel("time (s, log scale)")
    axes.set_ylabel("jobs answered (SOLVED or UNSAT)")
    axes.set_title("Cactus plot")
    axes.grid(True, which="both", alpha=0.3)
    if names:
        axes.legend()
    written.append(_save(figure, target / "cactus.png", overwrite))
    plt.close(figure)

    pair = scatter or (tuple(names[:2]) if len(names) >= 2 else None)
    if pair is not None:
        written.append(_scatter(current, pair, target, overwrite))
    return written


def _scatter(records: Sequence[Mapping[str, Any]], pair: tuple[str, str], folder: Path, overwrite: bool) -> Path:
    import matplotlib.pyplot as plt

    instance_fields = [f for f in KEY_FIELDS if f != "backend"]
    by_backend: list[dict[tuple[Any, ...], float]] = []
    for name in pair:
        by_backend.append({tuple(r.get(f) for f in instance_fields): score(r) for r in records if r.get("backend") == name})
    shared = sorted(set(by_backend[0]) & set(by_backend[1]), key=str)
    xs = [max(by_backend[0][k], 1e-6) for k in shared]
    ys = [max(by_backend[1][k], 1e-6) for k in shared]
    figure, axes = plt.subplots(figsize=(5, 5))
    axes.scatter(xs, ys, s=14, alpha=0.7)
    if xs:
        low, high = min(xs + ys) / 2, max(xs + ys) * 2
        axes.plot([low, high], [low, high], color="grey", linewidth=0.8)
        axes.set_xlim(low, high)
        axes.set_ylim(low, high)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(f"{pair[0]}: time (s), unanswered at 2x limit")
    axes.set_ylabel(f"{pair[1]}: time (s), unanswered at 2x limit")
    axes.set_title(f"{pair[0]} vs {pair[1]} ({len(shared)} jobs)")
    axes.grid(True, which="both", alpha=0.3)
    safe = "-vs-".join("".join(c if c.isalnum() or c in "-_" else "_" for c in name) for name in pair)
    path = _save(figure, folder / f"scatter-{safe}.png", overwrite)
    plt.close(figure)
    return path


def _save(figure: Any, path: Path, overwrite: bool) -> Path:
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=120)
    return _write_new(path, buffer.getvalue(), overwrite)


# --------------------------------------------------------------------- command line
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kakuro.report",
        description="Tables, PAR-2 and plots from kakuro.compare results files (JSON lines).",
        epilog="PAR-2: mean over jobs of the backend time when answered (SOLVED/UNSAT), else 2x the time limit.",
    )
    p.add_argument("results", nargs="+", metavar="FILE", help="results files; records of several files are merged")
    p.add_argument("--group", choices=("source", "size"), default="source", help="group by puzzle file (default) or grid size")
    p.add_argument("--csv", metavar="FILE", help="write every row (group 'all' first) as CSV")
    p.add_argument("--markdown", metavar="FILE", help="write the tables as Markdown")
    p.add_argument("--plot", metavar="DIR", help="write cactus.png and a scatter plot of two backends into DIR")
    p.add_argument("--scatter", nargs=2, metavar=("A", "B"), help="the two backends of the scatter plot (default: the first two)")
    p.add_argument("--force", dest="overwrite", action="store_true", help="replace existing output files")
    p.add_argument("--overwrite", dest="overwrite", action="store_true", help=argparse.SUPPRESS)  # the old name
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m kakuro.report`; returns 0, or 1 for unreadable input or an existing output."""
    args = parser().parse_args(argv)
    say = lambda text: print(f"warning: {text}", file=sys.stderr)  # noqa: E731
    try:
        records = [record for path in args.results for record in read_results(path, warn=say)]
        rows = print_report(records, group_by=args.group, title=", ".join(args.results))
        if args.csv:
            print(f"wrote {write_csv(rows, args.csv, overwrite=args.overwrite)}")
        if args.markdown:
            print(f"wrote {write_markdown(rows, args.markdown, overwrite=args.overwrite)}")
        if args.plot:
            for path in plot(records, args.plot, scatter=tuple(args.scatter) if args.scatter else None, overwrite=args.overwrite):
                print(f"wrote {path}")
    except KakuroError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
