"""Backend `smt`: satisfiability modulo theories with Z3 (the `z3-solver` package).

Models (option `model`):

- `integer` (default): an `Int` per cell bounded by the puzzle's values (a given is equal to its
  digit), `Distinct` over each run and its sum equal to the clue: linear integer arithmetic.
- `onehot`: a `Bool` per cell and value, exactly one per cell (`PbEq`), each value at most once per
  run (`AtMost`) and each run's sum a pseudo-Boolean equality (`PbEq` weighted by the values):
  Z3's pseudo-Boolean reasoning on the SAT encoding of the `sat` backend's `pb` flavour.

Solutions are counted with blocking clauses (a clause that some cell differs from the solution
just found), the solver kept between them (incremental).

Time limits and Ctrl-C: each check runs in a helper thread of a context of its own (`z3.Context`),
with Z3's `timeout` set to the time left; the caller's thread waits in slices (`kakuro.isolation.call_interruptibly`) and
calls `Context.interrupt()` at the deadline or when its SIGINT handler raises; the interrupt is
repeated until the check returns, since one that comes before the check starts is lost. Z3's own
SIGINT handler, which it installs for the time of a check and which answers "unknown" and swallows
the Ctrl-C, is off (parameter `ctrl_c`). An interrupted or timed-out check is UNKNOWN, never
UNSATISFIABLE. Measured on `hard_for_gac(12)`: Z3 stops 0.01 to 0.7 s after the interrupt (it
looks at its cancel flag rarely in some phases of arithmetic). A forked child killed at once
(`kakuro.isolation`) was tried and dropped: a fork costs 25 to 40 ms here from a process holding
the shared puzzles, and the child then ran each janko puzzle 8 times slower (median 12 -> 98 ms).
Building the model checks the deadline every `BUILD_CHECK_EVERY` cells and runs.

Stats: `num_vars` (the Ints or Bools made), `num_constraints` (assertions, blocking clauses
excluded), Z3's `conflicts`, `decisions` and `propagations`, `build_time`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.combos import given_domains, range_mask, run_table_sizes, values_of
from kakuro.isolation import call_interruptibly
from kakuro.limits import Limits
from kakuro.options import Option, seed_below
from kakuro.outcome import Enumeration, Stat
from kakuro.puzzle import Puzzle
from kakuro.reasoning.rdv import reduce_domains
from kakuro.registry import register
from kakuro.solver import EnumeratingSolver

MODELS = ("integer", "onehot")
DOMAINS = ("rdv", "bounds")
MAX_RDV_COMBINATIONS = 200_000
"""Most run combinations (all runs together) that `domains=rdv` lists for the domain reduction; a
puzzle with more (wide value ranges) starts from its bounds: listing 5.6 million combinations of
a 12-cell run over 1..40 took 1.4 s, the search on the bounds 0.04 s."""
BUILD_CHECK_EVERY = 64
"""Cells or runs added to a model between two looks at the deadline."""
SEED_BITS = 31
"""Z3's `random_seed` is an unsigned 32-bit parameter: seeds are folded below 2**31."""
Z3_STATS = ("conflicts", "decisions", "propagations")
"""Z3's counters reported under the same names in the stats."""


@dataclass
class Model:
    """A Z3 solver holding the puzzle, and how to read a solution and block it."""

    solver: Any
    decode: Callable[[Any], list[int]]
    block: Callable[[list[int]], Any]
    sizes: dict[str, Stat]


