"""The `kakuro` command line: solve, count, check, convert, render, explain, hint, backends,
generate, compare, report, certify, verify, for Kakuro and the Sudoku family (Sudoku, Killer,
Jigsaw, Sudoku X).

Argument handling is one module per group of subcommands (`solving`: solve, count, check;
`puzzles`: convert, render; `deduction`: explain, hint; `backends`; `generate`; `compare`;
`report`; `certify`: certify and verify); what they print is `present` (and the report's own
renderers, `kakuro.report`); what they share (limits, reading puzzles) is `common`; the parser
and the argument types are `arguments`. Each group's `add_commands` declares its subcommands,
each with the function that runs it. `python -m kakuro.compare` and `python -m kakuro.report`
run one subcommand's parser under their own name (`run_program`).

Every command ends through `kakuro.cli.exits`: one exit-code table for all of them (0 done,
1 bad input or a failed run, 2 usage error, 3 a wrong answer or a refuted claim, 4 a limit
reached, 5 no solution, 128 + N on signal N), and one place that turns what a command raised
into one line, never a traceback. Every solve has a time limit (DEFAULT_TIME_LIMIT unless
`--time-limit` says otherwise), and no file is replaced without `--force`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import kakuro
from kakuro.cli import backends, certify, compare, deduction, generate, puzzles, report, solving
from kakuro.cli.arguments import CommandParser
from kakuro.cli.common import DEFAULT_GENERATE_LIMIT, DEFAULT_TIME_LIMIT
from kakuro.cli.deduction import EXPLAIN_FORMATS
from kakuro.cli.exits import (
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_UNSATISFIABLE,
    EXIT_USAGE,
    EXIT_WRONG,
    run_command,
)
from kakuro.native.startup import without_numba_blas
from kakuro.registry import import_plugins

__all__ = [
    "DEFAULT_GENERATE_LIMIT", "DEFAULT_TIME_LIMIT", "EXIT_ERROR", "EXIT_LIMIT", "EXIT_OK", "EXIT_UNSATISFIABLE", "EXIT_USAGE",
    "EXIT_WRONG", "EXPLAIN_FORMATS", "build_parser", "main", "run_program",
]

GROUPS = (solving, puzzles, deduction, backends, generate, compare, report, certify)
"""The modules that declare the subcommands, in the order `kakuro --help` lists them."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: sys.argv[1:]) and return the exit code."""
    return run_program(build_parser, argv)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = CommandParser(
        prog="kakuro",
        description="Solve, check, explain, convert and generate Kakuro and the Sudoku family (Sudoku, Killer "
        "Sudoku, Jigsaw Sudoku, Sudoku X) with interchangeable backends; compare backends and report the results. "
        "A puzzle is a file in any format, or - for standard input, e.g. a Sudoku as one line of 81 digits and "
        "dots: echo LINE | kakuro solve -",
        epilog=EXIT_CODES_HELP,
    )
    parser.add_argument("--version", action="version", version=f"kakuro {kakuro.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=CommandParser)
    for group in GROUPS:
        group.add_commands(commands)
    return parser


def run_program(make_parser: Callable[[], argparse.ArgumentParser], argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: sys.argv[1:]) with the parser `make_parser()` builds and run the
    command it names; returns the exit code (`kakuro.cli.exits`), usage errors (2) and `--help`
    (0) included. The parsed arguments carry `argv` (as given) and `program` (the parser's
    prog), for a command that prints how to run it again (`compare`'s resume line)."""
    without_numba_blas()  # the command's process is the toolkit's: a quarter second off each start
    words = list(sys.argv[1:] if argv is None else argv)

    def body() -> int:
        parser = make_parser()
        try:
            args = parser.parse_args(words)
        except SystemExit as exc:  # argparse exits on --help (0) and on usage errors (2)
            return exc.code if isinstance(exc.code, int) else EXIT_OK if exc.code is None else EXIT_USAGE
        args.argv, args.program = words, parser.prog
        import_plugins(getattr(args, "imports", ()))
        return int(args.run(args))

    return run_command(body)
