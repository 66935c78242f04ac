"""Measure the compare harness: per-job overhead and the speed-up of -j 2 over -j 1.

    python benchmarks/compare_overhead.py [--jobs-overhead 200] [--jobs-speedup 200] [--spin 0.05]

Overhead: a campaign of N jobs whose backend spins ~1 ms of CPU (then answers from a per-worker
cache of the verified solution), run with -j 1. Consecutive records are written one job cycle
apart, so median(cycle) - median(backend time) is the harness's cost per job: hand-over to the
worker, puzzle rebuild, reply, parent-side verification with puzzle.check, the fsync'd write.

Speed-up: a 200-job campaign of a backend that spins `--spin` seconds of CPU per job, run with
-j 1 and -j 2 (whole `compare.main` wall time: pool start and warm-up included); then the same
with jobs that sleep instead, which shows what the harness itself allows when other processes
compete for the cores.

Prints a Markdown table, with the load average (other work on the machine skews both numbers).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import kakuro
from kakuro import compare
from kakuro.puzzle import Puzzle
from kakuro.solver import Deadline, Option, Outcome, Solver, Status, backend_class, register

ROOT = Path(__file__).resolve().parent.parent
_cache: dict[str, list[int]] = {}


@register("bench-spin")
class BenchSpin(Solver):
    """Benchmark only: spins `spin` seconds of CPU (or sleeps `nap` seconds), then answers with
    CP-SAT's solution (solved once per worker and puzzle, outside the timed part)."""

    description = "benchmark only"
    options = {
        "spin": Option(0.001, "seconds of CPU per job", minimum=0.0),
        "nap": Option(0.0, "seconds of sleep per job", minimum=0.0),
    }

    @classmethod
    def warm_up(cls) -> None:
        backend_class("cpsat").warm_up()

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        digest = puzzle.digest()
        if digest not in _cache:
            result = kakuro.solve(puzzle, "cpsat")
            _cache[digest] = list(result.solution.values)
        end = time.perf_counter() + opts["spin"]
        while time.perf_counter() < end:
            pass
        if opts["nap"]:
            time.sleep(opts["nap"])
        return Outcome(Status.SOLVED, _cache[digest])


def campaign(folder: Path, spec: str, jobs: int, workers: int) -> tuple[float, list[dict[str, Any]]]:
    """Run `jobs` repeats of the bench-spin `spec` on the puzzle in `folder`; (wall seconds, records)."""
    out = folder / f"results-{time.time_ns()}.jsonl"
    argv = [str(folder / "puzzle.txt"), "--import", __file__, "-b", spec, "--repeat", str(jobs),
            "-j", str(workers), "-o", str(out), "--no-progress"]
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        saved, sys.stdout = sys.stdout, sink
        try:
            code = compare.main(argv)
        finally:
            sys.stdout = saved
    wall = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"the campaign failed with exit status {code}")
    return wall, compare.read_results(out)


def span(records: list[dict[str, Any]]) -> float:
    """Seconds from the first record to the last (pool start-up and warm-up excluded)."""
    times = [dt.datetime.fromisoformat(r["finished"]).timestamp() for r in records]
    return max(times) - min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs-overhead", type=int, default=200)
    parser.add_argument("--jobs-speedup", type=int, default=200)
    parser.add_argument("--spin", type=float, default=0.05, help="CPU seconds per job of the speed-up campaign")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        kakuro.write(kakuro.read(ROOT / "instances" / "examples" / "cazenave-2010-table1.txt"), folder / "puzzle.txt")
        _, records = campaign(folder, "bench-spin:spin=0.001", args.jobs_overhead, 1)
        finished = [dt.datetime.fromisoformat(r["finished"]).timestamp() for r in records]
        cycles = [b - a for a, b in zip(finished, finished[1:])]
        backend = statistics.median(r["time"] for r in records)
        in_worker = statistics.median(r["wall"] - r["time"] for r in records)
        overhead = statistics.median(cycles) - backend
        wall1, recs1 = campaign(folder, f"bench-spin:spin={args.spin}", args.jobs_speedup, 1)
        wall2, recs2 = campaign(folder, f"bench-spin:spin={args.spin}", args.jobs_speedup, 2)
        nap1, naps1 = campaign(folder, f"bench-spin:spin=0,nap={args.spin}", args.jobs_speedup, 1)
        nap2, naps2 = campaign(folder, f"bench-spin:spin=0,nap={args.spin}", args.jobs_speedup, 2)
    load_after = os.getloadavg()
    assert all(r["status"] == "SOLVED" for r in records + recs2)
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| jobs for the overhead (-j 1, ~1 ms of CPU each) | {len(records)} |")
    print(f"| median backend time per job | {backend * 1000:.2f} ms |")
    print(f"| median job cycle (one record to the next) | {statistics.median(cycles) * 1000:.2f} ms |")
    print(f"| harness overhead per job (cycle - backend time), median | {overhead * 1000:.2f} ms |")
    print(f"| of which in the worker (puzzle rebuild, solve call), median | {in_worker * 1000:.2f} ms |")
    print(f"| {args.jobs_speedup} jobs of {args.spin * 1000:g} ms CPU, -j 1 | {wall1:.2f} s |")
    print(f"| {args.jobs_speedup} jobs of {args.spin * 1000:g} ms CPU, -j 2 | {wall2:.2f} s |")
    print(f"| speed-up of -j 2 (CPU-bound jobs), whole run | {wall1 / wall2:.2f}x |")
    print(f"| speed-up of -j 2 (CPU-bound jobs), first to last record | {span(recs1) / span(recs2):.2f}x |")
    print(f"| {args.jobs_speedup} jobs sleeping {args.spin * 1000:g} ms, -j 1 / -j 2 | {nap1:.2f} s / {nap2:.2f} s |")
    print(f"| speed-up of -j 2 (jobs that sleep: the harness alone), whole run | {nap1 / nap2:.2f}x |")
    print(f"| speed-up of -j 2 (jobs that sleep), first to last record | {span(naps1) / span(naps2):.2f}x |")
    print(f"| cores | {os.cpu_count()} |")
    print(f"| load average (1 min) before / after | {load_before[0]:.2f} / {load_after[0]:.2f} |")


if __name__ == "__main__":
    main()
