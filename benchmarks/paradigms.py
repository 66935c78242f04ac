"""Every paradigm side by side: the MIP, ASP, SMT, MiniZinc and external-SAT backends, each model
variant, against `gac`, `cpsat` and `sat` on janko and on the hard set, in one run.

    python benchmarks/paradigms.py [--quick] [--sample 10] [--sets janko,hard] [--backends SPEC,...]

Default backends: `gac`, `cpsat`, `sat`, then each of `mip`, `asp`, `smt`, `minizinc` and `dimacs`
that is available here with every value of its `model` option (a backend without one: its
default). Sets: janko (every `--sample`-th of the 999 shared janko puzzles; skipped with a note
when ../shared/data is absent) and each file of instances/hard, `--time-limit` seconds per puzzle
(10 by default, every set). Per set and backend: puzzles decided (solved or proved
unsatisfiable), total seconds (an undecided puzzle counts its limit) and the median; every
answer is checked by the library and a wrong one stops the run. `--quick`: one puzzle of two
sets (janko and the empty 12x12 Cazenave grids) at 0.2 s: a check that every backend runs, solves
and stops at its limit, not a measurement.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import kakuro

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hard_search import backend_specs, print_table, puzzle_sets  # the same runner, sets and table

BASELINE = ("gac", "cpsat", "sat")
NEW = ("mip", "asp", "smt", "minizinc", "dimacs")
QUICK_LIMIT = 0.2


def default_backends() -> list[str]:
    """The baseline, then every model variant of each new paradigm available here."""
    specs = list(BASELINE)
    present = [name for name in NEW if name in kakuro.backends()]
    for info in kakuro.backend_info(*present) if present else ():
        if not info.available:
            print(f"# {info.name} skipped: {info.reason}", file=sys.stderr)
            continue
        model = info.options.get("model")
        choices = [model.default, *[c for c in model.choices or () if c != model.default]] if model else [None]
        specs += [info.name if choice is None or choice == model.default else f"{info.name}:model={choice}"  # type: ignore[union-attr]
                  for choice in choices]
    return specs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="janko,hard", help="comma list of janko, hard")
    parser.add_argument("--sample", type=int, default=10, help="every N-th janko puzzle (default 10: 100 puzzles)")
    parser.add_argument("--backends", default=None, help="comma list of backend specs (default: see above)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle, every set (default 10)")
    parser.add_argument("--quick", action="store_true", help=f"1 puzzle of 2 sets (janko, empty 12x12), {QUICK_LIMIT} s")
    args = parser.parse_args()
    backends = backend_specs(args.backends) if args.backends else default_backends()
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start, {time.strftime('%Y-%m-%d %H:%M')}")
    sets = puzzle_sets(args.sets.split(","), seed=0, take=1 if args.quick else None)
    if args.quick:  # a check that every configuration runs, not a measurement
        sets = [(name, puzzles, QUICK_LIMIT) for name, puzzles, _ in sets if "loose" not in name][:2]
    else:
        sets = [(name, puzzles[:: args.sample] if name == "janko" else puzzles, args.time_limit)
                for name, puzzles, _ in sets]
    print_table(sets, backends, [0])
    print(f"# load {os.getloadavg()[0]:.2f} at the end, {time.strftime('%Y-%m-%d %H:%M')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
