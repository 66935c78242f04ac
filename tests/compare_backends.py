"""Test-only backends for the compare harness; never shipped. Load them by file path:
`--import tests/compare_backends.py` (a dotted `tests.compare_backends` would be shadowed by
any installed distribution that ships a top-level `tests` package, as pychoco 0.4 does).

- `test-nap`: CP-SAT after sleeping `nap` seconds (a correct, slow-ish backend)
- `test-sleep`: ignores its time limit and sleeps; first appends "pid start-time" to `pidfile`
- `test-hog`: allocates memory until it fails (MemoryError under RLIMIT_AS)
- `test-abort`: calls os.abort() (the worker dies of SIGABRT)
- `test-wrong`: overrides `solve` itself and returns a SOLVED result with a bogus grid, so
  only the harness's own verification can catch it
- `test-liar`: claims every puzzle is unsatisfiable
- `test-spin`: busy-loops `spin` seconds of CPU, then solves with CP-SAT
- `test-pid`: appends its process id to `pidfile`, then solves with CP-SAT (which processes ran jobs)
"""

from __future__ import annotations

import faulthandler
import os
import time
from collections.abc import Mapping
from typing import Any

from kakuro.models.cpsat import CpSat
from kakuro.puzzle import Puzzle, Solution
from kakuro.solver import Deadline, Option, Outcome, Result, Solver, Status, register


@register("test-nap")
class Nap(CpSat):
    description = "test only: CP-SAT after a nap"
    options = {**CpSat.options, "nap": Option(0.0, "seconds to sleep first", minimum=0.0)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        time.sleep(opts["nap"])
        return super()._solve(puzzle, opts, deadline, seed)


@register("test-spin")
class Spin(CpSat):
    description = "test only: CP-SAT after busy-looping"
    options = {**CpSat.options, "spin": Option(0.0, "seconds of CPU to burn first", minimum=0.0)}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        end = time.perf_counter() + opts["spin"]
        while time.perf_counter() < end:
            pass
        return super()._solve(puzzle, opts, deadline, seed)


@register("test-pid")
class Pid(CpSat):
    description = "test only: CP-SAT after noting its process id"
    options = {**CpSat.options, "pidfile": Option("", "file to append the process id to")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        with open(opts["pidfile"], "a") as stream:
            stream.write(f"{os.getpid()}\n")
        return super()._solve(puzzle, opts, deadline, seed)


@register("test-sleep")
class Sleep(Solver):
    description = "test only: sleeps past any limit"
    options = {"pidfile": Option("", "file to append 'pid start-time' to")}

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        if opts["pidfile"]:
            with open(opts["pidfile"], "a") as stream:
                stream.write(f"{os.getpid()} {time.time()}\n")
        time.sleep(3600)
        return Outcome(Status.UNKNOWN)


@register("test-hog")
class Hog(Solver):
    description = "test only: allocates until memory runs out"

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        import numpy

        hoard = []
        for _ in range(1024):  # at most 256 GiB of address space, reserved but never touched
            hoard.append(numpy.zeros(256 * 2**20, dtype=numpy.uint8))
        return Outcome(Status.UNKNOWN, message=f"allocated {len(hoard) // 4} GiB without failing")


@register("test-abort")
class Abort(Solver):
    description = "test only: aborts the process"

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
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

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        return Outcome(Status.UNSATISFIABLE)
