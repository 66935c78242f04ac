"""The Sudoku family at the limit: kakuro's backends through `kakuro.solve_many` beside tdoku,
side by side in one process on the same puzzles.

    python benchmarks/sudoku_limit.py --quick                       # generated puzzles, seconds
    python benchmarks/sudoku_limit.py --tdoku LIB --puzzles FILE    # a set of 9x9 puzzles against tdoku
    python benchmarks/sudoku_limit.py --tdoku LIB --puzzles FILE --sample 300 --killers FILE.killer

tdoku (t-dillon/tdoku, the fastest Sudoku solver its author knows) is an anchor, never a
dependency: build its shared library from its source (`./BUILD.sh tdoku -DAVX2=ON`, then
`make tdoku_shared` in `build/`: cmake and g++) and pass it with `--tdoku`; it is called through
ctypes (`TdokuSolverDpllTriadSimd`). Without it the tdoku column says how to get it. Nothing is
fetched: `--puzzles FILE` holds one 81-character puzzle a line (digits, `.` or `0` for an empty
cell; blank lines, `#` comments and anything after the puzzle on its line are skipped), and
without it the 9x9 set is generated (minimal unique puzzles, `kakuro.generate.unique_sudoku`).

Measured per set: each repeat times tdoku over the set, then each backend's `solve_many` over
the set (every `Result` checked: the answer check is part of the time), in CPU seconds of this
process (`time.process_time`); the table gives the median over the repeats in µs per puzzle and
the ratio to tdoku. Every answer must be SOLVED and, where tdoku ran, equal to tdoku's (the
puzzles are taken to be unique). Then, without tdoku (it solves 9x9 Sudoku only): with
`--killers FILE` (repeatable), published Killer Sudokus (a file `kakuro.read` reads, e.g. the
`.killer` format, several puzzles a file; `--sample` draws from it too); generated unique 16x16 and 25x25
Sudokus (`--big N`, default 10) and 9x9 Killers, Jigsaws and Sudoku X (`--family N`, default
20), each with the µs per puzzle and the median and slowest puzzle's `Result.time`. The
generated puzzles come from fixed seeds (0, 1, ...) and are made before any timing (their CPU
time is printed, a minute or less). Exit 1 when an answer is missing or differs from tdoku's, 2
on bad arguments or a bad puzzle file.
"""

from __future__ import annotations

import argparse
import ctypes
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import kakuro
from kakuro import Puzzle, Status
from kakuro.generate.unique_sudoku import unique_jigsaw, unique_killer, unique_sudoku

BACKENDS = ("gac", "auto", "gac:family=false")
QUICK_BACKENDS = ("gac", "auto")
BIG_BACKENDS = ("gac",)
BIG = 10
"""Generated unique 16x16 and 25x25 puzzles each by default (a median needs no more)."""
FAMILY = 20
"""Generated unique 9x9 Killers, Jigsaws and Sudoku X each by default."""
KILLER_LARGEST = 4
"""The largest cage of a generated Killer: with cages of up to 9 cells (the generator's
default) one count to 2 while merging can run for minutes (a Killer of 16 cages, seed 0)."""
KILLER_KINDS = ("killer", "killer-x")
WARM = 2
"""Puzzles solved before a set is timed: compilation, the shape's state, the batched path (the
first puzzle of a stream goes through `solve`, the next through the batches)."""
T = TypeVar("T")
HOW_TO_GET_TDOKU = ("not run: build t-dillon/tdoku (./BUILD.sh tdoku -DAVX2=ON, then make tdoku_shared in build/) "
                    "and pass --tdoku build/libtdoku_shared.so")
CELLS = 81
DIGITS = set("123456789.0")


class BadPuzzleFile(Exception):
    """A puzzle file's line that is not an 81-character puzzle: FILE:LINE:COLUMN: why."""


