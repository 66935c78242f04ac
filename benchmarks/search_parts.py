"""What each part of `gac`'s learning search contributes: each part switched off in turn.

    python benchmarks/search_parts.py [--quick] [--seed 101] [--time-limit 10]

Six fresh loose 30x30 grids (25 % black cells, many solutions: `kakuro generate classic --rows 30
--cols 30 --density 0.25 --no-unique --count 6 --seed 101`), `gac` with its defaults, with each of
`phase`, `restarts`, `implied`, `balance`, `learning` and `order` switched off alone (and learning
and the balance check together), with every part but the balance check off, with every part off
(the papers' plain depth-first search), and `sat` for comparison; 10 s per puzzle, one process,
each configuration warmed up first (compilation is not timed), every answer checked by the
library. `--quick`: two 15x15 grids at 0.25 s (a check that it runs, not a measurement).

Per configuration: grids solved, total seconds of the solved ones, their median, and PAR-2 (an
unsolved grid counts twice the limit), as `kakuro report` computes them; then the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import kakuro
from kakuro.generate import classic

CONFIGURATIONS = (
    ("the defaults (every part on)", "gac"),
    ("`phase=false`", "gac:phase=false"),
    ("`restarts=none`", "gac:restarts=none"),
    ("`implied=false`", "gac:implied=false"),
    ("`balance=false`", "gac:balance=false"),
    ("`learning=false`", "gac:learning=false"),
    ("`learning=false,balance=false`", "gac:learning=false,balance=false"),
    ("`order=dom`", "gac:order=dom"),
    ("every part off but `balance`", "gac:restarts=none,learning=false,order=dom,phase=false,implied=false"),
    ("every part off (a plain depth-first search)",
     "gac:restarts=none,learning=false,order=dom,phase=false,implied=false,balance=false"),
    ("`sat` (CaDiCaL 1.9.5)", "sat"),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two 15x15 grids at 0.25 s each")
    parser.add_argument("--seed", type=int, default=101, help="generator seed (default 101)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per grid (default 10)")
    args = parser.parse_args(argv)
    side, count, limit = (15, 2, 0.25) if args.quick else (30, 6, args.time_limit)
    grids = classic(side, side, density=0.25, count=count, seed=args.seed, unique=False)
    print(f"{count} loose {side}x{side} grids (seed {args.seed}), {limit:g} s each\n")
    print("| `gac` with | solved | time (s) | median (s) | PAR-2 (s) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, spec in CONFIGURATIONS:
        solver = kakuro.get_solver(spec)
        solver.ensure_warm()
        times = []
        for grid in grids:
            result = solver.solve(grid, time_limit=limit, seed=0)
            if result.status is kakuro.Status.WRONG:
                raise SystemExit(f"{spec} returned a wrong answer on {grid.id}: {result.message}")
            if result.solved:
                times.append(result.time)
        par2 = (sum(times) + 2 * limit * (count - len(times))) / count
        shown = (f"{sum(times):.3f} | {statistics.median(times):.3f}" if times else " | ")
        print(f"| {label} | {len(times)} / {count} | {shown} | {par2:.3f} |")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nload average at the end: {load}; {os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
