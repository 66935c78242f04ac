"""The verdict rules: the one place that decides a `JobStatus`, WRONG included.

    SOLVED         a solution that passed the parent's own `puzzle.check`
    UNSATISFIABLE  the backend proved unsatisfiability (and nothing contradicts it)
    TIMEOUT        killed at the wall-clock limit, or the backend answered UNKNOWN (its limit
                   was reached or an incomplete search gave up; the message says which)
    BUDGET         the backend answered UNKNOWN, stopped by a budget of nodes or fails the job
                   had (`Result.stopped_by`; what it used is in the record's stats)
    MEMOUT         killed past the memory limit (resident memory), a MemoryError, or a worker
                   death near the limit
    CRASH          the worker died (abort, segfault, ...) or the harness lost the job
    ERROR          the backend reported an error
    WRONG          the checker rejected the solution (the parent's own `puzzle.check`, or the
                   worker's `Solver.solve`, which answers `Status.WRONG`), or an UNSATISFIABLE
                   claim on a puzzle that has a verified solution (a witness: a SOLVED record of
                   the same puzzle, or the puzzle file's own solution), or, with `--certify`, an
                   UNSATISFIABLE claim that fails certification (`certification`: a solution
                   found, or a certificate of no solution rejected)

The harness judges each job as it ends (`judge`, with the witnesses known so far); a report
applies the same UNSATISFIABLE rule over whole results files (`overrule`), since a solution
found later, or in another file, also refutes an earlier claim.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from kakuro.errors import InvalidSolutionError
from kakuro.limits import Budget
from kakuro.outcome import Status, rejection
from kakuro.puzzle import Puzzle
from kakuro.records.record import JobStatus, Record
from kakuro.solution import Solution

MEMOUT_FRACTION = 0.9
"""A worker that dies, not killed by the pool, while its job uses at least this share of the
memory limit is MEMOUT (the system ran out of memory first), not CRASH."""


class InstanceLike(Protocol):
    """What the rules read of a puzzle of a campaign (`kakuro.compare.jobs.Instance`)."""

    @property
    def puzzle(self) -> Puzzle: ...
    @property
    def digest(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...


class LimitsLike(Protocol):
    """A job's limits (`kakuro.compare.jobs.Limits`): seconds, MiB or None, and its budget."""

    @property
    def time_limit(self) -> float: ...
    @property
    def budget(self) -> Budget: ...
    @property
    def grace(self) -> float: ...
    @property
    def memory_mb(self) -> int | None: ...


class JobLike(Protocol):
    """What the rules read of a job (`kakuro.compare.jobs.Job`)."""

    @property
    def instance(self) -> InstanceLike: ...
    @property
    def limits(self) -> LimitsLike: ...


class AnswerLike(Protocol):
    """What the rules read of a worker's reply (`kakuro.compare.worker.Reply`)."""

    @property
    def status(self) -> Status: ...
    @property
    def values(self) -> Sequence[Any] | None: ...
    @property
    def message(self) -> str: ...
    @property
    def memout(self) -> bool: ...
    @property
    def stopped_by(self) -> str | None: ...


class Ending(Protocol):
    """How a job ended as its runner saw it (`kakuro.compare.attempt.Attempt`): `kind` is one
    of reply, timeout, memout, died, lost; `memory_mb` is MiB, None when not measured."""

    @property
    def kind(self) -> Literal["reply", "timeout", "memout", "died", "lost"]: ...
    @property
    def reply(self) -> AnswerLike | None: ...
    @property
    def exitcode(self) -> int | None: ...
    @property
    def memory_mb(self) -> float | None: ...
    @property
    def message(self) -> str: ...


class Witnesses:
    """Who holds a verified solution of each puzzle, by puzzle digest."""

    def __init__(self) -> None:
        self._holders: dict[str, str] = {}

    def add(self, digest: str, holder: str) -> None:
        """Record `holder` (a backend name, or a file) unless the puzzle already has one."""
        self._holders.setdefault(digest, holder)

    def holder(self, digest: str) -> str | None:
        return self._holders.get(digest)

    @classmethod
    def of(
        cls, instances: Iterable[InstanceLike], records: Iterable[Record], *, warn: Callable[[str], None] | None = None
    ) -> Witnesses:
        """The SOLVED records, then the solutions the puzzle files carry (checked here). A
        recorded solution that breaks the rules is no witness, and `warn` is told so."""
        found = cls()
        for record in records:
            if record.status is JobStatus.SOLVED:
                found.add(record.digest, record.backend)
        for inst in instances:
            solution = inst.puzzle.meta.get("solution")
            if solution is None:
                continue
            problems = inst.puzzle.check(solution)
            if not problems:
                found.add(inst.digest, f"the solution in {inst.source}")
            elif warn is not None:
                warn(f"warning: {inst.source}: puzzle {inst.index + 1} ({inst.name}): its recorded solution breaks "
                     f"the rules ({problems[0]}); it is not used to judge answers")
        return found


def refuted(holder: str) -> str:
    """The message of an UNSATISFIABLE claim refuted by `holder`'s solution."""
    return f"claimed unsatisfiable, but {holder} has a verified solution"