def read_lines(path: Path) -> list[str]:
    """The puzzles of `path` (see the module docstring), each as 81 characters with `.` for an
    empty cell. Raises BadPuzzleFile naming the line and column of the first bad one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadPuzzleFile(f"{path}: cannot read it: {exc}") from None
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        word = words[0]
        column = line.index(word) + 1
        bad = next((k for k, ch in enumerate(word) if ch not in DIGITS), None)
        if bad is not None and bad < CELLS:
            raise BadPuzzleFile(f"{path}:{number}:{column + bad}: {word[bad]!r} is neither a digit 1-9 nor '.' or '0'")
        if len(word) != CELLS:
            raise BadPuzzleFile(f"{path}:{number}:{column}: a puzzle is {CELLS} characters, this one {len(word)}")
        out.append(word.replace("0", "."))
    if not out:
        raise BadPuzzleFile(f"{path}: no puzzle in it")
    return out


class Tdoku:
    """tdoku's solver from its shared library, through ctypes."""

    def __init__(self, path: Path) -> None:
        self.lib = ctypes.CDLL(str(path))
        solve = self.lib.TdokuSolverDpllTriadSimd
        solve.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p,
                          ctypes.POINTER(ctypes.c_size_t)]
        solve.restype = ctypes.c_size_t
        self.solve_one = solve
        self.answer = ctypes.create_string_buffer(CELLS + 1)
        self.guesses = ctypes.c_size_t()

    def solve(self, lines: Sequence[bytes]) -> list[str]:
        """tdoku's solution of each puzzle ("" where it found none)."""
        out = []
        for line in lines:
            found = self.solve_one(line, 1, 0, self.answer, ctypes.byref(self.guesses))
            out.append(self.answer.value.decode() if found else "")
        return out


def cpu(call: Callable[[], T]) -> tuple[float, T]:
    """(CPU seconds of this process, what `call()` returned)."""
    start = time.process_time()
    value = call()
    return time.process_time() - start, value


def solved_all(spec: str, puzzles: Sequence[Puzzle], time_limit: float) -> Callable[[], list[kakuro.Result]]:
    solver = kakuro.get_solver(spec)
    return lambda: list(solver.solve_many(puzzles, time_limit=time_limit))


def values_line(result: kakuro.Result) -> str:
    return "".join(map(str, result.solution.values)) if result.solution is not None else ""


def nine_by_nine(name: str, lines: list[str], specs: Sequence[str], tdoku: Tdoku | None, repeats: int,
                 time_limit: float) -> tuple[list[str], int]:
    """The table rows of one 9x9 set, and how many answers were missing or differed."""
    puzzles = kakuro.read("".join(line + "\n" for line in lines), format="sudoku")
    encoded = [line.encode() for line in lines]
    runs: dict[str, list[float]] = {"tdoku": [], **{spec: [] for spec in specs}}
    answers: dict[str, list[str]] = {}
    for spec in specs:
        solved_all(spec, puzzles[:WARM], time_limit)()  # warm: compilation, the shape's state, the batches
    for _ in range(repeats):
        if tdoku is not None:
            seconds, found = cpu(lambda: tdoku.solve(encoded))
            runs["tdoku"].append(seconds)
            answers["tdoku"] = found
        for spec in specs:
            seconds, results = cpu(solved_all(spec, puzzles, time_limit))
            runs[spec].append(seconds)
            answers[spec] = [values_line(r) if r.status is Status.SOLVED else "" for r in results]
    per = {key: statistics.median(value) / len(puzzles) * 1e6 for key, value in runs.items() if value}
    rows, bad = [], 0
    reference = answers.get("tdoku")
    tdoku_cell = f"{per['tdoku']:,.1f}" if tdoku is not None else HOW_TO_GET_TDOKU
    for spec in specs:
        missing = answers[spec].count("")
        differ = sum(a != b for a, b in zip(answers[spec], reference)) if reference is not None else 0
        bad += missing + differ
        ratio = f"{per[spec] / per['tdoku']:,.1f}x" if tdoku is not None else "-"
        agree = f"{len(puzzles) - differ}/{len(puzzles)}" if reference is not None else f"{len(puzzles) - missing} solved"
        rows.append(f"| {name} | {len(puzzles)} | {tdoku_cell} | `{spec}` | {per[spec]:,.1f} | {ratio} | {agree} |")
    return rows, bad


