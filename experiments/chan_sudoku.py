"""Rerun Tables 1-3 of Chan, Renous and Thai (2022), "Monte-Carlo Tree Search for Sudoku", on
16x16 Sudoku with 50 % and 66 % of the cells empty, the paper's numbers printed beside ours.

Table 1: flat Monte-Carlo with 5, 10 and 15 random games per move; Table 2: UCT with exploration
c 0.2 and 0.4 and 2000, 4000 and 6000 random games per move; Table 3: nested Monte-Carlo at
levels 1 and 2. Each crosses the paper's five playing configurations: maximum inference or the
naive strategy, each with random moves over the empty cells or over the domain values, and
Cazenave's smallest-domain "priority" (backend options `strategy` and `selection`). Every spec
uses the paper's forward checking (`consistency=fc`). The same sets are then given to the
complete backends (`--complete`).

    python experiments/chan_sudoku.py --quick     # 1 problem per set, 0.02 s, one budget per algorithm (seconds)
    python experiments/chan_sudoku.py             # 15 / 50 problems per set, 1 s / 0.3 s per problem (~25 min)
    python experiments/chan_sudoku.py --tables 3 --problems 50 --time-limit 3 --json t3.jsonl

Problems: `kakuro.generate.sudoku_grids.sudoku(16, share, seed)` (a random full grid, then 50 %
or 66 % of it emptied, as the paper made its own); 50 per level, of which Tables 1 and 2 use the
first 15, as the paper used 15 and 50. Limits: the paper gave each problem 10 minutes (Tables 1,
2) and 3 minutes (Table 3); the default here is 1 s and 0.3 s (the same 10:3 ratio), since the
paper's limits would take about 7 days of one core (of the 2,350 solves, 1,429 ran out of
their limit in the full run; at 10 or 3 minutes each that is 7.0 days, if they still did).
Totals are therefore not comparable in absolute terms: what compares is who solves what. An
unsolved problem counts its whole limit, as in the paper. Problem k of a set is
solved with seed k; compile time is paid before timing. Every answer is checked with
`puzzle.check`; an invalid answer or a backend error is counted and makes the script exit 1.
`--json FILE` writes one line per solve and refuses an existing FILE.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from outputs import new_file

import kakuro
from kakuro.generate.sudoku_grids import sudoku

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT.parent / "shared" / "papers" / "chan-renous-thai-2022-mcts-sudoku.txt"

SIZE = 16
LEVELS = (50, 66)
"""Percent of the cells emptied: the paper's easy and hard sets."""
PAPER_PROBLEMS = {1: 15, 2: 15, 3: 50}
PAPER_LIMIT = {1: 600.0, 2: 600.0, 3: 180.0}
"""The paper's problems per set and seconds per problem, by table."""
LIMIT_SHARE = {1: 1.0, 2: 1.0, 3: 0.3}
"""Our limit of each table as a share of --time-limit (the paper's 10 : 10 : 3)."""
PLAYING = (("max-inference", "cells"), ("naive", "cells"), ("max-inference", "values"), ("naive", "values"),
           ("priority", "priority"))
"""(strategy, selection) in the order of the paper's rows: maximum inference yes/no x random move function."""
ALGORITHM = {1: "Flat", 2: "UCT", 3: "Nested"}
COMPLETE = ("gac", "fc", "rdv", "auto", "cpsat", "sat", "dimacs", "choco", "mip", "asp", "smt", "minizinc")
"""Complete backends run on the same sets. Left out: `backtrack` (no propagation) and `csp`
(python-constraint), which ran out of 20 s on 16x16 grids with 66 % empty cells."""
QUICK_COMPLETE = ("gac", "fc")


@dataclass(frozen=True)
class Config:
    """One row of a table: the paper's budget (games per move, c and games, or the level) and
    playing configuration, and our backend spec."""

    table: int
    budget: str
    strategy: str
    selection: str
    spec: str


@dataclass(frozen=True)
class Row:
    """Our result of one spec on one set: solved (checked) answers and the total time, an
    unsolved problem counting the limit."""

    solved: int
    problems: int
    time: float
    invalid: int


