"""What root shaving costs and buys: per set, the run revisions of root GAC and of a full
shaving pass (`fixpoint`) per run of the puzzle, the most revisions a removal took (per run:
what `bounded` shaving's budget, `kakuro.reasoning.root.shaving_budget`, must allow so
that it removes what the full pass removes), and the seconds of the full and the bounded pass.

    python benchmarks/root_shaving.py [FILE.jsonl ...]

Without files: the shared published sets (skipped with a note when ../shared/data is absent),
instances/hard, and empty Cazenave 20x20 over 1..21 and 30x30 over 1..31 (seed 7).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import kakuro
from kakuro.engine.layout import PROPAGATIONS
from kakuro.engine.propagate import BUDGET, LONGEST_DRY, SHAVE_COUNTERS, root_propagate, shave
from kakuro.engine.state import arm, build_state
from kakuro.generate import cazenave
from kakuro.reasoning.root import DRY_REVISIONS_PER_RUN, shaving_budget

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
PUBLISHED = ("janko", "simonis_easy", "krazydad", "gecode_nikoli", "ifilot_cx16")


def measure(puzzle: kakuro.Puzzle, bounded: bool) -> tuple[int, int, int, float]:
    """(root revisions, shaving revisions, most revisions a removal took, seconds) of root
    GAC then shaving, bounded by `shaving_budget` or the full pass."""
    st = build_state(puzzle, "gac")
    budget = shaving_budget(st) if bounded else 0
    arm(st, None, 0)
    ok = root_propagate(st)
    at_root = int(st.info[PROPAGATIONS])
    counters = np.zeros(SHAVE_COUNTERS, dtype=np.int64)
    counters[BUDGET] = budget
    start = time.perf_counter()
    if ok:
        shave(st, True, counters)
    return at_root, int(st.info[PROPAGATIONS]) - at_root, int(counters[LONGEST_DRY]), time.perf_counter() - start


def sets(files: list[str]) -> list[tuple[str, list[kakuro.Puzzle]]]:
    if files:
        return [(Path(f).stem, kakuro.read(f)) for f in files]
    found = []
    for name in PUBLISHED:
        if (SHARED / f"{name}.jsonl").exists():
            found.append((name, kakuro.read(SHARED / f"{name}.jsonl")))
        else:
            print(f"# {name} skipped: {SHARED / name}.jsonl is absent", file=sys.stderr)
    found += [(f"hard/{p.stem}", kakuro.read(p)) for p in sorted((ROOT / "instances" / "hard").glob("*.jsonl"))]
    found += [("empty 20x20 1..21", cazenave(20, 21, 100, count=3, seed=7)),
              ("empty 30x30 1..31", cazenave(30, 31, 100, count=3, seed=7))]
    return found


def main() -> int:
    measure(kakuro.read(ROOT / "instances" / "examples" / "puzzlink-6x5.txt")[0], False)  # compile outside the table
    print(f"# bounded: shaving_budget, {DRY_REVISIONS_PER_RUN} revisions per run without a removal (times the square of "
          "the other groups its cells lie in)")
    print("| set | puzzles | root rev/run (median) | full shaving rev/run (median, max) | most a removal took, rev/run (max) "
          "| full s (total) | bounded s (total) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, puzzles in sets(sys.argv[1:]):
        rows = []
        for puzzle in puzzles:
            runs = len(puzzle.groups)
            at_root, shaving, dry, full = measure(puzzle, False)
            bounded = measure(puzzle, True)[3]
            rows.append((at_root / runs, shaving / runs, dry / runs, full, bounded))
        a = np.array(rows)
        print(f"| {name} | {len(puzzles)} | {np.median(a[:, 0]):.1f} | {np.median(a[:, 1]):.1f}, {a[:, 1].max():.1f} "
              f"| {a[:, 2].max():.1f} | {a[:, 3].sum():.3f} | {a[:, 4].sum():.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
