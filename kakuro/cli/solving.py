"""`kakuro solve`, `kakuro count` and `kakuro check`: argument handling (what they print is
`kakuro.cli.present`)."""

from __future__ import annotations

import argparse
import json
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import kakuro
from kakuro.cli.arguments import at_least
from kakuro.cli.common import (
    DEFAULT_TIME_LIMIT,
    PUZZLE_ARGUMENT,
    add_budget,
    add_imports,
    add_time_limit,
    budget_of,
    pick,
    pick_puzzles,
    read_puzzles,
    warm,
)
from kakuro.cli.exits import EXIT_CODES, EXIT_LIMIT, EXIT_OK, EXIT_UNSATISFIABLE, EXIT_WRONG, worst
from kakuro.cli.present import (
    check_lines,
    count_line,
    count_record,
    print_result,
    result_record,
)
from kakuro.cli.streams import output_to_stderr
from kakuro.errors import UsageError
from kakuro.formats.solution import read_solution
from kakuro.outcome import Count, Result, Status
from kakuro.puzzle import Puzzle
from kakuro.solver import Solver

T = TypeVar("T", Result, Count)


def add_commands(commands: Any) -> None:
    """Add this module's subcommands to the `kakuro` parser's subparsers."""
    _add_solve(commands)
    _add_count(commands)
    _add_check(commands)


def _add_per_puzzle(command: argparse.ArgumentParser, verb: str, backend_help: str, format_help: str) -> None:
    """The arguments `solve` and `count` share: FILE, backend, limits, seed, output format and
    which puzzles of the file."""
    command.add_argument("file", metavar="FILE", help=PUZZLE_ARGUMENT)
    command.add_argument("-b", "--backend", default=kakuro.DEFAULT_BACKEND, metavar="SPEC",
                         help=f"{backend_help} (default: %(default)s)")
    add_imports(command)
    add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds per puzzle")
    add_budget(command, "each puzzle")
    command.add_argument("--seed", type=at_least(0), metavar="N", help="random seed (non-negative)")
    command.add_argument("--format", choices=("text", "json"), default="text", help=format_help)
    which = command.add_mutually_exclusive_group()
    which.add_argument("--index", type=at_least(1), metavar="K", help=f"{verb} the K-th puzzle (default 1)")
    which.add_argument("--all", action="store_true", help=f"{verb} every puzzle of the file")


def _for_each_puzzle(args: argparse.Namespace, answers: Callable[[Solver, Iterator[Puzzle]], Iterator[T]],
                     show: Callable[[str, Puzzle, T], Status]) -> int:
    """Solve or count the chosen puzzles of FILE, each read when reached (`answers(solver,
    puzzles)`: one answer per puzzle, in order, computed when asked for) and print each as it comes (`show(name,
    puzzle, answer)` prints it and returns its status); the exit code is the worst over them.
    The backend spec is checked before the file is read."""
    with output_to_stderr(args.format == "json"):  # a backend's own output (a plug-in's import) keeps off the JSON
        solver = kakuro.get_solver(args.backend)
    solver.checked_budget(budget_of(args))  # a budget it cannot honour: refused before the file is read
    chosen = pick_puzzles(args, read_puzzles(args.file))
    with output_to_stderr(args.format == "json"):
        solver = warm(solver)
    named: deque[tuple[str, Puzzle]] = deque()  # the puzzles handed out and not yet answered, in order

    def puzzles() -> Iterator[Puzzle]:
        for name, puzzle in chosen:
            named.append((name, puzzle))
            yield puzzle

    found = answers(solver, puzzles())
    codes: list[int] = []
    while True:
        with output_to_stderr(args.format == "json"):
            answer = next(found, None)
        if answer is None:
            return worst(codes)
        name, puzzle = named.popleft()
        codes.append(EXIT_CODES[show(name, puzzle, answer)])


def _add_solve(commands: Any) -> None:
    command = commands.add_parser("solve", help="solve a puzzle and print its solution")
    _add_per_puzzle(command, "solve", "backend spec name[:key=value,...]",
                    "text (a grid) or json (one object per puzzle, one a line)")
    command.set_defaults(run=_run_solve)


def _run_solve(args: argparse.Namespace) -> int:
    def show(name: str, puzzle: Puzzle, result: Result) -> Status:
        if args.format == "json":
            print(json.dumps(result_record(name, result)))
        else:
            print_result(name, puzzle, result)
        return result.status

    return _for_each_puzzle(
        args, lambda solver, puzzles: solver.solve_many(puzzles, time_limit=args.time_limit, seed=args.seed,
                                                     budget=budget_of(args)), show)


def _add_count(commands: Any) -> None:
    command = commands.add_parser(
        "count",
        help="count solutions (is the puzzle unique?)",
        description="Counts the solutions of a puzzle up to --limit with a complete backend and says "
        "\"exactly N\" when the search finished or \"at least N\" when it stopped at the limit or the time "
        f"limit. Exit {EXIT_OK} when a solution exists, {EXIT_UNSATISFIABLE} when none does, {EXIT_LIMIT} when the time "
        "ran out first.",
    )
    _add_per_puzzle(command, "count", "a complete backend spec",
                    "text (one line per puzzle) or json (one object per puzzle, one a line)")
    command.add_argument("--limit", type=at_least(1), default=2, metavar="N",
                         help="stop after N solutions (default: %(default)s, enough to tell unique from not)")
    command.set_defaults(run=_run_count)


def _run_count(args: argparse.Namespace) -> int:
    if not kakuro.get_solver(args.backend).complete:
        raise UsageError(f"count needs a complete backend (kakuro backends lists them); {args.backend} is incomplete: "
                         "it finds solutions, never proves there are no more")

    def counts(solver: Solver, puzzles: Iterator[Puzzle]) -> Iterator[Count]:
        return (solver.count_solutions(p, limit=args.limit, time_limit=args.time_limit, seed=args.seed,
                                       budget=budget_of(args)) for p in puzzles)

    def show(name: str, puzzle: Puzzle, found: Count) -> Status:
        if args.format == "json":
            print(json.dumps(count_record(name, found)))
        else:
            print(count_line(name, found, args.limit))
        return found.status

    return _for_each_puzzle(args, counts, show)


def _add_check(commands: Any) -> None:
    command = commands.add_parser(
        "check",
        help="check a solution against a puzzle",
        description="SOLUTION is a JSON grid (a list of rows, or an object with a \"solution\" grid, "
        "as `kakuro solve --format json` prints) or a text grid with a digit in every white cell "
        f"(as `kakuro solve` prints). Exit {EXIT_OK} if valid, {EXIT_WRONG} if not (a wrong answer).",
    )
    command.add_argument("puzzle", metavar="PUZZLE", help="the puzzle file")
    command.add_argument("solution", metavar="SOLUTION", help="the solution file (JSON or text grid)")
    command.add_argument("--index", type=at_least(1), default=1, metavar="K", help="check the K-th puzzle of PUZZLE")
    command.set_defaults(run=_run_check)


def _run_check(args: argparse.Namespace) -> int:
    puzzle = pick(read_puzzles(args.puzzle), args.index, args.puzzle)
    problems = puzzle.check(read_solution(Path(args.solution)))
    print("\n".join(check_lines(problems)))
    return EXIT_WRONG if problems else EXIT_OK
