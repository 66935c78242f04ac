"""Measure each backend's configurations side by side, to choose its defaults.

    python benchmarks/defaults.py                      # every backend, 2 s per puzzle (~30 min)
    python benchmarks/defaults.py --backends nmcs,fc   # some backends only
    python benchmarks/defaults.py --quick              # one configuration per backend, three puzzles, 0.05 s
    python benchmarks/defaults.py --backends fc --configs "fc:consistency=gac,values=random;fc:consistency=gac,values=ascending" --all-published

Two sets of puzzles:

- `published-hard`: the shared published puzzles (`../shared/data`) that arc consistency on
  every run does not decide on its own (grade `gac+shaving` or `search`, see
  `kakuro.generate.grade`), with grids up to 15x15 (clue row and column included);
- `generated`: the project's own hard instances: `instances/classic/shaving-15x15.jsonl`,
  `unique-12x12-long.jsonl` and Cazenave's grids `instances/cazenave/empty-6x6-v7.jsonl`,
  `empty-8x8-v9.jsonl`, `empty-8x8-v12.jsonl`, `10x10-v11-h90.jsonl`.

Every configuration solves every puzzle once, puzzle k with seed k, in this one process after
its warm-up (compilation is not timed); every answer is checked. The table gives the puzzles
solved per set, the total time (an unsolved puzzle counts the whole limit) and the median time
of the solved ones, in seconds; a puzzle a configuration refuses (e.g. a table too large for a
wide value range) counts as unsolved and is named "refused". Prints the load average (other work on the machine slows it).
"""  # noqa: E501  # a command line to copy whole

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
from kakuro.generate import grade

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
PUBLISHED = ("janko", "simonis_easy", "krazydad", "gecode_nikoli", "ifilot_cx16")
GENERATED = (
    "classic/shaving-15x15.jsonl",
    "classic/unique-12x12-long.jsonl",
    "cazenave/empty-6x6-v7.jsonl",
    "cazenave/empty-8x8-v9.jsonl",
    "cazenave/empty-8x8-v12.jsonl",
    "cazenave/10x10-v11-h90.jsonl",
)
LARGEST_SIDE = 15
QUICK_LIMIT = 0.05
"""Seconds per puzzle of `--quick` (a check that every configuration runs, not a measurement)."""

CANDIDATES: dict[str, list[str]] = {
    "nmcs": ["nmcs:level=2,consistency=fc", "nmcs:level=2,consistency=gac", "nmcs:level=1,consistency=fc",
             "nmcs:level=1,consistency=gac", "nmcs:level=3,consistency=gac"],
    "sampling": ["sampling:consistency=fc", "sampling:consistency=gac"],
    "flat": ["flat:consistency=fc", "flat:consistency=gac", "flat:consistency=gac,playouts=5",
             "flat:consistency=gac,playouts=15"],
    "uct": ["uct:consistency=fc", "uct:consistency=gac", "uct:consistency=gac,playouts=1000",
            "uct:consistency=gac,c=0.4"],
    "fc": ["fc:consistency=fc,values=random", "fc:consistency=gac,values=random", "fc:consistency=fc,values=ascending",
           "fc:consistency=gac,values=ascending"],
    "rdv": ["rdv:consistency=fc", "rdv:consistency=gac"],
    "backtrack": [f"backtrack:variant={v}" for v in ("plain", "run-ordering", "value-ordering", "decisive",
                                                       "projected-pruning")],
    "gac": ["gac:shaving=fixpoint", "gac:shaving=once", "gac:shaving=none"],
    "cpsat": ["cpsat:model=decomposition", "cpsat:model=table", "cpsat:model=automaton"],
    "sat": ["sat:encoding=combinations", "sat:encoding=pb"],
    "csp": ["csp:search=backtracking", "csp:search=optimized"],
    "choco": ["choco:model=decomposition", "choco:model=table", "choco:model=regular", "choco:model=mdd"],
    "sahs": ["sahs:hms=10", "sahs:hms=50"],
}
"""Per backend, the configurations compared (each spec names the options it compares)."""


def published_hard(limit_per_set: int | None, names: tuple[str, ...] = PUBLISHED) -> list[kakuro.Puzzle]:
    """The shared puzzles of the sets `names` that root GAC leaves undecided, grids up to LARGEST_SIDE."""
    chosen = []
    for name in names:
        found = (p for p in read_lazily(SHARED_DATA / f"{name}.jsonl")  # built as graded
                 if max(p.rows, p.cols) <= LARGEST_SIDE and grade(p) in ("gac+shaving", "search"))
        chosen += itertools.islice(found, limit_per_set)  # graded lazily: --quick stops at the first
    return chosen