def no_tdoku(name: str, puzzles: Sequence[Puzzle], specs: Sequence[str], repeats: int,
             time_limit: float) -> tuple[list[str], int]:
    """The table rows of a set tdoku cannot take: µs per puzzle (median of the repeats' CPU
    time over the set), the median and the slowest puzzle's `Result.time` (of the last repeat);
    and how many were not solved."""
    rows, bad = [], 0
    for spec in specs:
        solved_all(spec, puzzles[:WARM], time_limit)()
        times: list[float] = []
        results: list[kakuro.Result] = []
        for _ in range(repeats):
            seconds, results = cpu(solved_all(spec, puzzles, time_limit))
            times.append(seconds)
        each = [r.time for r in results]
        unsolved = sum(not r.solved for r in results)
        bad += unsolved
        per = statistics.median(times) / len(puzzles) * 1e6
        rows.append(f"| {name} | {len(puzzles)} | `{spec}` | {per:,.1f} | {statistics.median(each) * 1e6:,.0f} | "
                    f"{max(each) * 1e6:,.0f} | {len(puzzles) - unsolved} |")
    return rows, bad


GENERATED: dict[str, Callable[[int], Puzzle]] = {
    "9x9": lambda s: unique_sudoku(9, seed=s),
    "16x16": lambda s: unique_sudoku(16, seed=s),
    "25x25": lambda s: unique_sudoku(25, seed=s, empty=0.5),
    "killer 9x9": lambda s: unique_killer(9, seed=s, largest=KILLER_LARGEST),
    "jigsaw 9x9": lambda s: unique_jigsaw(9, seed=s),
    "sudoku x 9x9": lambda s: unique_sudoku(9, seed=s, diagonals=True),
}
"""How each generated set is made from a seed: minimal unique puzzles (every given needed), but
for the 25x25 (half its cells empty: emptying more while the count stays 1 takes minutes a
puzzle) and the Killer (cages of at most KILLER_LARGEST cells)."""


QUICK_GENERATED: dict[str, Callable[[int], Puzzle]] = {
    "16x16": lambda s: unique_sudoku(16, seed=s, empty=0.3),
    "25x25": lambda s: unique_sudoku(25, seed=s, empty=0.2),
}
"""`--quick`'s big puzzles: unique, with fewer cells emptied (a minimal 16x16 and the half-empty
25x25 take a second or more each to make)."""


def generated(kind: str, count: int, seed: int, quick: bool = False) -> list[Puzzle]:
    """`count` generated unique puzzles of `kind` (seeds `seed`, `seed` + 1, ...), as `--quick`
    makes them when `quick`."""
    make = QUICK_GENERATED.get(kind, GENERATED[kind]) if quick else GENERATED[kind]
    return [make(seed + k) for k in range(count)]


def published_killers(path: Path) -> list[Puzzle]:
    """The Killer Sudokus of `path` (any format `kakuro.read` detects); KakuroError naming the
    file (and line and column) when it cannot be read or holds a puzzle that is no Killer."""
    puzzles = kakuro.read(path)
    other = next((k for k, p in enumerate(puzzles) if p.kind not in KILLER_KINDS), None)
    if other is not None:
        raise kakuro.KakuroError(f"{path}: puzzle {other + 1} is a {puzzles[other].kind}, not a Killer Sudoku")
    return puzzles


