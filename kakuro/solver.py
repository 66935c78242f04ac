"""The `Solver` interface every backend implements, its typed results, and the registry.

A backend is one module with one class::

    @register("cpsat")
    class CpSat(Solver):
        complete = True
        engine = Engine("ortools", pip="ortools")
        options = {"model": Option("decomposition", choices=("decomposition",))}

        def _solve(self, puzzle, opts, deadline, seed) -> Outcome: ...

`Solver.solve` is the template method: it validates options and limits, times the run with
one clock (`time.perf_counter`), calls `_solve`, re-checks any solution with `puzzle.check`
against the puzzle as it was before `_solve` ran (`Puzzle.snapshot`: the backend cannot
change it) and returns a frozen `Result`; a solution the checker rejects is WRONG, never
SOLVED. Unsatisfiability and reached limits are results; bad input and misuse are
exceptions. Status handling lives here, never in a backend.

Time limits: `time_limit` is in seconds of solving (None: no limit; a limit above
`MAX_TIME_LIMIT`, 23 days, or `inf`, is that long). A complete backend
always ends on its own; an incomplete one (`complete = False`: the Monte-Carlo searches and
harmony search restart until they find a solution and can never prove there is none) is
refused without a limit (BackendOptionError), since it might never return. The command line
always passes one (its default is in `kakuro solve --help`).

Stats vocabulary (a missing key means "not reported", never zero): see `STATS`.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import hashlib
import importlib
import importlib.metadata
import pkgutil
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar, cast

from kakuro.errors import (
    BackendOptionError,
    BackendUnavailableError,
    InvalidSolutionError,
    KakuroError,
    UnknownBackendError,
    UnsupportedOperationError,
)
from kakuro.puzzle import Puzzle, Solution

Stat = int | float | bool | str

STATS: Mapping[str, str] = MappingProxyType({
    "nodes": "search nodes (assignments tried by a depth-first search)",
    "fails": "dead ends: assignments undone after a wipe-out",
    "assignments": "values assigned, propagation included",
    "propagations": "propagator runs (a run revised, a clause propagated)",
    "samples": "Monte-Carlo playouts",
    "restarts": "restarts of an incomplete search",
    "root_solved": "True when propagation before any search decided the puzzle",
    "branches": "branches of an external engine (CP-SAT, Choco)",
    "conflicts": "conflicts of a SAT or CP-SAT engine",
    "decisions": "decisions of a SAT engine",
    "num_vars": "variables of the model handed to the engine",
    "num_clauses": "clauses of a SAT model",
    "num_constraints": "constraints of a CP model",
    "num_tuples": "allowed tuples of table constraints",
    "build_time": "seconds spent building the model (within `time`)",
})
"""The shared stats vocabulary, name -> meaning. A backend may add its own keys (e.g.
`passes` and `forced` for rdv, `iterations` for sahs, `workers` for nmcs); a missing key
means "not reported", never zero."""


class Status(enum.Enum):
    """How a solve ended."""

    SOLVED = "solved"
    UNSATISFIABLE = "unsatisfiable"
    UNKNOWN = "unknown"
    """A limit was reached (or an incomplete search gave up) before an answer."""
    ERROR = "error"
    """The backend failed: it raised, or answered ERROR itself (see `message`)."""
    WRONG = "wrong"
    """The backend returned a solution that `puzzle.check` rejected (values out of range or
    not digits, too few or too many, a given, a sum or a repeat broken; or, counting, the same
    solution twice): `message` holds the checker's reasons, `rejected` the values."""


@dataclass(frozen=True)
class Result:
    """The outcome of one solve. `time` is seconds of `perf_counter`, checking excluded."""

    status: Status
    solution: Solution | None = None
    time: float = 0.0
    stats: Mapping[str, Stat] = field(default_factory=dict)
    message: str = ""
    backend: str = ""
    """The spec string of the solver that produced it."""
    rejected: tuple[Any, ...] | None = None
    """When `status` is WRONG: the values the backend returned, as it returned them."""

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED


