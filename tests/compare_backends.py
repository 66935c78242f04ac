"""Test-only backends for the compare harness; never shipped. Load them by file path:
`--import tests/compare_backends.py` (a dotted `tests.compare_backends` would be shadowed by
any installed distribution that ships a top-level `tests` package, as pychoco 0.4 does).

- `test-nap`: CP-SAT after sleeping `nap` seconds (a correct, slow-ish backend)
- `test-sleep`: ignores its time limit and sleeps; first appends "pid start-time" to `pidfile`
- `test-hog`: fills `gib` GiB of resident memory (touched), then sleeps past any limit; with
  `child=true` in a forked solver child
- `test-exit`: raises SystemExit(3); `test-interrupt`: raises KeyboardInterrupt
- `test-time`: CP-SAT's answer reported with the time `time` (a text: nan, -100, inf, ...)
- `test-digits`: CP-SAT's solution with its values made `kind`: half (v + 0.5), float (3.0),
  bool (1 as True), str ("3"), numpy (numpy integers: valid)
- `test-chatty`: answers UNKNOWN with a message of `mb` MB
- `test-session`: starts `sleep` in a session of its own (its pid appended to `pidfile`), then
  sleeps past any limit
- `test-abort`: calls os.abort() (the worker dies of SIGABRT)
- `test-wrong`: overrides `solve` itself and returns a SOLVED result with a bogus grid, so
  only the harness's own verification can catch it
- `test-liar`: claims every puzzle is unsatisfiable
- `test-spin`: busy-loops `spin` seconds of CPU, then solves with CP-SAT
- `test-pid`: appends its process id to `pidfile`, then solves with CP-SAT (which processes ran jobs)
"""

from __future__ import annotations

import dataclasses
import faulthandler
import os
import subprocess
import time
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kakuro.clock import Deadline
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Outcome, Result, Status
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.solution import Solution
from kakuro.solver import Solver
from kakuro.solvers.cpsat import CpSat


