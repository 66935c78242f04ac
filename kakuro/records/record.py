"""The results record: one typed `Record` per finished job, and `JobStatus`.

Schema history (the `schema` field; a record without one is schema 1):

    1  the first layout; `backend` is the solver's spec without its default options
    2  `backend` is the spec as it was asked for (`nmcs:level=2` stays so), and `spec` holds
       every option, defaults included (`get_solver(spec)` rebuilds exactly what ran); since
       `--certify`, an optional `certified` (readers of schema 2 without it ignore it)
    3  a proof of no solution is `UNSATISFIABLE`, as `kakuro.Status` spells it (schemas 1 and 2
       wrote `UNSAT`, which is read as `UNSATISFIABLE` in a record of any schema)
    4  a job stopped by its budget of nodes or fails is `BUDGET`, and `budget` holds the
       budgets the job had (`kakuro.Budget`: name -> bound; empty, or absent before, for none)

Reading and appending results files is `kakuro.records.files`; how a job's status is decided
is `kakuro.records.verdict`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeGuard

from kakuro.limits import BUDGETS
from kakuro.values import is_integer, is_number

SCHEMA = 4
"""Version of the record layout written by this version (see the module docstring)."""
KEY_FIELDS = ("index", "digest", "backend", "seed", "repeat")
"""The fields that identify a job in a results file: the puzzle by what it is (its digest and
position), not by the path it was read through, so a campaign resumed from another folder, with
an absolute path or through a link finds its jobs done (records of any version hold both)."""
MAX_MESSAGE = 2000
"""Characters of a message kept in a record (a backend's message may be megabytes)."""


def clipped(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text`, cut to `limit` characters with a note saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters cut)"


class JobStatus(str, enum.Enum):  # noqa: UP042  # a StrEnum would change str(status)
    """How a job ended, as the parent verified it (see `kakuro.records.verdict`). A status the
    library has too (`kakuro.Status`: all but UNKNOWN, which a job records as TIMEOUT) has its
    name, upper-cased. BUDGET: the backend stopped at its budget of nodes or fails (an UNKNOWN
    that a budget, not time, stopped; `Result.stopped_by`)."""

    SOLVED = "SOLVED"
    UNSATISFIABLE = "UNSATISFIABLE"
    TIMEOUT = "TIMEOUT"
    BUDGET = "BUDGET"
    MEMOUT = "MEMOUT"
    CRASH = "CRASH"
    ERROR = "ERROR"
    WRONG = "WRONG"


FORMER_SPELLINGS = {"UNSAT": JobStatus.UNSATISFIABLE}
"""Statuses as records of schemas 1 and 2 wrote them -> the status they mean."""
ANSWERED = frozenset({JobStatus.SOLVED, JobStatus.UNSATISFIABLE})
"""Statuses that count as a correct answer (PAR-2, cactus plots)."""
FINAL = frozenset(JobStatus) - {JobStatus.CRASH}
"""Statuses `--resume` does not re-run."""


@dataclass(frozen=True)
class Record:
    """One finished job. Times are seconds, memory MiB; `None` means not measured."""

    source: str
    """The puzzle file (as given on the command line); not part of `key`."""
    index: int
    """0-based position of the puzzle in `source`."""
    digest: str
    """`Puzzle.digest()`: the same puzzle has the same digest in any file."""
    backend: str
    """The backend's name in tables: its spec as asked for (`nmcs:level=2`)."""
    seed: int
    repeat: int
    status: JobStatus
    time_limit: float
    instance: str = ""
    """The puzzle's id, or `<file stem>#<1-based position>`."""
    spec: str | None = None
    """Every option of the backend, defaults included; None in schema-1 records."""
    time: float | None = None
    """The backend's own time (solving only, compilation and checking excluded)."""
    wall: float | None = None
    """Seconds the job took in its worker (or until it was killed)."""
    grace: float | None = None
    memory_limit_mb: int | None = None
    peak_rss_mb: float | None = None
    rows: int | None = None
    cols: int | None = None
    stats: Mapping[str, Any] = field(default_factory=dict)
    message: str = ""
    finished: str = ""
    """UTC time the parent recorded the job (ISO 8601)."""
    versions: Mapping[str, str] = field(default_factory=dict)
    machine: Mapping[str, Any] = field(default_factory=dict)
    certified: bool | None = None
    """An UNSATISFIABLE answer of a campaign run with `--certify`: True when a certificate of no
    solution was made and verified (`kakuro.certificates`), False when none could be made in
    time (the message says why); None when certification was not asked (or the answer is not
    UNSATISFIABLE)."""
    budget: Mapping[str, int] = field(default_factory=dict)
    """The budgets beyond time the job had (`kakuro.Budget.asked`: "nodes", "fails" -> the
    bound); empty for none. What a run used is in `stats` (the counter each backend names:
    `kakuro backends NAME`)."""
    schema: int = SCHEMA

    @property
    def key(self) -> tuple[Any, ...]:
        """The job this record belongs to: the values of `KEY_FIELDS`."""
        return tuple(getattr(self, name) for name in KEY_FIELDS)

    @property
    def puzzle_key(self) -> tuple[str, int, str]:
        """The puzzle this record is about: (source, index, digest)."""
        return (self.source, self.index, self.digest)

    @property
    def answered(self) -> bool:
        """True for SOLVED and UNSATISFIABLE: a correct answer with a time."""
        return self.status in ANSWERED

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (field order kept)."""
        data = asdict(self)
        data["status"] = self.status.value
        return {"schema": data.pop("schema"), **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """A record from a parsed JSON object of any schema up to `SCHEMA`. Raises ValueError
        saying what is wrong; unknown fields are ignored."""
        schema = data.get("schema", 1)
        if not is_integer(schema) or schema < 1:
            raise ValueError(f"schema {_shown(schema)} is not a version number")
        if schema > SCHEMA:
            raise ValueError(f"schema {_shown(schema)} is newer than this kakuro reads ({SCHEMA}); upgrade kakuro")
        said = data.get("status")
        try:
            status = FORMER_SPELLINGS[said] if isinstance(said, str) and said in FORMER_SPELLINGS else JobStatus(said)
        except ValueError:
            statuses = ", ".join(s.value for s in JobStatus)
            raise ValueError(f"status {_shown(data.get('status'))} is not one of {statuses}") from None
        values: dict[str, Any] = {"schema": schema, "status": status}
        for item in fields(cls):
            if item.name in values or item.name not in data:
                continue
            value = data[item.name]
            check, wanted = _FIELD_CHECKS[item.name]
            if not check(value):
                raise ValueError(f"{item.name} {_shown(value)} is not {wanted}")
            values[item.name] = float(value) if item.name in _FLOATS and value is not None else value
        missing = [name for name in _REQUIRED if name not in values]
        if missing:
            raise ValueError(f"no {', '.join(missing)}")
        if not values.get("instance"):
            values["instance"] = f"{Path(values['source']).stem}#{values['index'] + 1}"
        return cls(**values)


def _shown(value: Any) -> str:
    """`value` as a message shows it: its repr, or what it is when that is very long."""
    if is_integer(value) and value.bit_length() > 600:
        return f"(a whole number of about {int(value.bit_length() * 0.30103)} digits)"
    return clipped(repr(value), 100)


def is_finite(value: Any) -> TypeGuard[int | float]:
    """A finite int or float (not a bool) that a float holds: one `{:g}` can show (an int past
    1e308 is not one)."""
    try:
        return is_number(value) and math.isfinite(value)
    except OverflowError:  # an int past 1e308
        return False


def is_non_negative(value: Any) -> bool:
    """A finite int or float (not a bool), 0 or more: a time in seconds, a memory in MB."""
    return is_finite(value) and value >= 0


def _is_positive(value: Any) -> bool:
    return is_finite(value) and value > 0


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _or_null(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


_REQUIRED = ("source", "index", "digest", "backend", "seed", "repeat", "time_limit")
_FLOATS = frozenset({"time_limit", "time", "wall", "grace", "peak_rss_mb"})
_FIELD_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "source": (_is_text, "a string"),
    "index": (is_integer, "a whole number"),
    "digest": (_is_text, "a string"),
    "backend": (_is_text, "a string"),
    "seed": (is_integer, "a whole number"),
    "repeat": (is_integer, "a whole number"),
    "time_limit": (_is_positive, "a positive number"),
    "instance": (_is_text, "a string"),
    "spec": (_or_null(_is_text), "a string or null"),
    "time": (_or_null(is_non_negative), "a number of seconds (0 or more) or null"),
    "wall": (_or_null(is_non_negative), "a number of seconds (0 or more) or null"),
    "grace": (_or_null(is_non_negative), "a number of seconds (0 or more) or null"),
    "memory_limit_mb": (_or_null(is_integer), "a whole number or null"),
    "peak_rss_mb": (_or_null(is_non_negative), "a number (0 or more) or null"),
    "rows": (_or_null(is_integer), "a whole number or null"),
    "cols": (_or_null(is_integer), "a whole number or null"),
    "stats": (_is_object, "an object"),
    "message": (_is_text, "a string"),
    "finished": (_is_text, "a string"),
    "versions": (_is_object, "an object"),
    "machine": (_is_object, "an object"),
    "certified": (_or_null(lambda value: isinstance(value, bool)), "true, false or null"),
    "budget": (lambda value: isinstance(value, dict) and all(
        name in BUDGETS and is_integer(bound) and bound >= 1 for name, bound in value.items()),
        f"an object of budgets ({', '.join(BUDGETS)}) with positive whole numbers"),
}
"""For each record field read from JSON: its check and what the check wants, for the message."""


def latest(records: Iterable[Record]) -> list[Record]:
    """The last record of each job (a re-run after a crash replaces the earlier one), in the
    order of those last records."""
    last: dict[tuple[Any, ...], Record] = {}
    for record in records:
        last.pop(record.key, None)
        last[record.key] = record
    return list(last.values())
