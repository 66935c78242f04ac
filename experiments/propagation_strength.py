"""How much each level of deterministic reasoning decides without search, and what the
deterministic backends cost, on the five shared sets; and the RDV paper's comparison of the
backtracking variants with RDV by grid size (Panov & Koceski 2013, Figs. 3-5). Issue 5.

Parts (`--parts`, default all three):

- `roots`: the share of puzzles each level decides with no search (every domain one value,
  or a wipe-out): forward checking from the givens (`fc`'s root), CP-SAT's root propagation
  of the decomposition (AllDifferent + sum per run; presolve off, `stop_after_root_propagation`,
  domains read back with `fill_tightened_domains_in_response`), CP-SAT with its presolve
  (default parameters, one worker: solved with 0 branches), the RDV reduction, GAC per run,
  GAC + shaving once, GAC + shaving to a fixpoint;
- `times`: every puzzle of every set solved by each backend in this one process, one after
  the other (warm-up first: JIT, engine import, Choco's tables): solved / unknown counts, the
  wall time of the whole loop (state or model built per puzzle, every answer checked by
  `puzzle.check`), median and slowest backend time. The weak searches (the backtracking
  variants and `fc`, forward checking alone) get a shorter limit (`--short-limit`);
- `figures`: Cazenave-style all-white n x n grids (`kakuro.generate.cazenave`, values
  1..max(9, n), `--holes` percent of the cells empty, 100 = no givens) for n = 4..10, solved by
  the five backtracking variants, RDV alone, RDV + search and GAC. The paper's own grids are
  classic ones with 0-40 % black cells; a generator of classic grids is not available yet.

Usage:

    python experiments/propagation_strength.py --quick                   # the first puzzle of each set, short limits (seconds)
    python experiments/propagation_strength.py --parts roots,times       # every shared puzzle (~45 min)
    python experiments/propagation_strength.py --parts figures           # 10 grids per size (~3 min)

Limits per job: `--time-limit` (5 s; quick 0.2 s) and `--short-limit` for `fc` and the
backtracking variants (0.5 s; quick 0.02 s). `--every N` takes every N-th puzzle of each set
(default 1; quick 1000: the first of each), `--count` the grids per size of `figures` (default 10; quick 1): `--quick`
is a smoke run of every part, level and backend in seconds (it reads only the puzzles it takes,
and Choco's warm-up builds the tables of the runs over 1..7 only). `-o FILE` also writes the tables as
Markdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from outputs import check_new

import kakuro
from kakuro import Puzzle, Status
from kakuro.engine.propagate import root_domains
from kakuro.files import write_new
from kakuro.formats import read_lazily
from kakuro.reasoning.rdv import reduce_domains
from kakuro.reasoning.root import reduce as gac_reduce
from kakuro.solvers.backtrack import VARIANTS

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
QUICK_VALUES = (1, 7)
"""`--quick` warms Choco's table models with the runs over 1..7 only (1..9 takes seconds); the
puzzles build what else they need."""
SETS = ("janko", "simonis_easy", "krazydad", "gecode_nikoli", "ifilot_cx16")
BACKTRACK = tuple(f"backtrack:variant={v}" for v in VARIANTS)
TIMED = (
    "gac",
    "gac:shaving=none",
    "gac:shaving=fixpoint",
    "rdv:consistency=fc",
    "rdv:search=false",
    "fc:consistency=fc,values=random",
    "fc:consistency=gac,values=random",
    "cpsat",
    "cpsat:model=table",
    "cpsat:model=automaton",
    "sat",
    "choco:model=decomposition",
    "choco:model=table",
    "choco:model=regular",
    "choco:model=mdd",
    *BACKTRACK,
)
FIGURE_BACKENDS = (*BACKTRACK, "rdv:search=false", "rdv:consistency=fc", "gac")
SHORT = frozenset((*BACKTRACK, "fc:consistency=fc,values=random"))
"""The weak searches, run with `--short-limit`."""


# --------------------------------------------------------------------- part 1: roots
def decided(domains: Sequence[int] | None) -> bool:
    """A wipe-out (None) or every domain one value."""
    return domains is None or all(d & (d - 1) == 0 for d in domains)


def cpsat_root(puzzle: Puzzle) -> bool:
    """CP-SAT's root propagation of the decomposition decides the puzzle (no presolve)."""
    from ortools.sat.python import cp_model

    from kakuro.solvers.cpsat import build_model

    model, cells, _ = build_model(puzzle, "decomposition")
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.cp_model_presolve = False
    params.stop_after_root_propagation = True
    params.fill_tightened_domains_in_response = True
    params.catch_sigint_signal = False
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return True
    tightened = solver.response_proto.tightened_variables
    if len(tightened) < len(cells):
        return False
    for i in range(len(cells)):
        domain = tightened[i].domain
        if len(domain) != 2 or domain[0] != domain[1]:
            return False
    return True


