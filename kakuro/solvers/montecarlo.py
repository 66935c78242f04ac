"""Monte-Carlo search on the compiled state (Cazenave 2010, Sect. 2.2-2.4).

- `sampling`: iterative sampling: playouts (smallest-domain cell, random value, propagate)
  from the root until one solves the puzzle or the time limit;
- `nmcs`: nested Monte-Carlo search at `level` (1 = the paper's meta Monte-Carlo), with the
  best-sequence memory of the paper's pseudo code, restarted until solved or the limit;
- `flat`: flat Monte-Carlo (Chan, Renous and Thai 2022): score every move of the current
  position by the best of `playouts` random games after it, play the best, restart on a
  wipe-out;
- `uct`: UCT with exploration constant `c` and `playouts` iterations per move, statistics in a
  Zobrist-hashed transposition table, restarted on a wipe-out.

All are incomplete: they never prove unsatisfiability by search (root propagation may).
They run on the engine's one restart driver (`kakuro.engine.montecarlo`); the playout,
the random move, the tree moves and the playing of a move (`kakuro.engine.playout`) are
shared by every Monte-Carlo algorithm, and so are the options `strategy` (naive | max-inference | priority:
play the chosen move only; then every cell left with one value, repeatedly; always play in the
smallest-domain cell) and `selection` (values | cells | priority: uniform (cell, value) pair;
uniform cell then value; uniform value of a smallest-domain cell). Strategy or selection
`priority` makes every move in the smallest-domain cell (tree nodes branch on its values);
otherwise tree nodes branch on every (free cell, value) pair. The defaults (priority,
priority) are Cazenave's playout.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro import isolation
from kakuro.clock import Deadline
from kakuro.engine import montecarlo as engine
from kakuro.engine.compile import ensure
from kakuro.engine.playout import SELECTIONS, STRATEGIES, configure
from kakuro.engine.state import (
    RNG,
    SOLVED,
    State,
    postpone,
    rng_state,
    solution_values,
    stats_of,
)
from kakuro.limits import Limits
from kakuro.native import CONSISTENCY, TIME_LIMIT_REACHED, NativeSolver, start
from kakuro.options import Option
from kakuro.outcome import Outcome, Stat, Status
from kakuro.puzzle import Puzzle
from kakuro.registry import register

STATS = ("samples", "assignments", "restarts", "propagations")
STRATEGY = Option("priority", "playing strategy: priority (always play in a smallest-domain cell, Cazenave's), naive (the chosen "
                              "move only) or max-inference (then every cell left with one value)", choices=tuple(STRATEGIES))
SELECTION = Option("priority", "random move: priority (a value of a smallest-domain cell), values (a uniform free cell "
                               "and value pair) or cells (a uniform free cell, then a value)", choices=tuple(SELECTIONS))
PLAYING = {"strategy": STRATEGY, "selection": SELECTION}
COMMON = {"consistency": CONSISTENCY, **PLAYING}


def _finish(st: State, code: int) -> Outcome:
    stats: dict[str, Stat] = dict(stats_of(st, STATS))
    if code == SOLVED:
        return Outcome(Status.SOLVED, solution_values(st), stats)
    return Outcome(Status.UNKNOWN, None, stats, TIME_LIMIT_REACHED, "time")


class MonteCarloSolver(NativeSolver):
    """What the Monte-Carlo backends share: the compiled kernels (warm-up), incompleteness,
    the `consistency`, `strategy` and `selection` options, and a root-propagated state handed
    to `_search` unless root propagation already decided the puzzle."""

    paradigm = "Monte-Carlo"

    complete = False
    options = COMMON
    game: str = ""
    """The engine's Monte-Carlo game (`kakuro.engine.montecarlo.ALGORITHMS`)."""

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return (f"root:{settings['consistency']}", f"{self.game}:{settings['consistency']}")

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return self.engine_kernels(settings)[1:]  # the game: compiled when root propagation leaves the puzzle open

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        st, decided = start(puzzle, opts["consistency"], limits, seed, STATS)
        if decided is not None:
            return decided.outcome()
        assert st is not None  # start returns no state only with a decision
        compiling = ensure(*self.lazy_kernels(opts))  # off the clock, before any worker is forked
        postpone(st, compiling)
        configure(st, opts["strategy"], opts["selection"])
        return self._search(st, opts, limits.deadline.later(compiling), seed)

    def _search(self, st: State, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        raise NotImplementedError


@register("sampling")
class IterativeSampling(MonteCarloSolver):
    """Iterative sampling: random playouts from the root until one solves the puzzle."""

    description = "iterative sampling: random playouts with forward checking (Cazenave 2010)"
    game = "sampling"

    def _search(self, st: State, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        return _finish(st, engine.run(st, "sampling"))


@register("nmcs")
class NestedMonteCarlo(MonteCarloSolver):
    """Nested Monte-Carlo search (level 1 = meta Monte-Carlo), restarted until solved."""

    description = "nested Monte-Carlo search with best-sequence memory (Cazenave 2010)"
    game = "nested"
    options = {
        "level": Option(2, "nesting level (1 = meta Monte-Carlo)", minimum=1, maximum=5),
        "workers": Option(1, "root parallelism: independent searches in forked "
                             "processes, first solution wins", minimum=1, maximum=64),
        **COMMON,
    }

    def _search(self, st: State, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        if opts["workers"] == 1:
            return _finish(st, engine.run(st, "nested", level=opts["level"]))
        return _root_parallel(st, opts["level"], opts["workers"], seed, deadline)


def _nested_worker(st: State, level: int, rng: int) -> tuple[int, list[int] | None, dict[str, int | bool]]:
    """One worker of `_root_parallel` (in a forked child holding a copy of the root state)."""
    st.info[RNG] = rng
    code = engine.run(st, "nested", level=level)
    values = solution_values(st) if code == SOLVED else None
    return code, values, stats_of(st, STATS)


def _root_parallel(st: State, level: int, workers: int, seed: int, deadline: Deadline) -> Outcome:
    """Root parallelism (Cazenave and Jouandeau 2007): `workers` forked copies of the
    root-propagated state run `nested` with different generators (worker 0 with the seed's,
    as a serial run); the first solution wins and the others are killed. Stats add up the
    workers that reported (a killed worker's counters are lost); `workers` is the count."""
    children = [
        isolation.fork_child(_nested_worker, (st, level, rng_state(seed) if i == 0 else rng_state(seed + 1_000_003 * i)))
        for i in range(workers)
    ]
    totals: dict[str, Stat] = {}
    solution = None
    straggling = deadline.later(0.05)  # they stop themselves at the deadline
    for _, (code, values, stats) in isolation.answers(children, straggling):
        for key, value in stats.items():
            totals[key] = value if isinstance(value, bool) else int(totals.get(key, 0)) + value
        if code == SOLVED:
            solution = values
            break
    if not totals:
        totals = dict(stats_of(st, STATS))
    totals["workers"] = workers
    if solution is not None:
        return Outcome(Status.SOLVED, solution, totals)
    return Outcome(Status.UNKNOWN, None, totals, TIME_LIMIT_REACHED, "time")


@register("flat")
class FlatMonteCarlo(MonteCarloSolver):
    """Flat Monte-Carlo: each move of the position scored by `playouts` random games."""

    description = "flat Monte-Carlo: best move by the best of N playouts (Chan, Renous, Thai 2022)"
    game = "flat"
    options = {
        "playouts": Option(10, "random games per candidate move", minimum=1, maximum=1_000_000),
        **COMMON,
    }

    def _search(self, st: State, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        return _finish(st, engine.run(st, "flat", playouts=opts["playouts"]))


@register("uct")
class Uct(MonteCarloSolver):
    """UCT with a Zobrist-hashed transposition table and a playout budget per move."""

    description = "UCT with a transposition table, N playouts per move (Chan, Renous, Thai 2022)"
    game = "uct"
    options = {
        "playouts": Option(100, "UCT iterations (playouts) before each move", minimum=1, maximum=10_000_000),
        "c": Option(0.2, "UCB1 exploration constant", minimum=0.0, maximum=100.0),
        **COMMON,
    }

    def _search(self, st: State, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        return _finish(st, engine.run(st, "uct", playouts=opts["playouts"], c=opts["c"]))
