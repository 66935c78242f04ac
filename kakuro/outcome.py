"""What a solve or a count ends with: the statuses, the frozen `Result` and `Count` the
`Solver` template returns (with their one JSON form, `to_dict`), what a backend hands back
(`Outcome`, `Enumeration`) and the template's checks of them (`checked_outcome`,
`checked_enumeration`; a solution's values against the caller's puzzle: `checked_solution`),
the stats vocabulary `STATS`, and the plain forms the template turns a backend's stats and texts
into (`plain_stats`, `plain_text`, `described`): JSON-able and printable whatever the backend put
there."""

from __future__ import annotations

import enum
import math
import numbers
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, TypeGuard, TypeVar, cast

from kakuro.clock import Deadline, Stopwatch
from kakuro.errors import InvalidSolutionError, KakuroError
from kakuro.limits import LIMIT_NAMES, TIME, Limits, described_stop
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution
from kakuro.values import shown

Stat = int | float | bool | str

STATS: Mapping[str, str] = MappingProxyType({
    "nodes": "search nodes (assignments tried by a depth-first search; branch-and-bound nodes of a MIP engine)",
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
    "lp_iterations": "simplex iterations of a MIP engine's LP relaxations (HiGHS, SCIP)",
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
    stopped_by: str | None = None
    """What stopped an UNKNOWN run: "time", "nodes" or "fails" (its budget: `kakuro.Budget`);
    None when it answered, or stopped for another reason (an incomplete search gave up)."""

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the command line's `--format json`): status, time (seconds),
        backend, stats, solution (the solved grid, or None) and message."""
        return _json_form(self, {}, {"solution": self.solution.to_grid() if self.solution is not None else None})


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
    stopped_by: str | None = None
    """What stopped a count short of its limit and of the end of the search: "time", "nodes" or
    "fails" (as `Result.stopped_by`)."""

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

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the command line's `--format json`): status, count, exhausted, bound,
        time (seconds), backend, stats and message."""
        return _json_form(self, {"count": self.count, "exhausted": self.exhausted, "bound": self.bound}, {})


def _json_form(answer: Result | Count, head: Mapping[str, Any], tail: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON form `Result` and `Count` share: status, then `head`, then time (seconds),
    backend and stats, then `tail`, then message and stopped_by."""
    return {"status": answer.status.value, **head, "time": answer.time, "backend": answer.backend,
            "stats": dict(answer.stats), **tail, "message": answer.message, "stopped_by": answer.stopped_by}


@dataclass
class Outcome:
    """What a backend's `_solve` returns: the template method turns it into a `Result`.

    `status` is a `Status`; `values` one value per white cell (cell order) when it is SOLVED;
    `stats` a mapping of names (`STATS`) to ints, floats, bools or strs (numpy numbers, NaN, an
    int past 64 bits or any other object are made plain: `plain_stats`); `message` a str;
    `stopped_by`, for an UNKNOWN answer, the limit that stopped it ("time", or the name of a
    budget of `kakuro.Limits`; None: the template says "time" when the deadline has passed).
    Anything else `_solve` returns (a tuple, a status as a string) is an ERROR result saying
    what it was.
    """

    status: Status
    values: Sequence[int] | None = None
    stats: dict[str, Stat] = field(default_factory=dict)
    message: str = ""
    stopped_by: str | None = None


@dataclass
class Enumeration:
    """What a backend's `_count` returns: the solutions found (a list, or a numpy array), and
    whether search finished (a bool); `stats`, `message` and `stopped_by` (what stopped a
    search that did not finish) as in `Outcome`, checked the same way."""

    solutions: Sequence[Sequence[int]]
    exhausted: bool
    stats: dict[str, Stat] = field(default_factory=dict)
    message: str = ""
    stopped_by: str | None = None

    def outcome(self) -> Outcome:
        """This enumeration as a solve's outcome: SOLVED with the first solution, else
        UNSATISFIABLE when the search finished, else UNKNOWN (with its `stopped_by`)."""
        if self.solutions:
            return Outcome(Status.SOLVED, self.solutions[0], self.stats, self.message)
        status = Status.UNSATISFIABLE if self.exhausted else Status.UNKNOWN
        return Outcome(status, None, self.stats, self.message, None if self.exhausted else self.stopped_by)


class BadAnswer(Exception):
    """What a backend's `_solve` or `_count` returned is not what the template takes; the
    message says what it was (the ERROR result's message)."""


def checked_outcome(answer: object) -> Outcome:
    """`answer`, what `_solve` returned, checked: an `Outcome` whose status is a `Status`, whose
    message is a str and whose stats are a mapping, returned with its stats made plain
    (`plain_stats`) and its message printable. Raises BadAnswer saying what is wrong."""
    if not isinstance(answer, Outcome):
        raise BadAnswer(f"the backend's _solve returned {_kind(answer)}, not a kakuro.Outcome")
    if not isinstance(answer.status, Status):
        raise BadAnswer(f"the backend's Outcome.status is {_kind(answer.status)}, not a kakuro.Status")
    stats, message = _checked_parts(answer, "Outcome")
    return Outcome(answer.status, answer.values, stats, message, _checked_stop(answer))


def checked_enumeration(answer: object) -> Enumeration:
    """`answer`, what `_count` returned, checked as `checked_outcome` checks an Outcome; its
    `solutions` a sequence (or a numpy array) and `exhausted` a bool too."""
    if not isinstance(answer, Enumeration):
        raise BadAnswer(f"the backend's _count returned {_kind(answer)}, not a kakuro.Enumeration")
    stats, message = _checked_parts(answer, "Enumeration")
    solutions, exhausted = answer.solutions, answer.exhausted
    if hasattr(solutions, "tolist") and not isinstance(solutions, Sequence):
        solutions = solutions.tolist()
    if not isinstance(solutions, Sequence) or isinstance(solutions, (str, bytes)):
        raise BadAnswer(f"the backend's Enumeration.solutions is {_kind(solutions)}, not a list of solutions")
    if not isinstance(exhausted, bool) and getattr(getattr(exhausted, "dtype", None), "kind", "") != "b":
        raise BadAnswer(f"the backend's Enumeration.exhausted is {_kind(exhausted)}, not a bool")
    return Enumeration(solutions, bool(exhausted), stats, message, _checked_stop(answer))


def _checked_stop(answer: Outcome | Enumeration) -> str | None:
    """`answer.stopped_by` when it is None or one of `LIMIT_NAMES`; BadAnswer otherwise."""
    stopped = answer.stopped_by
    if stopped is None or (isinstance(stopped, str) and stopped in LIMIT_NAMES):
        return stopped
    kind = type(answer).__name__
    raise BadAnswer(f"the backend's {kind}.stopped_by is {_kind(stopped)}, not None or one of {', '.join(LIMIT_NAMES)}")


def _checked_parts(answer: Outcome | Enumeration, kind: str) -> tuple[dict[str, Stat], str]:
    """The plain stats and the printable message of `answer`; BadAnswer for either of the
    wrong type."""
    if not isinstance(answer.message, str):
        raise BadAnswer(f"the backend's {kind}.message is {_kind(answer.message)}, not a str")
    if not isinstance(answer.stats, Mapping):
        raise BadAnswer(f"the backend's {kind}.stats is {_kind(answer.stats)}, not a mapping of names to numbers")
    try:
        stats = plain_stats(answer.stats)
    except Exception as exc:  # a mapping of the backend's own that fails to iterate
        raise BadAnswer(f"the backend's {kind}.stats cannot be read: {described(exc)}") from None
    return stats, plain_text(answer.message)


def _kind(value: object) -> str:
    """A backend's value in a few words: its type, and its repr when a short str, bytes or
    number ("a str ('solved')", "an Enumeration")."""
    kind = type(value).__name__
    try:
        text = reprlib.repr(value) if isinstance(value, (str, bytes, int, float)) else ""
    except Exception:  # an int of over 4,300 digits, a subclass's repr that raises
        text = ""
    shown = f" ({plain_text(text)})" if text and len(text) <= 40 else ""
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}{shown}"


SHOWN_PROBLEMS = 5
"""Broken rules a WRONG result's message names at the most (`rejection`)."""


def rejection(problems: Sequence[str]) -> str:
    """The message of a WRONG answer: the checker's first `SHOWN_PROBLEMS` reasons, and how
    many more there are. The compare harness words its own rejections the same way."""
    more = len(problems) - SHOWN_PROBLEMS
    return ("the checker rejected the solution: " + "; ".join(problems[:SHOWN_PROBLEMS])
            + (f" (and {more} more)" if more > 0 else ""))


def checked_solution(oracle: Puzzle, values: object) -> tuple[Solution | None, list[str]]:
    """A backend's values as a Solution of `oracle` (the caller's puzzle, which the backend
    did not see) when they pass its `check`, else (None, the rules they break). A value that is
    not a digit (a float, a bool, a string: never rounded) or a wrong count is a broken rule too."""
    returned = as_returned(values)
    if returned is None:
        got = "no values" if values is None else f"a {type(values).__name__}"
        return None, [f"a solution needs {oracle.size} values, one per white cell; got {got}"]
    try:
        solution = Solution(oracle, returned)  # a wrong count is its error too, in the same words
    except InvalidSolutionError as exc:
        return None, [str(exc)]
    problems = oracle.check(solution)
    return (None, problems) if problems else (solution, [])


def as_returned(values: object) -> tuple[Any, ...] | None:
    """A backend's values as a tuple, unconverted (what a WRONG answer's `rejected` holds); None
    when they are not a sequence."""
    if isinstance(values, (str, bytes)) or not (isinstance(values, Sequence) or hasattr(values, "tolist")):
        return None  # a numpy array is no Sequence, but has tolist
    try:
        return tuple(cast(Iterable[Any], values))
    except Exception:  # a backend's own sequence type may fail anyhow
        return None


def limited(
    answered: bool, stats: Mapping[str, Stat], stopped_by: str | None, limits: Limits, counters: Mapping[str, str]
) -> tuple[str | None, str]:
    """What stopped a run held to `limits`, and what its message should say ("": the backend's
    own), from what its backend reported: `answered` (it solved, proved unsatisfiability, or
    counted to the end or to its limit), its `stats` and `stopped_by` (checked by
    `checked_outcome`); `counters` maps each budget the backend honours to the stats key that
    counts it (`Solver.budgets`).

    An answer whose count is past a budget is no answer within it: (that budget, a message
    saying so), for the caller to make UNKNOWN. Otherwise an answer was stopped by nothing
    (None, ""); a run without one by what its backend says (with a message naming the count
    when a budget stopped it, TIME_LIMIT_REACHED when time did), else by time when the deadline
    has passed, else by nothing (an incomplete search gave up). Raises BadAnswer when `stopped_by` names a limit the run did
    not have, or when a run that answered, or says a budget stopped it, reports no count of that
    budget (the template must see it to hold the run to it)."""
    given = limits.budget.asked()
    if stopped_by is not None and stopped_by not in given and not (stopped_by == TIME and limits.deadline.end is not None):
        raise BadAnswer(f"the backend says its {stopped_by} limit stopped it, but the run had no such limit")
    for name, allowed in given.items():
        key = counters[name]
        used = stats.get(key)
        if not _is_count(used):
            if answered or stopped_by == name:
                raise BadAnswer(f"the backend reports no {key} count (a whole number), so its budget of {name} "
                                "cannot be held")
            continue
        if answered and used > allowed:
            return name, f"answered after {used} {key}, past its budget of {allowed} {name}: no answer within it"
        if not answered and stopped_by == name:
            return name, described_stop(name, used, allowed, key)
    if answered:
        return None, ""
    if stopped_by == TIME or (stopped_by is None and limits.deadline.expired()):
        return TIME, TIME_LIMIT_REACHED
    return stopped_by, ""


def _is_count(value: object) -> TypeGuard[int]:
    """A whole number, 0 or more (not a bool): a count a backend reports."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


TIME_LIMIT_REACHED = "time limit reached"
"""A count's message when it stopped at its time limit (the native backends' word for it too)."""
UNEXPLAINED_STOP = "the backend stopped before the limit without saying why"
"""A count's message when the backend stopped early and gave no reason."""
CHECK_GRACE = 0.5
"""Seconds past the time limit that `count_solutions` goes on checking found solutions
(puzzle.check takes about 35 us per solution of a 6x6 grid, 0.65 ms of a 30x30 one)."""


class CheckedSolutions(NamedTuple):
    """`check_solutions`' answer: the solutions that passed, how many were left unchecked at the
    deadline, and the values of the first one rejected (as returned) and why ("": none was)."""

    solutions: list[Solution]
    unchecked: int
    rejected: tuple[Any, ...] | None
    problem: str


def check_solutions(oracle: Puzzle, found: Sequence[Sequence[int]], until: Deadline) -> CheckedSolutions:
    """Check `found` in order with `oracle.check` until `until`: a rejected solution, or one
    found twice, stops it with its reason."""
    solutions: list[Solution] = []
    number: dict[tuple[int, ...], int] = {}  # a checked solution's values -> its number (from 1)
    for k, values in enumerate(found):
        if until.expired():
            return CheckedSolutions(solutions, len(found) - k, None, "")
        solution, problems = checked_solution(oracle, values)
        if solution is None:
            return CheckedSolutions(solutions, 0, as_returned(values), rejection(problems))
        if solution.values in number:
            problems = [f"the backend returned it twice (solutions {number[solution.values]} and {len(solutions) + 1})"]
            return CheckedSolutions(solutions, 0, solution.values, rejection(problems))
        solutions.append(solution)
        number[solution.values] = len(solutions)
    return CheckedSolutions(solutions, 0, None, "")


def plain_stats(stats: Mapping[Any, Any]) -> dict[str, Stat]:
    """A backend's stats as the vocabulary's types (`Stat`), each JSON-able and printable: a
    numpy number as Python's, a NaN or an infinity as its text ("nan"), an integer outside the
    signed 64-bit range as text (its digits up to `MAX_STAT_BITS` bits, else its size in words:
    JSON readers other than Python lose such integers, and Python cannot even write one of over
    4,300 digits), any other value as its text (`plain_text`); None is left out (not reported).
    Raises whatever iterating `stats` raises."""
    plain: dict[str, Stat] = {}
    for key, value in list(stats.items()):
        if value is not None:
            plain[plain_text(key)] = plain_stat(value)
    return plain


MAX_STAT_BITS = 128
"""Bits (39 digits) of an integer stat beyond 64 bits still written out in full, as text."""


def plain_stat(value: object) -> Stat:
    """One stat value as `plain_stats` keeps it."""
    try:
        if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":  # numpy's bool
            return bool(value)
        if isinstance(value, numbers.Integral):
            number = int(value)
            if -(2**63) <= number < 2**63:
                return number
            return str(number) if abs(number).bit_length() <= MAX_STAT_BITS else shown(number)
        if isinstance(value, numbers.Real):
            real = float(value)
            return real if math.isfinite(real) else str(real)
    except Exception:  # a number type of a backend's own that fails to convert
        pass
    return plain_text(value)


def plain_text(value: object) -> str:
    """`str(value)`, printable anywhere (a lone surrogate, which no terminal or UTF-8 file
    takes, as its escape), or a placeholder when `str` fails."""
    try:
        text = str.__str__(value) if isinstance(value, str) else str(value)
    except Exception:
        return f"<a {type(value).__name__} that cannot be shown>"
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def described(exc: BaseException) -> str:
    """`Type: text` of an exception, even one whose text cannot be made (`plain_text`)."""
    return f"{type(exc).__name__}: {plain_text(exc)}".rstrip(": ")


def held(answer: object, limits: Limits, counters: Mapping[str, str]) -> Outcome:
    """What a backend's `_solve` returned, checked (`checked_outcome`) and held to `limits`
    (`limited`, `counters` as there): an answer past its budget made UNKNOWN, `stopped_by`
    filled in, and the message when the backend gave none. Raises BadAnswer as those do."""
    outcome = checked_outcome(answer)
    if outcome.status not in (Status.SOLVED, Status.UNSATISFIABLE, Status.UNKNOWN):
        return outcome
    answered = outcome.status is not Status.UNKNOWN
    stopped, note = limited(answered, outcome.stats, outcome.stopped_by, limits, counters)
    if answered and stopped is not None:
        return Outcome(Status.UNKNOWN, None, outcome.stats, note, stopped)
    return Outcome(outcome.status, outcome.values, outcome.stats, outcome.message or note, stopped)


def held_count(answer: object, limits: Limits, counters: Mapping[str, str], limit: int) -> Enumeration:
    """What a backend's `_count` returned, checked (`checked_enumeration`) and held to `limits`
    as `held` does: a search past its budget is not exhausted."""
    found = checked_enumeration(answer)
    answered = found.exhausted or len(found.solutions) >= limit
    stopped, note = limited(answered, found.stats, found.stopped_by, limits, counters)
    if answered and stopped is not None:
        return Enumeration(found.solutions, False, found.stats, note, stopped)
    return Enumeration(found.solutions, found.exhausted, found.stats, found.message or note, stopped)


def counted(found: Enumeration, checked: CheckedSolutions, limit: int, deadline: Deadline, elapsed: float,
            spec: str) -> Count:
    """The `Count` of an enumeration (`found`, held to its limits) whose solutions were checked
    (`checked`) until `deadline`'s grace: WRONG for a rejected one; a solution left unchecked is
    not counted and the message says how many; a count stopped early always says why."""
    stats = MappingProxyType(dict(found.stats))
    if checked.problem:
        return Count(Status.WRONG, 0, False, (), elapsed, stats, checked.problem, spec, checked.rejected)
    solutions = checked.solutions
    exhausted = found.exhausted and not checked.unchecked and len(solutions) < limit
    status = Status.SOLVED if solutions else Status.UNSATISFIABLE if exhausted else Status.UNKNOWN
    stopped_by: str | None
    if checked.unchecked:
        message = (f"{TIME_LIMIT_REACHED} while checking the solutions: {checked.unchecked} found but not "
                   f"checked in time are not counted")
        stopped_by = TIME
    elif exhausted or len(solutions) >= limit:
        message, stopped_by = found.message, None
    else:  # stopped early: never without a reason
        stopped_by = found.stopped_by or (TIME if deadline.expired() else None)
        message = found.message or (TIME_LIMIT_REACHED if stopped_by == TIME else UNEXPLAINED_STOP)
    return Count(status, len(solutions), exhausted, tuple(solutions), elapsed, stats, message, spec, stopped_by=stopped_by)


T = TypeVar("T")


def timed_call(call: Callable[[], T]) -> tuple[T | None, float, str]:
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
