"""Backend `minizinc`: the project's MiniZinc model (`kakuro.formats.minizinc`: `alldifferent`
and `sum` per run, givens fixed) solved by any solver the `minizinc` executable lists
(`minizinc:solver=NAME`, Gecode by default: Debian's `minizinc` package ships it).

The executable is run directly (`kakuro.programs`), not through the `minizinc`
Python package: the package drives the same executable through asyncio, and running it here
gives it the same process handling as `dimacs` (a session of its own, the whole process group
killed at the deadline and on Ctrl-C, output bounded) with no extra dependency. Its
`--json-stream` messages are read: solutions (`--output-mode json`, the cells' values `x`),
the final status (ALL_SOLUTIONS, UNSATISFIABLE, UNKNOWN, ERROR), errors and statistics.

`solver` is a solver id (`org.gecode.gecode`), its last part (`gecode`) or its name, as
`minizinc --solvers` lists them; one it does not list, or a graphical one (Gecode Gist), is a
BackendOptionError naming those it lists. A listed solver that fails to start (MiniZinc lists
CPLEX, Gurobi, SCIP and Xpress wherever it is installed; their libraries may be absent) gives
an ERROR with MiniZinc's message.

Time limit: MiniZinc's own `--time-limit` (flattening included) is the deadline; the process
is killed `GRACE` seconds after it if still running (UNKNOWN). Counting to `limit` is `-n
limit`: the search finished when MiniZinc says ALL_SOLUTIONS (or UNSATISFIABLE). A solver
that does not take `-n` (the MIP ones) counts by blocking: a run per solution, each run's
model excluding those found (`constraint exists(i in 1..n_cells)(x[i] != ...)`).

Stats (Gecode's names; Chuffed and others use the same for what they have): `nodes`, `fails`
(failures), `propagations`, `restarts`, `num_vars` and `num_constraints` of the FlatZinc
handed to the solver (flatIntVars + flatBoolVars, flatIntConstraints + flatBoolConstraints),
`build_time` (flatTime: MiniZinc's compilation to FlatZinc), `search_time` (the solver's
solveTime), `peak_depth`.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from kakuro.clock import Deadline
from kakuro.errors import BackendOptionError, BackendUnavailableError
from kakuro.formats.minizinc import dumps
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Enumeration, Stat
from kakuro.programs import Program, ProgramRun, modified, run_program
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.solver import EnumeratingSolver

GRACE = 1.0
"""Seconds after the deadline before a MiniZinc that has not stopped on its own is killed."""

ENGINE = Program("minizinc", "minizinc", candidates=("minizinc",), version_args=("--version",),
                 install="install MiniZinc (apt-get install minizinc, or https://www.minizinc.org)")

_STATS = {
    "nodes": "nodes", "failures": "fails", "propagations": "propagations", "restarts": "restarts",
    "solveTime": "search_time", "flatTime": "build_time", "peakDepth": "peak_depth",
}
"""MiniZinc/solver statistic -> the stats vocabulary."""
_SUMMED = {"num_vars": ("flatIntVars", "flatBoolVars", "flatFloatVars", "flatSetVars"),
           "num_constraints": ("flatIntConstraints", "flatBoolConstraints", "flatFloatConstraints",
                               "flatSetConstraints")}


class MiniZincFailed(Exception):
    """MiniZinc or its solver failed (one line: what it said). The template makes it an ERROR."""


PROBE_SECONDS = 5.0
"""Longest wait for `minizinc --solvers-json` (it answers in about 50 ms here): a MiniZinc that
does not answer within it is unavailable."""
_LISTED: dict[tuple[tuple[str, ...], float], tuple[dict[str, Any], ...]] = {}
"""What each executable (path, arguments, modification time) listed."""


def listed_solvers(argv: Sequence[str], deadline: Deadline = Deadline()) -> tuple[dict[str, Any], ...] | None:
    """What `minizinc --solvers-json` lists (cached per executable); None when the caller's
    `deadline` passes first. BackendUnavailableError, in one line, when MiniZinc fails or does
    not answer within PROBE_SECONDS."""
    key = (tuple(argv), modified(argv[0]))
    if key in _LISTED:
        return _LISTED[key]
    own = Deadline.after(PROBE_SECONDS)
    callers = deadline.end is not None and own.end is not None and deadline.end < own.end
    run = run_program([*argv, "--solvers-json"], deadline if callers else own, keep=(b"",))
    if run.timed_out and callers:
        return None
    command = f"{shlex.join(argv)} --solvers-json"
    if run.timed_out:
        raise BackendUnavailableError(f"minizinc is unavailable: {command} did not answer within {PROBE_SECONDS:g} s")
    try:
        found = json.loads("\n".join(run.kept))
    except json.JSONDecodeError:
        found = None
    if run.returncode != 0 or not isinstance(found, list):
        said = run.said_suffix() if run.returncode != 0 else ": its output is not a JSON list"
        raise BackendUnavailableError(f"minizinc is unavailable: {command} failed ({run.ended()}){said}"[:400])
    _LISTED[key] = tuple(s for s in found if isinstance(s, dict) and isinstance(s.get("id"), str))
    return _LISTED[key]


def short_name(config: Mapping[str, Any]) -> str:
    return str(config["id"]).rsplit(".", 1)[-1]


def find_solver(argv: Sequence[str], name: str, deadline: Deadline = Deadline()) -> dict[str, Any] | None:
    """The configuration of the solver `name` means (an id, its last part or a name, any case);
    None when the caller's `deadline` passes while MiniZinc is asked (`listed_solvers`).
    BackendOptionError naming the usable ones when MiniZinc lists none such, or a graphical one."""
    configs = listed_solvers(argv, deadline)
    if configs is None:
        return None
    usable = ", ".join(sorted(short_name(c) for c in configs if not c.get("isGUIApplication"))) or "none"
    wanted = name.strip().lower()
    for config in configs:
        if wanted in (str(config["id"]).lower(), short_name(config).lower(), str(config.get("name", "")).lower()):
            if config.get("isGUIApplication"):
                raise BackendOptionError(
                    f"MiniZinc's solver {name!r} ({config.get('name', config['id'])}) is graphical; it lists: {usable}")
            return config
    raise BackendOptionError(f"MiniZinc has no solver {name!r} here; it lists: {usable}")


@register("minizinc")
class MiniZinc(EnumeratingSolver):
    """The MiniZinc model of a puzzle, solved by any solver MiniZinc lists (Gecode by default)."""

    paradigm = "MiniZinc"
    description = "the MiniZinc model (alldifferent and sum per run) through the minizinc executable, any solver it lists"
    supports_seed = False
    engine = ENGINE
    options = {
        "solver": Option("gecode", "a solver `minizinc --solvers` lists: its id, the id's last part or its name"),
    }

    def prepare_engine(self, settings: Mapping[str, Any], everything: bool = True) -> None:
        """With `everything` (a warm-up), check that MiniZinc lists the solver (BackendOptionError
        naming those it does); a solve asks it under its own deadline instead."""
        if everything:
            find_solver(ENGINE.command(), settings["solver"])

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        deadline = limits.deadline
        argv = ENGINE.command()
        config = find_solver(argv, opts["solver"], deadline)
        if config is None:
            return Enumeration([], False, {}, "time limit reached while asking MiniZinc for its solvers")
        flags = set(config.get("stdFlags") or ())
        if limit == 1 or "-n" in flags:
            return self._run(argv, config, puzzle, limit, deadline, ())
        found: list[list[int]] = []  # a solver without -n (the MIP ones): a run per solution, each blocked
        stats: dict[str, Stat] = {}
        while len(found) < limit:
            one = self._run(argv, config, puzzle, 1, deadline, found)
            stats = _summed(stats, one.stats)
            if not one.solutions:
                return Enumeration(found, one.exhausted, stats, one.message)
            found.append(list(one.solutions[0]))
        return Enumeration(found, False, stats)

    def _run(self, argv: Sequence[str], config: Mapping[str, Any], puzzle: Puzzle, limit: int, deadline: Deadline,
             blocked: Sequence[Sequence[int]]) -> Enumeration:
        """One MiniZinc run: up to `limit` solutions of `puzzle`, none of `blocked`."""
        flags = set(config.get("stdFlags") or ())
        with tempfile.TemporaryDirectory(prefix="kakuro-minizinc-") as folder:
            path = os.path.join(folder, "puzzle.mzn")
            with open(path, "w", encoding="utf-8") as file:
                file.write(dumps([puzzle]))
                file.writelines(f"constraint exists(i in 1..n_cells)(x[i] != {list(values)}[i]);\n" for values in blocked)
            command = [*argv, "--solver", str(config["id"]), "--json-stream", "--output-mode", "json"]
            command += ["--statistics"] if "-s" in flags else []
            command += ["-n", str(limit)] if limit > 1 else []
            remaining = deadline.remaining()
            if remaining is not None:
                if remaining <= 0:
                    return Enumeration([], False, {}, "time limit reached")
                command += ["--time-limit", str(max(1, math.floor(remaining * 1000)))]
            killed_at = deadline.later(GRACE)
            run = run_program([*command, path], killed_at, keep=(b"{",))
        return read_messages(run, puzzle.size, limit)


def _summed(before: Mapping[str, Stat], after: Mapping[str, Stat]) -> dict[str, Stat]:
    """Stats of two runs: counters and times added, sizes (`num_*`) of the last."""
    out = dict(before)
    for key, value in after.items():
        previous = out.get(key)
        if key.startswith("num_") or not isinstance(previous, (int, float)) or not isinstance(value, (int, float)):
            out[key] = value
        else:
            out[key] = previous + value
    return out


def read_messages(run: ProgramRun, size: int, limit: int) -> Enumeration:
    """The Enumeration of MiniZinc's --json-stream messages; MiniZincFailed, in one line,
    when it failed or said nothing usable."""
    who = "minizinc"
    solutions: list[list[int]] = []
    stats: dict[str, Stat] = {}
    status = ""
    errors: list[str] = []
    for line in run.kept:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short, or not MiniZinc's
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "solution":
            solutions.append(_values(message, size))
        elif kind == "status":
            status = str(message.get("status", ""))
        elif kind == "statistics" and isinstance(message.get("statistics"), dict):
            _add_stats(stats, message["statistics"])
        elif kind == "error":
            what, said = message.get("what", "error"), str(message.get("message", "")).strip()
            errors.append(f"{what}: {said.splitlines()[0] if said else ''}".strip(": "))
    if run.overflow:
        raise MiniZincFailed(f"{who} printed more than kakuro keeps; its answer was cut")
    if run.timed_out:
        return Enumeration(solutions, False, stats, "time limit reached")
    if errors or status == "ERROR":
        raise MiniZincFailed(f"{who} failed: {errors[0] if errors else run.said() or run.ended()}"[:400])
    if run.returncode != 0:
        raise MiniZincFailed(f"{who} failed ({run.ended()}){run.said_suffix()}")
    if status == "UNSATISFIABLE":
        if solutions:
            raise MiniZincFailed(f"{who} said UNSATISFIABLE after {len(solutions)} solutions")
        return Enumeration([], True, stats)
    if status == "ALL_SOLUTIONS":
        return Enumeration(solutions, True, stats)
    if len(solutions) >= limit:
        return Enumeration(solutions[:limit], False, stats)
    if status == "UNKNOWN" or (status == "" and solutions):
        return Enumeration(solutions, False, stats, "MiniZinc stopped at its time limit")
    if status == "":
        raise MiniZincFailed(f"{who} gave no answer ({run.ended()}){run.said_suffix()}")
    return Enumeration(solutions, False, stats, f"MiniZinc ended with status {status}")


def _values(message: Mapping[str, Any], size: int) -> list[int]:
    """The cells' values of a solution message (`output.json.x`)."""
    output = message.get("output")
    values = output.get("json", {}).get("x") if isinstance(output, dict) and isinstance(output.get("json"), dict) else None
    if not isinstance(values, list):
        raise MiniZincFailed("minizinc printed a solution without the cells' values (output.json.x)")
    if len(values) != size:
        raise MiniZincFailed(f"minizinc printed a solution of {len(values)} values for {size} cells")
    return values


def _add_stats(stats: dict[str, Stat], raw: Mapping[str, Any]) -> None:
    for key, value in raw.items():
        if key in _STATS and isinstance(value, (int, float)) and not isinstance(value, bool):
            stats[_STATS[key]] = value
    for name, keys in _SUMMED.items():
        found = [raw[k] for k in keys if isinstance(raw.get(k), int)]
        if found:
            stats[name] = sum(found)
