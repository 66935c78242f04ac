"""Regenerate Figures 1 and 2 of Cazenave (2010), "Monte-Carlo Kakuro".

10x10 grids, values 1..11, every percentage of empty cells ("holes") 0, 10, ..., 100, solved by
Forward Checking (`fc`), Iterative Sampling (`sampling`) and Nested Monte-Carlo Search at levels
1 and 2 (`nmcs:level=1`, `nmcs:level=2`). Figure 1 is the number of problems solved per
percentage and algorithm, Figure 2 the total time (s) per percentage and algorithm, an unsolved
problem counting its whole limit. The paper used 100 problems per percentage and 10 s per
problem and states its results in words only; they are quoted after our tables.

    python experiments/cazenave_figures.py --quick                  # 1 problem per percentage, 0.05 s limit (seconds)
    python experiments/cazenave_figures.py --problems 5 --time-limit 1   # a middle-sized run (~2 min)
    python experiments/cazenave_figures.py                          # 20 problems per percentage, 10 s limit (~40 min)
    python experiments/cazenave_figures.py --problems 100           # the paper's size (~3 h here)
    python experiments/cazenave_figures.py --quick --json figs.jsonl --plot-dir /tmp/plots

The full default takes 20 problems per percentage instead of the paper's 100 so that it
finishes in about 40 minutes on a shared 2-core machine (most of the time goes to the problems an
algorithm cannot solve, each costing the whole 10 s). Problems come from
`kakuro.generate.cazenave(10, 11, holes, count, seed + holes)`; problem k is solved with seed k.
Compile time is paid before timing (`warm_up`). Every answer is checked with `puzzle.check`; an
invalid answer (or a backend error) is counted and makes the script exit 1. The two figures are
printed as Markdown tables and, when matplotlib is importable, saved as PNG line plots in
`--plot-dir` (file names carry the problem count and limit; existing plots of the same
configuration are replaced). `--json FILE` writes one line per solve and refuses an existing FILE.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from cazenave_tables import PAPER, Row, json_logger, solve_set, warm_up  # noqa: E402
from outputs import new_file  # noqa: E402

from kakuro.generate import cazenave  # noqa: E402

SIZE, VALUES = 10, 11
HOLES = tuple(range(0, 101, 10))
"""Percentages of empty cells."""

ALGORITHMS = {
    "Nested Level 2": "nmcs:level=2,consistency=fc",
    "Nested Level 1": "nmcs:level=1,consistency=fc",
    "Forward Checking": "fc:consistency=fc,values=random",
    "Iterative Sampling": "sampling:consistency=fc",
}
"""The paper's names and our specs, in the paper's order of strength (best first)."""

QUOTES = ("It is clear from these figures", "Moreover Nested Monte-Carlo Search at level 2 is better")
"""Openings of the paper's sentences that state the figures' results."""


def paper_quotes(path: Path) -> list[str]:
    """The paper's sentences that describe Figures 1 and 2 ([] when the text is absent)."""
    if not path.is_file():
        return []
    text = " ".join(path.read_text(encoding="utf-8").split())
    quotes = []
    for opening in QUOTES:
        start = text.find(opening)
        if start >= 0:
            quotes.append(text[start : text.index(".", start) + 1])
    return quotes


def run(holes: list[int], specs: list[str], problems: int, limit: float, seed: int, sink: TextIO | None) -> dict[int, list[Row]]:
    """{holes: one row per spec}; problem set `cazenave(10, 11, holes, problems, seed + holes)`."""
    results = {}
    for h in holes:
        puzzles = cazenave(SIZE, VALUES, h, count=problems, seed=seed + h)
        results[h] = []
        for spec in specs:
            row = solve_set(spec, puzzles, limit, json_logger(sink, limit, holes=h))
            results[h].append(row)
            print(f"  {h:3}% {spec:14} {row.solved:3}/{problems}  {row.time:9.2f} s", file=sys.stderr, flush=True)
    return results


def names(specs: list[str]) -> list[str]:
    by_spec = {spec: name for name, spec in ALGORITHMS.items()}
    return [by_spec.get(spec, spec) for spec in specs]