@dataclass(frozen=True)
class Count:
    """The outcome of `count_solutions`: `count` solutions found (each checked) up to `limit`.

    `exhausted` is True when the search finished, so `count` is exact; False when it stopped
    at `limit` or at the time limit, so there are at least `count`. `bound` says which in
    words ("exactly 1", "at least 2"), and so do `str()` and `repr()`.
    """

    status: Status
    count: int
    exhausted: bool
    solutions: tuple[Solution, ...] = ()
    time: float = 0.0
    stats: Mapping[str, Stat] = field(default_factory=dict)
    message: str = ""
    backend: str = ""
    rejected: tuple[Any, ...] | None = None
    """When `status` is WRONG: the values of the rejected solution, as the backend returned them."""

    @property
    def unique(self) -> bool:
        """True only when exactly one solution exists (search finished)."""
        return self.count == 1 and self.exhausted

    @property
    def bound(self) -> str:
        """"exactly N" when the search finished, "at least N" when it stopped early."""
        return f"{'exactly' if self.exhausted else 'at least'} {self.count}"

    def __str__(self) -> str:
        noun = "solution" if self.count == 1 else "solutions"
        return f"{self.bound} {noun} ({self.status.value}, {self.time:.3f} s, {self.backend or 'unnamed backend'})"

    def __repr__(self) -> str:
        return (f"Count({self.bound}, status={self.status.value}, time={self.time:.3f}, "
                f"backend={self.backend!r}, message={self.message!r})")


@dataclass
class Outcome:
    """What a backend's `_solve` returns: the template method turns it into a `Result`.

    `values` is one value per white cell (cell order) when `status` is SOLVED.
    """

    status: Status
    values: Sequence[int] | None = None
    stats: dict[str, Stat] = field(default_factory=dict)
    message: str = ""


@dataclass
class Enumeration:
    """What a backend's `_count` returns: the solutions found, and whether search finished."""

    solutions: list[Sequence[int]]
    exhausted: bool
    stats: dict[str, Stat] = field(default_factory=dict)
    message: str = ""

    def outcome(self) -> Outcome:
        """This enumeration as a solve's outcome: SOLVED with the first solution, else
        UNSATISFIABLE when the search finished, else UNKNOWN."""
        if self.solutions:
            return Outcome(Status.SOLVED, self.solutions[0], self.stats, self.message)
        status = Status.UNSATISFIABLE if self.exhausted else Status.UNKNOWN
        return Outcome(status, None, self.stats, self.message)


SEED_BITS = 63
"""Every backend's `_solve` gets a seed below 2**63 (a signed 64-bit integer: numpy, Java);
larger ones are folded (`seed_below`), and engines with a narrower range fold further."""
MAX_TIME_LIMIT = 2_000_000.0
"""Longest time limit in seconds (23 days); a longer one, `inf` included, means this. Every
engine's clock can hold it: a wait of 2^31 ms, a deadline of 2^63 ns, a double."""


@dataclass(frozen=True)
class Deadline:
    """A point on the `perf_counter` clock after which a backend must stop (None: no limit).
    At most `MAX_TIME_LIMIT` seconds away."""

    end: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        return cls(None if seconds is None else time.perf_counter() + min(seconds, MAX_TIME_LIMIT))

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        return None if self.end is None else max(0.0, self.end - time.perf_counter())

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end


@dataclass(frozen=True)
class Option:
    """A backend option: its default, its type, and optionally the accepted values or bounds."""

    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, name: str, raw: Any) -> Any:
        """Convert `raw` (a value or a spec-string text) to this option's type, or raise."""
        kind = type(self.default)
        value = raw
        if isinstance(raw, str) and kind is not str:
            value = _parse_text(name, raw, kind)
        elif kind is float and isinstance(raw, int) and not isinstance(raw, bool):
            value = float(raw)
        if type(value) is not kind:
            raise BackendOptionError(f"option {name!r} takes {KIND_WORDS.get(kind, kind.__name__)}, not {raw!r}")
        if self.choices is not None and value not in self.choices:
            raise BackendOptionError(
                f"option {name!r} accepts {', '.join(map(str, self.choices))}; got {raw!r}"
            )
        if self.minimum is not None and value < self.minimum:
            raise BackendOptionError(f"option {name!r} must be at least {self.minimum}; got {raw!r}")
        if self.maximum is not None and value > self.maximum:
            raise BackendOptionError(f"option {name!r} must be at most {self.maximum}; got {raw!r}")
        return value


_ASCII_INT = re.compile(r"-?[0-9]+")
_ASCII_FLOAT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _parse_text(name: str, text: str, kind: type) -> Any:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise BackendOptionError(f"option {name!r} takes true or false, not {text!r}")
    pattern = _ASCII_INT if kind is int else _ASCII_FLOAT
    if not pattern.fullmatch(text.strip()):
        raise BackendOptionError(f"option {name!r} takes {KIND_WORDS.get(kind, kind.__name__)}, not {text!r}")
    return kind(text.strip())


