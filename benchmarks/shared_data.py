"""Every backend on every one of the 1,398 shared published puzzles: no wrong answer, ever.

    python benchmarks/shared_data.py [--quick] [--backends SPEC,...] [--time-limit 10]

Reads ../shared/data (janko, krazydad, gecode_nikoli, ifilot_cx16, simonis_easy; exits with a
note when it is absent). Each available backend (default: every registered one) solves each
puzzle once, seed 0, in one process after its warm-up; the library checks every answer, so a
wrong one is Status.WRONG. Per backend: solved, unsatisfiable, unknown (limit reached), wrong,
error and refused (a KakuroError such as a value range a model cannot take), total and median
seconds. Exits 1 when any answer was wrong. `--quick`: the first puzzle of each set at 2 s.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import time
from pathlib import Path

import kakuro
from kakuro.formats import read_lazily

sys.path.insert(0, str(Path(__file__).resolve().parent))
from defaults import PUBLISHED, SHARED_DATA  # the same five published sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default=None, help="comma list of backend names (default: all)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default 10)")
    parser.add_argument("--quick", action="store_true", help="the first puzzle of each set at 2 s")
    args = parser.parse_args()
    if not SHARED_DATA.is_dir():
        print(f"{SHARED_DATA} is absent: nothing to run")
        return 0
    if args.quick:  # read no more than it takes
        puzzles = [read_lazily(SHARED_DATA / f"{name}.jsonl")[0] for name in PUBLISHED]
    else:
        puzzles = [p for name in PUBLISHED for p in kakuro.read(SHARED_DATA / f"{name}.jsonl")]
    limit = 2.0 if args.quick else args.time_limit
    names = args.backends.split(",") if args.backends else kakuro.backends()
    print(f"# {len(puzzles)} shared puzzles, {limit:g} s each; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f} at the start, {time.strftime('%Y-%m-%d %H:%M')}")
    print("| backend | solved | unsatisfiable | unknown | wrong | error | refused | total s | median s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    wrong_anywhere = False
    for info in kakuro.backend_info(*names):
        if not info.available:
            print(f"| `{info.name}` | not available here: {info.reason} |")
            continue
        solver = kakuro.get_solver(info.name)
        solver.ensure_warm()
        counts: collections.Counter[str] = collections.Counter()
        times = []
        for puzzle in puzzles:
            try:
                result = solver.solve(puzzle, time_limit=limit, seed=0 if info.supports_seed else None)
            except kakuro.KakuroError:
                counts["refused"] += 1
                continue
            counts[result.status.value] += 1
            times.append(result.time)
            if result.status is kakuro.Status.WRONG:
                wrong_anywhere = True
                print(f"# WRONG: {info.name} on {puzzle.id}: {result.message}", file=sys.stderr)
        median = statistics.median(times) if times else 0.0
        print(f"| `{info.name}` | {counts['solved']} | {counts['unsatisfiable']} | {counts['unknown']} | "
              f"{counts['wrong']} | {counts['error']} | {counts['refused']} | {sum(times):.2f} | {median:.4f} |",
              flush=True)
    print(f"# load {os.getloadavg()[0]:.2f} at the end, {time.strftime('%Y-%m-%d %H:%M')}")
    return 1 if wrong_anywhere else 0


if __name__ == "__main__":
    raise SystemExit(main())
