"""Regenerate Tables 3 and 4 of Cazenave (2010), "Monte-Carlo Kakuro".

Table 3: 100 empty 6x6 grids, values 1..7. Table 4: 100 empty 8x8 grids, values 1..9. Each
problem is given to Forward Checking, Iterative Sampling and Nested Monte-Carlo Search at
levels 1 and 2 with a per-problem time limit (the paper used 1,000 s); the table gives the
problems solved and the total time (unsolved problems count their whole limit, as in the
paper). The same run adds the `consistency=gac` variants and CP-SAT on the same problems, and
prints the paper's numbers, read from the paper's text, beside ours.

    python experiments/cazenave_tables.py                       # 100 problems, 1 s limit
    python experiments/cazenave_tables.py --quick               # 20 problems, 0.5 s limit
    python experiments/cazenave_tables.py --problems 100 --time-limit 1 --json results.jsonl

Problems come from `kakuro.generate.cazenave(size, values, 100, count, seed)`; problem k is
solved with seed k. Compile time is paid before timing (`warm_up`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import kakuro
from kakuro.generate import cazenave

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT.parent / "shared" / "papers" / "cazenave-2010-monte-carlo-kakuro.txt"

TABLES = {3: (6, 7), 4: (8, 9)}
"""Paper table -> (grid size, largest value)."""

PAPER_ROWS = {
    "Nested Level 2": "nmcs:level=2",
    "Nested Level 1": "nmcs:level=1",
    "Iterative Sampling": "sampling",
    "Forward Checking": "fc",
}
"""The paper's algorithm names, in its order, and our backend specs."""

EXTRA = [f"{spec},consistency=gac" if ":" in spec else f"{spec}:consistency=gac" for spec in PAPER_ROWS.values()] + ["cpsat"]


@dataclass
class Row:
    spec: str
    solved: int = 0
    problems: int = 0
    time: float = 0.0
    cpu: float = 0.0


def paper_numbers(path: Path) -> dict[int, dict[str, tuple[str, str]]]:
    """{table: {algorithm: (solved, total time)}} as printed in the paper ({} when absent)."""
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
    return out


def run_table(table: int, problems: int, limit: float, seed: int, specs: list[str], log) -> list[Row]:
    size, values = TABLES[table]
    puzzles = cazenave(size, values, 100, count=problems, seed=seed)
    rows = []
    for spec in specs:
        solver = kakuro.get_solver(spec)
        row = Row(spec, problems=problems)
        for k, puzzle in enumerate(puzzles):
            cpu = time.process_time()
            result = solver.solve(puzzle, time_limit=limit, seed=k)
            row.cpu += time.process_time() - cpu
            row.time += result.time
            row.solved += result.solved
            if result.solved and puzzle.check(result.solution):
                raise SystemExit(f"{spec} returned a wrong solution for {puzzle.id}")
            log(table, spec, puzzle, result)
        rows.append(row)
        print(f"  table {table}: {spec:32} {row.solved:3}/{problems}  {row.time:9.2f} s", file=sys.stderr, flush=True)
    return rows


def render(table: int, rows: list[Row], paper: dict[str, tuple[str, str]], limit: float) -> str:
    size, values = TABLES[table]
    n = rows[0].problems
    title = (
        f"Table {table}: {n} empty {size}x{size} grids, values 1..{values}, limit {limit:g} s per problem "
        f"(paper: 100 grids, 1,000 s)"
    )
    lines = [
        title,
        "",
        "| Algorithm | backend | Problems solved | Total time | CPU time | paper: solved | paper: total time |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    names = {spec: name for name, spec in PAPER_ROWS.items()}
    for row in rows:
        base = row.spec.replace(",consistency=gac", "").replace(":consistency=gac", "")
        name = names.get(base, "CP-SAT" if row.spec == "cpsat" else base)
        if "consistency=gac" in row.spec:
            name += " + GAC"
        solved, total = paper.get(name, ("", ""))
        lines.append(
            f"| {name} | `{row.spec}` | {row.solved} out of {row.problems} | {row.time:,.2f} s | "
            f"{row.cpu:,.2f} s | {solved} | {total} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problems", type=int, default=None, help="problems per table (default 100; 20 with --quick)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per problem (default 1; 0.5 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a short run: 20 problems, 0.5 s limit")
    parser.add_argument("--seed", type=int, default=2010, help="generator seed of the problem sets (default 2010)")
    parser.add_argument("--tables", default="3,4", help="which tables (default 3,4)")
    parser.add_argument("--no-extra", action="store_true", help="only the paper's four algorithms")
    parser.add_argument("--json", type=Path, help="also write one JSON line per solve to this file")
    parser.add_argument("--paper", type=Path, default=PAPER, help="the paper's text, for its numbers")
    args = parser.parse_args(argv)
    problems = args.problems or (20 if args.quick else 100)
    limit = args.time_limit or (0.5 if args.quick else 1.0)
    tables = [int(t) for t in args.tables.split(",")]
    if problems < 1 or limit <= 0 or any(t not in TABLES for t in tables):
        parser.error("--problems must be positive, --time-limit positive, --tables among 3,4")
    specs = list(PAPER_ROWS.values()) + ([] if args.no_extra else EXTRA)

    start = time.perf_counter()
    for spec in specs:
        kakuro.get_solver(spec).warm_up()
    print(f"warm-up (compile or load the kernels): {time.perf_counter() - start:.2f} s", file=sys.stderr)

    sink = args.json.open("a", encoding="utf-8") if args.json else None

    def log(table: int, spec: str, puzzle: kakuro.Puzzle, result: kakuro.Result) -> None:
        if sink is not None:
            record = {"table": table, "id": puzzle.id, "backend": spec, "status": result.status.value,
                      "time": result.time, "stats": dict(result.stats), "limit": limit}
            sink.write(json.dumps(record) + "\n")
            sink.flush()

    paper = paper_numbers(args.paper)
    try:
        for table in tables:
            rows = run_table(table, problems, limit, args.seed, specs, log)
            print(render(table, rows, paper.get(table, {}), limit))
            print()
    finally:
        if sink is not None:
            sink.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