KIND_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a text"}
"""An option's type in the words of its messages ("takes an integer")."""


@dataclass(frozen=True)
class Engine:
    """The third-party package a backend needs: import name, pip name, distribution name."""

    module: str
    pip: str
    distribution: str | None = None
    import_may_exit: bool = False
    """True when importing it can end the process instead of raising: pychoco's GraalVM
    isolate exits when it cannot reserve its ~33 GB of address space (`ulimit -v`). Under an
    address-space limit such an engine is imported in a separate interpreter first
    (`import_refused`), and is unavailable if that one dies."""

    def version(self) -> str:
        """The installed version; raises BackendUnavailableError when it cannot be imported."""
        if self.import_may_exit:
            refusal = import_refused(self.module)
            if refusal:
                raise BackendUnavailableError(refusal)
        try:
            importlib.import_module(self.module)
        except Exception as exc:  # ImportError, or a broken install raising anything
            raise BackendUnavailableError(
                f"{self.module} cannot be imported ({exc}); install it with: pip install {self.pip}"
            ) from exc
        try:
            return importlib.metadata.version(self.distribution or self.pip)
        except importlib.metadata.PackageNotFoundError:
            return "unknown"


@functools.cache
def import_refused(module: str) -> str:
    """Why `module` cannot be imported here without ending this process (empty: it can): only
    under an address-space limit (RLIMIT_AS) is the import tried, once, in a separate
    interpreter (up to `PROBE_SECONDS`)."""
    if module in sys.modules:
        return ""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return ""
    if limit == resource.RLIM_INFINITY:
        return ""
    try:
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                               timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{module} could not be tried under the address-space limit of {limit // 2**20} MiB (ulimit -v): {exc}"
    if probe.returncode == 0:
        return ""
    said = (probe.stderr.strip().splitlines() or [f"exit status {probe.returncode}"])[-1]
    return (f"{module} cannot start under the address-space limit of {limit // 2**20} MiB (ulimit -v): {said[:200]}; "
            "raise or remove the limit to use it")


PROBE_SECONDS = 120.0
"""How long `import_refused` lets the separate interpreter import the module."""


class Solver:
    """Base class of every backend. Subclasses set the class attributes and `_solve`
    (and `_count` when `complete`). Instances hold validated options and are reusable."""

    name: ClassVar[str] = ""
    complete: ClassVar[bool] = False
    """True if the search is exhaustive: it can prove unsatisfiability and count solutions."""
    supports_seed: ClassVar[bool] = True
    supports_time_limit: ClassVar[bool] = True
    engine: ClassVar[Engine | None] = None
    options: ClassVar[Mapping[str, Option]] = MappingProxyType({})
    description: ClassVar[str] = ""

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
        changed = [f"{k}={_spec_value(v)}" for k, v in settings.items() if every or v != cls.options[k].default]
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
        backend); `options` override the instance's. Any returned solution has passed
        `puzzle.check` against `puzzle` as it was before the backend ran; a solution
        that fails it is WRONG. See `kakuro.solve` for the statuses and stats."""
        settings, deadline, seed = self._prepare(puzzle, time_limit, seed, options)
        spec = self._spec(settings)
        before = puzzle.snapshot()  # what the backend is given cannot change what it is judged by
        outcome, elapsed, error = _timed(lambda: self._solve(puzzle, settings, deadline, seed))
        if outcome is None:  # a backend bug is an ERROR result, not the caller's crash
            return Result(Status.ERROR, None, elapsed, {}, error, spec)
        stats = MappingProxyType(dict(outcome.stats))
        if outcome.status is Status.WRONG:  # only the checker says WRONG
            return Result(Status.ERROR, None, elapsed, stats, outcome.message or "the backend answered WRONG", spec)
        if outcome.status is not Status.SOLVED:
            return Result(outcome.status, None, elapsed, stats, outcome.message, spec)
        solution, problems = _checked(before.puzzle(), outcome.values)
        if solution is None:
            return Result(Status.WRONG, None, elapsed, stats, rejection(problems), spec, _as_returned(outcome.values))
        return Result(Status.SOLVED, _bound(solution, puzzle), elapsed, stats, outcome.message, spec)

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
        or one found twice, makes the count WRONG). Complete backends only."""
        if not self.complete:
            raise UnsupportedOperationError(f"backend {self.name!r} is incomplete and cannot count solutions")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise BackendOptionError(f"limit must be a positive integer, not {limit!r}")
        settings, deadline, seed = self._prepare(puzzle, time_limit, seed, options)
        spec = self._spec(settings)
        before = puzzle.snapshot()
        found, elapsed, error = _timed(lambda: self._count(puzzle, settings, limit, deadline, seed))
        if found is None:
            return Count(Status.ERROR, 0, False, (), elapsed, {}, error, spec)
        stats = MappingProxyType(dict(found.stats))
        solutions: list[Solution] = []
        oracle = before.puzzle() if found.solutions else puzzle
        for values in found.solutions[:limit]:
            solution, problems = _checked(oracle, values)
            if solution is None:
                return Count(Status.WRONG, 0, False, (), elapsed, stats, rejection(problems), spec, _as_returned(values))
            if solution in solutions:
                problems = [f"the backend returned it twice (solutions {solutions.index(solution) + 1} and {len(solutions) + 1})"]
                return Count(Status.WRONG, 0, False, (), elapsed, stats, rejection(problems), spec, solution.values)
            solutions.append(_bound(solution, puzzle))
        exhausted = found.exhausted and len(solutions) < limit
        if solutions:
            status = Status.SOLVED
        elif found.exhausted:
            status = Status.UNSATISFIABLE
        else:
            status = Status.UNKNOWN
        return Count(status, len(solutions), exhausted, tuple(solutions), elapsed, stats, "", spec)

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

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        """The compiled engine kernels a solve with `settings` runs (names of
        `kakuro.search.engine.compile.KERNELS`); none for a backend without native code."""
        return ()

    def ensure_warm(self, settings: Mapping[str, Any] | None = None, everything: bool = True) -> None:
        """Pay every one-time cost of solving with `settings` (default: this solver's) now:
        the class's `warm_up` once per process, and compiling (or loading) the engine kernels
        those settings run (without `everything`, not the `lazy_kernels`). `solve` and
        `count_solutions` call it before they start the clock, and subtract the time of a lazy
        kernel's compilation from theirs, so neither `Result.time` nor a time limit counts it."""
        cls = type(self)
        if cls not in _WARM:
            cls.warm_up()
            _WARM.add(cls)
        kernels = self._kernels(settings, everything)
        if kernels:
            from kakuro.search.engine import compile

            compile.ensure(*kernels)

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        """The engine kernels (of `engine_kernels`) a solve compiles only when a puzzle needs
        them, off its clock: the complete search after root propagation, which most
        published puzzles never reach (seconds of compilation saved on a first solve)."""
        return ()

    def _kernels(self, settings: Mapping[str, Any] | None, everything: bool) -> tuple[str, ...]:
        settings = self.settings if settings is None else settings
        kernels = self.engine_kernels(settings)
        if everything:
            return kernels
        lazy = self.lazy_kernels(settings)
        return tuple(k for k in kernels if k not in lazy)

    def is_cold(self, settings: Mapping[str, Any] | None = None) -> bool:
        """True when a solve will compile engine kernels before it starts (the first use after
        an install or an engine change: seconds), so a caller can say what it is doing."""
        kernels = self._kernels(settings, everything=False)
        if not kernels:
            return False
        from kakuro.search.engine import compile

        return compile.is_cold(*kernels)

    # ----------------------------------------------------------------- for subclasses
    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        raise NotImplementedError

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        raise NotImplementedError

    # ----------------------------------------------------------------- internals
    def _resolve(self, options: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> dict[str, Any]:
        settings = dict(base) if base is not None else {k: o.default for k, o in self.options.items()}
        for key, raw in options.items():
            if key not in self.options:
                accepted = ", ".join(sorted(self.options)) or "none"
                raise BackendOptionError(f"backend {self.name!r} has no option {key!r}; it accepts: {accepted}")
            settings[key] = self.options[key].parse(key, raw)
        return settings

    def _prepare(
        self, puzzle: Puzzle, time_limit: float | None, seed: int | None, options: Mapping[str, Any]
    ) -> tuple[dict[str, Any], Deadline, int]:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"expected a Puzzle, got {type(puzzle).__name__}; use kakuro.read to load one")
        if time_limit is not None:
            if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
                raise BackendOptionError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
        elif self.needs_time_limit():
            raise BackendOptionError(
                f"backend {self.name!r} is incomplete: it searches until it finds a solution and cannot prove "
                "that there is none, so without a limit it might never return; pass time_limit= (seconds; "
                "--time-limit on the command line)"
            )
        if seed is None:
            seed = 0
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise BackendOptionError(f"seed must be a non-negative integer or None, not {seed!r}")
        seed = seed_below(seed, SEED_BITS)
        if self.engine is not None:
            self.engine.version()
        settings = self._resolve(options, self.settings)
        self.ensure_warm(settings, everything=False)  # compilation and start-up before the clock and the deadline
        return settings, Deadline.after(time_limit), seed


