"""The `Solver` template every backend implements.

A backend is one module with one class::

    @register("cpsat")
    class CpSat(Solver):
        complete = True
        engine = Engine("ortools", pip="ortools")
        options = {"model": Option("decomposition", choices=("decomposition",))}

        def _solve(self, puzzle, opts, deadline, seed) -> Outcome: ...

`Solver.solve` is the template method: it validates options and limits, times the run with
one clock (`time.perf_counter`), calls `_solve` on a copy of the caller's puzzle
(`Puzzle.copy`: whatever the backend does to it, the caller's puzzle stays as it was; the
shipped backends, which never change it, get the puzzle itself: `is_shipped`), checks what
`_solve` returned (`kakuro.outcome.checked_outcome`: an `Outcome` with a `Status`, a str
message and a mapping of stats, made plain; anything else is an ERROR result saying what it
was), re-checks any solution with the caller's `puzzle.check` and returns a frozen `Result`;
a solution the checker rejects is WRONG, never SOLVED. Unsatisfiability and reached limits
are results; bad input and misuse are exceptions. Status handling lives here, never in a
backend.

Time limits: `time_limit` is in seconds of solving (None: no limit; a limit above
`MAX_TIME_LIMIT`, 23 days, or `inf`, is that long). A complete backend
always ends on its own; an incomplete one (`complete = False`: the Monte-Carlo searches and
harmony search restart until they find a solution and can never prove there is none) is
refused without a limit (BackendOptionError), since it might never return. The command line
always passes one (its default is in `kakuro solve --help`).

Stats vocabulary (a missing key means "not reported", never zero): see `STATS`.

One-time costs are one generic hook: the class's `warm_up` (engine import and start-up) and the
instance's `prepare_engine` (what solving with given settings needs first: the native backends
compile their kernels there, `kakuro.native.NativeEngine`); `is_cold` says whether that
will take long. Whatever a solve pays meanwhile for the first time is taken off its time by the
clock (`kakuro.clock.Stopwatch`).

This module is the home of the template (`Solver`, `EnumeratingSolver`). The names its users
import from it live in modules of their own and stay importable from here: the results
(`kakuro.outcome`), the clock (`kakuro.clock`), options and spec strings (`kakuro.options`),
engine availability (`kakuro.engines`) and the registry (`kakuro.registry`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple, TypeVar, cast

from kakuro.clock import MAX_TIME_LIMIT, Deadline, Stopwatch
from kakuro.engines import PROBE_SECONDS, Engine, import_refused
from kakuro.errors import (
    BackendOptionError,
    InvalidSolutionError,
    KakuroError,
    UnsupportedOperationError,
    did_you_mean,
)
from kakuro.isolation import interrupts_kept
from kakuro.options import (
    KIND_WORDS,
    SEED_BITS,
    Option,
    parse_spec,
    seed_below,
    spec_value,
)
from kakuro.outcome import (
    SHOWN_PROBLEMS,
    STATS,
    BadAnswer,
    Count,
    Enumeration,
    Outcome,
    Result,
    Stat,
    Status,
    checked_enumeration,
    checked_outcome,
    described,
    rejection,
)
from kakuro.puzzle import Puzzle, Solution
from kakuro.values import is_integer, is_number


class Solver:
    """Base class of every backend; instances hold validated options and are reusable.

    A backend subclasses it, sets the class attributes (`description`, `paradigm`, `complete`,
    `options`: a mapping of names to `kakuro.Option`, `engine`: the `kakuro.Engine` package it
    needs, `supports_seed`) and implements

    - `_solve(puzzle, opts, deadline, seed) -> kakuro.Outcome`: `opts` the validated options,
      `deadline` a `kakuro.Deadline` to stop at (UNKNOWN then), `seed` a non-negative int;
    - `_count(puzzle, opts, limit, deadline, seed) -> kakuro.Enumeration` when `complete`:
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
        **options: Any,
    ) -> Result:
        """Solve `puzzle` within `time_limit` seconds (None: no limit, refused for an incomplete
        backend); `options` override the instance's. A plug-in works on a copy of `puzzle`
        (`Puzzle.copy`), so `puzzle` is as it was afterwards, whatever the backend did. Any
        returned solution has passed `puzzle.check`; a solution that fails it is WRONG. See
        `kakuro.solve` for the statuses and stats."""
        settings, deadline, seed = self._prepare(puzzle, time_limit, seed, options)
        spec = self._spec(settings)
        given = self._given(puzzle)
        with interrupts_kept():  # a Ctrl-C that lands in an engine object's finalizer is not lost
            outcome, elapsed, error = _timed(lambda: checked_outcome(self._solve(given, settings, deadline, seed)))
        if outcome is None:  # a backend bug is an ERROR result, not the caller's crash
            return Result(Status.ERROR, None, elapsed, {}, error, spec)
        stats = MappingProxyType(outcome.stats)
        if outcome.status is Status.WRONG:  # only the checker says WRONG
            return Result(Status.ERROR, None, elapsed, stats, outcome.message or "the backend answered WRONG", spec)
        if outcome.status is not Status.SOLVED:
            return Result(outcome.status, None, elapsed, stats, outcome.message, spec)
        solution, problems = _checked(puzzle, outcome.values)
        if solution is None:
            return Result(Status.WRONG, None, elapsed, stats, rejection(problems), spec, _as_returned(outcome.values))
        return Result(Status.SOLVED, solution, elapsed, stats, outcome.message, spec)

    def count_solutions(
        self,
        puzzle: Puzzle,
        *,
        limit: int = 2,
        time_limit: float | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> Count:
        """Find up to `limit` distinct solutions, each checked as `solve` does (a rejected one,
        or one found twice, makes the count WRONG). Complete backends only.

        The count reaches `limit`, or is `exhausted`, or its `message` says why not (the
        backend's reason, else "time limit reached"). Checking is bounded by the time limit
        too, with CHECK_GRACE seconds more: a solution left unchecked then is not counted, and
        the message says how many were."""
        if not self.complete:
            raise UnsupportedOperationError(f"backend {self.name!r} is incomplete and cannot count solutions")
        if not is_integer(limit) or limit < 1:
            raise BackendOptionError(f"limit must be a positive integer, not {limit!r}")
        settings, deadline, seed = self._prepare(puzzle, time_limit, seed, options)
        spec = self._spec(settings)
        given = self._given(puzzle)
        watch = Stopwatch()
        with interrupts_kept():  # as in solve
            found, elapsed, error = _timed(lambda: checked_enumeration(self._count(given, settings, limit, deadline, seed)))
        if found is None:
            return Count(Status.ERROR, 0, False, (), elapsed, {}, error, spec)
        stats = MappingProxyType(dict(found.stats))
        deadline = deadline.postponed(watch)  # by the one-time costs the backend met
        checked = _check_all(puzzle, found.solutions[:limit], deadline.later(CHECK_GRACE))
        if checked.problem:
            return Count(Status.WRONG, 0, False, (), elapsed, stats, checked.problem, spec, checked.rejected)
        solutions = checked.solutions
        exhausted = found.exhausted and not checked.unchecked and len(solutions) < limit
        if solutions:
            status = Status.SOLVED
        elif exhausted:
            status = Status.UNSATISFIABLE
        else:
            status = Status.UNKNOWN
        if checked.unchecked:
            message = (f"{TIME_LIMIT_REACHED} while checking the solutions: {checked.unchecked} found but not "
                       f"checked in time are not counted")
        elif exhausted or len(solutions) >= limit:
            message = found.message
        else:  # stopped early: never without a reason
            message = found.message or (TIME_LIMIT_REACHED if deadline.expired() else UNEXPLAINED_STOP)
        return Count(status, len(solutions), exhausted, tuple(solutions), elapsed, stats, message, spec)

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
        (native backends compile their kernels: `kakuro.native.NativeEngine`); without
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

    # ----------------------------------------------------------------- for subclasses
    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        raise NotImplementedError

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        raise NotImplementedError

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
        self, puzzle: Puzzle, time_limit: float | None, seed: int | None, options: Mapping[str, Any]
    ) -> tuple[dict[str, Any], Deadline, int]:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"expected a Puzzle, got {type(puzzle).__name__}; use kakuro.read to load one")
        if time_limit is not None:
            if not is_number(time_limit) or not time_limit > 0:
                raise BackendOptionError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
        elif self.needs_time_limit():
            raise BackendOptionError(
                f"backend {self.name!r} is incomplete: it searches until it finds a solution and cannot prove "
                "that there is none, so without a limit it might never return; pass time_limit= (seconds; "
                "--time-limit on the command line)"
            )
        if seed is None:
            seed = 0
        if not is_integer(seed) or seed < 0:
            raise BackendOptionError(f"seed must be a non-negative integer or None, not {seed!r}")
        seed = seed_below(seed, SEED_BITS)
        settings = self._resolve(options, self.settings)
        engine = self.engine_for(settings)
        if engine is not None:
            engine.version()
        self.ensure_warm(settings, everything=False)  # compilation and start-up before the clock and the deadline
        return settings, Deadline.after(time_limit), seed