def build_model(
    puzzle: Puzzle, kind: str, ctx: Any, deadline: Deadline | None = None, domains: str = "rdv"
) -> Model | None:
    """The Z3 model `kind` of `puzzle` in context `ctx`, its cells restricted to the `domains`
    (`initial_domains`); None when `deadline` passes while building. The model is written as
    SMT-LIB text and parsed by Z3 (`from_string`): about ten times faster than building the
    same terms through z3py's Python objects."""
    import z3

    deadline = deadline or Deadline()
    started = time.perf_counter()
    masks = initial_domains(puzzle, domains, deadline)
    if masks is None:
        return None
    writer = _integer if kind == "integer" else _onehot
    written = writer(puzzle, masks, deadline)
    if written is None:
        return None
    text, num_vars, constraints = written
    solver = z3.Solver(ctx=ctx)
    solver.from_string(text)
    lo, hi = puzzle.values
    if kind == "integer":
        cells = [z3.Int(f"x{i}", ctx) for i in range(puzzle.size)]

        def decode(model: Any) -> list[int]:
            return [model.eval(x, model_completion=True).as_long() for x in cells]

        def block(values: list[int]) -> Any:
            return z3.Or([x != v for x, v in zip(cells, values)])
    else:
        bits = [{v: z3.Bool(f"b{i}_{v}", ctx) for v in range(lo, hi + 1)} for i in range(puzzle.size)]

        def decode(model: Any) -> list[int]:
            values = []
            for row in bits:
                chosen = [v for v, b in row.items() if z3.is_true(model.eval(b, model_completion=True))]
                values.append(chosen[0] if len(chosen) == 1 else lo - 1)  # never a digit: the checker says so
            return values

        def block(values: list[int]) -> Any:
            return z3.Or([z3.Not(row[v]) for row, v in zip(bits, values) if v in row])

    sizes: dict[str, Stat] = {"num_vars": num_vars, "num_constraints": constraints,
                              "build_time": time.perf_counter() - started}
    return Model(solver, decode, block, sizes)


def initial_domains(puzzle: Puzzle, domains: str, deadline: Deadline) -> list[int] | None:
    """Each cell's values (bitmasks, cell order) the model starts from: `bounds`, the puzzle's
    range (a given's digit); `rdv`, the Reducing Domain Values pass (`kakuro.reasoning.rdv`: sound,
    cheap, as cpsat's table model starts from), or the bounds when the puzzle's range is too wide
    to tabulate its runs. None when `deadline` passes first. A wipe-out leaves a cell no value."""
    bounds = given_domains(puzzle)
    if domains == "bounds":
        return bounds
    if sum(run_table_sizes(puzzle)) > MAX_RDV_COMBINATIONS:
        return bounds  # counted, not listed: listing them would take longer than the search
    reduction = reduce_domains(puzzle, deadline)  # (each run's table is below MAX_COMBINATIONS: counted above)
    if reduction.stopped:
        return None
    if reduction.wiped_out:
        return [0] * puzzle.size
    return list(reduction.domains)


def _integer(puzzle: Puzzle, domains: list[int], deadline: Deadline) -> tuple[str, int, int] | None:
    """The integer model as SMT-LIB text, its variables and assertions: the bounds when a cell
    may take every value, else its values as a disjunction."""
    lo, hi = puzzle.values
    full = range_mask(puzzle.values)
    lines = []
    for i, mask in enumerate(domains):
        if i % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        lines.append(f"(declare-const x{i} Int)")
        if mask == full:
            lines.append(f"(assert (and (>= x{i} {lo}) (<= x{i} {hi})))")
        else:
            values = values_of(mask)
            bounded = f"(>= x{i} {values[0]}) (<= x{i} {values[-1]})" if values else "false"
            holes = len(values) < values[-1] - values[0] + 1 if values else False
            either = f" (or {' '.join(f'(= x{i} {v})' for v in values)})" if holes else ""
            lines.append(f"(assert (and {bounded}{either}))")
    constraints = puzzle.size
    for number, run in enumerate(puzzle.groups):
        if number % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        members = " ".join(f"x{i}" for i in run.cells)
        if len(run.cells) > 1:
            lines.append(f"(assert (distinct {members}))")
            constraints += 1
        lines.append(f"(assert (= (+ {members}) {run.total}))")
        constraints += 1
    return "\n".join(lines), puzzle.size, constraints