class EnumeratingSolver(Solver):
    """A complete backend whose one search both solves and counts: it implements `_count`,
    and solving is counting up to one (the status follows from the enumeration here)."""

    complete = True

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        return self._count(puzzle, opts, 1, deadline, seed).outcome()


T = TypeVar("T")


def _timed(call: Callable[[], T]) -> tuple[T | None, float, str]:
    """`call()` on the solving clock: (its value, seconds, ""), the seconds without any lazy
    kernel's compilation meanwhile; a backend bug (any exception but a KakuroError, which
    propagates) gives (None, seconds, "Type: message")."""
    start, compiled = time.perf_counter(), _compiling()
    try:
        value, error = call(), ""
    except KakuroError:
        raise
    except Exception as exc:
        value, error = None, f"{type(exc).__name__}: {exc}"
    return value, time.perf_counter() - start - (_compiling() - compiled), error


SHOWN_PROBLEMS = 5
"""Broken rules a WRONG result's message names at the most (`rejection`)."""


def rejection(problems: Sequence[str]) -> str:
    """The message of a WRONG answer: the checker's first `SHOWN_PROBLEMS` reasons, and how
    many more there are. The compare harness words its own rejections the same way."""
    more = len(problems) - SHOWN_PROBLEMS
    return ("the checker rejected the solution: " + "; ".join(problems[:SHOWN_PROBLEMS])
            + (f" (and {more} more)" if more > 0 else ""))


