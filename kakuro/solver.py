"""The `Solver` template every backend implements (a subclass registered with
`@kakuro.register`; the class docstring says what it writes, docs/guide/own-backend.md shows one).

`Solver.solve` is the template method: it validates the options, limits and seed, pays one-time
costs before the clock starts, times `_solve` with the one solving clock on a copy of the
caller's puzzle, holds what it returned to its limits and re-checks any solution with the
caller's `puzzle.check`: a solution the checker rejects is WRONG, never SOLVED. Status handling
lives here (and in `kakuro.outcome`), never in a backend.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from kakuro.availability import Engine
from kakuro.clock import Deadline, Stopwatch
from kakuro.errors import BackendOptionError, UnsupportedOperationError, did_you_mean
from kakuro.isolation import interrupts_kept
from kakuro.limits import Budget, Limits, checked_budget, checked_time_limit
from kakuro.options import Option, solving_seed, spec_value
from kakuro.outcome import (
    CHECK_GRACE,
    Count,
    Enumeration,
    Outcome,
    Result,
    Status,
    as_returned,
    check_solutions,
    checked_enumeration,
    checked_solution,
    counted,
    held,
    held_count,
    rejection,
    timed_call,
)
from kakuro.puzzle import Puzzle
from kakuro.shipped import is_shipped
from kakuro.values import is_integer


class Solver:
    """Base class of every backend; instances hold validated options and are reusable.

    A backend subclasses it, sets the class attributes (`description`, `paradigm`, `complete`,
    `options`: a mapping of names to `kakuro.Option`, `engine`: the `kakuro.Engine` package it
    needs, `supports_seed`, `budgets`: what it counts of a `kakuro.Budget`) and implements

    - `_solve(puzzle, opts, limits, seed) -> kakuro.Outcome`: `opts` the validated options,
      `limits` a `kakuro.Limits` to stop at (`limits.deadline`, a `kakuro.Deadline`, and the
      budgets it declares: UNKNOWN then, `stopped_by` the budget's name), `seed` a
      non-negative int;
    - `_count(puzzle, opts, limit, limits, seed) -> kakuro.Enumeration` when `complete`:
      up to `limit` distinct solutions, `exhausted` when the search finished. A complete
      backend whose one search does both subclasses `EnumeratingSolver` and writes `_count` only;

    then registers with `@kakuro.register("name")`. Callers use `solve` and `count_solutions`,
    which time the call, check every solution with `puzzle.check` and return a `Result` /
    `Count`: a backend never builds those nor decides WRONG or ERROR itself."""

    name: ClassVar[str] = ""
    complete: ClassVar[bool] = False
    """True if the search is exhaustive: it can prove unsatisfiability and count solutions."""
    supports_seed: ClassVar[bool] = True
    supports_time_limit: ClassVar[bool] = True
    engine: ClassVar[Engine | None] = None
    options: ClassVar[Mapping[str, Option]] = MappingProxyType({})
    description: ClassVar[str] = ""
    paradigm: ClassVar[str] = "plug-in"
    """The family of methods it belongs to, as `kakuro backends` and the reports show it
    ("native propagation", "Monte-Carlo", "SAT", "MIP", ...)."""
    budgets: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """The budgets beyond time it honours (names of `kakuro.Budget`: "nodes", "fails"), each
    with the stats key that counts it ("conflicts" for a SAT engine's fails): a run given
    another is refused (`budgets_for` may narrow them by option). Every backend honours time."""

    def __init__(self, **options: Any) -> None:
        self.settings: Mapping[str, Any] = MappingProxyType(self._resolve(options))

    # ----------------------------------------------------------------- public API
    @property
    def spec(self) -> str:
        """The spec string of this solver with its non-default options."""
        return self._spec(self.settings)

    @property
    def full_spec(self) -> str:
        """The spec string with every option, defaults included: exactly this configuration."""
        return self._spec(self.settings, every=True)

    @classmethod
    def _spec(cls, settings: Mapping[str, Any], every: bool = False) -> str:
        changed = [f"{k}={spec_value(v)}" for k, v in settings.items() if every or v != cls.options[k].default]
        return cls.name + (":" + ",".join(changed) if changed else "")

    def solve(
        self,
        puzzle: Puzzle,
        *,
        time_limit: float | None = None,
        seed: int | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> Result:
        """Solve `puzzle` within `time_limit` seconds (None: no limit, refused for an incomplete
        backend) and `budget` (a `kakuro.Budget` of nodes and fails; one the backend does not
        honour is refused); `options` override the instance's. A plug-in works on a copy of
        `puzzle` (`Puzzle.copy`), so `puzzle` is as it was afterwards, whatever the backend did.
        Any returned solution has passed `puzzle.check`; a solution that fails it is WRONG. An
        answer that reports more nodes or fails than its budget is UNKNOWN (no answer within
        it). See `kakuro.solve` for the statuses and stats."""
        settings, limits, seed = self._prepare(puzzle, time_limit, seed, budget, options)
        spec = self._spec(settings)
        given = self._given(puzzle)
        with interrupts_kept():  # a Ctrl-C that lands in an engine object's finalizer is not lost
            outcome, elapsed, error = timed_call(
                lambda: held(self._solve(given, settings, limits, seed), limits, self.budgets_for(settings)))
        if outcome is None:  # a backend bug is an ERROR result, not the caller's crash
            return Result(Status.ERROR, None, elapsed, {}, error, spec)
        stats = MappingProxyType(outcome.stats)
        if outcome.status is Status.WRONG:  # only the checker says WRONG
            return Result(Status.ERROR, None, elapsed, stats, outcome.message or "the backend answered WRONG", spec)
        if outcome.status is not Status.SOLVED:
            return Result(outcome.status, None, elapsed, stats, outcome.message, spec, stopped_by=outcome.stopped_by)
        solution, problems = checked_solution(puzzle, outcome.values)
        if solution is None:
            return Result(Status.WRONG, None, elapsed, stats, rejection(problems), spec, as_returned(outcome.values))
        return Result(Status.SOLVED, solution, elapsed, stats, outcome.message, spec)

    def solve_many(self, puzzles: Iterable[Puzzle], *, time_limit: float | None = None, seed: int | None = None,
                   budget: Budget | None = None, **options: Any) -> Iterator[Result]:
        """The `Result` of each of `puzzles` in order, as `solve` gives it with these arguments
        (limits per puzzle), read and solved lazily; the options and budget are checked once,
        here. A backend may solve many together (`_solve_many`), every answer still checked."""
        solver = copy.copy(self)
        solver.settings = MappingProxyType(self._resolve(options, self.settings))
        return solver._solve_many(puzzles, time_limit, seed, solver.checked_budget(budget))

    def count_solutions(
        self,
        puzzle: Puzzle,
        *,
        limit: int = 2,
        time_limit: float | None = None,
        seed: int | None = None,
        budget: Budget | None = None,
        **options: Any,
    ) -> Count:
        """Find up to `limit` distinct solutions, each checked as `solve` does (a rejected one,
        or one found twice, makes the count WRONG). Complete backends only.

        The count reaches `limit`, or is `exhausted`, or its `message` says why not (the
        backend's reason, else "time limit reached") and `stopped_by` which limit stopped it
        (a count that reports more nodes or fails than its `budget` is not exhausted). Checking
        is bounded by the time limit too, with CHECK_GRACE seconds more: a solution left
        unchecked then is not counted, and the message says how many were."""
        if not self.complete:
            raise UnsupportedOperationError(f"backend {self.name!r} is incomplete and cannot count solutions")
        if not is_integer(limit) or limit < 1:
            raise BackendOptionError(f"limit must be a positive integer, not {limit!r}")
        settings, limits, seed = self._prepare(puzzle, time_limit, seed, budget, options)
        spec = self._spec(settings)
        given = self._given(puzzle)
        watch = Stopwatch()
        with interrupts_kept():  # as in solve
            found, elapsed, error = timed_call(
                lambda: held_count(self._count(given, settings, limit, limits, seed), limits, self.budgets_for(settings), limit))
        if found is None:
            return Count(Status.ERROR, 0, False, (), elapsed, {}, error, spec)
        deadline = limits.deadline.postponed(watch)  # by the one-time costs the backend met
        checked = check_solutions(puzzle, found.solutions[:limit], deadline.later(CHECK_GRACE))
        return counted(found, checked, limit, deadline, elapsed, spec)

    @classmethod
    def needs_time_limit(cls) -> bool:
        """True when a solve might never end on its own (an incomplete search): such a
        backend refuses `time_limit=None`."""
        return not cls.complete

    @classmethod
    def warm_up(cls) -> None:
        """Pay the backend's one-time costs (engine import and start-up) now, outside any timed
        run. `ensure_warm` calls it once per process."""
        if cls.engine is not None:
            cls.engine.version()

    def engine_for(self, settings: Mapping[str, Any]) -> Engine | None:
        """The engine a solve with `settings` needs: the class's `engine`, unless an option
        names it (`dimacs`'s `cmd`: a program); `solve`, `kakuro backends NAME`-style checks and
        compare ask here. Raises nothing: availability is `engine.version()`'s to say."""
        return self.engine

    def prepare_engine(self, settings: Mapping[str, Any], everything: bool = True) -> None:
        """Pay the one-time costs of solving with `settings` that the class's `warm_up` does not
        (native backends compile their kernels: `kakuro.native_solver.NativeSolver`); without
        `everything`, only what every such solve needs before it starts (a solve pays the rest
        when a puzzle needs it, and the clock takes that off its time). Nothing by default."""

    def is_cold(self, settings: Mapping[str, Any] | None = None) -> bool:
        """True when a solve with `settings` (default: this solver's) will first pay a long
        one-time cost (compiling native code after an install or an engine change: seconds),
        so a caller can say what it is doing. False by default."""
        return False

    def ensure_warm(self, settings: Mapping[str, Any] | None = None, everything: bool = True) -> None:
        """Pay every one-time cost of solving with `settings` (default: this solver's) now:
        the class's `warm_up` once per process, then `prepare_engine`. `solve` and
        `count_solutions` call it (without `everything`) before they start the clock, so
        neither `Result.time` nor a time limit counts it."""
        cls = type(self)
        if cls not in _WARM:
            cls.warm_up()
            _WARM.add(cls)
        self.prepare_engine(self.settings if settings is None else settings, everything)

    def budgets_for(self, settings: Mapping[str, Any]) -> Mapping[str, str]:
        """The budgets a solve with `settings` honours: the class's `budgets`, unless an option
        narrows them (`sat`'s solver: Glucose ignores a conflict budget)."""
        return self.budgets

    def checked_budget(self, budget: Budget | None, settings: Mapping[str, Any] | None = None) -> Budget:
        """`budget` (None: no budget) when this backend, with `settings` (default: its own),
        honours every bound it gives; BackendOptionError in one line otherwise."""
        settings = self.settings if settings is None else settings
        return checked_budget(budget, self.budgets_for(settings), self._spec(settings))

    # ----------------------------------------------------------------- for subclasses
    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        raise NotImplementedError

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        raise NotImplementedError

    def _solve_many(self, puzzles: Iterable[Puzzle], time_limit: float | None, seed: int | None,
                    budget: Budget) -> Iterator[Result]:
        """`solve_many`'s work, with this solver's settings: by default one `solve` per puzzle."""
        return (self.solve(puzzle, time_limit=time_limit, seed=seed, budget=budget) for puzzle in puzzles)

    # ----------------------------------------------------------------- internals
    def _given(self, puzzle: Puzzle) -> Puzzle:
        """The puzzle `_solve` and `_count` get: a copy (`Puzzle.copy`), so that what the backend
        does to it cannot change the caller's; the caller's own for a shipped backend."""
        return puzzle if is_shipped(type(self)) else puzzle.copy()

    def _resolve(self, options: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> dict[str, Any]:
        settings = dict(base) if base is not None else {k: o.default for k, o in self.options.items()}
        for key, raw in options.items():
            if key not in self.options:
                accepted = ", ".join(sorted(self.options)) or "none"
                raise BackendOptionError(f"backend {self.name!r} has no option {key!r}{did_you_mean(str(key), self.options)}"
                                         f" (it accepts: {accepted})")
            settings[key] = self.options[key].parse(key, raw)
        return settings

    def _prepare(
        self, puzzle: Puzzle, time_limit: float | None, seed: int | None, budget: Budget | None,
        options: Mapping[str, Any],
    ) -> tuple[dict[str, Any], Limits, int]:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"expected a Puzzle, got {type(puzzle).__name__}; use kakuro.read to load one")
        checked_time_limit(time_limit, self.name, self.needs_time_limit())
        seed = solving_seed(seed)
        settings = self._resolve(options, self.settings)
        budget = self.checked_budget(budget, settings)
        engine = self.engine_for(settings)
        if engine is not None:
            engine.version()
        self.ensure_warm(settings, everything=False)  # compilation and start-up before the clock and the deadline
        return settings, Limits(Deadline.after(time_limit), budget), seed


class EnumeratingSolver(Solver):
    """A complete backend whose one search both solves and counts: it implements `_count`,
    and solving is counting up to one (the status follows from the enumeration here)."""

    complete = True

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return checked_enumeration(self._count(puzzle, opts, 1, limits, seed)).outcome()


_WARM: set[type[Solver]] = set()
"""Backend classes warmed up in this process."""