def render(results: dict[int, list[Row]], specs: list[str], problems: int, limit: float) -> str:
    """Figures 1 and 2 as two Markdown tables (rows: percentage of holes; columns: algorithms)."""
    header = "| holes | " + " | ".join(names(specs)) + " |"
    rule = "| ---: |" + " ---: |" * len(specs)
    setting = (f"{problems} problems per percentage, 10x10 grids, values 1..11, limit {limit:g} s per problem "
               "(paper: 100 problems, 10 s)")
    fig1 = [f"Figure 1: problems solved; {setting}", "", header, rule]
    fig2 = [f"Figure 2: total time (s), an unsolved problem counting the limit; {setting}", "", header, rule]
    for h, rows in results.items():
        fig1.append(f"| {h}% | " + " | ".join(str(row.solved) for row in rows) + " |")
        fig2.append(f"| {h}% | " + " | ".join(f"{row.time:,.2f}" for row in rows) + " |")
    totals = [sum(rows[i].solved for rows in results.values()) for i in range(len(specs))]
    fig1.append("| all | " + " | ".join(str(t) for t in totals) + " |")
    times = [sum(rows[i].time for rows in results.values()) for i in range(len(specs))]
    fig2.append("| all | " + " | ".join(f"{t:,.2f}" for t in times) + " |")
    ranking = sorted(zip(totals, times, names(specs)), key=lambda item: (-item[0], item[1]))
    order = f"{ranking[0][2]} ({ranking[0][0]})"
    for (before, _, _), (total, _, name) in zip(ranking, ranking[1:]):
        order += f" {'>' if before > total else '='} {name} ({total})"
    return ("\n".join(fig1) + "\n\n" + "\n".join(fig2)
            + f"\n\nOrdering by problems solved over all percentages (ties by total time): {order}")


def plot(results: dict[int, list[Row]], specs: list[str], directory: Path, problems: int, limit: float) -> list[Path]:
    """Two PNG line plots (solved, total time against holes) in `directory`; [] without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not importable: no plots", file=sys.stderr)
        return []
    directory.mkdir(parents=True, exist_ok=True)
    holes = list(results)
    paths = []
    for number, attribute, label in ((1, "solved", "problems solved"), (2, "time", "total time (s)")):
        fig, ax = plt.subplots(figsize=(6, 4))
        for i, name in enumerate(names(specs)):
            ax.plot(holes, [getattr(results[h][i], attribute) for h in holes], marker="o", label=name)
        ax.set_xlabel("percentage of holes")
        ax.set_ylabel(label)
        ax.set_title(f"Fig. {number}: 10x10, values 1..11, {problems} problems, {limit:g} s each")
        ax.legend()
        ax.grid(alpha=0.3)
        path = directory / f"cazenave-fig{number}-{attribute}-p{problems}-t{limit:g}s.png"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: 1 problem per percentage, 0.05 s limit")
    parser.add_argument("--problems", type=int, default=None, help="problems per percentage (default "
                                                                   "20; 1 with --quick; paper 100)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per problem (default 10, "
                                                                       "as in the paper; 0.05 with --quick)")
    parser.add_argument("--seed", type=int, default=2010, help="generator seed; percentage h uses seed + h (default 2010)")
    parser.add_argument("--holes", default=None, help=argparse.SUPPRESS)  # a subset of percentages, e.g. "50,100" (tests)
    parser.add_argument("--json", type=Path, help="also write one JSON line per solve to this new file")
    parser.add_argument("--plot-dir", type=Path, default=HERE / "results", help="where the PNG plots go "
                                                                                "(default experiments/results/)")
    parser.add_argument("--paper", type=Path, default=PAPER, help="the paper's text, for its quoted results")
    args = parser.parse_args(argv)
    problems = args.problems or (1 if args.quick else 20)
    limit = args.time_limit or (0.05 if args.quick else 10.0)
    try:
        holes = [int(h) for h in args.holes.split(",")] if args.holes else list(HOLES)
    except ValueError:
        parser.error("--holes takes percentages separated by commas")
    if problems < 1 or limit <= 0 or any(not 0 <= h <= 100 for h in holes):
        parser.error("--problems must be positive, --time-limit positive, holes within 0..100")
    specs = list(ALGORITHMS.values())

    sink = new_file(args.json, "--json")
    warm_up(specs)
    try:
        results = run(holes, specs, problems, limit, args.seed, sink)
    finally:
        if sink is not None:
            sink.close()
    print(render(results, specs, problems, limit))
    quotes = paper_quotes(args.paper)
    if quotes:
        print("\nThe paper (Cazenave 2010, Sect. 3.2) on its Figures 1 and 2 (100 problems, 10 s):\n")
        for quote in quotes:
            print(f"> {quote}\n")
    for path in plot(results, specs, args.plot_dir, problems, limit):
        print(f"plot: {path}")
    invalid = sum(row.invalid for rows in results.values() for row in rows)
    print(f"invalid answers or backend errors: {invalid}")
    return 1 if invalid else 0


if __name__ == "__main__":
    raise SystemExit(main())
