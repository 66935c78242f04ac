"""Backend `asp`: answer-set programming with clingo (Potassco's grounder and solver, the `clingo`
Python package). Kakuro is a textbook ASP example; this backend writes the puzzle as facts, adds one
of two encodings, grounds and solves.

Models (option `model`); both choose one value per cell, `1 { x(C,V) : val(V) } 1`, and forbid a
value twice in a run (`:- run(R), val(V), 2 { x(C,V) : in(R,C) }`):

- `combinations` (default): the run combinations of `kakuro.combos.run_combinations` (those that hold
  the run's givens) as facts `comb(R,K,V)`; a choice rule picks one combination per run, every cell
  takes a value of the chosen combination of each of its runs, every value of a chosen combination is
  used, and a cell's candidates are the values some combination of each of its runs holds. The
  sum is implied by the tables. A run whose table would exceed `MAX_RUN_COMBINATIONS` (the wide
  value ranges of Cazenave grids) keeps the `#sum` of the aggregate model instead (stat `sum_runs`),
  so the model works for every puzzle.
- `aggregate`: a `#sum` aggregate per run, `:- total(R,T), #sum { V,C : in(R,C), x(C,V) } != T`. The
  textbook encoding; no tables, so it works for any range.

Solutions are enumerated by clingo itself (`models=limit`): answer sets are distinct and the other
atoms are functions of `x`, so distinct answer sets are distinct fillings.

Time limits and Ctrl-C: the solve runs asynchronously (`solve(async_=True)`) and the caller's thread
waits on it in slices (`kakuro.isolation.WAIT_SLICE`), cancelling it at the deadline or when the
caller's SIGINT handler raises (clingo stops within milliseconds); a cancelled search is UNKNOWN, never
UNSATISFIABLE. Writing the facts checks the deadline every `BUILD_CHECK_EVERY` runs. Grounding is
one call that neither a deadline nor Ctrl-C stops: a program estimated to ground in more than
`IN_PROCESS_GROUNDING` seconds (`grounding_seconds`, from its length and its runs' cells and
values) is grounded and solved in a forked child (`kakuro.isolation`) that streams back what it
finds and is killed `GRACE` after the deadline or on Ctrl-C. Measured before: a loose 100x100 grid
grounded for 3 s past a 1 s limit, ignoring Ctrl-C meanwhile.

Stats: `num_vars` and `num_constraints` are the atoms and rules of the ground program (clingo's
`problem.lp` statistics), `decisions` and `conflicts` clasp's choices and conflicts, `build_time`
writing and grounding the program, and `sum_runs` (combinations model) the runs that kept `#sum`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.combos import run_combinations_up_to, values_of
from kakuro.isolation import stream_with_deadline, wait_slice
from kakuro.limits import Limits
from kakuro.options import Option, seed_below
from kakuro.outcome import Enumeration, Stat
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.solver import EnumeratingSolver

MODELS = ("combinations", "aggregate")
MAX_RUN_COMBINATIONS = 5_000
"""Largest table of one run that the combinations model writes as facts; a larger run keeps a
`#sum` aggregate (a free 16-cell run over 1..17 has 17 combinations, a 10-cell run over 1..30
tens of thousands)."""
BUILD_CHECK_EVERY = 64
"""Runs written between two looks at the deadline."""
SEED_BITS = 31
"""clasp's `--seed` is a 32-bit signed integer: larger seeds are folded into it."""

COMMON = """
1 { x(C,V) : val(V), cand(C,V) } 1 :- cell(C).
x(C,V) :- given(C,V).
:- run(R), val(V), 2 { x(C,V) : in(R,C) }.
:- total(R,T), #sum { V,C : in(R,C), x(C,V) } != T.
#show x/2.
"""
"""Both models: one value per cell, all different in a run, the `#sum` of every run given a
`total` fact (all runs in the aggregate model, the untabulated ones in the combinations model)."""

