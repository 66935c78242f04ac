"""Backend `dimacs`: the `sat` backend's CNF (`kakuro.reasoning.cnf`, the combination
encoding) written as a DIMACS file (`kakuro.formats.dimacs`) and handed to any SAT solver that
is a program: `dimacs:cmd=PATH` runs `PATH file.cnf` and reads its answer in the SAT
competition's output format (`s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN`, the model in
`v` lines ending with 0, exit code 10 or 20).

`cmd` is a path or a name on PATH (taken whole when it names a program, so a path with spaces
works: `dimacs:cmd="/opt/my solver/kissat"`), else a command line split as a shell would
(`dimacs:cmd="cadical -q"`); the CNF file is the last argument. Without `cmd` the first of
`DEFAULT_SOLVERS` found on PATH runs, the way `sat` picks CaDiCaL: a user with kissat installed
expects `-b dimacs` to work as it is, and `-b all` to skip it where there is no solver (it is
then listed unavailable, saying which programs were looked for and how to name one).

The program runs in a session of its own under the deadline (`kakuro.programs`):
killed with everything it started at the deadline (UNKNOWN) and on Ctrl-C; its output bounded.
A program that cannot be found or run raises BackendUnavailableError; one that crashes, prints
no answer or a malformed one, or contradicts its exit code gives an ERROR whose message is one
line naming the program and what it did (and the last line it printed). A model is decoded
(`Encoding.decode`) and checked by the template as every backend's. An UNSATISFIABLE answer
is taken on the program's word (the format carries no proof).

Counting runs the program again on the CNF with a blocking clause per solution found.

Stats: `num_vars`, `num_clauses`, `build_time`, `calls` (programs run), and the `conflicts`,
`decisions`, `propagations` and `restarts` a solver reports in `c` lines the way kissat and
CaDiCaL do (`c conflicts: 12 ...`), summed over the calls.
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from kakuro.formats.dimacs import cnf_text
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Enumeration, Stat
from kakuro.programs import KEEP_BYTES, Program, ProgramRun, run_program
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import Encoding, encoded
from kakuro.reasoning.pysat_search import SOLVER_COUNTERS
from kakuro.registry import register
from kakuro.solver import EnumeratingSolver

DEFAULT_SOLVERS = ("kissat", "cadical", "cryptominisat5", "lingeling", "picosat")
"""Programs `cmd=""` looks for on PATH, in this order: each prints its model in `v` lines by
default (minisat writes it to a file, glucose only with -model: name those with `cmd`)."""

KEPT = (b"s ", b"v ", *(f"c {counter}".encode() for counter in SOLVER_COUNTERS))
"""The output lines read (the rest is chatter: only its end is kept, for error messages)."""
MAX_ANSWER_BYTES = KEEP_BYTES
"""Most bytes of those lines kept: a program printing more is an ERROR (its answer was cut)."""
_COUNTER_LINE = re.compile(r"^c\s+(" + "|".join(SOLVER_COUNTERS) + r")\s*:\s*(\d+)")
SATISFIABLE, UNSATISFIABLE, UNKNOWN = "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"


class ProgramFailed(Exception):
    """The program crashed, or its output is not an answer in the competition format: the
    message says why in one line. Not a KakuroError: the template makes it the solve's ERROR."""


def program(cmd: str) -> Program:
    """The Program that `cmd` names ("" for the first of `DEFAULT_SOLVERS` on PATH)."""
    if cmd.strip():
        return Program(cmd, cmd, candidates=(cmd,))
    return Program("sat-solver", "sat-solver", candidates=DEFAULT_SOLVERS,
                   install="install one (apt-get install kissat) or name a program with dimacs:cmd=PATH")


