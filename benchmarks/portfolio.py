"""Issue #31's "done when": `auto` against each single backend, side by side, class by class.

    python benchmarks/portfolio.py [--seed 3101] [--sets empty12,...] [--repeat 3]

One process, backends in turn on the same puzzles (each warmed up on a small puzzle first, so no
compilation is timed). Sets, generated from `--seed` (nobody tuned on them) unless named files:
empty Cazenave grids (12x12 over 1..13, 16x16 over 1..17, 20x20 over 1..21, 30x30 over 1..31),
unsatisfiable Cazenave grids whose sums add up (7x7, 8x8, 10x10), loose classic grids (30x30 and
60x60 at 25 % black, 31x101 at 30 %), the shared janko set (skipped with a note when ../shared/data
is absent), the generated unique instances of instances/classic, and six loose 100x100 grids
(60 s each, `gac` also without its balance check: does auto decide them all?). An undecided
puzzle counts its limit; a puzzle's time is the median of `--repeat` solves on the sets of short
limits. Per set: each backend's decided count and total seconds, the best single backend, and
auto's total over it
(the issue asks at most 1.1, a few milliseconds allowed where totals are milliseconds).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import kakuro
from kakuro.generate import cazenave, classic

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hard_search import DECIDED, SHARED, WARM_UP  # the same warm-up puzzle and shared data

ROOT = Path(__file__).resolve().parent.parent
EMPTY = ("auto", "gac", "nmcs", "sampling", "sat", "cpsat")
UNSAT = ("auto", "gac", "sat", "sat:solver=kissat404", "cpsat")
LOOSE = ("auto", "gac", "sat", "sat:solver=kissat404", "cpsat")
LARGE = ("auto", "gac")  # sat, kissat and cpsat took minutes on these (issue #31)
HUGE = LARGE + ("gac:balance=false",)  # what the balance check changes where it matters most
PUBLISHED = ("auto", "gac", "cpsat", "sat", "nmcs")


def puzzle_sets(seed: int, names: set[str]) -> list[tuple[str, list[kakuro.Puzzle], float, tuple[str, ...]]]:
    """(name, puzzles, seconds per puzzle, backends) of each set in `names`."""
    sets: list[tuple[str, list[kakuro.Puzzle], float, tuple[str, ...]]] = []
    for size, count in ((12, 6), (16, 6), (20, 4), (30, 3)):
        if f"empty{size}" in names:
            sets.append((f"empty {size}x{size} over 1..{size + 1}", cazenave(size, size + 1, 100, count=count, seed=seed), 5.0,
                         EMPTY))
    for size in (7, 8, 10):
        if f"unsat{size}" in names:
            sets.append((f"unsatisfiable {size}x{size} over 1..{size + 1}",
                         cazenave(size, size + 1, 100, count=4, seed=seed, unsatisfiable=True), 5.0, UNSAT))
    loose = {"loose30": (30, 30, 0.25, 6, 10.0, LOOSE), "loose60": (60, 60, 0.25, 4, 60.0, LARGE),
             "loose31": (31, 101, 0.3, 4, 60.0, LARGE), "loose100": (100, 100, 0.25, 6, 60.0, HUGE)}
    for name, (rows, cols, density, count, limit, backends) in loose.items():
        if name in names:
            puzzles = classic(rows, cols, density=density, count=count, seed=seed, unique=False)
            sets.append((f"loose {rows}x{cols}", puzzles, limit, backends))
    if "janko" in names:
        if (SHARED / "janko.jsonl").exists():
            sets.append(("janko", kakuro.read(SHARED / "janko.jsonl"), 10.0, PUBLISHED))
        else:
            print(f"# janko skipped: {SHARED / 'janko.jsonl'} is absent", file=sys.stderr)
    if "unique" in names:
        unique = [p for path in sorted((ROOT / "instances" / "classic").glob("unique-*.jsonl")) for p in kakuro.read(path)]
        sets.append(("generated unique (instances/classic)", unique, 10.0, PUBLISHED))
    return sets


def run(puzzles: list[kakuro.Puzzle], backend: str, limit: float, repeat: int) -> tuple[int, float]:
    """(decided, total seconds) of `backend` over `puzzles`: each puzzle's time is the median of
    `repeat` solves (one when the first is undecided, which counts the limit). A wrong answer
    stops the run."""
    kakuro.solve(WARM_UP, backend, time_limit=limit)  # engine start-up outside the table
    decided, total = 0, 0.0
    for puzzle in puzzles:
        times = []
        for _ in range(repeat):
            result = kakuro.solve(puzzle, backend, time_limit=limit)
            if result.status.name in ("ERROR", "WRONG"):
                raise SystemExit(f"{backend} on {puzzle.id}: {result.status.value}: {result.message}")
            ok = result.status.name in DECIDED
            times.append(result.time if ok else limit)
            if not ok:
                break
        decided += ok
        total += statistics.median(times)
    return decided, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    every = "empty12,empty16,empty20,empty30,unsat7,unsat8,unsat10,loose30,loose60,loose31,janko,unique,loose100"
    parser.add_argument("--sets", default=every, help=f"comma list of {every}")
    parser.add_argument("--seed", type=int, default=3101, help="seed of the generated sets")
    parser.add_argument("--repeat", type=int, default=3, help="solves per puzzle, the median counted, on sets of "
                        "limit 10 s or less (default 3: their times are milliseconds, a scheduler slice is 10)")
    args = parser.parse_args()
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"seed {args.seed}")
    print("| set | puzzles | limit s | backends: decided, total s | best single | auto | auto / best |")
    print("|---|---:|---:|---|---|---:|---:|")
    for name, puzzles, limit, backends in puzzle_sets(args.seed, set(args.sets.split(","))):
        totals: dict[str, tuple[int, float]] = {}
        for backend in backends:
            decided, total = run(puzzles, backend, limit, args.repeat if limit <= 10 else 1)
            totals[backend] = (decided, total)
        cells = "; ".join(f"`{b}` {d}/{len(puzzles)} {t:.3f}" for b, (d, t) in totals.items())
        singles = {b: t for b, t in totals.items() if b != "auto"}
        auto = totals["auto"]
        best = min(singles, key=lambda b: (-singles[b][0], singles[b][1]))
        ratio = auto[1] / singles[best][1] if singles[best][1] > 0 else float("inf")
        print(f"| {name} | {len(puzzles)} | {limit:g} | {cells} | `{best}` {singles[best][0]}/{len(puzzles)} "
              f"{singles[best][1]:.3f} | {auto[0]}/{len(puzzles)} {auto[1]:.3f} | {ratio:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