def cpsat_no_branch(puzzle: Puzzle) -> bool:
    """CP-SAT with default parameters (presolve on, one worker) answers with 0 branches."""
    result = kakuro.solve(puzzle, "cpsat", seed=0)
    return result.status in (Status.SOLVED, Status.UNSATISFIABLE) and result.stats.get("branches") == 0


def gac_level(shaving: str) -> Callable[[Puzzle], bool]:
    def level(puzzle: Puzzle) -> bool:
        r = gac_reduce(puzzle, shaving)
        return r.wiped_out or r.solved

    return level


LEVELS: dict[str, Callable[[Puzzle], bool]] = {
    "forward checking (fc root)": lambda p: decided(root_domains(p, "fc")),
    "CP-SAT root propagation, decomposition": cpsat_root,
    "CP-SAT presolve + root (0 branches)": cpsat_no_branch,
    "RDV reduction": lambda p: (lambda r: r.wiped_out or r.solved)(reduce_domains(p)),
    "GAC per run": gac_level("none"),
    "GAC + shaving once": gac_level("once"),
    "GAC + shaving fixpoint": gac_level("fixpoint"),
}


def roots(puzzles: dict[str, list[Puzzle]]) -> list[str]:
    kakuro.get_solver("gac").ensure_warm()
    kakuro.get_solver("cpsat").ensure_warm()
    header = ["level", *(f"{name} ({len(ps)})" for name, ps in puzzles.items()), "all"]
    rows = []
    for label, level in LEVELS.items():
        started = time.perf_counter()
        counts = {name: sum(level(p) for p in ps) for name, ps in puzzles.items()}
        total = sum(len(ps) for ps in puzzles.values())
        cells = [_share(counts[name], len(ps)) for name, ps in puzzles.items()]
        rows.append([label, *cells, _share(sum(counts.values()), total)])
        print(f"  {label}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return _table(header, rows)


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}% ({k})" if n else "-"


# --------------------------------------------------------------------- part 2: times
def warm(spec: str, values: tuple[int, int] = (1, 9)) -> float:
    """Warm `spec` up (for Choco also its tables of the runs over `values`); seconds taken."""
    started = time.perf_counter()
    solver = kakuro.get_solver(spec)
    solver.ensure_warm()
    if solver.name == "choco" and solver.settings["model"] != "decomposition":  # the models with tables
        from kakuro.solvers import choco

        choco.precompile(values, kinds=(solver.settings["model"],))
    return time.perf_counter() - started


def times(puzzles: dict[str, list[Puzzle]], limit: float, short_limit: float, specs: Sequence[str],
          values: tuple[int, int] = (1, 9)) -> list[str]:
    """The time table of `specs`; Choco's models with tables first build those of the runs over `values`."""
    available = {info.name for info in kakuro.backend_info() if info.available}
    summary_rows = []
    detail_rows = []
    for spec in specs:
        if spec.split(":")[0] not in available:
            print(f"  {spec}: not available, skipped", file=sys.stderr)
            continue
        warm_s = warm(spec, values)
        solver = kakuro.get_solver(spec)
        job_limit = short_limit if spec in SHORT else limit
        all_times: list[float] = []
        solved = unknown = other = 0
        wall_total = 0.0
        janko_wall = None
        for name, ps in puzzles.items():
            started = time.perf_counter()
            results = [solver.solve(p, time_limit=job_limit, seed=0) for p in ps]
            wall = time.perf_counter() - started
            wall_total += wall
            if name == "janko":
                janko_wall = wall
            s = sum(r.status is Status.SOLVED for r in results)
            u = sum(r.status is Status.UNKNOWN for r in results)
            o = len(results) - s - u
            solved, unknown, other = solved + s, unknown + u, other + o
            ts = [r.time for r in results]
            all_times += ts
            detail_rows.append(
                [spec, name, f"{s}/{len(ps)}", str(u), str(o), f"{wall:.2f}", f"{1000 * statistics.median(ts):.2f}",
                 f"{max(ts):.2f}"]
            )
        print(f"  {spec}: {wall_total:.1f} s (warm-up {warm_s:.1f} s)", file=sys.stderr, flush=True)
        summary_rows.append(
            [
                spec,
                f"{job_limit:g}",
                f"{solved}/{len(all_times)}",
                str(unknown),
                str(other),
                f"{wall_total:.2f}",
                "-" if janko_wall is None else f"{janko_wall:.2f}",
                f"{1000 * statistics.median(all_times):.2f}",
                f"{max(all_times):.2f}",
            ]
        )
    summary = _table(
        ["backend", "limit s", "solved", "unknown", "other", "wall s", "janko wall s", "median ms", "max s"], summary_rows
    )
    detail = _table(["backend", "set", "solved", "unknown", "other", "wall s", "median ms", "max s"], detail_rows)
    return summary + [""] + detail