@register("dimacs")
class Dimacs(EnumeratingSolver):
    """The CNF of `sat` as a DIMACS file, solved by any SAT-competition program (`cmd`)."""

    paradigm = "SAT"
    description = "the sat backend's CNF written as DIMACS and solved by any SAT-competition program (cmd=PATH)"
    supports_seed = False
    engine = program("")
    options = {
        "cmd": Option("", "the SAT solver program: a path or a command line; the CNF file is its last argument "
                          f"(empty: the first of {', '.join(DEFAULT_SOLVERS)} on PATH)"),
    }

    def engine_for(self, settings: Mapping[str, Any]) -> Program:
        """The program `cmd` names (or the first SAT program found on PATH): what `solve`,
        `kakuro backends` and compare check, and what a record names as the engine."""
        return program(settings["cmd"])

    @classmethod
    def warm_up(cls) -> None:
        """Nothing to import or start: the program is checked per solve (`engine_for`)."""

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        argv = program(opts["cmd"]).command()
        enc, stats = encoded(puzzle)
        stats["calls"] = 0
        solutions: list[list[int]] = []
        blocking: list[list[int]] = []
        with tempfile.TemporaryDirectory(prefix="kakuro-dimacs-") as folder:
            path = os.path.join(folder, "puzzle.cnf")
            while len(solutions) < limit:
                if limits.deadline.expired():
                    return Enumeration(solutions, False, stats, "time limit reached")
                with open(path, "w", encoding="ascii") as file:
                    file.write(cnf_text(puzzle, enc, blocking))
                run = run_program([*argv, path], limits.deadline, keep=KEPT, keep_bytes=MAX_ANSWER_BYTES)
                stats["calls"] = int(stats["calls"]) + 1
                _add_counters(stats, run.kept)
                if run.timed_out:
                    return Enumeration(solutions, False, stats, "time limit reached")
                answer, values = read_answer(run, enc)
                if answer == UNKNOWN:
                    return Enumeration(solutions, False, stats, f"{_name(argv)} answered s UNKNOWN{run.said_suffix()}")
                if answer == UNSATISFIABLE:
                    return Enumeration(solutions, True, stats)
                assert values is not None
                solutions.append(values)
                blocking.append(enc.blocking_clause(values))
        return Enumeration(solutions, False, stats)


def read_answer(run: ProgramRun, enc: Encoding) -> tuple[str, list[int] | None]:
    """The program's answer (SATISFIABLE with the decoded values, UNSATISFIABLE or UNKNOWN);
    ProgramFailed saying, in one line, why its output is none (the solve's ERROR)."""
    who = _name(run.argv[:-1])
    if run.returncode is not None and run.returncode < 0:
        raise ProgramFailed(f"{who} crashed ({run.ended()}){run.said_suffix()}")
    if run.overflow:
        raise ProgramFailed(f"{who} printed more than {MAX_ANSWER_BYTES:,} bytes of answer lines; they were cut")
    answers = [line[2:].strip() for line in run.kept if line.startswith("s ")]
    if not answers:
        raise ProgramFailed(f"{who} printed no 's' answer line ({run.ended()}){run.said_suffix()}")
    if len(answers) > 1:
        raise ProgramFailed(f"{who} printed {len(answers)} 's' answer lines; the format has one")
    answer = answers[0]
    if answer not in (SATISFIABLE, UNSATISFIABLE, UNKNOWN):
        raise ProgramFailed(f"{who} answered 's {answer[:60]}', not SATISFIABLE, UNSATISFIABLE or UNKNOWN")
    expected = {SATISFIABLE: 10, UNSATISFIABLE: 20, UNKNOWN: 0}[answer]
    if run.returncode not in (expected, 0):
        raise ProgramFailed(f"{who} answered {answer} but ended with {run.ended()} ({expected} expected){run.said_suffix()}")
    if answer != SATISFIABLE:
        return answer, None
    model = _model(who, [line[2:] for line in run.kept if line.startswith("v ")], enc.num_vars)
    try:
        return answer, enc.decode(model)
    except ValueError as exc:
        raise ProgramFailed(f"{who} answered SATISFIABLE but {exc}") from None


def _model(who: str, lines: Sequence[str], num_vars: int) -> list[int]:
    """The literals of the `v` lines, which must end with 0; ProgramFailed when they do not."""
    literals: list[int] = []
    ended = False
    for line in lines:
        for word in line.split():
            if ended:
                raise ProgramFailed(f"{who}'s model goes on after its closing 0")
            try:
                literal = int(word)
            except ValueError:
                raise ProgramFailed(f"{who}'s model holds {word[:30]!r}, not a literal") from None
            if literal == 0:
                ended = True
            elif abs(literal) > num_vars:
                raise ProgramFailed(f"{who}'s model names variable {abs(literal)}; the CNF has {num_vars}")
            else:
                literals.append(literal)
    if not ended:
        what = "no 'v' lines" if not lines else "'v' lines that do not end with 0"
        raise ProgramFailed(f"{who} answered SATISFIABLE with {what}")
    return literals


def _add_counters(stats: dict[str, Stat], lines: Sequence[str]) -> None:
    for line in lines:
        found = _COUNTER_LINE.match(line)
        if found:
            stats[found.group(1)] = int(stats.get(found.group(1), 0)) + int(found.group(2))


def _name(argv: Sequence[str]) -> str:
    return shlex.join(argv)


