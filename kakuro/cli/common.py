"""What the `kakuro` subcommands share: default limits, the flags several take, and reading the
puzzles a command names (a file, `-` for standard input, or a puz.link URL; `--index K` /
`--all`). Exit codes are `kakuro.cli.exits`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from kakuro.cli.arguments import at_least, seconds_or_none
from kakuro.errors import PuzzleFormatError, UsageError
from kakuro.files import refuse_existing
from kakuro.formats import read_lazily
from kakuro.formats import sudoku as one_line
from kakuro.limits import Budget
from kakuro.puzzle import Puzzle
from kakuro.solver import Solver

DEFAULT_TIME_LIMIT = 60.0
"""Seconds per puzzle for solve, count and render unless --time-limit is given."""
DEFAULT_GENERATE_LIMIT = 600.0
"""Seconds per unique puzzle for `generate classic` unless --time-limit is given."""
STDIN = "-"
"""The FILE argument that reads the puzzles from standard input."""
PUZZLE_ARGUMENT = "a puzzle file (any format), - to read one from standard input, or a puzz.link URL"
"""The help of every command's puzzle argument."""


def add_time_limit(command: argparse.ArgumentParser, default: float, what: str) -> None:
    """--time-limit S: seconds, or 'none' (which the incomplete backends refuse: they could
    search forever)."""
    command.add_argument("--time-limit", type=seconds_or_none, default=default, metavar="S",
                         help=f"{what} (default: %(default)g; 'none' for no limit)")


BUDGET_FLAGS = {"nodes": "--node-limit", "fails": "--fail-limit"}
"""The flag of each budget (`kakuro.Budget`'s fields)."""


def add_budget(command: argparse.ArgumentParser, what: str) -> None:
    """--node-limit N and --fail-limit N: a budget of search nodes and of fails (conflicts), as
    each backend counts them (`kakuro.Budget`); `budget_of` reads them."""
    command.add_argument("--node-limit", type=at_least(1), default=None, metavar="N",
                         help=f"stop {what} after N search nodes, as the backend counts them (a bound a busy machine cannot "
                              "move); a backend that counts none refuses it (kakuro backends NAME lists its budgets)")
    command.add_argument("--fail-limit", type=at_least(1), default=None, metavar="N",
                         help=f"stop {what} after N fails (dead ends; a SAT or CP-SAT engine's conflicts), as the backend "
                              "counts them; a backend that counts none refuses it")


def budget_of(args: argparse.Namespace) -> Budget | None:
    """The budget of `--node-limit` and `--fail-limit` (None when neither is given)."""
    budget = Budget(nodes=args.node_limit, fails=args.fail_limit)
    return budget if budget.asked() else None


def read_puzzles(source: str, format: str | None = None) -> Sequence[Puzzle]:
    """The puzzles of a FILE argument: a path, `-` (standard input: any format `kakuro.read`
    detects, a one-line Sudoku included), or a puzz.link URL given on the command line, each
    built when it is reached (`kakuro.formats.read_lazily`). A FILE is a path, never a puzzle:
    a missing file that reads like a one-line Sudoku says to give the line on standard input."""
    if source == STDIN:
        if sys.stdin is None:
            raise UsageError("- reads the puzzle from standard input, and this process has none")
        if sys.stdin.isatty():
            print("kakuro: reading the puzzle from standard input (end it with Ctrl-D)", file=sys.stderr, flush=True)
        return read_lazily(sys.stdin.buffer, format=format)
    if "?kakuro/" in source and not os.path.exists(source):
        return read_lazily(source, format=format)
    if not os.path.exists(source) and one_line.sniff(source):
        raise PuzzleFormatError("no such file (a puzzle written out is read from standard input: "
                                "echo LINE | kakuro solve -)", file=source)
    return read_lazily(Path(source), format=format)


def pick(puzzles: Sequence[Puzzle], index: int, source: str) -> Puzzle:
    """The `index`-th (1-based) puzzle of a file."""
    if index > len(puzzles):
        raise UsageError(f"{source} holds {len(puzzles)} puzzle(s); there is no puzzle {index}")
    return puzzles[index - 1]


def pick_puzzles(args: argparse.Namespace, puzzles: Sequence[Puzzle]) -> Iterator[tuple[str, Puzzle]]:
    """(name, puzzle) of the puzzles of `args.file` that `--all` / `--index K` choose: all, or
    the K-th (default the first, with a note on stderr when the file holds more), each built
    when it is reached. A puzzle's name is its id, or `FILE#K` (K 1-based; `<stdin>#K` for
    `-`) when it has none."""
    every = args.all
    source = "<stdin>" if args.file == STDIN else args.file
    if not every and args.index is None and len(puzzles) > 1:
        print(f"kakuro: puzzle 1 of {len(puzzles)} in {source}; --all for every puzzle or --index K",
              file=sys.stderr)
    index = args.index or 1
    chosen = enumerate(puzzles, start=1) if every else iter([(index, pick(puzzles, index, source))])
    return ((puzzle.id or f"{source}#{k}", puzzle) for k, puzzle in chosen)


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
    backends (`kakuro.cli.main` imports them before the command runs)."""
    command.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                         help="import a module first (a dotted name, found from the working folder, or a .py file), "
                              "e.g. one that registers backends; repeatable")
