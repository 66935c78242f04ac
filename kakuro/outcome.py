"""What a solve or a count ends with: the statuses, the frozen `Result` and `Count` the
`Solver` template returns (with their one JSON form, `to_dict`), what a backend hands back
(`Outcome`, `Enumeration`), and the stats vocabulary `STATS`."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kakuro.puzzle import Solution

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
    backend and stats, then `tail`, then message."""
    return {"status": answer.status.value, **head, "time": answer.time, "backend": answer.backend,
            "stats": dict(answer.stats), **tail, "message": answer.message}


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

    solutions: Sequence[Sequence[int]]
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


SHOWN_PROBLEMS = 5
"""Broken rules a WRONG result's message names at the most (`rejection`)."""


def rejection(problems: Sequence[str]) -> str:
    """The message of a WRONG answer: the checker's first `SHOWN_PROBLEMS` reasons, and how
    many more there are. The compare harness words its own rejections the same way."""
    more = len(problems) - SHOWN_PROBLEMS
    return ("the checker rejected the solution: " + "; ".join(problems[:SHOWN_PROBLEMS])
            + (f" (and {more} more)" if more > 0 else ""))

