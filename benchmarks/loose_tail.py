"""Issue #31's loose tail, taken apart: is a loose grid `gac` cannot decide hard as a whole, or in one of its parts?

    python benchmarks/loose_tail.py [--size 60] [--seed 777] [--count 1] [--first 0] [--split 2] [--halves]
                                    [--limit 60] [--seeds 0] [--quick]

Generates `--count` loose classic grids (`--size` x `--size`, 25 % black, not unique: the
portfolio benchmark's loose sets) from `--seed`, and per grid solves, with `gac` (its defaults)
and each seed of `--seeds`:

- the whole grid;
- each part of a `--split` x `--split` division of the grid into boxes (and, `--halves`, each
  half of the grid), the other cells given the
  values of the filling the generator made the grid from (`meta["solution"]`): the part's cells
  are the only ones left to find, its runs that leave the box keep their full clue.

One line per solve: what was solved, its open cells (not given), the status, seconds, and the
search's nodes and fails. A part that comes out in a fraction of the whole grid's time says the
hardness is in fitting the parts together (decisions in one part that make another impossible
and that the search is slow to refute), not in any one part. Every solution is checked by the
library. One process, solves in turn: compare within one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

import kakuro
from kakuro.generate import classic

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hard_search import DECIDED, WARM_UP  # the same warm-up puzzle and verdicts


def boxes(rows: int, cols: int, split: int, halves: bool) -> list[tuple[int, int, int, int]]:
    """(top, bottom, left, right), bounds excluded, of each box of a `split` x `split` division
    of a `rows` x `cols` grid, then with `halves` its left, right, top and bottom halves."""
    height, width = -(-rows // split), -(-cols // split)
    out = [(top, top + height, left, left + width) for top in range(0, rows, height) for left in range(0, cols, width)]
    if halves:
        out += [(0, rows, 0, cols // 2), (0, rows, cols // 2, cols), (0, rows // 2, 0, cols), (rows // 2, rows, 0, cols)]
    return out


def parts(puzzle: kakuro.Puzzle, split: int, halves: bool) -> list[tuple[str, kakuro.Puzzle]]:
    """("rows a-b, cols c-d", the puzzle with every cell outside that box given its value in the
    generator's filling) for each of `boxes`."""
    rows = puzzle.meta["solution"]
    filling = {i: rows[r][c] for i, (r, c) in enumerate(puzzle.cells)}
    out = []
    for top, bottom, left, right in boxes(puzzle.rows, puzzle.cols, split, halves):
        inside = {i for i, (r, c) in enumerate(puzzle.cells) if top <= r < bottom and left <= c < right}
        givens = {i: v for i, v in filling.items() if i not in inside}
        name = f"rows {top}-{min(bottom, puzzle.rows) - 1}, cols {left}-{min(right, puzzle.cols) - 1}"
        out.append((name, dataclasses.replace(puzzle, givens=givens)))
    return out


def line(grid: str, what: str, puzzle: kakuro.Puzzle, seed: int, limit: float) -> None:
    """Solve `puzzle` with gac and print one table row."""
    result = kakuro.solve(puzzle, "gac", time_limit=limit, seed=seed)
    if result.status.name not in DECIDED and result.status.name != "UNKNOWN":
        raise SystemExit(f"gac on {grid} {what}: {result.status.value}: {result.message}")
    shown = result.time if result.status.name in DECIDED else limit
    print(f"| {grid} | {what} | {seed} | {puzzle.size - len(puzzle.givens)} | {result.status.name.lower()} | {shown:.2f} | "
          f"{result.stats.get('nodes', '-')} | {result.stats.get('fails', '-')} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=60, help="rows and columns of each grid")
    parser.add_argument("--seed", type=int, default=777, help="seed of the generated grids")
    parser.add_argument("--count", type=int, default=1, help="grids generated")
    parser.add_argument("--first", type=int, default=0, help="the first grid measured (the ones before are skipped)")
    parser.add_argument("--split", type=int, default=2, help="boxes per side")
    parser.add_argument("--halves", action="store_true", help="also the grid's four halves")
    parser.add_argument("--quick", action="store_true", help="a 12x12 grid, 5 s per solve (the docs' test)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--seeds", default="0", help="comma list of gac's seeds")
    args = parser.parse_args()
    if args.quick:
        args.size, args.count, args.first, args.limit = 12, 1, 0, 5.0
    seeds = [int(s) for s in args.seeds.split(",")]
    grids = classic(args.size, args.size, density=0.25, count=args.count, seed=args.seed, unique=False)
    kakuro.solve(WARM_UP, "gac", time_limit=args.limit)  # compilation outside the table
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{args.size}x{args.size} seed {args.seed}, limit {args.limit:g} s")
    print("| grid | solved | seed | open cells | status | s | nodes | fails |")
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for grid in grids[args.first:]:
        name = str(grid.id)
        for seed in seeds:
            line(name, "whole grid", grid, seed, args.limit)
            for what, part in parts(grid, args.split, args.halves):
                line(name, what, part, seed, args.limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
