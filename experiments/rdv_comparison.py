"""Panov & Koceski (2013), "Reducing Domain Values": RDV against the five backtracking variants
of Davies' stack-based solver, by grid size, on classic grids (the paper's Sect. IX, Figs. 3-5).

The paper times RDV (Java) against stack-based backtracking, run-based ordering, value ordering,
decisive value ordering and projected run pruning on classic grids of 2x2, 4x4, 5x5, ..., 10x10
white area with 0-40 % black cells, and finds RDV faster than all of them; its bars are not
given as numbers. Here every size gets `--count` unique classic puzzles per density from
`kakuro.generate.classic(n + 1, n + 1, density, count, seed, longest=9)` (the clue row and
column come on top of the n x n area; runs of up to 9 cells, as in the paper's grids;
generation is not timed; below density 0.2 unique grids get rare, since nearly every run is
long and a 9-cell run always sums to 45), solved by the five `backtrack` variants, RDV alone
(`rdv:search=false`, the paper's algorithm), RDV + search with forward checking
(`rdv:consistency=fc`, named explicitly: the backend's default search is stronger) and `gac`.

    python experiments/rdv_comparison.py --quick                 # sizes 2,4,6,8,10, density 0.3, 1 per size (seconds)
    python experiments/rdv_comparison.py                         # sizes 2,4..10, densities 0.2,0.3,0.4, 8 each (~4 min)
    python experiments/rdv_comparison.py --sizes 5,6 --densities 0.4 --count 20 --json out.jsonl

Limits per job: `--short-limit` for the backtracking variants (0.5 s; quick 0.05 s) and
`--time-limit` for the others (5 s; quick 0.2 s). Compiled backends are warmed up before timing.
Every answer is checked with `puzzle.check`; an invalid answer (or a backend error) is counted
and makes the script exit 1. Cells: solved / total and mean time per puzzle in ms, a time-out
counting its limit (`rdv:search=false` stops by itself when the reduction stalls: its own time
counts). The `grades` column is the generator's grade of each puzzle (the weakest reasoning
that decides it: rdv, gac, gac+shaving, search), `black` the median share of black interior
cells (the density is a target; small grids end up with another share). `--json FILE` writes one
line per solve and refuses an existing FILE.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from outputs import new_file  # noqa: E402

import kakuro  # noqa: E402
from kakuro.generate import GRADES, classic  # noqa: E402
from kakuro.solvers.backtrack import VARIANTS  # noqa: E402

BACKTRACK = tuple(f"backtrack:variant={v}" for v in VARIANTS)
BACKENDS = (*BACKTRACK, "rdv:search=false", "rdv:consistency=fc", "gac")
SHORT = frozenset(BACKTRACK)
"""The backtracking variants, run with `--short-limit`."""
PAPER_SIZES = (2, 4, 5, 6, 7, 8, 9, 10)


def label(spec: str) -> str:
    return spec.split("=", 1)[1] if spec.startswith("backtrack:") else spec


def generate(sizes: Sequence[int], densities: Sequence[float], count: int, seed: int,
             longest: int) -> dict[int, list[kakuro.Puzzle]]:
    """`count` unique classic puzzles per size and density, n x n white area (n + 1 positions),
    runs of up to `longest` cells."""
    puzzles: dict[int, list[kakuro.Puzzle]] = {}
    for n in sizes:
        started = time.perf_counter()
        puzzles[n] = []
        for k, density in enumerate(densities):
            puzzles[n] += classic(n + 1, n + 1, density=density, count=count, seed=seed + 100 * n + k,
                                  longest=longest)
        print(f"  generated {len(puzzles[n])} puzzles {n}x{n}: "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return puzzles


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: sizes 2,4,6,8,10, "
                                                             "density 0.3, 1 per size, short limits")
    parser.add_argument("--sizes", default=None, help="white-area sizes n (default the paper's 2,4,5,...,10)")
    parser.add_argument("--densities", default=None, help="black-cell densities (default 0.2,0.3,0.4; quick 0.3)")
    parser.add_argument("--longest", type=int, default=9, help="longest run in cells, 4..9 (default 9)")
    parser.add_argument("--count", type=int, default=None, help="puzzles per size and density (default 8, quick 1)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per job, rdv and gac (default 5, quick 0.2)")
    parser.add_argument("--short-limit", type=float, default=None, help="seconds per job, backtracking (default 0.5, quick 0.05)")
    parser.add_argument("--backends", default=None, help="comma list of specs (default the five "
                                                         "variants, rdv:search=false, rdv, gac)")
    parser.add_argument("--seed", type=int, default=2013)
    parser.add_argument("--json", type=Path, help="also write one JSON line per solve to this new file")
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else ([2, 4, 6, 8, 10] if args.quick else list(PAPER_SIZES))
        densities = ([float(d) for d in args.densities.split(",")] if args.densities
                     else ([0.3] if args.quick else [0.2, 0.3, 0.4]))
    except ValueError:
        parser.error("--sizes takes integers, --densities numbers, separated by commas")
    count = args.count or (1 if args.quick else 8)
    limit = args.time_limit or (0.2 if args.quick else 5.0)
    short_limit = args.short_limit or (0.05 if args.quick else 0.5)
    specs = tuple(s.strip() for s in args.backends.split(",")) if args.backends else BACKENDS
    if any(n < 2 for n in sizes) or count < 1 or limit <= 0 or short_limit <= 0:
        parser.error("sizes >= 2, --count >= 1, limits positive")

    sink = new_file(args.json, "--json")
    wall = time.perf_counter()
    started = time.perf_counter()
    for spec in specs:
        kakuro.get_solver(spec).ensure_warm()
    print(f"warm-up (compile or load the kernels): {time.perf_counter() - started:.2f} s", file=sys.stderr)
    started = time.perf_counter()
    puzzles = generate(sizes, densities, count, args.seed, args.longest)
    gen_seconds = time.perf_counter() - started

    solvers = {spec: kakuro.get_solver(spec) for spec in specs}
    invalid = 0
    rows = []
    totals = {spec: [0, 0, 0.0] for spec in specs}
    try:
        for n, ps in puzzles.items():
            grades = Counter(p.meta.get("grade", "?") for p in ps)
            shares = [p.meta["black_share"] for p in ps if "black_share" in p.meta]
            row = [f"{n}x{n}"]
            for spec in specs:
                job_limit = short_limit if spec in SHORT else limit
                solved, charged = 0, 0.0
                for k, p in enumerate(ps):
                    result = solvers[spec].solve(p, time_limit=job_limit, seed=k)
                    valid = result.solved and p.check(result.solution) == []
                    solved += valid
                    timed_out = not valid and "limit" in (result.message or "")
                    charged += max(result.time, job_limit) if timed_out else result.time
                    if result.status in (kakuro.Status.ERROR, kakuro.Status.WRONG) or (result.solved and not valid):
                        invalid += 1
                        print(f"  INVALID {spec} on {p.id}: {result.status.value} {result.message}", file=sys.stderr)
                    if sink is not None:
                        sink.write(json.dumps({"size": n, "id": p.id, "density": p.meta.get("density"),
                                               "black_share": p.meta.get("black_share"), "grade": p.meta.get("grade"),
                                               "backend": spec, "status": result.status.value, "valid": valid,
                                               "time": result.time, "limit": job_limit, "stats": dict(result.stats)}) + "\n")
                        sink.flush()
                totals[spec][0] += solved
                totals[spec][1] += len(ps)
                totals[spec][2] += charged
                row.append(f"{solved}/{len(ps)} {1000 * charged / len(ps):,.1f}")
            grade_cell = ", ".join(f"{g} {grades[g]}" for g in (*GRADES, *sorted(set(grades) - set(GRADES))) if grades[g])
            row += [grade_cell, f"{statistics.median(shares):.2f}" if shares else "-"]
            rows.append(row)
            print(f"  {n}x{n} done ({time.perf_counter() - wall:.0f} s)", file=sys.stderr, flush=True)
    finally:
        if sink is not None:
            sink.close()

    header = ["n", *(f"`{label(s)}`" for s in specs), "grades", "black"]
    all_row = ["all", *(f"{t[0]}/{t[1]} {1000 * t[2] / t[1]:,.1f}" for t in totals.values()), "", ""]
    lines = [
        f"Classic unique puzzles (`kakuro.generate.classic`), n x n white area, densities "
        f"{', '.join(f'{d:g}' for d in densities)}, runs of up to {args.longest} cells, {count} per size and "
        f"density, seed {args.seed}; "
        f"solved / mean ms per puzzle (a time-out counts its limit: {short_limit:g} s backtracking, {limit:g} s others):",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join(" --- " for _ in header) + "|",
        *("| " + " | ".join(r) + " |" for r in [*rows, all_row]),
        "",
        f"generation {gen_seconds:.1f} s (not timed), wall {time.perf_counter() - wall:.1f} s",
        f"invalid answers or backend errors: {invalid}",
    ]
    print("\n".join(lines))
    return 1 if invalid else 0


if __name__ == "__main__":
    raise SystemExit(main())