@register("test-nap")
class Nap(CpSat):
    description = "test only: CP-SAT after a nap"
    options = {**CpSat.options, "nap": Option(0.0, "seconds to sleep first", minimum=0.0)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        time.sleep(opts["nap"])
        return super()._solve(puzzle, opts, limits, seed)


@register("test-spin")
class Spin(CpSat):
    description = "test only: CP-SAT after busy-looping"
    options = {**CpSat.options, "spin": Option(0.0, "seconds of CPU to burn first", minimum=0.0)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        end = time.perf_counter() + opts["spin"]
        while time.perf_counter() < end:
            pass
        return super()._solve(puzzle, opts, limits, seed)


@register("test-pid")
class Pid(CpSat):
    description = "test only: CP-SAT after noting its process id"
    options = {**CpSat.options, "pidfile": Option("", "file to append the process id to")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        with open(opts["pidfile"], "a") as stream:
            stream.write(f"{os.getpid()}\n")
        return super()._solve(puzzle, opts, limits, seed)


@register("test-sleep")
class Sleep(Solver):
    description = "test only: sleeps past any limit"
    options = {"pidfile": Option("", "file to append 'pid start-time' to")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        if opts["pidfile"]:
            with open(opts["pidfile"], "a") as stream:
                stream.write(f"{os.getpid()} {time.time()}\n")
        time.sleep(3600)
        return Outcome(Status.UNKNOWN)


@register("test-hog")
class Hog(Solver):
    description = "test only: fills resident memory, then sleeps"
    options = {"gib": Option(1.5, "GiB to hold at the most", minimum=0.0),
               "child": Option(False, "fill the memory of a forked solver child instead")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        if opts["child"]:
            from kakuro.isolation import call_with_deadline

            return call_with_deadline(hog, opts["gib"], deadline=Deadline.after(3600))
        return hog(opts["gib"])


def hog(gib: float) -> Outcome:
    """Allocate and touch 64 MiB blocks up to `gib` GiB, then hold them past any time limit."""
    import numpy

    hoard = []
    while len(hoard) * 64 < gib * 1024:
        hoard.append(numpy.ones(64 * 2**20, dtype=numpy.uint8))
    time.sleep(3600)
    return Outcome(Status.UNKNOWN, message=f"held {gib} GiB without being stopped")


@register("test-exit")
class Exit(Solver):
    description = "test only: raises SystemExit"

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        raise SystemExit(3)


@register("test-interrupt")
class Interrupt(Solver):
    description = "test only: raises KeyboardInterrupt"

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        raise KeyboardInterrupt


@register("test-time")
class Time(CpSat):
    description = "test only: CP-SAT's answer with a forged time"
    options = {**CpSat.options, "time": Option("nan", "the time to report, as a text")}

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, seed: int | None = None, **options: Any) -> Result:
        result = super().solve(puzzle, time_limit=time_limit, seed=seed)
        return dataclasses.replace(result, time=float(self.settings["time"]))


@register("test-digits")
class Digits(CpSat):
    description = "test only: CP-SAT's solution with values that are not digits"
    options = {**CpSat.options, "kind": Option("half", "half, float, bool, str or numpy")}

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, seed: int | None = None, **options: Any) -> Result:
        import numpy

        result = super().solve(puzzle, time_limit=time_limit, seed=seed)
        change = {
            "half": lambda v: v + 0.5, "float": float, "bool": lambda v: True if v == 1 else v, "str": str,
            "numpy": numpy.int64,
        }[self.settings["kind"]]
        values = tuple(change(v) for v in result.solution.values)
        return dataclasses.replace(result, solution=types.SimpleNamespace(values=values))


@register("test-chatty")
class Chatty(Solver):
    description = "test only: a huge message"
    options = {"mb": Option(100, "megabytes of message", minimum=0)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return Outcome(Status.UNKNOWN, message="x" * (opts["mb"] * 10**6))


@register("test-session")
class Session(Solver):
    description = "test only: leaves a child in a session of its own, then sleeps"
    options = {"pidfile": Option("", "file to append the child's pid to")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        child = subprocess.Popen(["sleep", "300"], start_new_session=True)
        with open(opts["pidfile"], "a") as stream:
            stream.write(f"{child.pid}\n")
        time.sleep(3600)
        return Outcome(Status.UNKNOWN)


@register("test-abort")
class Abort(Solver):
    description = "test only: aborts the process"

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        faulthandler.disable()  # pytest's faulthandler would print a traceback from the worker
        os.abort()


@register("test-wrong")
class Wrong(Solver):
    description = "test only: returns a bogus SOLVED result, bypassing the template method"

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, seed: int | None = None, **options: Any) -> Result:
        bogus = Solution(puzzle, (puzzle.values[0],) * puzzle.size)
        return Result(Status.SOLVED, bogus, 0.001, {}, "", self.spec)


@register("test-liar")
class Liar(Solver):
    description = "test only: claims every puzzle is unsatisfiable"
    complete = True

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return Outcome(Status.UNSATISFIABLE)


@register("test-bigstat")
class BigStat(CpSat):
    """`test-bigstat`: CP-SAT's answer with stats JSON cannot hold as they are: `huge` an int
    of `digits` digits, `wide` 2**64, `nan` a NaN."""

    description = "test only: CP-SAT's answer with oversized stats"
    options = {**CpSat.options, "digits": Option(5000, "digits of the `huge` stat", minimum=1)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        outcome = super()._solve(puzzle, opts, limits, seed)
        huge = 10 ** (opts["digits"] - 1)
        return dataclasses.replace(outcome, stats={**outcome.stats, "huge": huge, "wide": 2**64, "nan": float("nan")})


# --------------------------------------------------------------------- wrong answers (tests/test_wrong_answers.py)
BROKEN_KINDS = ("given", "sum", "repeat", "range", "length", "huge")
"""The ways `broken` spoils a solution: a given changed, a sum off (a free cell changed to a
value its runs lack), a repeat in a run, a value out of range, one value missing, and a value of
5,000 digits (more than Python will print)."""


def broken(puzzle: Puzzle, values: list[int], kind: str) -> list[int]:
    """`values` (a valid solution) with one rule broken the `kind` way (`BROKEN_KINDS`)."""
    lo, hi = puzzle.values
    free = next(c for c in range(puzzle.size) if c not in puzzle.givens)
    if kind in ("given", "sum"):  # a value its runs lack: no repeat, only the given and the sums broken
        cell = next(iter(puzzle.givens)) if kind == "given" else free
        used = {values[c] for r in puzzle.cell_groups[cell] for c in puzzle.groups[r].cells}
        values[cell] = next(v for v in range(lo, hi + 1) if v not in used)
    elif kind == "repeat":
        run = next(r for r in puzzle.groups if len(r) > 1)
        values[run.cells[1]] = values[run.cells[0]]
    elif kind == "range":
        values[free] = hi + 1
    elif kind == "length":
        values.pop()
    elif kind == "huge":
        values[free] = 10**4999
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return values


@register("test-bad")
class Bad(CpSat):
    description = "test only: CP-SAT's solution with one rule broken (`kind`), returned the documented way"
    options = {**CpSat.options, "kind": Option("sum", ", ".join(BROKEN_KINDS), choices=BROKEN_KINDS)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        found = super()._solve(puzzle, opts, limits, seed)
        if found.status is not Status.SOLVED:
            return found
        return Outcome(Status.SOLVED, broken(puzzle, list(found.values), opts["kind"]), found.stats)


MUTATIONS = ("total", "groups", "givens")


@register("test-mutate")
class Mutate(CpSat):
    description = ("test only: a wrong answer, and the Puzzle object it was given changed to accept it: run totals "
                   "(object.__setattr__ on each Run), the run list emptied, or a given changed in the dict "
                   "behind `givens` (with the totals)")
    options = {**CpSat.options, "how": Option("total", ", ".join(MUTATIONS), choices=MUTATIONS)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        import gc

        found = super()._solve(puzzle, opts, limits, seed)
        how = opts["how"]
        values = broken(puzzle, list(found.values), "given" if how == "givens" else "sum")
        if how == "groups":
            object.__setattr__(puzzle, "groups", ())
            return Outcome(Status.SOLVED, values, found.stats)
        if how == "givens":
            inner = next(d for d in gc.get_referents(puzzle.givens) if isinstance(d, dict))
            inner.update({cell: values[cell] for cell in inner})
        for run in puzzle.groups:
            object.__setattr__(run, "total", sum(values[c] for c in run.cells))
        return Outcome(Status.SOLVED, values, found.stats)


# --- worker lifecycle (tests/test_worker_lifecycle.py) ---------------------------------------
# - `test-exit0`: ends its worker with os._exit(0) in the middle of the job
# - `test-warmexit`: its warm-up ends the process with os._exit(0)
# - `test-leave`: starts a child that outlives the job (`how`: session = in a session of its
#   own, daemon = double-forked, its parent gone, grandchild = a child with a child of its own in
#   a session of its own, all = the three), appends their pids to `pidfile`; first appends to
#   `seen` each pid of `pidfile` still running (a child an earlier job left behind); `then`
#   return = answers UNKNOWN, kill = SIGKILLs its own worker, hang = sleeps past any limit


@register("test-exit0")
class ExitZero(Solver):
    description = "test only: ends its worker with status 0 mid-job"

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        os._exit(0)


@register("test-warmexit")
class WarmExit(Solver):
    description = "test only: its warm-up ends the process with status 0"

    @classmethod
    def warm_up(cls) -> None:
        os._exit(0)

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return Outcome(Status.UNKNOWN, message="ran although its warm-up ends the process")


@register("test-leave")
class Leave(Solver):
    description = "test only: leaves a child running after the job"
    options = {"pidfile": Option("", "file to append the child's pid to"),
               "seen": Option("", "file to append the pids of earlier children still running to"),
               "how": Option("session", "session, daemon, grandchild or all"),
               "then": Option("return", "return, kill (its worker) or hang")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        import signal

        import psutil

        pidfile = opts["pidfile"]
        earlier = Path(pidfile).read_text().split() if os.path.exists(pidfile) else []
        for pid in earlier:
            try:
                running = psutil.Process(int(pid)).status() != psutil.STATUS_ZOMBIE
            except psutil.Error:
                running = False
            if running:
                with open(opts["seen"], "a") as stream:
                    stream.write(f"{pid}\n")
        how, pids = opts["how"], []
        if how in ("session", "all"):
            pids.append(subprocess.Popen(["sleep", "300"], start_new_session=True).pid)
        if how in ("daemon", "all"):
            pids.append(_daemon())
        if how in ("grandchild", "all"):
            pids += _grandchild()
        with open(pidfile, "a") as stream:
            stream.write("".join(f"{pid}\n" for pid in pids))
        if opts["then"] == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if opts["then"] == "hang":
            time.sleep(3600)
        return Outcome(Status.UNKNOWN, message="left a child behind")


def _grandchild() -> list[int]:
    """Fork a child that starts `sleep 300` in a session of its own, then becomes `sleep 300`
    itself; their pids."""
    read_fd, write_fd = os.pipe()
    child = os.fork()
    if child == 0:
        grandchild = subprocess.Popen(["sleep", "300"], start_new_session=True)
        os.write(write_fd, f"{grandchild.pid}\n".encode())
        os.execvp("sleep", ["sleep", "300"])
    os.close(write_fd)
    with os.fdopen(read_fd) as stream:
        return [child, int(stream.readline())]


def _daemon() -> int:
    """Double-fork a `sleep 300` in a session of its own whose parent is gone; its pid."""
    read_fd, write_fd = os.pipe()
    first = os.fork()
    if first == 0:
        os.setsid()
        second = os.fork()
        if second == 0:
            os.execvp("sleep", ["sleep", "300"])
        os.write(write_fd, f"{second}\n".encode())
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as stream:
        pid = int(stream.readline())
    os.waitpid(first, 0)
    return pid


# --- campaigns that always finish (tests/test_campaign_faults.py) -----------------------------
# - `test-fault`: does step number seed mod len(plan) of `plan` (a campaign's repeat r has seed r),
#   then solves with CP-SAT: kill = SIGKILL its own worker, stop = SIGSTOP it, mute = wait for
#   a forked solver child that stops itself (it never answers), solve = nothing


FAULTS = ("kill", "stop", "mute", "solve")


@register("test-fault")
class Fault(CpSat):
    description = "test only: kills or stops its own worker (by seed), else CP-SAT"
    options = {**CpSat.options, "plan": Option("kill/stop/solve", "steps separated by /: " + ", ".join(FAULTS))}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        import signal

        plan = opts["plan"].split("/")
        step = plan[seed % len(plan)]
        if step in ("kill", "stop"):
            os.kill(os.getpid(), signal.SIGKILL if step == "kill" else signal.SIGSTOP)
        if step == "mute":
            from kakuro.isolation import call_with_deadline

            call_with_deadline(_stop_self, deadline=Deadline.after(3600))
        return super()._solve(puzzle, opts, limits, seed)


def _stop_self() -> None:
    """In a solver child: stop this process (SIGSTOP), so that it never answers."""
    import signal

    os.kill(os.getpid(), signal.SIGSTOP)


# - `test-signal`: sends `signal` (INT, TERM or HUP) `to` its parent process or its parent's
#   process group, waits 0.2 s, then solves with CP-SAT
# - `test-warmhang`: its warm-up sleeps an hour (first appending a line to the file named by
#   the environment variable KAKURO_TEST_WARM_UPS, when set)


@register("test-signal")
class SignalParent(CpSat):
    description = "test only: signals its parent (or its parent's group), then CP-SAT"
    options = {**CpSat.options, "signal": Option("TERM", "INT, TERM or HUP"), "to": Option("parent", "parent or group")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        import signal

        signum = getattr(signal, f"SIG{opts['signal']}")
        if opts["to"] == "group":
            os.killpg(os.getpgid(os.getppid()), signum)
        else:
            os.kill(os.getppid(), signum)
        time.sleep(0.2)
        return super()._solve(puzzle, opts, limits, seed)


@register("test-warmhang")
class WarmHang(Solver):
    description = "test only: its warm-up hangs"

    @classmethod
    def warm_up(cls) -> None:
        if os.environ.get("KAKURO_TEST_WARM_UPS"):
            with open(os.environ["KAKURO_TEST_WARM_UPS"], "a") as stream:
                stream.write("warm-up\n")
        time.sleep(3600)

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return Outcome(Status.UNKNOWN, message="ran although its warm-up hangs")
