"""The configuration grid of Chan, Renous and Thai (2022), "Monte-Carlo search for Sudoku"
(algorithm x playing strategy x random move selection x playouts), run on Kakuro.

Problem sets: Cazenave grids (`kakuro.generate.cazenave`, values 1..size+1) of 8x8 and 10x10
with 50 % and 66 % of the cells empty (the paper's easy and hard Sudoku levels), and a slice of
the krazydad and janko puzzles of ../shared/data. Each cell of the table is "solved / total
time" over the set; an unsolved problem counts its whole time limit, as in the paper. Every
answer is checked against the puzzle. The paper's Sudoku findings are quoted after the table.

    python experiments/mcts_strategies.py --quick     # 1 problem per set, 0.01 s limit, one budget per algorithm (seconds)
    python experiments/mcts_strategies.py --quick --problems 2 --time-limit 0.3   # the quick run README.md records (~1 min)
    python experiments/mcts_strategies.py             # 10 problems per set, 2 s limit (~1 h)
    python experiments/mcts_strategies.py --speedup   # nmcs root parallelism, 1 vs 2 workers

Playing configurations: `priority` (Cazenave's: smallest-domain cell; the selection does not
matter then), and `naive` / `max-inference` with `values` and `cells` selection (with
`priority` selection they play in the smallest-domain cell, like `priority`). Problem k of a
set is solved with seed k. Compile time is paid before timing (`warm_up`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from outputs import new_file

import kakuro
from kakuro.formats import read_lazily
from kakuro.generate import cazenave

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT.parent / "shared" / "papers" / "chan-renous-thai-2022-mcts-sudoku.txt"
DATA = ROOT.parent / "shared" / "data"

PLAYING = [("priority", "priority"), ("naive", "values"), ("naive", "cells"),
           ("max-inference", "values"), ("max-inference", "cells")]
FINDINGS = ("No matter the number", "Regarding the UCT", "Finally the best results", "In a nutshell")
"""Openings of the paper's result paragraphs, quoted beside the table."""


def algorithms(quick: bool) -> list[tuple[str, str]]:
    """(label, spec prefix) of the algorithms and their playout budgets."""
    if quick:
        return [("flat", "flat:playouts=10"), ("uct", "uct:playouts=100,c=0.2"),
                ("nmcs-1", "nmcs:level=1"), ("nmcs-2", "nmcs:level=2")]
    return ([("flat", f"flat:playouts={n}") for n in (5, 10, 15)]
            + [("uct", f"uct:playouts={n},c={c}") for c in (0.2, 0.4) for n in (100, 1000)]
            + [("nmcs-1", "nmcs:level=1"), ("nmcs-2", "nmcs:level=2")])


def problem_sets(count: int, seed: int) -> dict[str, list[kakuro.Puzzle]]:
    sets = {}
    for size in (8, 10):
        for holes in (50, 66):
            sets[f"{size}x{size} {holes}%"] = cazenave(size, size + 1, holes, count=count, seed=seed + size * 100 + holes)
    for name in ("krazydad", "janko"):
        path = DATA / f"{name}.jsonl"
        if path.is_file():
            puzzles = read_lazily(path)  # only the puzzles taken are built
            step = max(1, len(puzzles) // count)
            sets[name] = puzzles[::step][:count]
    return sets


def findings(path: Path) -> list[str]:
    if not path.is_file():
        return []
    return [line.strip() for line in path.read_text().splitlines() if line.strip().startswith(FINDINGS)]


def speedup(count: int, limit: float, seed: int) -> None:
    """nmcs levels 1 and 2 with 1 and 2 workers on Cazenave 10x10 grids, values 1..11, 66 % empty."""
    puzzles = cazenave(10, 11, 66, count=count, seed=seed)
    kakuro.get_solver("nmcs").ensure_warm()
    print(f"nmcs root parallelism: {count} Cazenave 10x10 grids, values 1..11, 66 % empty, {limit:g} s each\n")
    print("| spec | solved | total time |\n|---|---:|---:|")
    for spec in ("nmcs:level=1,consistency=fc", "nmcs:level=1,workers=2,consistency=fc", "nmcs:level=2,consistency=fc",
                 "nmcs:level=2,workers=2,consistency=fc"):
        solved, total = 0, 0.0
        for k, p in enumerate(puzzles):
            result = kakuro.solve(p, spec, time_limit=limit, seed=k)
            ok = result.solved and p.check(result.solution) == []
            solved += ok
            total += result.time if ok else limit
        print(f"| `{spec}` | {solved} / {len(puzzles)} | {total:.2f} s |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: 1 problem per set, "
                                                             "0.01 s limit, one budget per algorithm")
    parser.add_argument("--problems", type=int, default=None, help="problems per set (default 10; 1 with --quick)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per problem (default 2; 0.01 with --quick)")
    parser.add_argument("--seed", type=int, default=2022, help="generator seed of the Cazenave sets")
    parser.add_argument("--consistency", default="fc", choices=("fc", "gac"))
    parser.add_argument("--json", type=Path, help="also write one JSON line per solve to this new file")
    parser.add_argument("--speedup", action="store_true", help="only the nmcs root-parallelism comparison "
                                                                         "(8 grids, 5 s; with --quick 2 grids, 0.3 s)")
    args = parser.parse_args(argv)
    if args.speedup:
        quick = (2, 0.3) if args.quick else (8, 5.0)  # --quick: a check that it runs, not a measurement
        speedup(args.problems or quick[0], args.time_limit or quick[1], 7)
        return 0
    out = new_file(args.json, "--json")  # before any work
    count = args.problems or (1 if args.quick else 10)
    limit = args.time_limit or (0.01 if args.quick else 2.0)
    sets = problem_sets(count, args.seed)
    start = time.perf_counter()
    for name in ("flat", "uct", "nmcs", "sampling"):
        kakuro.get_solver(name).ensure_warm()
    print(f"warm-up: {time.perf_counter() - start:.2f} s", file=sys.stderr)
    header = ["algorithm", "spec", "strategy", "selection"] + list(sets)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    wrong = 0
    for label, prefix in algorithms(args.quick):
        for strategy, selection in PLAYING:
            spec = f"{prefix},strategy={strategy},selection={selection},consistency={args.consistency}"
            cells = []
            for set_name, puzzles in sets.items():
                solved, total = 0, 0.0
                for k, p in enumerate(puzzles):
                    result = kakuro.solve(p, spec, time_limit=limit, seed=k)
                    ok = result.solved and p.check(result.solution) == []
                    if result.solved and not ok:
                        wrong += 1
                    solved += ok
                    total += result.time if ok else limit
                    if out:
                        out.write(json.dumps({"spec": spec, "set": set_name, "puzzle": p.id, "status": result.status.value,
                                              "valid": ok, "time": result.time}) + "\n")
                cells.append(f"{solved}/{len(puzzles)} {total:.2f} s")
            engine = prefix.split(":", 1)[1] if ":" in prefix else ""
            lines.append("| " + " | ".join([label, engine, strategy, selection] + cells) + " |")
            print(lines[-1], file=sys.stderr, flush=True)
    print(f"Kakuro, {count} problems per set, {limit:g} s per problem, consistency={args.consistency}; "
          f"cells: solved / total time (an unsolved problem counts the limit).\n")
    print("\n".join(lines))
    print(f"\ninvalid answers: {wrong}")
    quotes = findings(PAPER)
    if quotes:
        print("\nThe paper's findings on 16x16 Sudoku (Chan, Renous and Thai 2022, Sect. 3):\n")
        for q in quotes:
            print(f"> {q}\n")
    if out:
        out.close()
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