def generated(limit_per_file: int | None, names: tuple[str, ...] = GENERATED) -> list[kakuro.Puzzle]:
    chosen = []
    for name in names:
        chosen += kakuro.read(ROOT / "instances" / name)[:limit_per_file]
    return chosen


def run(spec: str, puzzles: list[kakuro.Puzzle], limit: float) -> tuple[int, int, float, list[float]]:
    """(solved, refused, total time with the limit for an unsolved puzzle, times of the
    solved); a puzzle the configuration refuses (a KakuroError, e.g. a table too large for a
    wide value range) counts as unsolved."""
    solver = kakuro.get_solver(spec)
    solved, refused, total, times = 0, 0, 0.0, []
    for seed, puzzle in enumerate(puzzles):
        try:
            result = solver.solve(puzzle, time_limit=limit, seed=seed)
        except kakuro.KakuroError:
            refused += 1
            total += limit
            continue
        if result.solved and not puzzle.check(result.solution):
            solved += 1
            times.append(result.time)
            total += result.time
        else:
            total += limit
    return solved, refused, total, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default=",".join(CANDIDATES), help="comma-separated backends (default: all)")
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per puzzle (default 2)")
    parser.add_argument("--quick", action="store_true",
                        help=f"one configuration per backend, three puzzles (the first of two generated files and of "
                             f"krazydad's hard ones), {QUICK_LIMIT} s per puzzle")
    parser.add_argument("--configs", default=None, metavar="SPEC;SPEC",
                        help="only these configurations (separated by ';', since specs hold commas)")
    parser.add_argument("--all-published", action="store_true",
                        help="add a set with every shared published puzzle (1,398)")
    args = parser.parse_args(argv)
    limit = QUICK_LIMIT if args.quick else args.time_limit
    take = 1 if args.quick else None
    names = [n for n in args.backends.split(",") if n]
    unknown = [n for n in names if n not in CANDIDATES]
    if unknown:
        parser.error(f"no candidates for {', '.join(unknown)}; known: {', '.join(CANDIDATES)}")
    available = {info.name for info in kakuro.backend_info() if info.available}
    sets = {"generated": generated(take, GENERATED[:2] if args.quick else GENERATED)}
    if SHARED_DATA.is_dir():
        quick_set = ("krazydad",)  # its first hard puzzle is its 61st (janko's its 301st: a second of grading)
        sets["published-hard"] = published_hard(take, quick_set if args.quick else PUBLISHED)
        if args.all_published:
            sets["published-all"] = [p for name in PUBLISHED for p in kakuro.read(SHARED_DATA / f"{name}.jsonl")[:take]]
    else:
        print(f"{SHARED_DATA} is absent: the published set is skipped\n")
    print(f"time limit {limit:g} s per puzzle; " + ", ".join(f"{k}: {len(v)} puzzles" for k, v in sets.items()) + "\n")
    for name in names:
        if name not in available:
            print(f"{name}: not available here, skipped\n")
            continue
        defaults = kakuro.get_solver(name).settings
        print(f"### {name} (defaults: {', '.join(f'{k}={v}' for k, v in defaults.items()) or 'none'})\n")
        print("| configuration | " + " | ".join(f"{k} solved" for k in sets) + " | total s | median s (solved) |")
        print("|---|" + "---:|" * len(sets) + "---:|---:|")
        kakuro.get_solver(name).ensure_warm()
        chosen = CANDIDATES[name] if args.configs is None else [c for c in args.configs.split(";") if c.split(":")[0] == name]
        if args.quick:
            chosen = chosen[:1]  # a check that the run works, not a comparison
        for spec in chosen:
            cells, total, times = [], 0.0, []
            for puzzles in sets.values():
                solved, refused, spent, solved_times = run(spec, puzzles, limit)
                cells.append(f"{solved}/{len(puzzles)}" + (f" ({refused} refused)" if refused else ""))
                total += spent
                times += solved_times
            median = f"{statistics.median(times):.4f}" if times else "-"
            print(f"| `{spec}` | " + " | ".join(cells) + f" | {total:.2f} | {median} |", flush=True)
        print()
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores; "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