def sampled(name: str, items: list[T], sample: int | None) -> tuple[str, list[T]]:
    """`sample` items drawn from `items` (seed 1) and the set's name saying so; all of them
    when `sample` is None or not smaller."""
    if sample is None or len(items) <= sample:
        return name, items
    return f"{name} (sample of {sample})", random.Random(1).sample(items, sample)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tdoku", type=Path, metavar="LIB", help="tdoku's shared library (libtdoku_shared.so)")
    parser.add_argument("--puzzles", type=Path, action="append", default=[], metavar="FILE",
                        help="a file of 9x9 puzzles, one a line (repeatable: one set each)")
    parser.add_argument("--killers", type=Path, action="append", default=[], metavar="FILE",
                        help="a file of published Killer Sudokus (any format kakuro.read detects; repeatable: a row each)")
    parser.add_argument("--sample", type=int, metavar="N", help="N puzzles drawn from each file (seed 1), not all")
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: a few generated puzzles (the big "
                                                             "ones not minimal), 1 repeat")
    parser.add_argument("--backends", metavar="SPECS", help=f"comma-separated specs (default {','.join(BACKENDS)})")
    parser.add_argument("--repeats", type=int, metavar="N", help="passes over each set, the median counted (default 5)")
    parser.add_argument("--big", type=int, metavar="N",
                        help=f"generated unique 16x16 and 25x25 puzzles each (default {BIG}, with --quick 1)")
    parser.add_argument("--family", type=int, metavar="N",
                        help=f"generated unique 9x9 Killers, Jigsaws and Sudoku X each (default {FAMILY}, with --quick 2)")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S", help="seconds per puzzle (default 60)")
    args = parser.parse_args(argv)
    args.repeats = args.repeats or (1 if args.quick else 5)
    args.big = args.big if args.big is not None else (1 if args.quick else BIG)
    args.family = args.family if args.family is not None else (2 if args.quick else FAMILY)
    if args.repeats < 1 or args.big < 0 or args.family < 0 or (args.sample is not None and args.sample < 1) \
            or args.time_limit <= 0:
        parser.error("--repeats, --sample and --time-limit must be positive, --big and --family not negative")
    return args


def other_sets(args: argparse.Namespace, specs: Sequence[str],
               killers: list[list[Puzzle]]) -> list[tuple[str, list[Puzzle], Sequence[str]]]:
    """The sets without tdoku: (name, puzzles, backends), the published Killers of each file of
    `args.killers` (`killers`, read) and the generated sets, made here."""
    out: list[tuple[str, list[Puzzle], Sequence[str]]] = [
        (*sampled(f"published Killers: {path.name}", puzzles, args.sample), specs)
        for path, puzzles in zip(args.killers, killers)]
    out += [(kind, generated(kind, args.big, 0, args.quick), BIG_BACKENDS) for kind in ("16x16", "25x25") if args.big]
    out += [(kind, generated(kind, args.family, 0), specs) for kind in ("killer 9x9", "jigsaw 9x9", "sudoku x 9x9")
            if args.family]
    return out


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    specs = [s for s in (args.backends.split(",") if args.backends else QUICK_BACKENDS if args.quick else BACKENDS) if s]
    try:
        for spec in specs:
            kakuro.get_solver(spec)
        sets = [sampled(path.name, read_lines(path), args.sample) for path in args.puzzles]
        killers = [published_killers(path) for path in args.killers]
        tdoku = Tdoku(args.tdoku) if args.tdoku is not None else None
    except (kakuro.KakuroError, BadPuzzleFile, OSError, AttributeError) as exc:
        print(f"sudoku_limit: {exc}", file=sys.stderr)
        return 2
    made = time.process_time()
    if not sets:
        count = 3 if args.quick else 30
        sets = [(f"generated minimal unique 9x9 (seeds 0..{count - 1})",
                 [kakuro.formats.dumps(p, "sudoku").split()[-1] for p in generated("9x9", count, 0)])]
    others = other_sets(args, specs, killers)
    made = time.process_time() - made
    print(f"{args.repeats} pass(es) over each set, CPU time of this process, median; time limit {args.time_limit:g} s "
          f"a puzzle; the generated puzzles took {made:.1f} s CPU to make, not timed\n")
    print("| set | puzzles | tdoku µs/puzzle | backend | µs/puzzle | x tdoku | answers equal to tdoku's |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    bad = 0
    for name, lines in sets:
        rows, wrong = nine_by_nine(name, lines, specs, tdoku, args.repeats, args.time_limit)
        bad += wrong
        print("\n".join(rows), flush=True)
    if others:
        print("\nWithout tdoku (generated unique puzzles from seed 0, and published Killers if given):\n")
        print("| set | puzzles | backend | µs/puzzle | median puzzle µs (Result.time) | slowest puzzle µs | solved |")
        print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
        for kind, puzzles, backends in others:
            rows, wrong = no_tdoku(kind, puzzles, backends, args.repeats, args.time_limit)
            bad += wrong
            print("\n".join(rows), flush=True)
    print(f"\nunsolved, or answers differing from tdoku's: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
