"""Panov & Koceski (2014), Tables 1 and 2: SAHS time (ms) and iterations by grid size.

Five cases per interior size 5x5, 6x6, 8x8, 10x10, 12x12 and 15x15, taken from the shared
published puzzles (the first five of each size by id) and, when `kakuro.generate` is
installed, from Cazenave-style generated grids of the same size (values 1..max(9, n), half
the cells given). Every case is also solved by the complete reasoning backends in the same
run, so times compare side by side. Usage:

    python experiments/sahs_table.py [--quick] [--time-limit S] [--cases N] [--sets shared,generated]

`--quick` is a smoke run in seconds: the first case of each size up to 10x10, 0.5 s per case.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import kakuro
from kakuro import Puzzle, Status

SIZES = (5, 6, 8, 10, 12, 15)
CASES = 5
PAPER_MS = {
    5: (27, 21, 22, 23, 31),
    6: (30, 33, 34, 32, 38),
    8: (57, 48, 70, 52, 57),
    10: (99, 88, 96, 101, 86),
    12: (163, 154, 482, 159, 133),
    15: (940, 1407, 2497, 239, 256),
}
PAPER_ITERATIONS = {
    5: (100,) * 5,
    6: (100,) * 5,
    8: (100,) * 5,
    10: (100,) * 5,
    12: (100, 100, 8000, 100, 100),
    15: (10000, 20000, 50000, 100, 100),
}
SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
REFERENCE_BACKENDS = ("gac", "fc:consistency=gac", "cpsat")


def shared_cases(sizes: tuple[int, ...], cases: int = CASES) -> dict[int, list[Puzzle]]:
    """The first `cases` published puzzles (by id) of each square interior size."""
    if not SHARED.is_dir():
        print(f"skipping the shared puzzles: {SHARED} does not exist", file=sys.stderr)
        return {}
    by_size: dict[int, list[Puzzle]] = {n: [] for n in sizes}
    files = [f for f in sorted(SHARED.glob("*.jsonl")) if f.name != "computed_solutions.jsonl"]
    for puzzle in sorted((p for f in files for p in kakuro.read(f)), key=lambda p: p.id or ""):
        n = puzzle.rows - 1
        if n in by_size and puzzle.cols - 1 == n and len(by_size[n]) < cases:
            by_size[n].append(puzzle)
    return by_size


def generated_cases(sizes: tuple[int, ...], cases: int = CASES) -> dict[int, list[Puzzle]]:
    """`cases` Cazenave-style grids per size, values 1..max(9, n), 50% of the cells given (the
    first `cases` of the full run's five: the generator's sets are prefixes of each other)."""
    try:
        from kakuro.generate import cazenave
    except ImportError:
        print("skipping generated puzzles: kakuro.generate is not available", file=sys.stderr)
        return {}
    return {n: cazenave(size=n, values=max(9, n), holes=50, count=cases, seed=2014 + n) for n in sizes}


def available_references() -> list[str]:
    """The reference backends that exist here; `gac` stands for exact run reasoning + search."""
    names = set(kakuro.backends())
    chosen = [spec for spec in REFERENCE_BACKENDS if spec.split(":")[0] in names]
    if "gac" in names and "fc:consistency=gac" in chosen:
        chosen.remove("fc:consistency=gac")
    return chosen


def run(cases: dict[int, list[Puzzle]], time_limit: float, references: list[str]) -> list[dict]:
    rows = []
    for n, puzzles in cases.items():
        for index, puzzle in enumerate(puzzles):
            row = {"size": n, "case": index + 1, "id": puzzle.id}
            sahs = kakuro.solve(puzzle, "sahs", time_limit=time_limit, seed=index)
            row["sahs"] = sahs
            for spec in references:
                row[spec] = kakuro.solve(puzzle, spec, time_limit=time_limit, seed=index)
            rows.append(row)
    return rows


def cell(result: kakuro.Result, what: str) -> str:
    if result.status is not Status.SOLVED:
        return result.status.value
    if what == "ms":
        return f"{result.time * 1000:.1f}"
    return str(result.stats.get("iterations", "-"))


def print_tables(title: str, rows: list[dict], references: list[str]) -> None:
    for what, paper, caption in (("ms", PAPER_MS, "Table 1: milliseconds"), ("it", PAPER_ITERATIONS, "Table 2: iterations")):
        print(f"\n{title} - {caption} (ours / paper)")
        cases = max(r["case"] for r in rows)
        print(f"{'grid':>6} | " + " | ".join(f"{'case' + str(i):>16}" for i in range(1, cases + 1)))
        for n in sorted({r["size"] for r in rows}):
            ours = [r for r in rows if r["size"] == n]
            cells = [f"{cell(r['sahs'], what):>8} / {paper[n][r['case'] - 1]:<5}" for r in ours]
            label = f"{n}x{n}"
            print(f"{label:>6} | " + " | ".join(f"{c:>16}" for c in cells))
    print(f"\n{title} - the same cases, all backends (solved, median ms, total ms)")
    for spec in ["sahs", *references]:
        results = [r[spec] for r in rows]
        solved = [x.time * 1000 for x in results if x.status is Status.SOLVED]
        median = statistics.median(solved) if solved else float("nan")
        print(f"  {spec:<22} {len(solved):>3}/{len(results):<3} median {median:9.2f} "
              f"ms   total {sum(x.time for x in results) * 1000:10.1f} ms")
    root = sum(1 for r in rows if r["sahs"].stats.get("root_solved"))
    print(f"  sahs: {root} of {len(rows)} cases were solved by the pre-computation alone (0 iterations)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: sizes up "
                                                             "to 10x10, 1 case each, 0.5 s limit")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per case and backend (default 10, quick 0.5)")
    parser.add_argument("--cases", type=int, default=None, help=f"cases per size and set (default {CASES}, the paper's; quick 1)")
    parser.add_argument("--sets", default="shared,generated", help="comma-separated: shared, generated")
    args = parser.parse_args(argv)
    sizes = tuple(n for n in SIZES if n <= 10) if args.quick else SIZES
    limit = args.time_limit or (0.5 if args.quick else 10.0)
    cases_per_size = args.cases or (1 if args.quick else CASES)
    if not 1 <= cases_per_size <= CASES:
        parser.error(f"--cases takes 1..{CASES} (the paper's tables have {CASES} cases per size)")
    references = available_references()
    for spec in ["sahs", *references]:
        kakuro.get_solver(spec).ensure_warm()
    sets = {"shared": shared_cases, "generated": generated_cases}
    for name in args.sets.split(","):
        cases = sets[name.strip()](sizes, cases_per_size)
        if cases:
            print_tables(f"{name} puzzles", run(cases, limit, references), references)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
