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
They run on the engine's one restart driver (`kakuro.native.montecarlo.play`); the playout,
the random move, the tree moves and the playing of a move are
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
from kakuro.limits import Limits
from kakuro.native.kernels import compile_off_clock
from kakuro.native.montecarlo import play
from kakuro.native.searches import start
from kakuro.native.settings import Flat, Game, Nested, Playing, Sampling, Selection, Strategy, Strength, game_kernel, root_kernel
from kakuro.native.settings import Uct as UctGame
from kakuro.native.state import RNG, SOLVED, State, rng_state, solution_values, stats_of
from kakuro.native_solver import CONSISTENCY, TIME_LIMIT_REACHED, NativeSolver
from kakuro.options import Option
from kakuro.outcome import Outcome, Stat, Status
from kakuro.puzzle import Puzzle
from kakuro.registry import register

STATS = ("samples", "assignments", "restarts", "propagations")
STRATEGY = Option("priority", "playing strategy: priority (always play in a smallest-domain cell, Cazenave's), naive (the chosen "
                              "move only) or max-inference (then every cell left with one value)",
                  choices=tuple(s.value for s in Strategy))
SELECTION = Option("priority", "random move: priority (a value of a smallest-domain cell), values (a uniform free cell "
                               "and value pair) or cells (a uniform free cell, then a value)",
                   choices=tuple(s.value for s in Selection))
PLAYING = {"strategy": STRATEGY, "selection": SELECTION}
COMMON = {"consistency": CONSISTENCY, **PLAYING}


def _finish(st: State, code: int) -> Outcome:
    stats: dict[str, Stat] = dict(stats_of(st, STATS))
    if code == SOLVED:
        return Outcome(Status.SOLVED, solution_values(st), stats)
    return Outcome(Status.UNKNOWN, None, stats, TIME_LIMIT_REACHED, "time")


class MonteCarloSolver(NativeSolver):
    """What the Monte-Carlo backends share: the compiled kernels (warm-up), incompleteness,
    the `consistency`, `strategy` and `selection` options, and a root-propagated state on which
    `_search` plays the backend's game (`game_of`) unless root propagation already decided the
    puzzle."""

    paradigm = "Monte-Carlo"

    complete = False
    options = COMMON

    def game_of(self, settings: Mapping[str, Any]) -> Game:
        """The game a solve with `settings` plays."""
        raise NotImplementedError

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        strength = Strength(settings["consistency"])
        return (root_kernel(strength), game_kernel(self.game_of(settings), strength))

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return self.engine_kernels(settings)[1:]  # the game: compiled when root propagation leaves the puzzle open

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        st, decided = start(puzzle, Strength(opts["consistency"]), limits, seed, STATS)
        if decided is not None:
            return decided.outcome()
        assert st is not None  # start returns no state only with a decision
        deadline = compile_off_clock(self.lazy_kernels(opts), st, limits.deadline)  # before any worker is forked
        return self._search(st, self.game_of(opts), Playing.of(opts), opts, deadline, seed)

    def _search(self, st: State, game: Game, playing: Playing, opts: Mapping[str, Any], deadline: Deadline,
                seed: int) -> Outcome:
        """Play `game` on the root-propagated `st`."""
        return _finish(st, play(st, game, playing))


@register("sampling")
class IterativeSampling(MonteCarloSolver):
    """Iterative sampling: random playouts from the root until one solves the puzzle."""

    description = "iterative sampling: random playouts with forward checking (Cazenave 2010)"

    def game_of(self, settings: Mapping[str, Any]) -> Game:
        return Sampling()


@register("nmcs")
class NestedMonteCarlo(MonteCarloSolver):
    """Nested Monte-Carlo search (level 1 = meta Monte-Carlo), restarted until solved."""

    description = "nested Monte-Carlo search with best-sequence memory (Cazenave 2010)"
    options = {
        "level": Option(2, "nesting level (1 = meta Monte-Carlo)", minimum=1, maximum=5),
        "workers": Option(1, "root parallelism: independent searches in forked "
                             "processes, first solution wins", minimum=1, maximum=64),
        **COMMON,
    }

    def game_of(self, settings: Mapping[str, Any]) -> Game:
        return Nested(settings["level"])

    def _search(self, st: State, game: Game, playing: Playing, opts: Mapping[str, Any], deadline: Deadline,
                seed: int) -> Outcome:
        if opts["workers"] == 1:
            return _finish(st, play(st, game, playing))
        return _root_parallel(st, game, playing, opts["workers"], seed, deadline)


def _nested_worker(st: State, game: Game, playing: Playing, rng: int) -> tuple[int, list[int] | None, dict[str, int | bool]]:
    """One worker of `_root_parallel` (in a forked child holding a copy of the root state)."""
    st.info[RNG] = rng
    code = play(st, game, playing)
    values = solution_values(st) if code == SOLVED else None
    return code, values, stats_of(st, STATS)


def _root_parallel(st: State, game: Game, playing: Playing, workers: int, seed: int, deadline: Deadline) -> Outcome:
    """Root parallelism (Cazenave and Jouandeau 2007): `workers` forked copies of the
    root-propagated state play `game` with different generators (worker 0 with the seed's,
    as a serial run); the first solution wins and the others are killed. Stats add up the
    workers that reported (a killed worker's counters are lost); `workers` is the count."""
    children = [
        isolation.fork_child(_nested_worker,
                             (st, game, playing, rng_state(seed) if i == 0 else rng_state(seed + 1_000_003 * i)))
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
    options = {
        "playouts": Option(10, "random games per candidate move", minimum=1, maximum=1_000_000),
        **COMMON,
    }

    def game_of(self, settings: Mapping[str, Any]) -> Game:
        return Flat(settings["playouts"])


@register("uct")
class Uct(MonteCarloSolver):
    """UCT with a Zobrist-hashed transposition table and a playout budget per move."""

    description = "UCT with a transposition table, N playouts per move (Chan, Renous, Thai 2022)"
    options = {
        "playouts": Option(100, "UCT iterations (playouts) before each move", minimum=1, maximum=10_000_000),
        "c": Option(0.2, "UCB1 exploration constant", minimum=0.0, maximum=100.0),
        **COMMON,
    }

    def game_of(self, settings: Mapping[str, Any]) -> Game:
        return UctGame(settings["playouts"], settings["c"])