def _onehot(puzzle: Puzzle, domains: list[int], deadline: Deadline) -> tuple[str, int, int] | None:
    """The one-hot model as SMT-LIB text (`pbeq` and `at-most` are Z3's pseudo-Boolean
    functions), its variables and assertions; a value outside a cell's domain is a false bit."""
    lo, hi = puzzle.values
    span = range(lo, hi + 1)
    ones = " ".join("1" for _ in span)
    lines = []
    constraints = 0
    for i in range(puzzle.size):
        if i % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        lines.append(" ".join(f"(declare-const b{i}_{v} Bool)" for v in span))
        lines.append(f"(assert ((_ pbeq 1 {ones}) {' '.join(f'b{i}_{v}' for v in span)}))")
        excluded = [v for v in span if not domains[i] >> v & 1]
        if excluded:
            lines.append(f"(assert (not (or false {' '.join(f'b{i}_{v}' for v in excluded)})))")
            constraints += 1
    constraints += puzzle.size
    for number, run in enumerate(puzzle.groups):
        if number % BUILD_CHECK_EVERY == 0 and deadline.expired():
            return None
        if len(run.cells) > 1:
            for v in span:
                lines.append(f"(assert ((_ at-most 1) {' '.join(f'b{i}_{v}' for i in run.cells)}))")
            constraints += len(span)
        weighted = [(f"b{i}_{v}", v) for i in run.cells for v in span if v > 0]
        if run.total == 0 or not weighted:  # every weighted bit false (a run of zeros), or a clue nothing reaches
            lines.append(f"(assert (not (or false {' '.join(b for b, _ in weighted)})))" if run.total == 0
                         else "(assert false)")
        else:
            weights = " ".join(str(w) for _, w in weighted)
            lines.append(f"(assert ((_ pbeq {run.total} {weights}) {' '.join(b for b, _ in weighted)}))")
        constraints += 1
    return "\n".join(lines), puzzle.size * len(span), constraints


def check(solver: Any, ctx: Any, deadline: Deadline) -> Any:
    """`solver.check()` with Z3's timeout at the time left, interrupted (`ctx.interrupt()`) at
    `deadline` or when the caller's SIGINT handler raises (`kakuro.isolation.call_interruptibly`;
    the interrupt is repeated until the check returns: one before the check starts is lost)."""
    remaining = deadline.remaining()
    if remaining is not None:
        solver.set("timeout", max(1, int(remaining * 1000)))
    return call_interruptibly(solver.check, ctx.interrupt, deadline, name="z3-check")


def _statistics(solver: Any) -> dict[str, Stat]:
    stats: dict[str, Stat] = {}
    raw = solver.statistics()
    reported = set(raw.keys())
    for key in Z3_STATS:  # a counter Z3 leaves out was never incremented
        stats[key] = int(raw.get_key_value(key)) if key in reported else 0
    return stats


def enumerate_with_z3(
    puzzle: Puzzle, kind: str, limit: int, deadline: Deadline, seed: int, domains: str = "rdv"
) -> Enumeration:
    """Up to `limit` solutions of `puzzle` under the Z3 model `kind` (cells restricted to
    `domains`: see `initial_domains`), with blocking clauses."""
    import z3

    ctx = z3.Context()
    built = build_model(puzzle, kind, ctx, deadline, domains)
    if built is None:
        return Enumeration([], False, {}, "time limit reached while building the model")
    solver = built.solver
    solver.set("random_seed", seed_below(seed, SEED_BITS))
    solver.set("ctrl_c", False)  # Z3 would take SIGINT from the caller for the time of a check, and swallow it
    found: list[list[int]] = []
    exhausted = False
    message = ""
    while len(found) < limit:
        if deadline.expired():
            message = "time limit reached"
            break
        answer = check(solver, ctx, deadline)
        if answer == z3.sat:
            found.append(built.decode(solver.model()))
            solver.add(built.block(found[-1]))
        elif answer == z3.unsat:
            exhausted = True
            break
        else:
            reason = solver.reason_unknown()
            message = "time limit reached" if deadline.expired() or reason in ("timeout", "canceled") else reason
            break
    stats = {**built.sizes, **_statistics(solver)}
    return Enumeration(found, exhausted, stats, message)


@register("smt")
class Smt(EnumeratingSolver):
    """SMT with Z3: integers with Distinct and sums, or one-hot Booleans with pseudo-Boolean sums."""

    description = "Z3 SMT; integer cells with Distinct + sum, or one-hot Booleans with PB sums"
    paradigm = "SMT"
    complete = True
    engine = Engine("z3", pip="z3-solver")
    options = {
        "model": Option("integer", "how cells and runs are modelled", choices=MODELS),
        "domains": Option("rdv", "cell domains the model starts from: the Reducing Domain Values pass, "
                          "or the puzzle's bounds", choices=DOMAINS),
    }

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        return enumerate_with_z3(puzzle, opts["model"], limit, limits.deadline, seed, opts["domains"])