def _compiling() -> float:
    """Seconds the engine has spent compiling in this process (0 before it is imported)."""
    engine = sys.modules.get("kakuro.search.engine.compile")
    return 0.0 if engine is None else float(engine.seconds_spent())


def _checked(oracle: Puzzle, values: object) -> tuple[Solution | None, list[str]]:
    """The backend's values as a Solution of `oracle` (the puzzle as it was before the backend
    ran) when they pass its `check`, else (None, the rules they break). A value that is not a
    digit (a float, a bool, a string: never rounded) or a wrong count is a broken rule too."""
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


def _bound(solution: Solution, puzzle: Puzzle) -> Solution:
    """A checked solution as one of the caller's `puzzle` object (the puzzle it was checked
    against, or a copy of it as it was when a backend changed it; then the solution stays
    with the copy it passed)."""
    if solution.puzzle is puzzle:
        return solution
    try:
        return Solution(puzzle, solution.values)
    except (InvalidSolutionError, AttributeError, TypeError, IndexError):
        return solution


def seed_below(seed: int, bits: int) -> int:
    """`seed` folded into an engine's range 0 .. 2**bits - 1: unchanged when it fits (so small
    seeds mean what they always meant), else a hash of it, so that distinct large seeds stay
    distinct with high probability (`seed % 2**bits` would make 2**31 replay seed 0)."""
    if 0 <= seed < 1 << bits:
        return seed
    digest = hashlib.blake2b(str(seed).encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big") >> (128 - bits)


def _spec_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# --------------------------------------------------------------------- registry
_REGISTRY: dict[str, type[Solver]] = {}
_WARM: set[type[Solver]] = set()
"""Backend classes warmed up in this process."""
_BACKEND_PACKAGES = ("kakuro.models", "kakuro.search")
_discovered = False

S = TypeVar("S", bound=type[Solver])


@contextlib.contextmanager
def registry_restored() -> Iterator[None]:
    """Within the block, backends may be registered (tests, plug-ins tried out); on leaving,
    the registry is as it was (the shipped backends discovered first)."""
    _discover()
    before = dict(_REGISTRY)
    try:
        yield
    finally:
        _REGISTRY.clear()
        _REGISTRY.update(before)


def register(name: str) -> Callable[[S], S]:
    """Class decorator: make a Solver subclass available under `name`."""

    def decorate(cls: S) -> S:
        if not name or not name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"backend name {name!r} must be alphanumeric")
        cls.name = name
        cls.options = MappingProxyType(dict(cls.options))
        _REGISTRY[name] = cls
        return cls

    return decorate


