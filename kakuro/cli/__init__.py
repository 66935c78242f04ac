"""The `kakuro` command line: solve, count, check, convert, render, explain, hint, backends,
generate, compare, report, certify, verify.

Argument handling is one module per group of subcommands (`solving`: solve, count, check;
`puzzles`: convert, render; `deduction`: explain, hint; `backends`; `generate`; `campaigns`:
`certify`: certify and verify; compare and report, which forward their arguments to `python -m kakuro.compare` /
`python -m kakuro.report`); what they print is `present`; what they share (limits, exit codes,
reading puzzles) is `common`. Each group's `add_commands` declares its subcommands, each with
the function that runs it.

Exit codes: 0 solved (or done), 1 error (bad input, an invalid solution), 2 usage,
3 unsatisfiable, 4 limit reached, 5 wrong answer (the backend's solution failed the checker),
130 interrupted (Ctrl-C); `compare` and `report` exit as their programs do. Errors print one
line, never a traceback. Every solve has a time limit (DEFAULT_TIME_LIMIT unless
`--time-limit` says otherwise), and no file is replaced without `--force`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import kakuro
from kakuro.arguments import run_command
from kakuro.cli import backends, campaigns, certify, deduction, generate, puzzles, solving
from kakuro.cli.common import (
    DEFAULT_GENERATE_LIMIT,
    DEFAULT_TIME_LIMIT,
    EXIT_ERROR,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_UNSATISFIABLE,
    EXIT_USAGE,
    EXIT_WRONG,
    CommandParser,
)
from kakuro.cli.deduction import EXPLAIN_FORMATS
from kakuro.engine.startup import without_numba_blas
from kakuro.errors import KakuroError, UnknownBackendError
from kakuro.registry import import_plugins

__all__ = [
    "DEFAULT_GENERATE_LIMIT", "DEFAULT_TIME_LIMIT", "EXIT_ERROR", "EXIT_LIMIT", "EXIT_OK", "EXIT_UNSATISFIABLE", "EXIT_USAGE",
    "EXIT_WRONG", "EXPLAIN_FORMATS", "build_parser", "main",
]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: sys.argv[1:]) and return the exit code."""
    without_numba_blas()  # the command's process is the toolkit's: a quarter second off each start
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help (0) and on usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_OK

    def body() -> int:
        try:
            import_plugins(getattr(args, "imports", ()))  # (compare imports its own, in its workers too)
            return int(args.run(args))
        except UnknownBackendError as exc:  # a misspelt -b is a usage error, as a misspelt flag is
            print(f"kakuro: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except KakuroError as exc:
            print(f"kakuro: {exc}", file=sys.stderr)
            return EXIT_ERROR

    return run_command("kakuro", body)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="kakuro",
        description="Solve, check, convert and generate Kakuro puzzles with interchangeable backends; "
        "compare backends and report the results.",
        epilog="exit codes: 0 solved, 1 error, 2 usage, 3 unsatisfiable, 4 limit reached, 5 wrong answer (a backend bug); "
        "compare and report: see their --help",
    )
    parser.add_argument("--version", action="version", version=f"kakuro {kakuro.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=CommandParser)
    for group in (solving, puzzles, deduction, backends, generate, campaigns, certify):
        group.add_commands(commands)
    return parser
