"""The native engine's speed, and its answers against another revision's, side by side.

    python benchmarks/engine.py                    # this tree: janko with gac, empty 8x8 with nmcs
    python benchmarks/engine.py --against f7480fb  # the same, alternating with a git revision,
                                                   # and every native backend's answers compared

Each measurement runs in a fresh process whose backends are warmed up (compiled) before any
timing; with `--against`, the revision is checked out into a temporary git worktree and the
two trees alternate task by task, so both see the same machine load. Tasks:

- `janko-gac`: read the 999 janko puzzles (../shared/data) and solve each with `gac`;
- `empty8-nmcs`: Cazenave's empty 8x8 grids, values 1..9 (`kakuro.generate.cazenave`, seeds
  0..N-1), `nmcs:level=2,consistency=fc` (the paper's), seed = the problem's index, 10 s each;
- `instances` (with `--against` only): every native backend configuration on every puzzle of
  instances/ (seed 3, 0.5 s each); a job that finished in both trees must give the same
  status, solution and counters (nodes, fails, samples, ...).

Prints one table (median / total solve time per tree, the ratio) and the equivalence count.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
NATIVE_SPECS = (  # every option that changed its default since f7480fb is named, so both trees run the same
    "fc:consistency=fc,values=random", "fc:consistency=fc,values=ascending", "fc:consistency=gac,values=random",
    "gac", "gac:shaving=none", "gac:shaving=once",
    "rdv:consistency=fc", "rdv:consistency=gac", "rdv:search=false",
    "backtrack:variant=plain", "backtrack:variant=run-ordering", "backtrack:variant=value-ordering",
    "backtrack:variant=decisive", "backtrack:variant=projected-pruning",
    "sampling:consistency=fc", "sampling:consistency=gac", "nmcs:level=1,consistency=fc", "nmcs:consistency=fc",
    "nmcs:consistency=gac", "nmcs:strategy=max-inference,selection=cells,consistency=fc", "flat:consistency=fc",
    "flat:consistency=gac", "uct:consistency=fc", "uct:consistency=gac",
    "uct:strategy=naive,selection=values,consistency=fc", "sahs",
)
COUNTERS = ("nodes", "fails", "samples", "assignments", "restarts", "propagations", "probes", "iterations")


# --------------------------------------------------------------------- worker side
def _fingerprint(result) -> dict:  # type: ignore[no-untyped-def]
    digest = hashlib.sha1(repr(result.solution.values).encode()).hexdigest()[:12] if result.solution else ""
    return {
        "status": result.status.value,
        "time": result.time,
        "solution": digest,
        "counters": {k: result.stats[k] for k in COUNTERS if k in result.stats},
    }


def _solve_all(puzzles, spec: str, time_limit: float | None, seed_of) -> list[dict]:  # type: ignore[no-untyped-def]
    import kakuro

    solver = kakuro.get_solver(spec)
    getattr(solver, "ensure_warm", solver.warm_up)()  # older trees only have the class's warm_up
    rows = []
    for i, puzzle in enumerate(puzzles):
        result = solver.solve(puzzle, time_limit=time_limit, seed=seed_of(i))
        rows.append({"id": f"{puzzle.id}#{i}", "spec": spec, **_fingerprint(result)})
    return rows


def worker(task: str, problems: int) -> None:
    """Run `task` in this process and print one JSON object: its rows and wall times."""
    import kakuro
    from kakuro.generate import cazenave

    if task == "janko-gac":
        start = time.perf_counter()
        puzzles = kakuro.read(SHARED / "janko.jsonl")
        read = time.perf_counter() - start
        warm = kakuro.get_solver("gac")
        getattr(warm, "ensure_warm", warm.warm_up)()
        start = time.perf_counter()
        rows = _solve_all(puzzles, "gac", None, lambda i: 0)
        out = {"rows": rows, "read": read, "wall": time.perf_counter() - start}
    elif task == "empty8-nmcs":
        puzzles = [cazenave(8, 9, 100, seed=s)[0] for s in range(problems)]
        start = time.perf_counter()
        rows = _solve_all(puzzles, "nmcs:level=2,consistency=fc", 10.0, lambda i: i)
        out = {"rows": rows, "read": 0.0, "wall": time.perf_counter() - start}
    elif task == "instances":
        puzzles = []
        for path in sorted((ROOT / "instances").rglob("*")):
            if path.suffix in (".jsonl", ".txt"):
                puzzles += kakuro.read(path)
        rows = []
        start = time.perf_counter()
        for spec in NATIVE_SPECS:
            rows += _solve_all(puzzles, spec, 0.5, lambda i: 3)
        out = {"rows": rows, "read": 0.0, "wall": time.perf_counter() - start}
    else:
        raise SystemExit(f"unknown task {task!r}")
    print(json.dumps(out))


# --------------------------------------------------------------------- parent side
def run_task(tree: Path, task: str, problems: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", task, "--problems", str(problems)],
        env=env, cwd=tree, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{task} in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def summary(out: dict) -> tuple[int, int, float, float, float]:
    rows = out["rows"]
    solved = sum(r["status"] == "solved" for r in rows)
    times = [r["time"] for r in rows]
    return solved, len(rows), statistics.median(times), sum(times), out["read"] + out["wall"]


def compare_answers(old: dict, new: dict) -> tuple[int, int, list[str]]:
    """(jobs finished in both, of which identical, the first differences)."""
    finished = same = 0
    differences = []
    for a, b in zip(old["rows"], new["rows"]):
        if a["status"] == "unknown" or b["status"] == "unknown":
            continue
        finished += 1
        keys = ("status", "solution", "counters")
        if all(a[k] == b[k] for k in keys):
            same += 1
        elif len(differences) < 10:
            differences.append(f"{a['spec']} {a['id']}: {[a[k] for k in keys]} != {[b[k] for k in keys]}")
    return finished, same, differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="a git revision to compare with, side by side")
    parser.add_argument("--problems", type=int, default=100, help="empty 8x8 problems (default 100)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.problems)
        return 0
    if not SHARED.is_dir():
        raise SystemExit(f"the shared puzzle data is absent: {SHARED} does not exist")
    trees = {"this tree": ROOT}
    with tempfile.TemporaryDirectory() as scratch:
        if args.against:
            other = Path(scratch) / "other"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), args.against],
                           check=True, capture_output=True)
            trees = {args.against: other, "this tree": ROOT}
        try:
            return _report(trees, args)
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees[args.against])],
                               check=False, capture_output=True)


def _report(trees: dict[str, Path], args: argparse.Namespace) -> int:
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start\n")
    print("| task | tree | solved | median solve (ms) | total solve (s) | wall incl. reading (s) |")
    print("|---|---|---:|---:|---:|---:|")
    outs: dict[tuple[str, str], dict] = {}
    tasks = ["janko-gac", "empty8-nmcs"] + (["instances"] if len(trees) > 1 else [])
    for task in tasks:
        for name, tree in trees.items():
            outs[task, name] = out = run_task(tree, task, args.problems)
            if task != "instances":
                solved, jobs, median, total, wall = summary(out)
                print(f"| {task} | {name} | {solved}/{jobs} | {median * 1e3:.2f} | {total:.2f} | {wall:.2f} |", flush=True)
    if len(trees) > 1:
        old, new = list(trees)
        for task in ("janko-gac", "empty8-nmcs"):
            ratio = summary(outs[task, new])[3] / summary(outs[task, old])[3]
            print(f"\n{task}: total solve time {new} / {old} = {ratio:.2f}")
        exit_code = 0
        for task in tasks:
            finished, same, differences = compare_answers(outs[task, old], outs[task, new])
            print(f"{task}: {same} of {finished} jobs finished in both trees give the same status, solution and counters")
            for line in differences:
                print("  " + line)
            exit_code |= same != finished
        return exit_code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