def _discover() -> None:
    """Import every module of the backend packages once, so their @register lines run."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for package_name in _BACKEND_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package_name}.{info.name}")


BACKEND_ALIASES = {
    "ortools": "cpsat", "or-tools": "cpsat", "cp-sat": "cpsat", "pysat": "sat", "cadical": "sat",
    "minisat": "sat", "glucose": "sat", "choco-solver": "choco", "chocosolver": "choco",
    "python-constraint": "csp", "constraint": "csp", "default": "auto",
}
"""Names people reach for (an engine, a package) -> the backend they mean, for "did you mean"."""


def suggest_backend(name: str) -> str | None:
    """The registered backend `name` most likely means (case, dashes, aliases, close spelling),
    or None when nothing is close."""
    import difflib

    _discover()
    folded = {key.lower(): key for key in _REGISTRY}
    wanted = name.strip().lower()
    for candidate in (wanted, wanted.replace("-", "").replace("_", ""), BACKEND_ALIASES.get(wanted, "")):
        if candidate in folded:
            return folded[candidate]
    close = difflib.get_close_matches(wanted, list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def backend_class(name: str) -> type[Solver]:
    """The registered class called `name`; UnknownBackendError names the likeliest meant one
    ("did you mean"), or lists the known ones."""
    _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        suggestion = suggest_backend(name) if isinstance(name, str) else None
        if suggestion is not None:
            raise UnknownBackendError(f"unknown backend {name!r}; did you mean {suggestion!r}?",
                                      suggestion=suggestion) from None
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownBackendError(f"unknown backend {name!r}; known backends: {known}") from None


def backends() -> list[str]:
    """Names of every registered backend, available or not."""
    _discover()
    return sorted(_REGISTRY)


@dataclass(frozen=True)
class BackendInfo:
    """What `kakuro backends` lists for one backend: availability (with the engine's version,
    or the reason and the pip command), capabilities and declared options."""

    name: str
    available: bool
    version: str
    reason: str
    complete: bool
    description: str
    options: Mapping[str, Option] = field(default_factory=dict)
    """Option name -> Option (default, help, choices, minimum, maximum)."""
    supports_seed: bool = True
    supports_time_limit: bool = True
    needs_time_limit: bool = False
    """True when `time_limit=None` is refused (an incomplete search)."""


def backend_info(*names: str) -> list[BackendInfo]:
    """Availability, engine version, capabilities and options of the named backends (default:
    every registered one); UnknownBackendError for a name that is not registered."""
    infos = []
    for name in names or tuple(backends()):
        cls = backend_class(name)
        common = dict(
            complete=cls.complete, description=cls.description, options=cls.options,
            supports_seed=cls.supports_seed, supports_time_limit=cls.supports_time_limit,
            needs_time_limit=cls.needs_time_limit(),
        )
        try:
            version = cls.engine.version() if cls.engine else "built-in"
            infos.append(BackendInfo(name, True, version, "", **common))
        except BackendUnavailableError as exc:
            infos.append(BackendInfo(name, False, "", str(exc), **common))
    return infos


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `name[:key=value,...]` into the name and its raw option texts."""
    if not isinstance(spec, str) or not spec.strip():
        raise UnknownBackendError(f"a backend spec must be a non-empty string like 'cpsat' or 'nmcs:level=2', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BackendOptionError(f"in backend spec {spec!r}: {part!r} is not key=value")
        if ":" in value and "=" in value:  # name:a=1:b=2, the separator mistaken
            fixed = f"{name.strip()}:{rest.strip().replace(':', ',')}"
            raise BackendOptionError(f"in backend spec {spec!r}: options are separated by commas: {fixed}")
        options[key.strip()] = value.strip()
    return name.strip(), options


def get_solver(spec: str | Solver, **options: Any) -> Solver:
    """A solver from a spec string such as "nmcs:level=2"; keyword options override it."""
    if isinstance(spec, Solver):
        return type(spec)(**{**spec.settings, **options}) if options else spec
    name, raw = parse_spec(spec)
    return backend_class(name)(**{**raw, **options})