SHIPPED_PACKAGE = "kakuro.solvers"
"""The package of the backends kakuro ships (one module each)."""


def is_shipped(cls: type) -> bool:
    """True for a class of the shipped backends' package (`SHIPPED_PACKAGE`): reviewed code that
    never changes the puzzle it is given (tests/test_contract.py checks every one), so it works on
    the caller's puzzle itself, which is free; any other backend (a plug-in, a subclass of a shipped
    one elsewhere) gets a copy, one new object per group."""
    return cls.__module__.startswith(SHIPPED_PACKAGE + ".")


class EnumeratingSolver(Solver):
    """A complete backend whose one search both solves and counts: it implements `_count`,
    and solving is counting up to one (the status follows from the enumeration here)."""

    complete = True

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        return checked_enumeration(self._count(puzzle, opts, 1, deadline, seed)).outcome()


TIME_LIMIT_REACHED = "time limit reached"
UNEXPLAINED_STOP = "the backend stopped before the limit without saying why"
CHECK_GRACE = 0.5
"""Seconds past the time limit that `count_solutions` goes on checking found solutions
(puzzle.check takes about 35 us per solution of a 6x6 grid, 0.65 ms of a 30x30 one)."""


class _Checked(NamedTuple):
    """`_check_all`'s answer: the solutions that passed, how many were left unchecked at the
    deadline, and the values of the first one rejected (as returned) and why ("": none was)."""

    solutions: list[Solution]
    unchecked: int
    rejected: tuple[Any, ...] | None
    problem: str


