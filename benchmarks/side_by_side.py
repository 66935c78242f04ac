"""Two checkouts side by side on the same puzzles: the same answers, nodes and times?

    python benchmarks/side_by_side.py record OUT.jsonl [--backends gac,fc,cpsat,sat] [--time-limit 10]
    python benchmarks/side_by_side.py compare BEFORE.jsonl AFTER.jsonl

`record` runs with whichever `kakuro` is imported (set PYTHONPATH to the checkout to measure)
on every janko puzzle of ../shared/data and the `generated` hard set of benchmarks/defaults.py,
one solve per (puzzle, backend), seed 0, and writes one JSON line each: status, a hash of the
solution, nodes and seconds. `compare` prints, per backend, how many answers and node counts
differ and the total and median times of both, then every difference; exits 1 on any.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from defaults import SHARED_DATA, generated

BACKENDS = "gac,fc,cpsat,sat"


def record(out: Path, backends: list[str], limit: float) -> None:
    import kakuro

    puzzles = list(kakuro.read(SHARED_DATA / "janko.jsonl")) + generated(None)
    with out.open("x") as handle:  # never overwrite an earlier record
        for spec in backends:
            kakuro.solve(puzzles[0], spec, time_limit=limit)  # warm-up
            for p in puzzles:
                r = kakuro.solve(p, spec, time_limit=limit, seed=0)
                digest = hashlib.sha256(repr(r.solution.values).encode()).hexdigest()[:12] if r.solution else None
                handle.write(json.dumps({"id": p.id or p.digest(), "backend": spec, "status": r.status.name,
                                         "solution": digest, "nodes": r.stats.get("nodes"),
                                         "time": round(r.time, 5)}) + "\n")
            print(f"{spec}: {len(puzzles)} puzzles", flush=True)


def compare(before: Path, after: Path) -> int:
    def load(path: Path) -> dict[tuple[str, str], dict]:
        return {(r["id"], r["backend"]): r for r in map(json.loads, path.read_text().splitlines())}

    old, new = load(before), load(after)
    print("| backend | puzzles | answers differ | nodes differ | total s before | total s after "
          "| median s before | median s after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    differences = []
    for spec in sorted({b for _, b in old}):
        keys = [k for k in old if k[1] == spec and k in new]
        answers = [k for k in keys if (old[k]["status"], old[k]["solution"]) != (new[k]["status"], new[k]["solution"])]
        nodes = [k for k in keys if old[k]["nodes"] != new[k]["nodes"]]
        differences += [(k, old[k], new[k]) for k in dict.fromkeys(answers + nodes)]
        t0, t1 = [old[k]["time"] for k in keys], [new[k]["time"] for k in keys]
        print(f"| {spec} | {len(keys)} | {len(answers)} | {len(nodes)} | {sum(t0):.2f} | {sum(t1):.2f} "
              f"| {statistics.median(t0):.4f} | {statistics.median(t1):.4f} |")
    for key, a, b in differences:
        print(key, a, b)
    return 1 if differences else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--backends", default=BACKENDS)
    rec.add_argument("--time-limit", type=float, default=10.0)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.backends.split(","), args.time_limit)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
