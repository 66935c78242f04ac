"""Certify and verify every janko puzzle, and check the encoding the certificates trust.

    python benchmarks/certify.py [--quick] [--no-encoding] [--sets janko,krazydad,...]
    python benchmarks/certify.py --sets krazydad,simonis_easy,gecode_nikoli,ifilot_cx16,generated

Reads ../shared/data (exits with a note when it is absent). For each puzzle of the chosen sets
(default: janko, 999 puzzles; `generated`: the project's instances/classic/*.jsonl and
instances/cazenave/*.jsonl): `kakuro.certify` (CaDiCaL 1.9.5 with a DRUP proof), the text
written to a file (`Certificate.dumps`), then `kakuro.verify` reading that file (the header and
the formula re-derived line by line, `puzzle.check`, the excluding clause, dratify's checkers). Prints per set the
claims made (unique / none / several), the rejected certificates (there must be none), the
median and largest seconds of certify + verify per puzzle, of each part, the median and largest
proof (steps) and certificate (bytes); and the puzzle behind each largest.

Then the encoding check (`kakuro.certificates.check_encoding`, cap 2) over the same puzzles:
every CNF model decodes to a solution `puzzle.check` accepts, and the CNF's solution count
equals the native `gac` search's; also each certified claim against the published solution
(a unique claim must hold the published one: checked with the certificates). Then the project's generated puzzles with no
solution (instances/hard/unsat-*.jsonl and `generate cazenave --unsatisfiable` grids) must
certify as "none". Exits 1 on any disagreement.

`--quick`: every 50th puzzle.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import kakuro
from kakuro.certificates import Claim, check_encoding
from kakuro.generate import cazenave

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
UNSAT_INSTANCES = ("hard/unsat-7x7-v8.jsonl", "hard/unsat-8x8-v9.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="janko", help="comma list of shared sets, or `generated` (default: janko)")
    parser.add_argument("--quick", action="store_true", help="every 50th puzzle")
    parser.add_argument("--no-encoding", action="store_true", help="skip the encoding check")
    args = parser.parse_args()
    if not SHARED_DATA.is_dir():
        print(f"{SHARED_DATA} is absent: nothing to run")
        return 0
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start, {time.strftime('%Y-%m-%d %H:%M')}; "
          f"checkers: {', '.join(kakuro.certificates.available_checkers())}")
    failures = 0
    for name in args.sets.split(","):
        if name == "generated":
            files = sorted((ROOT / "instances" / "classic").glob("*.jsonl")) + sorted(
                (ROOT / "instances" / "cazenave").glob("*.jsonl"))
        else:
            files = [SHARED_DATA / f"{name}.jsonl"]
        puzzles = [p for f in files for p in kakuro.read(f)][:: 50 if args.quick else 1]
        failures += certify_set(name, puzzles)
        if not args.no_encoding:
            failures += encoding_set(name, puzzles)
    unsat = [p for f in UNSAT_INSTANCES for p in kakuro.read(ROOT / "instances" / f)]
    unsat += cazenave(size=4, values=5, holes=100, count=3, seed=0, unsatisfiable=True)
    unsat += cazenave(size=5, values=6, holes=100, count=3, seed=0, unsatisfiable=True)
    failures += certify_set("generated, no solution", unsat, expect=Claim.NONE)
    print(f"\n{'FAILED: ' + str(failures) + ' disagreement(s)' if failures else 'all certified and verified'}")
    return 1 if failures else 0


def certify_set(name: str, puzzles: list[kakuro.Puzzle], expect: Claim | None = None) -> int:
    """Certify, write, read and verify each puzzle; print the table; the number of failures."""
    claims: Counter[str] = Counter()
    rows = []
    failures = 0
    for puzzle in puzzles:
        start = time.perf_counter()
        cert = kakuro.certify(puzzle)
        made = time.perf_counter()
        text = cert.dumps()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "puzzle.cert"
            path.write_text(text)
            verdict = kakuro.verify(path, puzzle=puzzle)
        done = time.perf_counter()
        claims[cert.claim.value] += 1
        published = puzzle.meta.get("solution")
        if not verdict.ok or (expect is not None and cert.claim is not expect):
            failures += 1
            print(f"  {puzzle.id}: {cert.claim.value}: {verdict}")
        elif published is not None and cert.claim is Claim.UNIQUE and cert.solutions[0] != tuple(
                published[r][c] for r, c in puzzle.cells):
            failures += 1
            print(f"  {puzzle.id}: the certified solution is not the published one")
        rows.append((done - start, made - start, done - made, len(cert.proof), len(text.encode()), puzzle.id))
    print(f"\n## {name}: {len(puzzles)} puzzles; claims: "
          + ", ".join(f"{k} {v}" for k, v in sorted(claims.items())) + f"; rejected: {failures}")
    print("| measure | median | largest | largest on |")
    print("|---|---:|---:|---|")
    for column, label, unit in ((0, "certify + verify", "s"), (1, "certify", "s"), (2, "write, read, verify", "s"),
                                (3, "proof", "steps"), (4, "certificate", "bytes")):
        values = [r[column] for r in rows]
        largest = max(rows, key=lambda r: r[column])
        fmt = "{:.3f}" if unit == "s" else "{:,.0f}"
        print(f"| {label} ({unit}) | {fmt.format(statistics.median(values))} | {fmt.format(largest[column])} "
              f"| {largest[5]} |")
    return failures


def encoding_set(name: str, puzzles: list[kakuro.Puzzle]) -> int:
    """The encoding check over `puzzles` (cap 2); prints a line per disagreement and a
    summary; the number of disagreements."""
    start = time.perf_counter()
    failures = 0
    counts: Counter[int] = Counter()
    for puzzle in puzzles:
        check = check_encoding(puzzle, cap=2, time_limit=60)
        counts[check.cnf_count] += 1
        if not check.agrees:
            failures += 1
            print(f"  {puzzle.id}: CNF {check.cnf_count} (exact: {check.cnf_exhausted}), gac {check.native_count} "
                  f"(exact: {check.native_exhausted}) {'; '.join(check.problems)}")
    print(f"\nencoding check, {name}: CNF solution counts (cap 2) {dict(sorted(counts.items()))}; "
          f"disagreements with gac or bad models: {failures}; {time.perf_counter() - start:.1f} s")
    return failures


if __name__ == "__main__":
    sys.exit(main())