def _check_all(oracle: Puzzle, found: Sequence[Sequence[int]], until: Deadline) -> _Checked:
    """Check `found` in order with `oracle.check` until `until`: a rejected solution, or one
    found twice, stops it with its reason."""
    solutions: list[Solution] = []
    number: dict[tuple[int, ...], int] = {}  # a checked solution's values -> its number (from 1)
    for k, values in enumerate(found):
        if until.expired():
            return _Checked(solutions, len(found) - k, None, "")
        solution, problems = _checked(oracle, values)
        if solution is None:
            return _Checked(solutions, 0, _as_returned(values), rejection(problems))
        if solution.values in number:
            problems = [f"the backend returned it twice (solutions {number[solution.values]} and {len(solutions) + 1})"]
            return _Checked(solutions, 0, solution.values, rejection(problems))
        solutions.append(solution)
        number[solution.values] = len(solutions)
    return _Checked(solutions, 0, None, "")


T = TypeVar("T")


def _timed(call: Callable[[], T]) -> tuple[T | None, float, str]:
    """`call()` on the solving clock: (its value, seconds, ""), the seconds without the
    one-time costs paid meanwhile (`Stopwatch`); a backend bug (any exception but a KakuroError, which
    propagates, and KeyboardInterrupt; SystemExit included) gives (None, seconds, "Type: message"),
    an answer the template does not take (`BadAnswer`) (None, seconds, what it was)."""
    watch = Stopwatch()
    try:
        value, error = call(), ""
    except KakuroError:
        raise
    except BadAnswer as exc:
        value, error = None, str(exc)
    except (Exception, SystemExit) as exc:  # a backend's sys.exit() does not end the caller's program
        value, error = None, described(exc)
    return value, watch.elapsed(), error


