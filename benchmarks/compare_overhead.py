"""Measure the compare harness, locally and on Dask: per-job overhead, speed-up, statuses.

    python benchmarks/compare_overhead.py [--jobs-overhead 1000] [--trials 5] [--jobs-speedup 200] [--spin 0.05]
                                          [--no-dask] [--overhead-only]

Overhead: a campaign of N jobs whose backend spins ~1 ms of CPU (then answers from a per-worker
cache of the verified solution), run on one worker: the local pool (`-j 1`) and `--dask local
-j 1` (one Dask worker with one job process). Consecutive records are written one job cycle
apart, so median(cycle) - median(backend time) is the harness's cost per job: hand-over to the
worker (and, on Dask, the scheduler's round trip), the reply, the parent-side verification
with puzzle.check, the fsync'd write. The cycle is the steady state's: the median over windows
of 100 consecutive records of their mean cycle (start-up excluded; a Dask task hands a few
records over at once). The campaign runs `--trials` times on each runner, alternated, and the
medians are shown: the load of a shared machine moves single runs by a factor of 2.

Speed-up: a campaign of `--jobs-speedup` jobs that spin `--spin` seconds of CPU each, run on 1
and 2 workers, locally and on `--dask local`; whole `compare.main` wall time (pool or cluster
start and warm-up included) and the steady-state job cycle (as above, without them).
Jobs that sleep instead of computing show what the harness alone allows when other processes
compete for the cores.

Statuses: one campaign of real backends (cpsat, gac, sat, and a backend that overruns its
limit) over instances/examples and two sets of instances/classic, run locally and on `--dask
local`: the statuses must match.

Prints a Markdown table, with the load average (other work on the machine skews every number).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import kakuro
from kakuro.cli import compare as cli
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Outcome, Status
from kakuro.puzzle import Puzzle
from kakuro.records.files import read_results
from kakuro.records.record import Record
from kakuro.registry import backend_class, register
from kakuro.solver import Solver

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

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
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


def campaign(
    paths: Sequence[Path], specs: Sequence[str], *, workers: int, extra: Sequence[str] = ()
) -> tuple[float, list[Record]]:
    """Run `python -m kakuro.compare` on `paths` with backends `specs`; (wall seconds, records)."""
    out = Path(tempfile.mkdtemp(prefix="kakuro-bench-")) / "results.jsonl"
    argv = [*map(str, paths), "--import", __file__, "-j", str(workers), "-o", str(out), "--no-progress", *extra]
    for spec in specs:
        argv += ["-b", spec]
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        saved, sys.stdout = sys.stdout, sink
        try:
            code = cli.main(argv)
        finally:
            sys.stdout = saved
    wall = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"the campaign {argv} failed with exit status {code}")
    return wall, read_results(out)


def finished(records: list[Record]) -> list[float]:
    return sorted(dt.datetime.fromisoformat(r.finished).timestamp() for r in records)


WINDOW = 100
"""Records per window of the steady-state job cycle."""


def overhead(records: list[Record]) -> tuple[float, float, float]:
    """(job cycle, median backend time, harness overhead = their difference), seconds. The
    cycle is the median over windows of `WINDOW` consecutive records of the window's mean
    cycle: steady state, whatever the start, the end or a runner that hands several records
    over at once (a Dask task returns a few jobs together)."""
    times = finished(records)
    window = min(WINDOW, len(times) - 1)
    cycle = statistics.median((times[i + window] - times[i]) / window for i in range(len(times) - window))
    backend = statistics.median(r.time for r in records if r.time is not None)
    return cycle, backend, cycle - backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs-overhead", type=int, default=1000)
    parser.add_argument("--jobs-speedup", type=int, default=200)
    parser.add_argument("--spin", type=float, default=0.05, help="CPU seconds per job of the speed-up campaign")
    parser.add_argument("--no-dask", action="store_true", help="measure the local pool only")
    parser.add_argument("--overhead-only", action="store_true", help="measure the per-job overhead only")
    parser.add_argument("--trials", type=int, default=5, help="runs of the overhead campaign on each runner (alternated)")
    args = parser.parse_args()
    dask_runs = [("local pool", [])] + ([] if args.no_dask else [("--dask local", ["--dask", "local"])])
    rows: list[tuple[str, str]] = []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        puzzle = Path(tmp) / "puzzle.txt"
        kakuro.write(kakuro.read(ROOT / "instances" / "examples" / "cazenave-2010-table1.txt"), puzzle)
        repeat = lambda n: ["--repeat", str(n)]  # noqa: E731
        costs: dict[str, list[float]] = {name: [] for name, _ in dask_runs}
        cycles: dict[str, list[float]] = {name: [] for name, _ in dask_runs}
        backends: list[float] = []
        for _ in range(args.trials):  # alternated, so both see the same load
            for name, extra in dask_runs:
                _, records = campaign([puzzle], ["bench-spin:spin=0.001"], workers=1,
                                      extra=[*extra, *repeat(args.jobs_overhead)])
                assert all(r.status.value == "SOLVED" for r in records)
                cycle, backend, cost = overhead(records)
                costs[name].append(cost)
                cycles[name].append(cycle)
                backends.append(backend)
        median = statistics.median
        trials = (f"{args.trials} runs of {args.jobs_overhead} jobs of ~1 ms "
                  f"(median backend time {median(backends) * 1000:.2f} ms)")
        for name, _ in dask_runs:
            shown = ", ".join(f"{c * 1000:.2f}" for c in costs[name])
            rows += [(f"{name}: job cycle, 1 worker, median of {trials}", f"{median(cycles[name]) * 1000:.2f} ms"),
                     (f"{name}: harness overhead per job (cycle - backend time), median of the runs ({shown} ms)",
                      f"**{median(costs[name]) * 1000:.2f} ms**")]
        if len(dask_runs) > 1:
            ratios = [d / local for d, local in zip(costs["--dask local"], costs["local pool"])]
            shown = ", ".join(f"{r:.2f}" for r in ratios)
            rows.append((f"overhead ratio, --dask local / local pool, median of the runs ({shown})",
                         f"**{median(ratios):.2f}x**"))
        if args.overhead_only:
            dask_runs = []
        for kind, spec in (("CPU-bound", f"bench-spin:spin={args.spin}"), ("sleeping", f"bench-spin:spin=0,nap={args.spin}")):
            for name, extra in dask_runs:
                wall1, recs1 = campaign([puzzle], [spec], workers=1, extra=[*extra, *repeat(args.jobs_speedup)])
                wall2, recs2 = campaign([puzzle], [spec], workers=2, extra=[*extra, *repeat(args.jobs_speedup)])
                cycle1, cycle2 = overhead(recs1)[0], overhead(recs2)[0]
                rows += [(f"{name}: {args.jobs_speedup} {kind} jobs of {args.spin * 1000:g} ms, 1 / 2 workers, whole run "
                          "(start-up included)", f"{wall1:.2f} s / {wall2:.2f} s: {wall1 / wall2:.2f}x"),
                         (f"{name}: same, steady-state job cycle", f"{cycle1 * 1000:.1f} ms / {cycle2 * 1000:.1f} ms: "
                          f"**{cycle1 / cycle2:.2f}x**")]
        if dask_runs[1:]:
            real = [ROOT / "instances" / "examples", *(ROOT / "instances" / "classic" / f"unique-{n}x{n}.jsonl" for n in (6, 10))]
            specs = ["cpsat", "gac", "sat", "bench-spin:spin=0,nap=5"]
            limit = ["--time-limit", "2", "--grace", "0.5"]
            _, here = campaign(real, specs, workers=2, extra=limit)
            _, there = campaign(real, specs, workers=2, extra=[*limit, "--dask", "local"])
            same = {r.key: r.status for r in here} == {r.key: r.status for r in there}
            statuses = ", ".join(sorted({f"{r.status.value}" for r in here}))
            rows.append((f"statuses of {len(here)} jobs ({', '.join(specs)}; {statuses}), local vs --dask local",
                         "identical" if same else "DIFFERENT"))
    load_after = os.getloadavg()
    rows += [("cores", str(os.cpu_count())),
             ("load average (1 min) before / after", f"{load_before[0]:.2f} / {load_after[0]:.2f}")]
    print("| measure | value |")
    print("| --- | --- |")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
