"""Cold start: the first `kakuro solve` of a backend on a fresh install (empty compiled cache).

    python benchmarks/cold_start.py [--repeat 3] [--tree DIR]

Each run copies the package (this tree's, or `--tree DIR`'s: another checkout, to compare
revisions) into an empty temporary folder (no compiled cache, as after
`pip install`), then times the whole command `python -m kakuro solve
instances/examples/puzzlink-6x5.txt -b BACKEND --time-limit 2` (wall seconds, interpreter start
and compilation included) and reads the solving time it reports; then the same command again
(the cache now on disk). A time limit that counted compilation would answer `unknown`. CPU
seconds are printed too: on a shared machine they move less with the load than wall seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ROOT / "instances" / "examples" / "puzzlink-6x5.txt"
BACKENDS = ("gac", "nmcs", "fc", "sampling")
REPORTED = re.compile(r": (\w+) in ([0-9.]+) s")


def solve_once(folder: Path, backend: str) -> tuple[float, float, str, float]:
    """(wall seconds, CPU seconds, status, reported solving seconds) of one `kakuro solve`."""
    env = dict(os.environ, PYTHONPATH=str(folder))
    command = [sys.executable, "-m", "kakuro", "solve", str(PUZZLE), "-b", backend, "--time-limit", "2"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=folder, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    found = REPORTED.search(done.stdout)
    if found is None:
        raise SystemExit(f"unexpected output of {' '.join(command)}:\n{done.stdout}{done.stderr}")
    return wall, cpu, found.group(1), float(found.group(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh installs per backend (default 3)")
    parser.add_argument("-b", "--backend", action="append", help=f"backends (default: {', '.join(BACKENDS)})")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose package is measured (default: this one)")
    args = parser.parse_args()
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start\n")
    print("| backend | cold wall s (median, runs) | cold CPU s (median) | reported solve s | status | warm wall s |")
    print("|---|---|---:|---:|---|---:|")
    for backend in args.backend or BACKENDS:
        colds, cpus, warms, statuses, reported = [], [], [], set(), []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as folder:
                shutil.copytree(args.tree / "kakuro", Path(folder) / "kakuro", ignore=shutil.ignore_patterns("__pycache__"))
                wall, cpu, status, solve = solve_once(Path(folder), backend)
                colds.append(wall)
                cpus.append(cpu)
                statuses.add(status)
                reported.append(solve)
                warms.append(solve_once(Path(folder), backend)[0])
        runs = ", ".join(f"{c:.1f}" for c in colds)
        print(f"| {backend} | {statistics.median(colds):.1f} ({runs}) | {statistics.median(cpus):.1f} | {max(reported):.3f} | "
              f"{'/'.join(sorted(statuses))} | {statistics.median(warms):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