COMBINATIONS = """
has(R,V) :- comb(R,_,V).
cand(C,V) :- cell(C), val(V), has(R,V) : in(R,C), tab(R).
1 { pick(R,K) : comb(R,K,_) } 1 :- tab(R).
chosen(R,V) :- pick(R,K), comb(R,K,V).
used(R,V) :- in(R,C), x(C,V).
:- tab(R), in(R,C), x(C,V), not chosen(R,V).
:- chosen(R,V), not used(R,V).
"""

AGGREGATE = """
cand(C,V) :- cell(C), val(V).
"""


def build_program(puzzle: Puzzle, model: str, deadline: Deadline | None = None) -> tuple[str, int] | None:
    """The ASP program of `puzzle` (facts and rules) and how many runs kept a `#sum`; None when
    `deadline` passes while writing it."""
    deadline = deadline or Deadline()
    lo, hi = puzzle.values
    parts = [f"val({lo}..{hi}).", f"cell(0..{puzzle.size - 1})." if puzzle.size else ""]
    parts += [f"given({c},{v})." for c, v in puzzle.givens.items()]
    sums = 0
    for r, run in enumerate(puzzle.groups):
        if r % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        parts.append(f"run({r}).")
        parts.append(" ".join(f"in({r},{c})." for c in run.cells))
        table = run_combinations_up_to(puzzle, run, MAX_RUN_COMBINATIONS) if model == "combinations" else None
        if table is not None:
            parts.append(f"tab({r}).")
            for k, mask in enumerate(table):
                parts.append(" ".join(f"comb({r},{k},{v})." for v in values_of(mask)))
        else:
            parts.append(f"total({r},{run.total}).")
            sums += 1
    parts.append(COMMON)
    parts.append(COMBINATIONS if model == "combinations" else AGGREGATE)
    return "\n".join(parts), sums


def _statistics(ctl: Any) -> dict[str, Stat]:
    stats: dict[str, Stat] = {}
    raw = ctl.statistics
    try:
        lp = raw["problem"]["lp"]
        stats["num_vars"] = int(lp["atoms"])
        stats["num_constraints"] = int(lp["rules"])
    except (KeyError, TypeError):
        pass
    try:
        solvers = raw["solving"]["solvers"]
        stats["decisions"] = int(solvers["choices"])
        stats["conflicts"] = int(solvers["conflicts"])
    except (KeyError, TypeError):
        pass
    return stats


GROUND_SECONDS_PER_CHARACTER, GROUND_SECONDS_PER_CELL_VALUE = 1e-6, 15e-6
"""clingo's grounding time, per character of the program and per cell and value of each run
(measured: a loose 100x100 grid, 1.7 million characters and 124,000 cells and values of runs,
3.0-3.5 s; an empty 30x30 grid over 1..31, 49,000 and 56,000, 0.8-1.2 s; a janko puzzle 8 ms)."""
IN_PROCESS_GROUNDING = 0.25
"""A program estimated to ground in longer than this many seconds is grounded and solved in a
forked child: clingo's `ground` is one call that neither a deadline nor Ctrl-C stops."""
GRACE = 0.5
"""Seconds past the deadline the parent waits for such a child (clingo cancels its own search at
the deadline) before it kills it."""


def grounding_seconds(puzzle: Puzzle, program: str) -> float:
    """An estimate of the seconds clingo takes to ground `program`, the program of `puzzle`."""
    lo, hi = puzzle.values
    cell_values = sum(len(run) for run in puzzle.groups) * (hi - lo + 1)
    return len(program) * GROUND_SECONDS_PER_CHARACTER + cell_values * GROUND_SECONDS_PER_CELL_VALUE


