"""Where search is needed: gac, auto, cpsat, sat (CaDiCaL and Kissat) and choco side by side.

    python benchmarks/hard_search.py [--sets janko,hard,fresh] [--backends ...] [--seed 2026]

Sets: janko (the 999 shared janko.jsonl puzzles, 10 s each; skipped with a note when
../shared/data is absent), each file of instances/hard (10 s per puzzle, 60 s for the 60x60, 31x101
and 100x100 grids), and, generated from `--seed` so that no configuration was tuned on them, loose grids
(not unique): `fresh` 6 of 30x30 (25 % black, 10 s each), `fresh60` 4 of 60x60 (25 % black)
and `fresh31` 4 of 31x101 (30 % black, about 2,000 white cells), 60 s each. `--backends` takes
backend specs separated by commas; an option after a spec's first one belongs to it
(`gac,gac:implied=false,order=dom` is two specs). `--seeds 1,2,3` solves each puzzle once per
seed (the default, 0, is what `kakuro.solve` uses): a way to see a search's spread, not only
one draw of it. Per set and backend: puzzles decided (solved or proved
unsatisfiable), total seconds over all puzzles (an undecided one counts its limit), and the
median. Every solution is checked by `puzzle.check` (the library does it); a wrong answer
stops the run. One process, one run, backends in turn on the same puzzles: compare ratios
within a table, not across machines.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

import kakuro
from kakuro.formats import read_lazily
from kakuro.generate import classic

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
BACKENDS = ("gac", "auto", "nmcs", "cpsat", "sat", "sat:solver=kissat404", "choco")
DECIDED = {"SOLVED", "UNSATISFIABLE"}
WARM_UP = kakuro.read(ROOT / "instances" / "examples" / "puzzlink-6x5.txt")[0]


def puzzle_sets(names: list[str], seed: int, take: int | None = None) -> list[tuple[str, list[kakuro.Puzzle], float]]:
    """(name, puzzles, seconds per puzzle) for each set asked for; with `take`, only the first
    `take` puzzles of each set (the files read no further, fewer grids generated)."""

    def read(path: Path) -> list[kakuro.Puzzle]:
        return kakuro.read(path) if take is None else list(itertools.islice(read_lazily(path), take))

    sets = []
    if "janko" in names:
        if (SHARED / "janko.jsonl").exists():
            sets.append(("janko", read(SHARED / "janko.jsonl"), 10.0))
        else:
            print(f"# janko skipped: {SHARED / 'janko.jsonl'} is absent", file=sys.stderr)
    if "hard" in names:
        for path in sorted((ROOT / "instances" / "hard").glob("*.jsonl")):
            large = any(size in path.stem for size in ("60x60", "31x101", "100x100"))
            sets.append((f"hard/{path.stem}", read(path), 60.0 if large else 10.0))
    fresh = {"fresh": (30, 30, 0.25, 6, 10.0), "fresh60": (60, 60, 0.25, 4, 60.0), "fresh31": (31, 101, 0.3, 4, 60.0)}
    for name, (rows, cols, density, count, limit) in fresh.items():
        if name in names:
            puzzles = classic(rows, cols, density=density, count=count if take is None else min(count, take), seed=seed,
                              unique=False)
            sets.append((f"fresh loose {rows}x{cols} (seed {seed})", puzzles, limit))
    return sets


def backend_specs(text: str) -> list[str]:
    """The comma-separated specs of `text`; a part with "=" and no ":" is an option of the
    spec before it."""
    specs: list[str] = []
    for part in text.split(","):
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def run(puzzles: list[kakuro.Puzzle], backend: str, limit: float, seeds: list[int]) -> tuple[int, float, float]:
    """(decided, total seconds with the limit for undecided ones, median seconds) over every
    puzzle and seed."""
    kakuro.solve(WARM_UP, backend, time_limit=limit)  # engine start-up outside the table
    times, decided = [], 0
    for puzzle, seed in itertools.product(puzzles, seeds):
        result = kakuro.solve(puzzle, backend, time_limit=limit, seed=seed)
        if result.status.name in ("ERROR", "WRONG"):  # a wrong answer stops the run, as the docstring says
            raise SystemExit(f"{backend} on {puzzle.id}: {result.status.value}: {result.message}")
        ok = result.status.name in DECIDED
        decided += ok
        times.append(result.time if ok else limit)
    return decided, sum(times), statistics.median(times)


def print_table(sets: list[tuple[str, list[kakuro.Puzzle], float]], backends: list[str], seeds: list[int]) -> None:
    """The Markdown table of `run` for every set (a row: name, puzzles, limit) and backend (a
    column); a backend that refuses a set (not installed, a range it cannot take) is n/a there."""
    print("| set | puzzles | limit s | " + " | ".join(f"`{b}`" for b in backends) + " |")
    print("|---|---:|---:|" + "---|" * len(backends))
    for name, puzzles, limit in sets:
        cells = []
        for backend in backends:
            try:
                decided, total, median = run(puzzles, backend, limit, seeds)
            except kakuro.KakuroError as exc:
                cells.append(f"n/a ({exc})")
                continue
            cells.append(f"{decided}/{len(puzzles) * len(seeds)}, {total:.2f} s (median {median:.3f})")
        print(f"| {name} | {len(puzzles)} | {limit:g} | " + " | ".join(cells) + " |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="janko,hard,fresh", help="comma list of janko, hard, fresh, fresh60, fresh31")
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma list of backend specs")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the fresh loose grids")
    parser.add_argument("--seeds", default="0", help="comma list of solver seeds, each puzzle solved once per seed")
    args = parser.parse_args()
    backends = backend_specs(args.backends)
    seeds = [int(seed) for seed in args.seeds.split(",")]
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start, {time.strftime('%Y-%m-%d %H:%M')}")
    print_table(puzzle_sets(args.sets.split(","), args.seed), backends, seeds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