# --------------------------------------------------------------------- part 3: figures
def figures(count: int, holes: float, limit: float, short_limit: float, seed: int) -> list[str]:
    from kakuro.generate import cazenave

    for spec in FIGURE_BACKENDS:
        warm(spec)
    header = ["n", *FIGURE_BACKENDS]
    rows = []
    for n in range(4, 11):
        grids = cazenave(n, max(9, n), holes, count=count, seed=seed + n)
        row = [f"{n}x{n}"]
        for spec in FIGURE_BACKENDS:
            job_limit = short_limit if spec in SHORT else limit
            results = [kakuro.solve(p, spec, time_limit=job_limit, seed=0) for p in grids]
            solved = sum(r.solved for r in results)
            mean = sum(r.time for r in results) / len(results)
            row.append(f"{solved}/{len(results)} {1000 * mean:.1f}")
        rows.append(row)
        print(f"  {n}x{n} done", file=sys.stderr, flush=True)
    return _table(header, rows)


# --------------------------------------------------------------------- common
def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def load(sets: Sequence[str], every: int, whole: bool = True) -> tuple[dict[str, list[Puzzle]], dict[str, float]]:
    """Every `every`-th puzzle of each set, and the seconds reading (parsing, validating) took:
    of the whole set, or (not `whole`) of the puzzles taken only."""
    puzzles, seconds = {}, {}
    for name in sets:
        started = time.perf_counter()
        if whole:
            puzzles[name] = kakuro.read(SHARED / f"{name}.jsonl")[::every]
        else:
            lazy = read_lazily(SHARED / f"{name}.jsonl")
            puzzles[name] = [lazy[i] for i in range(0, len(lazy), every)]
        seconds[name] = time.perf_counter() - started
    return puzzles, seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds: the first puzzle of "
                                                             "each shared set, short limits, 1 grid per size")
    parser.add_argument("--parts", default="roots,times,figures", help="comma list of roots, times, figures")
    parser.add_argument("--sets", default=",".join(SETS), help="comma list of shared sets")
    parser.add_argument("--backends", default=None, help="comma list of specs for `times` (default: all)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per job (default 5, quick 0.2)")
    parser.add_argument("--short-limit", type=float, default=None, help="seconds per job of backtrack "
                                                                        "and fc (default 0.5, quick 0.02)")
    parser.add_argument("--count", type=int, default=None, help="grids per size in `figures` (default 10, quick 1)")
    parser.add_argument("--every", type=int, default=None, help="every N-th puzzle of each shared set (default 1, quick 1000)")
    parser.add_argument("--holes", type=float, default=100.0, help="percent of empty cells in `figures` (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output", type=Path, default=None, help="also write the tables (Markdown) to this new file")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown_parts = set(parts) - {"roots", "times", "figures"}
    if unknown_parts:
        parser.error(f"unknown parts: {', '.join(sorted(unknown_parts))}")
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    limit = args.time_limit if args.time_limit is not None else (0.2 if args.quick else 5.0)
    short_limit = args.short_limit if args.short_limit is not None else (0.02 if args.quick else 0.5)
    count = args.count if args.count is not None else (1 if args.quick else 10)
    every = args.every if args.every is not None else (1000 if args.quick else 1)
    if every < 1:
        parser.error("--every takes a positive number")
    check_new(args.output, "-o")
    specs = TIMED if args.backends is None else tuple(s.strip() for s in args.backends.split(","))

    lines = [f"`python experiments/propagation_strength.py {' '.join(argv if argv is not None else sys.argv[1:])}`", ""]
    if "roots" in parts or "times" in parts:
        if not SHARED.is_dir():
            print(f"the shared puzzles are absent: {SHARED} does not exist", file=sys.stderr)
            return 1
        puzzles, read_seconds = load(sets, every, whole=not args.quick)
        read_line = ", ".join(f"{name} {s:.2f} s" for name, s in read_seconds.items())
        lines += [f"Reading the {'puzzles taken' if args.quick else 'whole sets'} (parse and validate): {read_line}.", ""]
    if "roots" in parts:
        print("roots ...", file=sys.stderr)
        lines += ["Decided with no search (share of puzzles):", "", *roots(puzzles), ""]
    if "times" in parts:
        print("times ...", file=sys.stderr)
        lines += [f"Time per backend (limit {limit:g} s per job, {short_limit:g} s for backtrack and fc):", ""]
        lines += [*times(puzzles, limit, short_limit, specs, QUICK_VALUES if args.quick else (1, 9)), ""]
    if "figures" in parts:
        print("figures ...", file=sys.stderr)
        lines += [
            f"Generated all-white grids, values 1..max(9, n), {args.holes:g}% empty, {count} per size: "
            f"solved / mean time per grid (ms, a limit counts as its time; limit {limit:g} s, "
            f"{short_limit:g} s for backtracking):",
            "",
            *figures(count, args.holes, limit, short_limit, args.seed),
            "",
        ]
    text = "\n".join(lines)
    print(text)
    if args.output is not None:
        write_new(args.output, text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