def judge(job: JobLike, attempt: Ending, witnesses: Witnesses) -> tuple[JobStatus, str]:
    """The status of a finished job and its message. A solution is checked against the
    parent's own puzzle (`job.instance.puzzle`), never trusted."""
    limits = job.limits
    if attempt.kind == "timeout":
        return JobStatus.TIMEOUT, f"killed at the wall-clock limit ({limits.time_limit:g} s + {limits.grace:g} s grace)"
    if attempt.kind == "lost":
        return JobStatus.CRASH, attempt.message or "the harness lost this job"
    memory = limits.memory_mb
    if attempt.kind == "memout":
        used = f"{attempt.memory_mb:.0f} MiB" if attempt.memory_mb is not None else "more"
        return JobStatus.MEMOUT, f"killed at the memory limit: the job used {used} of resident memory, the limit is {memory} MiB"
    if attempt.kind == "died":
        how = _exit_text(attempt.exitcode)
        if memory is not None and attempt.memory_mb is not None and attempt.memory_mb >= MEMOUT_FRACTION * memory:
            return JobStatus.MEMOUT, f"the worker {how} while the job used {attempt.memory_mb:.0f} MiB of its {memory} MiB limit"
        return JobStatus.CRASH, f"the worker {how}" + (f": {attempt.message}" if attempt.message else "")
    reply = attempt.reply
    if reply is None:
        return JobStatus.CRASH, "the worker sent no reply"
    if reply.status is Status.WRONG:  # the worker's check rejected it; the parent's words when it can check too
        problems = _problems(job, reply.values) if reply.values is not None else []
        return JobStatus.WRONG, rejection(problems) if problems else reply.message or rejection(["(no reason given)"])
    if reply.status is Status.SOLVED:
        problems = _problems(job, reply.values or ())
        if problems:
            return JobStatus.WRONG, rejection(problems)
        return JobStatus.SOLVED, reply.message
    if reply.status is Status.UNSATISFIABLE:
        holder = witnesses.holder(job.instance.digest)
        if holder is not None:
            return JobStatus.WRONG, refuted(holder)
        return JobStatus.UNSATISFIABLE, reply.message
    if reply.status is Status.UNKNOWN:
        if reply.stopped_by in limits.budget.asked():
            return JobStatus.BUDGET, reply.message or f"stopped by its budget of {reply.stopped_by}"
        return JobStatus.TIMEOUT, reply.message or "the backend stopped without an answer"
    if reply.memout:
        return JobStatus.MEMOUT, reply.message
    if reply.status is Status.ERROR:
        return JobStatus.ERROR, reply.message
    return JobStatus.ERROR, f"the backend answered an unknown status {reply.status!r}"


def _problems(job: JobLike, values: Iterable[Any]) -> list[str]:
    """The rules `values` break as a solution of the parent's own puzzle (empty: valid)."""
    puzzle = job.instance.puzzle
    try:
        return puzzle.check(Solution(puzzle, tuple(values)))
    except (InvalidSolutionError, TypeError, ValueError) as exc:
        return [str(exc)]


@dataclass(frozen=True)
class Certification:
    """What certifying an UNSATISFIABLE claim found: `certified` (a certificate of no solution made
    and verified), else `wrong` (why the claim is WRONG) or `note` (why there is no certificate: the
    time limit, a puzzle the encoding cannot take)."""

    certified: bool
    wrong: str = ""
    note: str = ""


def certification(puzzle: Puzzle, time_limit: float) -> Certification:
    """Certify that `puzzle` has no solution (`kakuro.certificates`: CaDiCaL's DRUP proof,
    checked by dratify), solving for at most `time_limit` seconds."""
    from kakuro.certificates import Claim, certify, verify
    from kakuro.errors import KakuroError

    try:
        cert = certify(puzzle, time_limit=time_limit)
    except KakuroError as exc:  # the time limit (CertifyLimitError), a puzzle the encoding cannot take
        return Certification(False, note=f"not certified: {exc}")
    verdict = verify(cert, puzzle=puzzle)
    if not verdict.ok:
        return Certification(False, wrong=f"claimed unsatisfiable; its certificate is rejected: {verdict.reason}")
    if cert.claim is not Claim.NONE:
        return Certification(False, wrong=f"claimed unsatisfiable, but certification found a solution "
                                          f"({cert.claim.bound} solutions, certified)")
    return Certification(True)


def certified_status(message: str, found: Certification) -> tuple[JobStatus, str]:
    """The status and message of an UNSATISFIABLE answer once `found` is known."""
    if found.wrong:
        return JobStatus.WRONG, found.wrong
    if found.note:
        return JobStatus.UNSATISFIABLE, f"{message}; {found.note}" if message else found.note
    return JobStatus.UNSATISFIABLE, message


def overrule(records: Iterable[Record]) -> list[Record]:
    """`records` with every UNSATISFIABLE claim on a puzzle that has a SOLVED record turned WRONG."""
    current = list(records)
    witnesses = Witnesses.of((), current)
    out = []
    for record in current:
        holder = witnesses.holder(record.digest) if record.status is JobStatus.UNSATISFIABLE else None
        out.append(record if holder is None else replace(record, status=JobStatus.WRONG, message=refuted(holder)))
    return out


def _exit_text(code: int | None) -> str:
    if code is None:
        return "died"
    if code < 0:
        try:
            return f"died of {signal.Signals(-code).name}"
        except ValueError:
            return f"died of signal {-code}"
    return f"exited with code {code}"
