"""Human-technique explanations and ratings on the shared published puzzles (issue 20).

Every puzzle of the five shared sets is explained (`kakuro.explain`) in this one process after
warm-up (the engine kernels the contradiction and search steps use are compiled first), its
trace replayed and checked against the recorded solution, and graded (`kakuro.generate.grade`).
Tables:

1. per set: puzzles, the share solved without a contradiction or search step, steps per puzzle
   (median, max), time per explanation (median, max, total; replay and grading not counted);
2. techniques: how many puzzles use each, and how many steps it takes in all;
3. agreement with `grade`: puzzles by grade and rating level, and the score ranges per grade
   (a puzzle that needs shaving must rate above every puzzle that GAC alone decides);
4. how the rating orders the published puzzles: by source, by size (white cells), and against
   the labels a publisher gave (Nikoli's easy / medium / hard in the Gecode set);
5. (`--parts generated`) `kakuro.generate.classic(rating=LEVEL)` for levels 2 to 6: puzzles
   made, seconds (median, max), attempts (median), failures (no puzzle of that level within
   the attempts). Level 1 can be asked for too, but the generator's unique puzzles almost never
   need so little (`--levels 1` measures it: 100 attempts per puzzle, then an error).

Usage:

    python experiments/explain_ratings.py                       # all 1,398 shared puzzles, then generation (~5 min)
    python experiments/explain_ratings.py --parts published     # the shared puzzles only (~30 s)
    python experiments/explain_ratings.py --quick               # every fiftieth puzzle, a little generation (seconds)

`-o FILE` also writes the tables as Markdown. The shared data is read from ../shared/data
beside the checkout (`--data DIR` to change it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kakuro.deduction import SOLVED, TECHNIQUES, explain
from kakuro.deduction.replay import replay, unsound_removals
from kakuro.engine import compile
from kakuro.errors import KakuroError
from kakuro.files import refuse_existing, write_new
from kakuro.formats import read_lazily
from kakuro.generate import GRADES, classic, grade
from kakuro.generate.classic_grids import TARGET_RATINGS

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SETS = ("janko", "simonis_easy", "krazydad", "gecode_nikoli", "ifilot_cx16")
SIZES = ((1, 50), (51, 100), (101, 200), (201, 400), (401, 10_000))
"""White-cell counts grouped for the size table."""


@dataclass(frozen=True)
class Row:
    """One explained puzzle."""

    set: str
    id: str
    cells: int
    seconds: float
    steps: int
    level: int
    score: float
    counts: dict[str, int]
    grade: str
    checked: bool


def explain_set(name: str, data: Path, every: int) -> list[Row]:
    path = data / f"{name}.jsonl"
    computed = {}
    solutions = data / "computed_solutions.jsonl"
    if solutions.is_file():
        computed = {r["id"]: r["solution"] for r in map(json.loads, solutions.read_text().splitlines())}
    records = [json.loads(line) for line in path.read_text().splitlines()]
    rows = []
    puzzles = read_lazily(path)  # only every `every`-th puzzle is built
    for k in range(0, len(records), every):
        puzzle, record = puzzles[k], records[k]
        start = time.perf_counter()
        e = explain(puzzle)
        seconds = time.perf_counter() - start
        grid = record.get("solution") or computed.get(record["id"])
        recorded = puzzle.solution([grid[r][c] for r, c in puzzle.cells])
        chosen = next((i for i, s in enumerate(e.steps) if s.technique == "search"), len(e.steps))
        final = [d.bit_length() - 1 for d in replay(puzzle, e.steps)]
        checked = (not unsound_removals(e.steps[:chosen], recorded)
                   and (final == list(recorded.values) if e.status == SOLVED else not puzzle.check(puzzle.solution(final))))
        rows.append(Row(name, puzzle.id or "", puzzle.size, seconds, len(e.steps), e.rating.level, e.rating.score,
                        e.counts, grade(puzzle), checked))
    return rows


def table(headers: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def per_set(rows: list[Row]) -> str:
    out = []
    for name in (*SETS, "all"):
        group = [r for r in rows if name in ("all", r.set)]
        if not group:
            continue
        plain = sum(r.level <= 5 for r in group)
        contradiction = sum(r.level == 6 for r in group)
        searched = sum(r.level == 7 for r in group)
        ms = [1000 * r.seconds for r in group]
        steps = [r.steps for r in group]
        out.append([name, len(group), f"{plain} ({100 * plain / len(group):.1f}%)", contradiction, searched,
                    statistics.median(steps), max(steps), f"{statistics.median(ms):.1f}", f"{max(ms):.0f}",
                    f"{sum(ms) / 1000:.1f}", f"{sum(r.checked for r in group)}/{len(group)}"])
    return table(["set", "puzzles", "no contradiction or search", "contradiction", "search", "steps median",
                  "steps max", "ms median", "ms max", "total s", "replayed and sound"], out)


def techniques(rows: list[Row]) -> str:
    out = []
    for t in TECHNIQUES:
        using = [r.counts.get(t.name, 0) for r in rows if r.counts.get(t.name)]
        out.append([t.name, t.level, f"{len(using)} ({100 * len(using) / len(rows):.1f}%)", sum(using)])
    return table(["technique", "level", "puzzles using it", "steps in all"], out)


def agreement(rows: list[Row]) -> str:
    by = Counter((r.grade, r.level) for r in rows)
    levels = sorted({r.level for r in rows})
    out = []
    for g in GRADES:
        group = [r for r in rows if r.grade == g]
        if not group:
            continue
        scores = [r.score for r in group]
        out.append([g, len(group), *[by.get((g, level), "") for level in levels],
                    f"{min(scores):.1f} - {max(scores):.1f}", f"{statistics.median(scores):.1f}"])
    return table(["grade", "puzzles", *[f"level {level}" for level in levels], "scores", "median score"], out)


def ordering(rows: list[Row]) -> str:
    def line(label: str, group: list[Row]) -> list[object]:
        scores = [r.score for r in group]
        levels = Counter(r.level for r in group)
        return [label, len(group), f"{statistics.median(scores):.1f}", f"{min(scores):.1f} - {max(scores):.1f}",
                " ".join(f"{level}:{levels[level]}" for level in sorted(levels))]

    out = [line(name, [r for r in rows if r.set == name]) for name in SETS if any(r.set == name for r in rows)]
    for low, high in SIZES:
        group = [r for r in rows if low <= r.cells <= high]
        if group:
            out.append(line(f"{low}-{high} cells" if high < 10_000 else f"over {low - 1} cells", group))
    for label in ("easy", "medium", "hard"):
        group = [r for r in rows if r.set == "gecode_nikoli" and r.id.endswith(label)]
        if group:
            out.append(line(f"Nikoli {label} (gecode_nikoli)", group))
    return table(["puzzles", "count", "median score", "scores", "puzzles per level"], out)


def generated(sides: list[int], levels: list[int], count: int) -> str:
    """Rated generation: per (size, level asked), the seconds and attempts of `count` seeds."""
    out = []
    for side in sides:
        for level in levels:
            seconds, attempts, scores, failed = [], [], [], 0
            for seed in range(count):
                start = time.perf_counter()
                try:
                    puzzle = classic(side, side, seed=seed, rating=level)[0]
                except KakuroError:
                    failed += 1
                    continue
                seconds.append(time.perf_counter() - start)
                attempts.append(puzzle.meta["attempts"])
                scores.append(puzzle.meta["rating"])
            made = len(seconds)
            out.append([f"{side}x{side}", level, f"{made}/{count}",
                        f"{statistics.median(seconds):.2f}" if made else "-", f"{max(seconds):.2f}" if made else "-",
                        statistics.median(attempts) if made else "-",
                        " ".join(f"{v:.1f}" for v in sorted(scores)) or "-", failed])
    return table(["size", "level asked", "made", "median s", "max s", "attempts (median)", "scores", "failed"], out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every fiftieth puzzle of each set; 10x10 generation, 1 seed")
    parser.add_argument("--parts", default="published,generated", help="published, generated or both (default)")
    parser.add_argument("--levels", default="2,3,4,5,6", help="rating levels asked of the generator (default 2..6)")
    parser.add_argument("--data", type=Path, default=SHARED, help="the shared data folder (default: %(default)s)")
    parser.add_argument("-o", "--output", type=Path, help="also write the tables as Markdown here (never replaced)")
    args = parser.parse_args(argv)
    if "published" in args.parts and not args.data.is_dir():
        print(f"explain_ratings: the shared data is absent: {args.data} does not exist", file=sys.stderr)
        return 1
    if args.output is not None:
        try:
            refuse_existing(args.output)
        except KakuroError as exc:
            print(f"explain_ratings: {exc}", file=sys.stderr)
            return 1
    parts = set(args.parts.split(","))
    if not parts or parts - {"published", "generated"}:
        parser.error(f"--parts takes published and/or generated, not {args.parts!r}")
    levels = [int(v) for v in args.levels.split(",") if v.strip().isdigit()]
    if not levels or any(level not in TARGET_RATINGS for level in levels):
        parser.error(f"--levels takes levels from {TARGET_RATINGS[0]} to {TARGET_RATINGS[-1]}, not {args.levels!r}")
    compile.ensure("root:gac", "refute:gac", "depth_first:gac", "shave:gac", "local")
    load_before = os.getloadavg()[0]
    sections: list[str] = []

    def show(section: str) -> None:
        sections.append(section)
        print(section + "\n", flush=True)

    rows: list[Row] = []
    if "published" in parts:
        rows = [row for name in SETS for row in explain_set(name, args.data, 50 if args.quick else 1)]
        show(f"Explained {len(rows)} puzzles{' (every fiftieth: --quick)' if args.quick else ''}.")
        show("Per set:\n\n" + per_set(rows))
        show("Techniques:\n\n" + techniques(rows))
        show("Agreement with grade (puzzles per rating level):\n\n" + agreement(rows))
        show("How the rating orders the published puzzles:\n\n" + ordering(rows))
    if "generated" in parts:
        sides, count = ([10], 1) if args.quick else ([10, 12], 5)
        show(f"Generated with a rating asked for (seeds 0..{count - 1}):\n\n" + generated(sides, levels, count))
    show(f"Load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after, {os.cpu_count()} cores.")
    if args.output is not None:
        write_new(args.output, "\n\n".join(sections) + "\n")
    wrong = [r.id for r in rows if not r.checked]
    if wrong:
        print(f"explain_ratings: {len(wrong)} traces failed the check: {', '.join(wrong[:10])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