def enumerate_answer_sets(puzzle: Puzzle, model: str, limit: int, deadline: Deadline, seed: int) -> Enumeration:
    """Up to `limit` solutions of `puzzle` under the ASP `model`, clingo enumerating its answer
    sets; cancelled at `deadline` or when the caller's SIGINT handler raises. A program too large
    to ground within `IN_PROCESS_GROUNDING` is grounded and solved in a child, killed `GRACE`
    after `deadline` or on Ctrl-C (the answer sets it found are kept)."""
    started = time.perf_counter()
    built = build_program(puzzle, model, deadline)
    if built is None:
        return Enumeration([], False, {}, "time limit reached while writing the program")
    program, sums = built
    stats: dict[str, Stat] = {"sum_runs": sums} if model == "combinations" else {}
    run = (puzzle, program, limit, deadline, seed, started)
    if grounding_seconds(puzzle, program) <= IN_PROCESS_GROUNDING:
        return _enumeration(answer_set_items(*run), stats, limit)
    items, _ = stream_with_deadline(answer_set_items, *run, deadline=deadline.later(GRACE))
    return _enumeration(items, stats, limit)


def answer_set_items(puzzle: Puzzle, program: str, limit: int, deadline: Deadline, seed: int, started: float
                     ) -> Iterator[tuple[str, Any]]:
    """Ground `program` (of `puzzle`) and enumerate up to `limit` answer sets, yielding
    ("stats", ...) once grounded (`build_time` from `started`), ("solution", values) for each
    answer set as it is found, then ("stats", clingo's counters) and ("end", (exhausted, why it
    stopped when it did not finish)) when the search ends, by itself or cancelled at `deadline` or
    by the caller's SIGINT handler."""
    import clingo

    ctl = clingo.Control([f"--seed={seed_below(seed, SEED_BITS)}", f"--models={limit}"], logger=_quiet)
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    yield "stats", {"build_time": time.perf_counter() - started}
    if deadline.expired():
        yield "end", (False, "time limit reached while grounding")
        return
    found: list[list[int]] = []
    size, lo = puzzle.size, puzzle.values[0]

    def on_model(answer: Any) -> None:
        values = [lo] * size
        for symbol in answer.symbols(shown=True):
            cell, value = symbol.arguments
            values[cell.number] = value.number
        found.append(values)

    sent = 0
    with ctl.solve(on_model=on_model, async_=True) as handle:
        try:
            while not handle.wait(wait_slice(deadline)):
                yield from (("solution", values) for values in found[sent:])
                sent = len(found)
                if deadline.expired():
                    handle.cancel()
                    break
        except BaseException:  # Ctrl-C (or whatever the caller's handler raised): stop clingo first
            handle.cancel()
            raise
        result = handle.get()
    yield from (("solution", values) for values in found[sent:])
    yield "stats", _statistics(ctl)
    yield "end", (bool(result.exhausted) and not result.interrupted, "time limit reached")


def _enumeration(items: Iterable[tuple[str, Any]], stats: dict[str, Stat], limit: int) -> Enumeration:
    """The Enumeration of `answer_set_items`' items; without their end, the child was killed at
    the deadline: while grounding when it never reported its grounding."""
    solutions: list[list[int]] = []
    exhausted, message = False, "time limit reached while grounding"
    for kind, payload in items:
        if kind == "stats":
            stats.update(payload)
            message = "time limit reached"
        elif kind == "solution":
            solutions.append(payload)
        else:
            exhausted, message = payload
    finished = exhausted or len(solutions) >= limit
    return Enumeration(solutions[:limit], exhausted and len(solutions) < limit, stats, "" if finished else message)


def _quiet(code: Any, message: str) -> None:
    """clingo's warnings (an atom never defined, e.g. `given/2` in a puzzle without givens) are
    expected here: not printed."""


@register("asp")
class Asp(EnumeratingSolver):
    """Answer-set programming with clingo: run combinations as facts, or `#sum` aggregates."""

    description = "clingo answer-set programming; run combinations as facts or #sum aggregates"
    paradigm = "ASP"
    complete = True
    engine = Engine("clingo", pip="clingo")
    options = {
        "model": Option("combinations", "how each run is modelled", choices=MODELS),
    }

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        return enumerate_answer_sets(puzzle, opts["model"], limit, limits.deadline, seed)