def _checked(oracle: Puzzle, values: object) -> tuple[Solution | None, list[str]]:
    """The backend's values as a Solution of `oracle` (the caller's puzzle, which the backend
    did not see) when they pass its `check`, else (None, the rules they break). A value that is
    not a digit (a float, a bool, a string: never rounded) or a wrong count is a broken rule too."""
    returned = _as_returned(values)
    if returned is None:
        got = "no values" if values is None else f"a {type(values).__name__}"
        return None, [f"a solution needs {oracle.size} values, one per white cell; got {got}"]
    try:
        solution = Solution(oracle, returned)  # a wrong count is its error too, in the same words
    except InvalidSolutionError as exc:
        return None, [str(exc)]
    problems = oracle.check(solution)
    return (None, problems) if problems else (solution, [])


def _as_returned(values: object) -> tuple[Any, ...] | None:
    """A backend's values as a tuple, unconverted; None when they are not a sequence."""
    if isinstance(values, (str, bytes)) or not (isinstance(values, Sequence) or hasattr(values, "tolist")):
        return None  # a numpy array is no Sequence, but has tolist
    try:
        return tuple(cast(Iterable[Any], values))
    except Exception:  # a backend's own sequence type may fail anyhow
        return None


_WARM: set[type[Solver]] = set()
"""Backend classes warmed up in this process."""


@contextlib.contextmanager
def output_to_stderr(active: bool = True) -> Iterator[None]:
    """Within the block (when `active`), whatever is written to standard output goes to standard
    error instead: by Python (`sys.stdout`, and the stream of start-up, which a backend may
    keep) and below it (file descriptor 1: a C library's `printf`, a child process). Standard
    output is as before after. The command line solves in one under `--format json`, so that its
    standard output holds only the JSON, whatever a backend prints. Without a file descriptor
    1 or 2 it does nothing."""
    kept = _stdout_to_stderr() if active else None
    if kept is None:
        yield
        return
    stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout = stdout
        _flush()  # while fd 1 is still stderr's
        os.dup2(kept, 1)
        os.close(kept)


def _stdout_to_stderr() -> int | None:
    """Point file descriptor 1 where 2 points, after flushing what was written before; returns
    a descriptor of what 1 was, or None when either is missing."""
    _flush()
    try:
        kept = os.dup(1)
    except OSError:
        return None
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(kept)
        return None
    return kept


def _flush() -> None:
    """Flush Python's standard streams and the C library's (`fflush(NULL)`)."""
    for stream in (sys.stdout, sys.__stdout__, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).fflush(None)


__all__ = [
    "KIND_WORDS", "MAX_TIME_LIMIT", "PROBE_SECONDS", "SEED_BITS", "SHOWN_PROBLEMS", "STATS", "Count", "Deadline",
    "Engine", "EnumeratingSolver", "Enumeration", "Option", "Outcome", "Result", "Solver", "Stat", "Status",
    "import_refused", "parse_spec", "rejection", "seed_below",
    # kakuro.registry's names, found by __getattr__ below (pyflakes cannot see them):
    "BACKEND_ALIASES", "BackendInfo", "backend_class", "backend_info", "backends", "get_solver", "register",  # noqa: F822
    "registry_restored", "suggest_backend",  # noqa: F822
]
_IN_REGISTRY = frozenset(name for name in __all__ if name not in globals())
"""The names of `__all__` whose home is `kakuro.registry` (`__getattr__` finds them there)."""


def __getattr__(name: str) -> Any:
    """The registry's names, importable from here as before (`kakuro.registry` is their home;
    it sits above this module, so they are looked up when first asked for)."""
    if name in _IN_REGISTRY:
        from kakuro import registry

        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