def configurations(table: int, quick: bool = False) -> list[Config]:
    """The rows of `table` in the paper's order (with `quick`, the first budget only)."""
    if table == 1:
        budgets = [(f"{g}", f"flat:playouts={g}") for g in (5, 10, 15)]
    elif table == 2:
        budgets = [(f"c {c}, {g}", f"uct:playouts={g},c={c}") for c in (0.2, 0.4) for g in (2000, 4000, 6000)]
    else:
        budgets = [(f"{level}", f"nmcs:level={level}") for level in (1, 2)]
    if quick:
        budgets = budgets[:1] if table != 3 else budgets
    return [Config(table, budget, strategy, selection, f"{prefix},strategy={strategy},selection={selection},consistency=fc")
            for budget, prefix in budgets for strategy, selection in PLAYING]


def paper_numbers(path: Path) -> dict[tuple[int, int, str, str, str], tuple[int, float]]:
    """{(table, level, budget, strategy, selection): (solved, total seconds)} as printed in the
    paper's appendix ({} when the text is absent; a table whose rows do not come out as the
    paper's loop over the configurations is left out). The rows are taken in order: each table
    prints the 50 % set, then the 66 % set, in the order of `configurations`."""
    if not path.is_file():
        return {}
    rows: dict[int, list[list[str]]] = {1: [], 2: [], 3: []}
    names = {name: table for table, name in ALGORITHM.items()}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [re.sub(r"\\mathbf\{(\w+)\}", r"\1", c.strip()) for c in line.split("|")]
        cells = [c for c in cells if c]
        if cells and cells[0] in names:
            rows[names[cells[0]]].append(cells)
    out: dict[tuple[int, int, str, str, str], tuple[int, float]] = {}
    for table, found in rows.items():
        configs = configurations(table)
        if len(found) != len(LEVELS) * len(configs):
            continue
        keyed = {}
        for k, cells in enumerate(found):
            config = configs[k % len(configs)]
            if config.selection not in cells:  # the row is not the one the paper's order puts here
                break
            level = LEVELS[k // len(configs)]
            keyed[(table, level, config.budget, config.strategy, config.selection)] = (int(cells[-2]), float(cells[-1]))
        else:
            out.update(keyed)
    return out


def problem_sets(count: int, seed: int) -> dict[int, list[kakuro.Puzzle]]:
    """{level: `count` fresh 16x16 Sudokus with `level` % of the cells empty}."""
    return {level: [sudoku(SIZE, level / 100, seed=seed + level * 1000 + k) for k in range(count)] for level in LEVELS}


def solve_set(spec: str, puzzles: Sequence[kakuro.Puzzle], limit: float, sink: TextIO | None,
              **fields: object) -> Row:
    """`spec` on every puzzle (problem k with seed k), each answer checked."""
    solved, total, invalid = 0, 0.0, 0
    for k, puzzle in enumerate(puzzles):
        result = kakuro.solve(puzzle, spec, time_limit=limit, seed=k)
        valid = result.solved and puzzle.check(result.solution) == []
        if result.status is kakuro.Status.ERROR or (result.solved and not valid) or result.status is kakuro.Status.WRONG:
            invalid += 1
        solved += valid
        total += result.time if valid else limit
        if sink is not None:
            sink.write(json.dumps({**fields, "id": puzzle.id, "backend": spec, "status": result.status.value,
                                   "valid": valid, "time": result.time, "limit": limit}) + "\n")
            sink.flush()
    return Row(solved, len(puzzles), total, invalid)


def cell(solved: int, problems: int, total: float, digits: int = 2) -> str:
    return f"{solved}/{problems}, {total:,.{digits}f} s"


def render(table: int, results: dict[tuple[Config, int], Row], paper: dict, problems: int, limit: float) -> str:
    """One table as Markdown: per configuration, the paper's and our solved / total time per set."""
    configs = list(dict.fromkeys(config for config, _ in results))
    budget = {1: "games per move", 2: "c, games per move", 3: "level"}[table]
    lines = [f"Table {table}: {ALGORITHM[table]}, problems per set: {problems}, limit {limit:g} s per problem "
             f"(paper: {PAPER_PROBLEMS[table]} problems, {PAPER_LIMIT[table]:g} s)", "",
             f"| {budget} | maximum inference | random move function | 50 %: paper | 50 %: ours | 66 %: paper | 66 %: ours |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for config in configs:
        inference = "yes" if config.strategy == "max-inference" else "no"
        columns = []
        for level in LEVELS:
            theirs = paper.get((table, level, config.budget, config.strategy, config.selection))
            columns.append(cell(theirs[0], PAPER_PROBLEMS[table], theirs[1], 3) if theirs else "")
            row = results[(config, level)]
            columns.append(cell(row.solved, row.problems, row.time))
        lines.append(f"| {config.budget} | {inference} | {config.selection} | " + " | ".join(columns) + " |")
    return "\n".join(lines)


def ranking(solved: dict[str, float]) -> str:
    """Playing configurations from most to least solved, with their shares ("a 90 % > b 10 % = c 10 %")."""
    order = sorted(solved, key=lambda name: -solved[name])
    text = f"{order[0]} {solved[order[0]]:.0%}"
    for before, name in zip(order, order[1:]):
        text += (" = " if solved[name] == solved[before] else " > ") + f"{name} {solved[name]:.0%}"
    return text


def summary(table: int, results: dict[tuple[Config, int], Row], paper: dict) -> list[str]:
    """Per set, the share of problems each playing configuration solved over the table's
    budgets, the paper's and ours, ranked."""
    lines = []
    for level in LEVELS:
        ours: dict[str, list[int]] = {}
        theirs: dict[str, list[int]] = {}
        for (config, lvl), row in results.items():
            if lvl != level:
                continue
            name = "priority" if config.strategy == "priority" else f"{config.strategy}/{config.selection}"
            mine = ours.setdefault(name, [0, 0])
            mine[0] += row.solved
            mine[1] += row.problems
            found = paper.get((table, level, config.budget, config.strategy, config.selection))
            if found:
                theirs.setdefault(name, [0, 0])
                theirs[name][0] += found[0]
                theirs[name][1] += PAPER_PROBLEMS[table]
        lines.append(f"- {level} %, ours:  {ranking({name: s / t for name, (s, t) in ours.items()})}")
        if len(theirs) == len(ours):
            lines.append(f"- {level} %, paper: {ranking({name: s / t for name, (s, t) in theirs.items()})}")
    return lines


def run_table(table: int, sets: dict[int, list[kakuro.Puzzle]], problems: int, limit: float, quick: bool,
              sink: TextIO | None) -> dict[tuple[Config, int], Row]:
    results = {}
    for config in configurations(table, quick):
        for level in LEVELS:
            row = solve_set(config.spec, sets[level][:problems], limit, sink, table=table, level=level)
            results[(config, level)] = row
            print(f"  table {table} {level} %: {config.spec:75} {row.solved:3}/{row.problems} {row.time:9.2f} s",
                  file=sys.stderr, flush=True)
    return results


def run_complete(backends: Sequence[str], sets: dict[int, list[kakuro.Puzzle]], limit: float,
                 sink: TextIO | None) -> tuple[str, int]:
    """The complete backends on the same sets: Markdown table and the count of invalid answers."""
    count = len(sets[LEVELS[0]])
    lines = [f"Complete backends: the same sets, problems per set: {count}, limit {limit:g} s per problem", "",
             "| backend | 50 %: solved, total | 50 %: mean | 66 %: solved, total | 66 %: mean |",
             "| --- | ---: | ---: | ---: | ---: |"]
    invalid = 0
    for spec in backends:
        columns = []
        for level in LEVELS:
            row = solve_set(spec, sets[level], limit, sink, table="complete", level=level)
            invalid += row.invalid
            columns += [cell(row.solved, row.problems, row.time), f"{row.time / row.problems * 1000:,.1f} ms"]
            print(f"  complete {level} %: {spec:10} {row.solved:3}/{row.problems} {row.time:9.2f} s", file=sys.stderr, flush=True)
        lines.append(f"| `{spec}` | " + " | ".join(columns) + " |")
    return "\n".join(lines), invalid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: 1 problem per set, 0.02 s, "
                                                             "one budget per algorithm, two complete backends")
    parser.add_argument("--tables", default="1,2,3,complete", help="which parts (default 1,2,3,complete)")
    parser.add_argument("--problems", type=int, default=None, help="problems per set for every table "
                                                                   "(default the paper's 15 / 15 / 50; 1 with --quick)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per problem of Tables 1 and 2; "
                                                                       "Table 3 gets 0.3 of it (default 1; 0.02 with --quick)")
    parser.add_argument("--complete", default=None, help="complete backends, comma-separated "
                                                         f"(default {','.join(COMPLETE)})")
    parser.add_argument("--complete-limit", type=float, default=10.0, help="seconds per problem of the complete "
                                                                           "backends (default 10; at most 1 with --quick)")
    parser.add_argument("--seed", type=int, default=2022, help="generator seed of the problem sets (default 2022)")
    parser.add_argument("--json", type=Path, help="also write one JSON line per solve to this new file")
    parser.add_argument("--paper", type=Path, default=PAPER, help="the paper's text, for its numbers")
    args = parser.parse_args(argv)
    parts = [part.strip() for part in args.tables.split(",")]
    if any(part not in ("1", "2", "3", "complete") for part in parts):
        parser.error("--tables takes 1, 2, 3 and complete, separated by commas")
    if args.problems is not None and args.problems < 1 or args.time_limit is not None and args.time_limit <= 0 \
            or args.complete_limit <= 0:
        parser.error("--problems, --time-limit and --complete-limit must be positive")
    limit = args.time_limit or (0.02 if args.quick else 1.0)
    counts = {t: args.problems or (1 if args.quick else PAPER_PROBLEMS[t]) for t in PAPER_PROBLEMS}
    complete = [b for b in (args.complete.split(",") if args.complete else QUICK_COMPLETE if args.quick else COMPLETE) if b]
    complete_limit = min(args.complete_limit, 1.0) if args.quick else args.complete_limit
    tables = [int(part) for part in parts if part != "complete"]
    sets = problem_sets(max([counts[t] for t in tables] + ([max(counts.values())] if "complete" in parts else [])), args.seed)

    try:
        for spec in complete if "complete" in parts else ():
            kakuro.get_solver(spec)
    except kakuro.KakuroError as exc:
        parser.error(f"--complete: {exc}")
    sink = new_file(args.json, "--json")
    start = time.perf_counter()
    for table in tables:
        kakuro.get_solver(configurations(table)[0].spec).ensure_warm()
    for spec in complete if "complete" in parts else ():
        kakuro.get_solver(spec).ensure_warm()
    print(f"warm-up (compile or load the kernels, start the engines): {time.perf_counter() - start:.2f} s", file=sys.stderr)
    paper = paper_numbers(args.paper)
    if not paper:
        print(f"(the paper's numbers are not printed: {args.paper} is absent or unreadable)\n")
    invalid = 0
    try:
        for table in tables:
            table_limit = limit * LIMIT_SHARE[table]
            results = run_table(table, sets, counts[table], table_limit, args.quick, sink)
            invalid += sum(row.invalid for row in results.values())
            print(render(table, results, paper, counts[table], table_limit))
            print("\nShare solved per playing configuration, over the table's budgets, most first:")
            print("\n".join(summary(table, results, paper)) + "\n")
        if "complete" in parts:
            text, bad = run_complete(complete, sets, complete_limit, sink)
            invalid += bad
            print(text + "\n")
    finally:
        if sink is not None:
            sink.close()
    print(f"invalid answers or backend errors: {invalid}")
    return 1 if invalid else 0


if __name__ == "__main__":
    raise SystemExit(main())
