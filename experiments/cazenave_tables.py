"""Regenerate Tables 3, 4 and 5 of Cazenave (2010), "Monte-Carlo Kakuro".

Table 3: 100 empty 6x6 grids, values 1..7. Table 4: 100 empty 8x8 grids, values 1..9. Each
problem is given to Forward Checking, Iterative Sampling and Nested Monte-Carlo Search at
levels 1 and 2 with a per-problem time limit (the paper used 1,000 s); the table gives the
problems solved and the total time (unsolved problems count their whole limit, as in the
paper). The same run adds the `consistency=gac` variants and CP-SAT on the same problems.

Table 5: 100 empty 8x8 grids for each value range 1..9 to 1..18, nested Monte-Carlo search at
level 2 only (the paper's 1,000 s limit again); the same run adds `nmcs:level=2,consistency=gac`.
Every spec names the paper's configuration (`consistency=fc`, random values) explicitly.
The 1..9 set is Table 4's (same seed), as in the paper, where both rows read 17.85 s.

The paper's numbers, read from its text, are printed beside ours.

    python experiments/cazenave_tables.py                       # tables 3,4,5: 100 problems, 1 s limit (~15 min)
    python experiments/cazenave_tables.py --quick               # 3 problems, 0.05 s limit (seconds)
    python experiments/cazenave_tables.py --problems 20 --time-limit 0.5   # a middle-sized run (~2 min)
    python experiments/cazenave_tables.py --tables 5 --problems 100 --time-limit 10 --json t5.jsonl

The full default keeps the whole run under about an hour on a shared 2-core machine: 1 s per
problem instead of the paper's 1,000 s (so totals are not comparable in absolute terms; what
compares is who solves what). Problems come from `kakuro.generate.cazenave(size, values, 100,
count, seed)`; problem k is solved with seed k. Compile time is paid before timing (`warm_up`).
Every answer is checked with `puzzle.check`; an invalid answer (or a backend error) is counted
and makes the script exit 1. `--json FILE` writes one line per solve and refuses an existing FILE.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from outputs import new_file

import kakuro
from kakuro.generate import cazenave

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT.parent / "shared" / "papers" / "cazenave-2010-monte-carlo-kakuro.txt"

TABLES = {3: (6, 7), 4: (8, 9)}
"""Paper table -> (grid size, largest value), for Tables 3 and 4."""

TABLE5_SIZE = 8
TABLE5_VALUES = tuple(range(9, 19))
"""Table 5: empty 8x8 grids, values 1..9 up to 1..18."""

PAPER_ROWS = {
    "Nested Level 2": "nmcs:level=2,consistency=fc",
    "Nested Level 1": "nmcs:level=1,consistency=fc",
    "Iterative Sampling": "sampling:consistency=fc",
    "Forward Checking": "fc:consistency=fc,values=random",
}
"""The paper's algorithm names, in its order, and our backend specs: the paper's forward
checking and random values named explicitly (the backends' defaults are stronger); the
playout (smallest domain, random value) is the backends' default strategy and selection."""

PAPER_CONSISTENCY = "consistency=fc"
GAC_CONSISTENCY = "consistency=gac"


def with_gac(spec: str) -> str:
    """`spec` with the paper's forward checking replaced by run-level GAC."""
    return spec.replace(PAPER_CONSISTENCY, GAC_CONSISTENCY)


EXTRA = [with_gac(spec) for spec in PAPER_ROWS.values()] + ["cpsat:model=decomposition"]
TABLE5_SPECS = [PAPER_ROWS["Nested Level 2"]]
TABLE5_EXTRA = [with_gac(PAPER_ROWS["Nested Level 2"])]

Log = Callable[[str, kakuro.Puzzle, kakuro.Result, bool], None]
"""Called after each solve with (spec, puzzle, result, valid)."""


@dataclass
class Row:
    """One algorithm on one problem set; times in seconds, an unsolved problem counts the limit."""

    spec: str
    solved: int = 0
    problems: int = 0
    time: float = 0.0
    cpu: float = 0.0
    invalid: int = 0
    """Answers rejected by `puzzle.check`, or backend errors."""


def solve_set(spec: str, puzzles: Sequence[kakuro.Puzzle], limit: float, log: Log | None = None) -> Row:
    """Solve problem k of `puzzles` with seed k and `limit` seconds; check every answer."""
    solver = kakuro.get_solver(spec)
    row = Row(spec, problems=len(puzzles))
    for k, puzzle in enumerate(puzzles):
        cpu = time.process_time()
        result = solver.solve(puzzle, time_limit=limit, seed=k)
        row.cpu += time.process_time() - cpu
        valid = result.solved and puzzle.check(result.solution) == []
        row.solved += valid
        row.time += result.time if valid else limit
        if result.status in (kakuro.Status.ERROR, kakuro.Status.WRONG) or (result.solved and not valid):
            row.invalid += 1
            print(f"  INVALID {spec} on {puzzle.id}: {result.status.value} {result.message}", file=sys.stderr)
        if log is not None:
            log(spec, puzzle, result, valid)
    return row


def warm_up(specs: Sequence[str]) -> None:
    """Compile or load every backend's kernels before any timing; prints the time to stderr."""
    start = time.perf_counter()
    for spec in specs:
        kakuro.get_solver(spec).ensure_warm()
    print(f"warm-up (compile or load the kernels): {time.perf_counter() - start:.2f} s", file=sys.stderr)


def json_logger(sink: TextIO | None, limit: float, **fields: object) -> Log:
    """A `Log` writing one JSON line per solve (with `fields`) to `sink`, if any."""

    def log(spec: str, puzzle: kakuro.Puzzle, result: kakuro.Result, valid: bool) -> None:
        if sink is not None:
            record = {**fields, "id": puzzle.id, "backend": spec, "status": result.status.value, "valid": valid,
                      "time": result.time, "limit": limit, "stats": dict(result.stats)}
            sink.write(json.dumps(record) + "\n")
            sink.flush()

    return log


def paper_numbers(path: Path) -> dict[int, dict[str, tuple[str, str]]]:
    """{table: {row: (solved, total time)}} as printed in the paper ({} when absent); the rows of
    Tables 3 and 4 are the algorithm names, those of Table 5 the largest value ("9" .. "18")."""
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    out: dict[int, dict[str, tuple[str, str]]] = {}
    names = "|".join(map(re.escape, PAPER_ROWS))
    for table in TABLES:
        caption = re.search(rf"Table {table}\.", text)
        if caption is None:
            continue
        rows = re.findall(rf"^({names})\s+(\d+ out of \d+)\s+([\d,.]+ s)\.?\s*$", text[: caption.start()], re.M)
        out[table] = {name: (solved, total) for name, solved, total in rows[-len(PAPER_ROWS) :]}
    caption = re.search(r"Table 5\.", text)
    if caption is not None:
        rows = re.findall(r"^Nested Level 2\s+(\d+ out of \d+)\s+\[1,(\d+)\]\s+([\d,.]+ s)\.?\s*$", text[: caption.start()], re.M)
        out[5] = {values: (solved, total) for solved, values, total in rows}
    return out


def run_table(table: int, problems: int, limit: float, seed: int, specs: list[str], log: Log) -> list[Row]:
    """Table 3 or 4: every spec on the table's problem set."""
    size, values = TABLES[table]
    puzzles = cazenave(size, values, 100, count=problems, seed=seed)
    rows = []
    for spec in specs:
        rows.append(solve_set(spec, puzzles, limit, log))
        print(f"  table {table}: {spec:32} {rows[-1].solved:3}/{problems}  {rows[-1].time:9.2f} s", file=sys.stderr, flush=True)
    return rows


def run_table5(
    ranges: Sequence[int], problems: int, limit: float, seed: int, specs: list[str], log_for: Callable[[int], Log]
) -> list[tuple[int, Row]]:
    """Table 5: (largest value, row) for every value range 1..V (V in `ranges`) and spec."""
    rows = []
    for values in ranges:
        puzzles = cazenave(TABLE5_SIZE, values, 100, count=problems, seed=seed)
        for spec in specs:
            row = solve_set(spec, puzzles, limit, log_for(values))
            rows.append((values, row))
            print(f"  table 5: [1,{values}] {spec:32} {row.solved:3}/{problems}  {row.time:9.2f} s", file=sys.stderr, flush=True)
    return rows


def algorithm_name(spec: str) -> str:
    """The paper's name of a spec ("Nested Level 2 + GAC", "CP-SAT", ...)."""
    names = {spec: name for name, spec in PAPER_ROWS.items()}
    base = spec.replace(GAC_CONSISTENCY, PAPER_CONSISTENCY)
    name = names.get(base, "CP-SAT" if spec.startswith("cpsat") else base)
    return name + (" + GAC" if GAC_CONSISTENCY in spec else "")


def render(table: int, rows: list[Row], paper: dict[str, tuple[str, str]], limit: float) -> str:
    """Table 3 or 4 as Markdown, the paper's numbers beside ours."""
    size, values = TABLES[table]
    n = rows[0].problems
    lines = [
        f"Table {table}: {n} empty {size}x{size} grids, values 1..{values}, limit {limit:g} s per problem "
        f"(paper: 100 grids, 1,000 s)",
        "",
        "| Algorithm | backend | Problems solved | Total time | CPU time | paper: solved | paper: total time |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        name = algorithm_name(row.spec)
        solved, total = paper.get(name, ("", ""))
        lines.append(
            f"| {name} | `{row.spec}` | {row.solved} out of {row.problems} | {row.time:,.2f} s | "
            f"{row.cpu:,.2f} s | {solved} | {total} |"
        )
    return "\n".join(lines)


def render_table5(rows: list[tuple[int, Row]], paper: dict[str, tuple[str, str]], limit: float) -> str:
    """Table 5 as Markdown, the paper's numbers (nested level 2 only) beside ours."""
    n = rows[0][1].problems
    lines = [
        f"Table 5: {n} empty {TABLE5_SIZE}x{TABLE5_SIZE} grids per value range, limit {limit:g} s per problem "
        f"(paper: 100 grids, 1,000 s)",
        "",
        "| Algorithm | backend | Possible Values | Problems solved | Total time | CPU time | paper: solved | paper: total time |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for values, row in rows:
        solved, total = paper.get(str(values), ("", "")) if row.spec in TABLE5_SPECS else ("", "")
        lines.append(
            f"| {algorithm_name(row.spec)} | `{row.spec}` | [1,{values}] | {row.solved} out of {row.problems} | "
            f"{row.time:,.2f} s | {row.cpu:,.2f} s | {solved} | {total} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problems", type=int, default=None, help="problems per table or value range "
                                                                   "(default 100; 3 with --quick)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per problem (default 1; 0.05 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: every algorithm "
                                                             "and table on 3 problems, 0.05 s limit")
    parser.add_argument("--seed", type=int, default=2010, help="generator seed of the problem sets (default 2010)")
    parser.add_argument("--tables", default="3,4,5", help="which tables (default 3,4,5)")
    parser.add_argument("--values", default=None, help=argparse.SUPPRESS)  # Table 5 ranges, e.g. "9,12" (tests)
    parser.add_argument("--no-extra", action="store_true", help="only the paper's algorithms (no GAC variants, no CP-SAT)")
    parser.add_argument("--json", type=Path, help="also write one JSON line per solve to this new file")
    parser.add_argument("--paper", type=Path, default=PAPER, help="the paper's text, for its numbers")
    args = parser.parse_args(argv)
    problems = args.problems or (3 if args.quick else 100)
    limit = args.time_limit or (0.05 if args.quick else 1.0)
    try:
        tables = [int(t) for t in args.tables.split(",")]
        values = [int(v) for v in args.values.split(",")] if args.values else list(TABLE5_VALUES)
    except ValueError:
        parser.error("--tables takes numbers among 3,4,5 separated by commas")
    if problems < 1 or limit <= 0 or any(t not in (*TABLES, 5) for t in tables):
        parser.error("--problems must be positive, --time-limit positive, --tables among 3,4,5")
    specs = list(PAPER_ROWS.values()) + ([] if args.no_extra else EXTRA)
    specs5 = TABLE5_SPECS + ([] if args.no_extra else TABLE5_EXTRA)

    sink = new_file(args.json, "--json")
    warm_up(list(dict.fromkeys((specs if set(tables) & set(TABLES) else []) + (specs5 if 5 in tables else []))))
    paper = paper_numbers(args.paper)
    invalid = 0
    try:
        for table in tables:
            if table == 5:
                rows5 = run_table5(values, problems, limit, args.seed, specs5,
                                   lambda v: json_logger(sink, limit, table=5, values=v))
                invalid += sum(row.invalid for _, row in rows5)
                print(render_table5(rows5, paper.get(5, {}), limit))
            else:
                rows = run_table(table, problems, limit, args.seed, specs, json_logger(sink, limit, table=table))
                invalid += sum(row.invalid for row in rows)
                print(render(table, rows, paper.get(table, {}), limit))
            print()
    finally:
        if sink is not None:
            sink.close()
    print(f"invalid answers or backend errors: {invalid}")
    return 1 if invalid else 0


if __name__ == "__main__":
    raise SystemExit(main())
