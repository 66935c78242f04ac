"""Issue 6 benchmark: `sat` beside `cpsat` on the janko set; `csp` on the krazydad set.

    python experiments/sat_csp.py --quick    # every 10th puzzle: about a minute
    python experiments/sat_csp.py            # all 999 janko and all 200 krazydad puzzles

Every answer is checked by `puzzle.check` (inside `Solver.solve`, and again here) and compared
with the solution the data set ships. `sat` and `cpsat` run one after the other on each janko
puzzle in the same process, without a time limit by default (so `sat` solves in-process; a
limit makes it fork one child per solve, about 6 ms each); `csp` runs on each krazydad puzzle
with a 60 s limit. Times are `Result.time` (seconds of `perf_counter`, checking excluded).
Prints the summary tables (Markdown); with `--out FILE` also one JSON line per solve to that new file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from outputs import new_file

import kakuro
from kakuro import Puzzle, Result, Status

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


def solve_checked(puzzle: Puzzle, backend: str, time_limit: float | None) -> tuple[Result, dict[str, Any]]:
    """Solve, re-check, and compare with the data set's solution: (result, JSON record)."""
    result = kakuro.solve(puzzle, backend, time_limit=time_limit)
    valid = result.solution is not None and puzzle.check(result.solution) == []
    shipped = puzzle.meta.get("solution")
    matches = None if shipped is None or result.solution is None else result.solution.to_grid() == [list(r) for r in shipped]
    record = {
        "id": puzzle.id,
        "backend": result.backend,
        "status": result.status.value,
        "time": round(result.time, 6),
        "valid": valid,
        "matches_shipped_solution": matches,
        "stats": dict(result.stats),
        "message": result.message,
    }
    return result, record


def summary(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    times = [r["time"] for r in records]
    solved = [r for r in records if r["status"] == Status.SOLVED.value]
    out: dict[str, Any] = {
        "puzzles": len(records),
        "solved (checked)": sum(r["valid"] for r in solved),
        "unknown": sum(r["status"] == Status.UNKNOWN.value for r in records),
        "other": sum(r["status"] not in (Status.SOLVED.value, Status.UNKNOWN.value) for r in records),
        "differs from shipped": sum(r["matches_shipped_solution"] is False for r in records),
        "total s": round(sum(times), 2),
        "median ms": round(1000 * statistics.median(times), 1) if times else 0.0,
        "max s": round(max(times), 3) if times else 0.0,
    }
    for key in ("num_vars", "num_clauses"):
        values = [r["stats"][key] for r in records if key in r["stats"]]
        if values:
            out[f"mean {key}"] = round(statistics.mean(values))
            out[f"max {key}"] = max(values)
    return out


def table(rows: dict[str, dict[str, Any]]) -> str:
    keys = list(dict.fromkeys(k for row in rows.values() for k in row))
    lines = ["| backend | " + " | ".join(keys) + " |", "| --- |" + " ---: |" * len(keys)]
    lines += [f"| `{name}` | " + " | ".join(str(row.get(k, "")) for k in keys) + " |" for name, row in rows.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every 10th puzzle of each set")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default ../shared/data)")
    parser.add_argument("--janko-limit", type=float, default=None, help="seconds per janko solve (default none)")
    parser.add_argument("--csp-limit", type=float, default=60.0, help="seconds per krazydad csp solve (default 60)")
    parser.add_argument("--sat", default="sat", help="the sat backend spec (default sat)")
    parser.add_argument("--out", type=Path, default=None, help="also write one JSON line per solve to this new file")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"the shared data folder {args.data} does not exist", file=sys.stderr)
        return 1
    sink = new_file(args.out, "--out") or open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    step = 10 if args.quick else 1
    janko = kakuro.read(args.data / "janko.jsonl")[::step]
    krazydad = kakuro.read(args.data / "krazydad.jsonl")[::step]
    for name in (args.sat, "cpsat", "csp"):
        kakuro.get_solver(name).ensure_warm()

    records: dict[str, list[dict[str, Any]]] = {args.sat: [], "cpsat": [], "csp": []}
    start = time.perf_counter()
    with sink:
        for i, puzzle in enumerate(janko, 1):
            for backend in (args.sat, "cpsat"):
                _, record = solve_checked(puzzle, backend, args.janko_limit)
                records[backend].append({**record, "set": "janko"})
                sink.write(json.dumps(records[backend][-1]) + "\n")
            if i % 100 == 0:
                print(f"janko {i}/{len(janko)} ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
        for i, puzzle in enumerate(krazydad, 1):
            _, record = solve_checked(puzzle, "csp", args.csp_limit)
            records["csp"].append({**record, "set": "krazydad"})
            sink.write(json.dumps(records["csp"][-1]) + "\n")
            sink.flush()
            if i % 20 == 0:
                print(f"krazydad {i}/{len(krazydad)} ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)

    print(f"## janko ({len(janko)} puzzles), sat beside cpsat in the same run\n")
    print(table({args.sat: summary(records[args.sat]), "cpsat": summary(records["cpsat"])}))
    print(f"\n## krazydad ({len(krazydad)} puzzles), csp with a {args.csp_limit:g} s limit each\n")
    print(table({"csp": summary(records["csp"])}))
    unsolved = [r for r in records["csp"] if r["status"] != Status.SOLVED.value or not r["valid"]]
    print("\ncsp could not solve: " + (", ".join(f"{r['id']} ({r['status']})" for r in unsolved) or "none"))
    slowest = sorted(records["csp"], key=lambda r: -r["time"])[:5]
    print("csp slowest: " + ", ".join(f"{r['id']} {r['time']:.2f} s" for r in slowest))
    bad = [r for rs in records.values() for r in rs if r["status"] == Status.SOLVED.value and not r["valid"]]
    records = f"; records in {args.out}" if args.out else ""
    print(f"invalid answers: {len(bad)}; wall clock {time.perf_counter() - start:.1f} s{records}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
