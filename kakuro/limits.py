"""A run's limits: its time limit and its budget (`Budget`: the search nodes and fails it may
count), and the one object a backend's `_solve` and `_count` receive (`Limits`).

Time is read from the toolkit's own clock (`kakuro.clock`), the same for every backend, so
every backend honours a time limit. Nodes and fails are counted by the backend itself (its
search's `nodes` and `fails`, a SAT engine's conflicts), so each backend declares the budgets
it honours (`Solver.budgets`: budget name -> the stats key that counts it) and a run given one
it does not honour is refused. A budget makes a comparison that a busy machine cannot distort:
the same run stops at the same node whatever else runs.

A run that stops short of an answer says which limit stopped it (`stopped_by`: "time", or the
name of a budget). The next budget is one more field of `Budget`, the next limit of another
kind one more field of `Limits`: no backend's signature changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from kakuro.clock import Deadline
from kakuro.errors import BackendOptionError
from kakuro.values import is_integer, is_number

TIME = "time"
"""`stopped_by` of a run stopped by its time limit."""


@dataclass(frozen=True)
class Budget:
    """How much search a run may count beyond time (None: no bound): `nodes` (values tried by a
    tree search, decisions of a binary one) and `fails` (dead ends; a SAT or CP-SAT engine's
    conflicts), each a positive int, as the backend counts them (`kakuro backends NAME` says
    what each honours). Raises BackendOptionError for anything else."""

    nodes: int | None = None
    fails: int | None = None

    def __post_init__(self) -> None:
        for name, value in self.asked().items():
            if not is_integer(value) or value < 1:
                raise BackendOptionError(f"a budget of {name} must be a positive whole number or None, not {value!r}")

    def asked(self) -> dict[str, int]:
        """The bounds given, name -> value (empty for no budget)."""
        return {item.name: getattr(self, item.name) for item in fields(self) if getattr(self, item.name) is not None}

    def __str__(self) -> str:
        """"20 nodes, 1000 fails", or "no budget"."""
        return ", ".join(f"{value} {name}" for name, value in self.asked().items()) or "no budget"


NO_BUDGET = Budget()
BUDGETS = tuple(item.name for item in fields(Budget))
"""The budgets beyond time, as `Budget` and `Solver.budgets` name them."""
LIMIT_NAMES = (TIME, *BUDGETS)
"""What can stop a run short of an answer (`Result.stopped_by`)."""


@dataclass(frozen=True)
class Limits:
    """What a backend's `_solve` and `_count` must stop at: `deadline` (a `kakuro.Deadline`)
    and `budget` (a `Budget` holding only bounds the backend declares in `Solver.budgets`).
    Stopped by either, it answers UNKNOWN (an `Enumeration` that is not exhausted), saying
    `stopped_by` its name when a budget stopped it, and reports that budget's count in its
    stats, at most the budget where the engine stops exactly."""

    deadline: Deadline = field(default_factory=Deadline)
    budget: Budget = NO_BUDGET


def refusal(backend: str, name: str, honoured: Mapping[str, str]) -> str:
    """The one line that refuses a budget of `name` to `backend`, which honours `honoured`."""
    kept = ", ".join((TIME, *honoured))
    return (f"backend {backend!r} cannot honour a budget of {name} (it honours: {kept}); "
            "`kakuro backends NAME` lists the budgets each backend honours")


def described_stop(name: str, used: object, allowed: int, key: str) -> str:
    """A run's message when its budget of `allowed` `name` stopped it after `used` (its stats'
    `key`): "stopped by its budget of fails (conflicts: 21 of 20)"."""
    return f"stopped by its budget of {name} ({key}: {used} of {allowed})"


def checked_time_limit(time_limit: object, backend: str, needed: bool) -> None:
    """Raise BackendOptionError in one line unless `time_limit` is a positive number of seconds,
    or None for a backend that does not need one (`needed`: an incomplete search, which might
    never return without it)."""
    if time_limit is not None:
        if not is_number(time_limit) or not time_limit > 0:
            raise BackendOptionError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
    elif needed:
        raise BackendOptionError(
            f"backend {backend!r} is incomplete: it searches until it finds a solution and cannot prove "
            "that there is none, so without a limit it might never return; pass time_limit= (seconds; "
            "--time-limit on the command line)"
        )


def checked_budget(budget: object, honoured: Mapping[str, str], backend: str) -> Budget:
    """`budget` (None: no budget) when `backend`, which honours `honoured`, honours every bound
    it gives; BackendOptionError in one line otherwise."""
    if budget is None:
        return NO_BUDGET
    if not isinstance(budget, Budget):
        raise BackendOptionError(f"budget must be a kakuro.Budget or None, not {type(budget).__name__} {budget!r}")
    for name in budget.asked():
        if name not in honoured:
            raise BackendOptionError(refusal(backend, name, honoured))
    return budget
