"""What the `kakuro` subcommands share: default limits, exit codes, the subcommand parser, and
reading the puzzles a command names (a file or a puz.link URL, `--index K` / `--all`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from kakuro.arguments import seconds_or_none
from kakuro.errors import KakuroError
from kakuro.files import refuse_existing
from kakuro.formats import read_lazily
from kakuro.outcome import Status
from kakuro.puzzle import Puzzle
from kakuro.solver import Solver

DEFAULT_TIME_LIMIT = 60.0
"""Seconds per puzzle for solve, count and render unless --time-limit is given."""
DEFAULT_GENERATE_LIMIT = 600.0
"""Seconds per unique puzzle for `generate classic` unless --time-limit is given."""

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_UNSATISFIABLE = 3
EXIT_LIMIT = 4
EXIT_WRONG = 5
"""The backend returned a solution that `puzzle.check` rejected (`Status.WRONG`): a bug in it."""

EXIT_CODES = {
    Status.SOLVED: EXIT_OK,
    Status.UNSATISFIABLE: EXIT_UNSATISFIABLE,
    Status.UNKNOWN: EXIT_LIMIT,
    Status.ERROR: EXIT_ERROR,
    Status.WRONG: EXIT_WRONG,
}
SEVERITY = (EXIT_WRONG, EXIT_ERROR, EXIT_LIMIT, EXIT_UNSATISFIABLE, EXIT_OK)
"""Exit codes from worst to best: solving several puzzles exits with the worst."""


def worst(codes: Iterable[int]) -> int:
    """The worst of several exit codes (`SEVERITY`): a command on several puzzles exits with it."""
    return min(codes, key=SEVERITY.index)


class CommandParser(argparse.ArgumentParser):
    """A subcommand's argument parser. It refuses an argument it does not know itself, so that
    a typo in a subcommand's flag prints that subcommand's usage (argparse would hand the
    leftover to the top-level parser, which prints the top-level usage). Made with
    `forward=main`, it parses nothing: the command runs `main(arguments as written)`, so a
    program with a parser of its own (`python -m kakuro.compare`) is a subcommand with exactly
    its arguments and its `--help`."""

    def __init__(self, *args: Any, forward: Callable[[list[str]], int] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.forward = forward

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        if self.forward is not None:
            forward, rest = self.forward, list(args or [])
            parsed = namespace if namespace is not None else argparse.Namespace()
            parsed.run = lambda _: forward(rest)
            return parsed, []
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def add_time_limit(command: argparse.ArgumentParser, default: float, what: str) -> None:
    """--time-limit S: seconds, or 'none' (which the incomplete backends refuse: they could
    search forever)."""
    command.add_argument("--time-limit", type=seconds_or_none, default=default, metavar="S",
                         help=f"{what} (default: %(default)g; 'none' for no limit)")


def read_puzzles(source: str, format: str | None = None) -> Sequence[Puzzle]:
    """The puzzles of a FILE argument (a path, or a puzz.link URL given on the command line),
    each built when it is reached (`kakuro.formats.read_lazily`)."""
    return read_lazily(source if "?kakuro/" in source and not os.path.exists(source) else Path(source), format=format)


def pick(puzzles: Sequence[Puzzle], index: int, source: str) -> Puzzle:
    """The `index`-th (1-based) puzzle of a file."""
    if index > len(puzzles):
        raise KakuroError(f"{source} holds {len(puzzles)} puzzle(s); there is no puzzle {index}")
    return puzzles[index - 1]


def pick_puzzles(args: argparse.Namespace, puzzles: Sequence[Puzzle]) -> Iterator[tuple[str, Puzzle]]:
    """(name, puzzle) of the puzzles of `args.file` that `--all` / `--index K` choose: all, or
    the K-th (default the first, with a note on stderr when the file holds more), each built
    when it is reached. A puzzle's name is its id, or `FILE#K` (K 1-based) when it has none."""
    every = args.all
    if not every and args.index is None and len(puzzles) > 1:
        print(f"kakuro: puzzle 1 of {len(puzzles)} in {args.file}; --all for every puzzle or --index K",
              file=sys.stderr)
    index = args.index or 1
    chosen = enumerate(puzzles, start=1) if every else iter([(index, pick(puzzles, index, args.file))])
    return ((puzzle.id or f"{args.file}#{k}", puzzle) for k, puzzle in chosen)


def warm(solver: Solver) -> Solver:
    """Compile the backend's native engine now (solving would do it first anyway; neither
    counts in a time limit); on a terminal say so when that means compiling (once per install
    or engine change)."""
    if sys.stderr.isatty() and solver.is_cold():
        print(f"kakuro: compiling the native engine for {solver.spec} (once per install, a few seconds)...",
              file=sys.stderr, flush=True)
    solver.ensure_warm(everything=False)  # a search kernel is compiled when a puzzle first needs it
    return solver


def refuse_output(args: argparse.Namespace) -> None:
    """Stop before any work when -o names an existing file and --force was not given."""
    if args.output is not None:
        refuse_existing(args.output, args.force)


def add_imports(command: argparse.ArgumentParser) -> None:
    """`--import MODULE` (repeatable): modules imported before the command runs, e.g. to register
    backends (`kakuro.cli.main` imports them)."""
    command.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                         help="import a module first (a dotted name, found from the working folder, or a .py file), "
                              "e.g. one that registers backends; repeatable")
