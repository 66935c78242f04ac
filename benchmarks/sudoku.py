"""9x9 Sudoku puzzles per second for each fast backend, on generated hard puzzles.

    python benchmarks/sudoku.py --quick            # 3 candidates, 2 puzzles, 1 repeat (seconds)
    python benchmarks/sudoku.py                    # 200 candidates, the 50 hardest, 3 repeats (~3 min)
    python benchmarks/sudoku.py --profile          # and where the native engine's time goes, step by step

The set: `candidates` minimal unique 9x9 puzzles from `kakuro.generate.unique_sudoku.unique_sudoku`
(seeds 0, 1, ...; every given needed), rated by the search nodes forward checking alone needs
(`fc:consistency=fc`), and the `puzzles` hardest kept (most nodes, then fewest givens). Each
backend solves every puzzle `repeats` times, after a warm-up solve (compilation and engine start
are not counted); every answer is checked. Printed per backend: puzzles per second and
microseconds per puzzle by the backend's own clock (`Result.time`: the backend's work, the
template's checks excluded) and by the wall clock around `Solver.solve` (the whole call: option
handling, the puzzle's snapshot, the answer's check), the best of the repeats per puzzle.

The aim quoted beside it: tdoku, the fastest Sudoku solver its author knows, solves ~49,000 very
hard puzzles (Sudoku Explainer rating 11 or more) in 50.7 microseconds each (19,716.8 per second;
64.95 guesses per puzzle), on its author's machine (t-dillon/tdoku, README.md at commit 0172ae3;
other versions of that table give 43.0 to 52.9 microseconds). Those are a different, harder
set, C++ with SIMD and a different machine: a scale, not a comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import kakuro
from kakuro import Puzzle
from kakuro.clock import Deadline
from kakuro.engine.build import build_state
from kakuro.generate.unique_sudoku import unique_sudoku
from kakuro.reasoning.root import prepare

BACKENDS = ("gac", "gac:shaving=none", "fc", "rdv", "auto", "cpsat", "sat", "choco", "nmcs", "backtrack")
QUICK_BACKENDS = ("gac", "fc")
RATER = "fc:consistency=fc"
"""Rates a candidate: the nodes forward checking alone needs (more is harder)."""
TDOKU_MICROSECONDS = 50.7
"""tdoku's published time per puzzle on its hardest set (README.md at commit 0172ae3), its author's machine."""


def hard_set(candidates: int, keep: int) -> tuple[list[Puzzle], list[float], list[int]]:
    """The `keep` hardest of `candidates` minimal unique 9x9 puzzles, the seconds each candidate
    took to generate, and the rating nodes of those kept."""
    made, seconds = [], []
    for seed in range(candidates):
        start = time.perf_counter()
        made.append(unique_sudoku(9, seed=seed))
        seconds.append(time.perf_counter() - start)
    rater = kakuro.get_solver(RATER)
    rated = []
    for puzzle in made:
        nodes = rater.solve(puzzle, seed=0).stats.get("nodes", 0)
        rated.append((-int(nodes), len(puzzle.givens), puzzle))  # type: ignore[call-overload]
    rated.sort(key=lambda item: item[:2])
    kept = rated[:keep]
    return [puzzle for _, _, puzzle in kept], seconds, [-nodes for nodes, _, _ in kept]


def measure(spec: str, puzzles: Sequence[Puzzle], repeats: int, limit: float) -> tuple[int, float, float]:
    """(checked solutions, backend seconds, wall seconds) summed over the puzzles, each the best
    of `repeats` solves."""
    solver = kakuro.get_solver(spec)
    solver.ensure_warm()
    solver.solve(puzzles[0], time_limit=limit, seed=0)  # the engine started, the first-call costs paid
    solved, inside, outside = 0, 0.0, 0.0
    for puzzle in puzzles:
        best_in, best_out, ok = float("inf"), float("inf"), False
        for _ in range(repeats):
            start = time.perf_counter()
            result = solver.solve(puzzle, time_limit=limit, seed=0)
            wall = time.perf_counter() - start
            ok = result.solved and puzzle.check(result.solution) == []
            best_in, best_out = min(best_in, result.time), min(best_out, wall)
        solved += ok
        inside += best_in
        outside += best_out
    return solved, inside, outside


def where_gac_goes(puzzles: Sequence[Puzzle], repeats: int) -> str:
    """The native engine's time per puzzle split into the steps around and inside one `gac`
    solve, each timed alone (the best of `repeats` per puzzle, summed)."""
    solver = kakuro.get_solver("gac")
    solver.ensure_warm()
    lines = {p.digest(): kakuro.formats.dumps(p, "sudoku").splitlines()[-1] + "\n" for p in puzzles}
    steps: dict[str, Callable[[Puzzle], object]] = {
        "read": lambda p: kakuro.read(lines[p.digest()], format="sudoku"),
        "solve": lambda p: solver.solve(p, seed=0),
        "prepare": lambda p: prepare(p, "fixpoint", Deadline(), 0),
        "build": lambda p: build_state(p, "gac"),
        "check": lambda p: p.check(solver.solve(p, seed=0).solution),
    }
    mean: dict[str, float] = {}
    inside = 0.0
    for name, step in steps.items():
        total = 0.0
        for puzzle in puzzles:
            best, best_inside = float("inf"), float("inf")
            for _ in range(repeats):
                start = time.perf_counter()
                out = step(puzzle)
                best = min(best, time.perf_counter() - start)
                if name == "solve":
                    best_inside = min(best_inside, out.time)  # type: ignore[attr-defined]
            total += best
            inside += best_inside if name == "solve" else 0.0
        mean[name] = total / len(puzzles) * 1e6
    mean["check"] -= mean["solve"]
    own = inside / len(puzzles) * 1e6
    return "\n".join([
        "| step (gac, one 9x9) | µs per puzzle |", "| --- | ---: |",
        f"| read the puzzle from its line (before any solve) | {mean['read']:,.0f} |",
        f"| `Solver.solve`, wall | {mean['solve']:,.0f} |",
        f"| of which the backend's own time (`Result.time`) | {own:,.0f} |",
        f"| of which the state built, root GAC and shaving (`reasoning.root.prepare`) | {mean['prepare']:,.0f} |",
        f"| of which the state built (`engine.build.build_state`, gac) | {mean['build']:,.0f} |",
        f"| of which the search after the root (backend time minus `prepare`) | {max(0.0, own - mean['prepare']):,.0f} |",
        f"| the template around it (wall minus backend time: options, snapshot, check) | {mean['solve'] - own:,.0f} |",
        f"| `puzzle.check` of the answer, alone | {mean['check']:,.0f} |",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: 3 candidates, 2 puzzles, "
                                                             "1 repeat, gac and fc")
    parser.add_argument("--candidates", type=int, default=None, help="puzzles generated (default 200)")
    parser.add_argument("--puzzles", type=int, default=None, help="the hardest kept (default 50)")
    parser.add_argument("--repeats", type=int, default=None, help="solves per puzzle, the best counted (default 3)")
    parser.add_argument("--backends", default=None, help=f"comma-separated specs (default {','.join(BACKENDS)})")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve (default 10)")
    parser.add_argument("--profile", action="store_true", help="also where gac's time goes (each step timed alone)")
    args = parser.parse_args(argv)
    candidates = args.candidates or (3 if args.quick else 200)
    keep = args.puzzles or (2 if args.quick else 50)
    repeats = args.repeats or (1 if args.quick else 3)
    if min(candidates, keep, repeats) < 1 or keep > candidates or args.time_limit <= 0:
        parser.error("--candidates, --puzzles, --repeats and --time-limit must be positive, --puzzles at most --candidates")
    specs = [s for s in (args.backends.split(",") if args.backends else QUICK_BACKENDS if args.quick else BACKENDS) if s]

    try:
        for spec in specs:
            kakuro.get_solver(spec)
    except kakuro.KakuroError as exc:
        parser.error(f"--backends: {exc}")
    kakuro.get_solver("gac").ensure_warm()
    kakuro.get_solver(RATER).ensure_warm()
    puzzles, seconds, nodes = hard_set(candidates, keep)
    givens = [len(p.givens) for p in puzzles]
    print(f"The set: the {keep} hardest of {candidates} minimal unique 9x9 puzzles (seeds 0..{candidates - 1}); "
          f"givens {min(givens)} to {max(givens)} (median {statistics.median(givens):g}); forward checking needs "
          f"{min(nodes)} to {max(nodes)} nodes (median {statistics.median(nodes):g}); generating one took a median "
          f"{statistics.median(seconds):.2f} s (max {max(seconds):.2f} s).\n")
    print(f"Best of {repeats} solve(s) per puzzle, time limit {args.time_limit:g} s; aim: tdoku's {TDOKU_MICROSECONDS} µs "
          "per puzzle on its hardest set (its author's machine).\n")
    print("| backend | solved | puzzles/s (backend) | µs per puzzle (backend) | puzzles/s (wall) | µs per puzzle (wall) "
          "| x tdoku (wall) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    wrong = 0
    for spec in specs:
        solved, inside, outside = measure(spec, puzzles, repeats, args.time_limit)
        wrong += solved < len(puzzles)
        n = len(puzzles)
        print(f"| `{spec}` | {solved}/{n} | {n / inside:,.0f} | {inside / n * 1e6:,.0f} | {n / outside:,.0f} | "
              f"{outside / n * 1e6:,.0f} | {outside / n * 1e6 / TDOKU_MICROSECONDS:,.0f} |", flush=True)
    if args.profile:
        print()
        print(where_gac_goes(puzzles, repeats))
    print(f"\nbackends that left a puzzle unsolved or wrong: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
