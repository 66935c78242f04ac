"""Choco's four run models side by side (issue 10), with CP-SAT in the same run.

Every puzzle of ../shared/data is solved by `choco:model=decomposition|table|regular|mdd` and
`cpsat` with a per-puzzle time limit (60 s by default). Per backend: solved / unsatisfiable /
timed out, disagreements with CP-SAT (status; with `--count` also the number of solutions up
to 2 and whether the search finished), total and median nodes, the share solved by the root
propagation alone, median, slowest and total time. It first times building every table,
automaton and diagram for 1..9 from cold (`precompile`; they are cached per process, so the
per-puzzle times that follow exclude them). Usage:

    python experiments/choco_models.py [--quick] [--sets janko,krazydad] [--models table,regular]
                                       [--time-limit S] [--count] [--out results.jsonl]

`--quick` is a smoke run in seconds: the first puzzle of each set with a 1 s limit; the cold
build comes first all the same, for the runs over 1..7 (1..9 takes seconds of its own).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import TextIO

from outputs import new_file

import kakuro
from kakuro import Puzzle, Status
from kakuro.formats import read_lazily
from kakuro.solvers.choco import precompile

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
MODELS = ("decomposition", "table", "regular", "mdd")


def load(sets: list[str] | None, stride: int) -> list[Puzzle]:
    if not SHARED.is_dir():
        sys.exit(f"the shared puzzles are absent: {SHARED} does not exist")
    files = [f for f in sorted(SHARED.glob("*.jsonl")) if f.name != "computed_solutions.jsonl"]
    if sets:
        files = [f for f in files if f.stem in sets]
    return [p for f in files for p in read_lazily(f)[::stride]]  # only the puzzles taken are built


def run(puzzles: list[Puzzle], specs: list[str], time_limit: float, out: TextIO | None, count: bool) -> dict[str, list[dict]]:
    """Solve (or, with `count`, count solutions up to 2) every puzzle with every backend."""
    rows: dict[str, list[dict]] = {}
    for spec in specs:
        kakuro.get_solver(spec).ensure_warm()
        rows[spec] = []
        start = time.perf_counter()
        for puzzle in puzzles:
            if count:
                result = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=time_limit, seed=1)
                answer = {"answer": [result.status.value, result.count, result.exhausted]}
            else:
                result = kakuro.solve(puzzle, spec, time_limit=time_limit, seed=1)
                answer = {"answer": [result.status.value]}
            row = {
                "backend": spec,
                "id": puzzle.id,
                "status": result.status.value,
                **answer,
                "time": result.time,
                "message": result.message,
                **{k: v for k, v in result.stats.items()
                   if k in ("nodes", "fails", "root_solved", "build_time", "num_tuples", "num_states")},
            }
            rows[spec].append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
            if result.status in (Status.UNKNOWN, Status.ERROR, Status.WRONG):
                print(f"  {spec} {puzzle.id}: {result.status.value} after {result.time:.1f} s {result.message}", flush=True)
        print(f"{spec}: {len(puzzles)} puzzles in {time.perf_counter() - start:.1f} s", flush=True)
    return rows


def summarise(rows: dict[str, list[dict]], reference: str | None) -> None:
    truth = {r["id"]: r["answer"] for r in rows.get(reference, [])} if reference else {}
    header = (f"{'backend':34} {'solved':>6} {'unsat':>5} {'t/o':>4} {'err':>4} {'differ':>6} {'nodes':>9} "
              f"{'med.nodes':>9} {'root':>6} {'median ms':>9} {'max s':>7} {'total s':>8}")
    print(header)
    print("-" * len(header))
    for spec, results in rows.items():
        count = {s: sum(r["status"] == s for r in results) for s in ("solved", "unsatisfiable", "unknown", "error")}
        differ = [
            r["id"] for r in results
            if r["id"] in truth and "unknown" not in (r["status"], truth[r["id"]][0]) and r["answer"] != truth[r["id"]]
        ]
        nodes = [r["nodes"] for r in results if "nodes" in r]
        root = [r["root_solved"] for r in results if "root_solved" in r]
        times = [r["time"] for r in results]
        print(
            f"{spec:34} {count['solved']:6} {count['unsatisfiable']:5} {count['unknown']:4} {count['error']:4} {len(differ):6} "
            f"{sum(nodes) if nodes else '-':>9} {statistics.median(nodes) if nodes else '-':>9} "
            f"{f'{sum(root) / len(root):.1%}' if root else '-':>6} "
            f"{statistics.median(times) * 1000:9.1f} {max(times):7.2f} {sum(times):8.1f}"
        )
        if differ:
            print(f"  differs from {reference} on: {', '.join(differ[:10])}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: the first puzzle of each set, 1 s limit")
    parser.add_argument("--sets", help="comma-separated data sets (file stems), default all")
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated choco models")
    parser.add_argument("--no-cpsat", action="store_true", help="leave CP-SAT out")
    parser.add_argument("--time-limit", type=float, help="seconds per puzzle (default 60, quick 1)")
    parser.add_argument("--count", action="store_true", help="count solutions up to 2 instead of solving")
    parser.add_argument("--out", type=Path, help="also write one JSON line per solve to this new file")
    args = parser.parse_args(argv)
    limit = args.time_limit or (1.0 if args.quick else 60.0)
    out = new_file(args.out, "--out")
    puzzles = load(args.sets.split(",") if args.sets else None, 1000 if args.quick else 1)
    specs = [f"choco:model={m}" for m in args.models.split(",")]
    if not args.no_cpsat:
        specs.append("cpsat")
    task = "counting solutions up to 2" if args.count else "solving"
    print(f"{task} {len(puzzles)} puzzles, {limit:g} s each; backends: {', '.join(specs)}")
    values = (1, 7) if args.quick else (1, 9)
    builds = precompile(values)  # from cold; cached for the rest of the process
    print(f"seconds to build every {values[0]}..{values[1]} run's object, from cold: "
          + ", ".join(f"{k} {v:.2f}" for k, v in builds.items()))
    rows = run(puzzles, specs, limit, out, args.count)
    summarise(rows, "cpsat" if "cpsat" in specs else None)


if __name__ == "__main__":
    main()
