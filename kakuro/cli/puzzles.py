"""`kakuro convert` and `kakuro render`: argument handling."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import kakuro
from kakuro.cli.arguments import at_least, number_where
from kakuro.cli.common import DEFAULT_TIME_LIMIT, PUZZLE_ARGUMENT, add_imports, add_time_limit, pick, read_puzzles, warm
from kakuro.cli.exits import EXIT_CODES, EXIT_OK
from kakuro.errors import KakuroError
from kakuro.files import refuse_existing
from kakuro.formats import FORMATS
from kakuro.formats.solution import read_solution
from kakuro.puzzle import Puzzle
from kakuro.render import CELL, MAX_CELL_SIZE


def add_commands(commands: Any) -> None:
    """Add this module's subcommands to the `kakuro` parser's subparsers."""
    _add_convert(commands)
    _add_render(commands)


def _add_one_puzzle(command: argparse.ArgumentParser, verb: str) -> None:
    """PUZZLE (a file or a puzz.link URL) and --index K, for a command on one puzzle
    (`_one_puzzle` reads it)."""
    command.add_argument("file", metavar="PUZZLE", help=PUZZLE_ARGUMENT)
    command.add_argument("--index", type=at_least(1), default=1, metavar="K", help=f"{verb} the K-th puzzle (default 1)")


def _one_puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle `_add_one_puzzle`'s arguments name."""
    return pick(read_puzzles(args.file), args.index, args.file)


def _add_convert(commands: Any) -> None:
    command = commands.add_parser(
        "convert",
        help="convert puzzles from one format to another",
        description="Reads every puzzle of IN (or only the K-th with --index: the export formats .cnf, "
        ".mzn and .json hold one puzzle each) and writes them to OUT.",
    )
    command.add_argument("source", metavar="IN", help="the puzzle file to read (format detected)")
    command.add_argument("target", metavar="OUT", help="the file to write (format from its extension)")
    command.add_argument("--to", choices=sorted(FORMATS), metavar="FORMAT",
                         help=f"output format: {', '.join(sorted(FORMATS))}")
    command.add_argument("--from", dest="source_format", choices=sorted(FORMATS), metavar="FORMAT",
                         help="input format (default: detected)")
    command.add_argument("--index", type=at_least(1), metavar="K", help="convert only the K-th puzzle of IN")
    command.add_argument("--force", action="store_true", help="replace OUT if it exists")
    command.set_defaults(run=_run_convert)


def _run_convert(args: argparse.Namespace) -> int:
    refuse_existing(args.target, args.force)
    puzzles = read_puzzles(args.source, format=args.source_format)
    if args.index is not None:
        puzzles = [pick(puzzles, args.index, args.source)]
    path = kakuro.write(puzzles, args.target, format=args.to, overwrite=args.force)
    print(f"wrote {len(puzzles)} puzzle(s) to {path}")
    return EXIT_OK


def _add_render(commands: Any) -> None:
    command = commands.add_parser(
        "render",
        help="draw a puzzle (and its solution) as an SVG or PNG picture",
        description="Draws the grid with clue triangles as in a puzzle book. With --solution the "
        "digits are drawn too: read from FILE (a solution grid, as for `kakuro check`), or, "
        "without FILE, found by --backend (the answer is checked first).",
    )
    _add_one_puzzle(command, "draw")
    command.add_argument("-o", "--output", required=True, metavar="OUT", help="the picture to write: .svg or .png")
    command.add_argument("--solution", nargs="?", const="", metavar="FILE", help="draw the solution (from FILE, or solved)")
    command.add_argument("-b", "--backend", default=kakuro.DEFAULT_BACKEND, metavar="SPEC",
                         help="backend that solves the puzzle for --solution without FILE (default: %(default)s)")
    add_imports(command)
    add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds for that solve")
    command.add_argument("--cell-size", type=_cell_size, default=CELL, metavar="PX",
                         help="side of one grid cell in pixels (default: %(default)s)")
    command.add_argument("--force", action="store_true", help="replace OUT if it exists")
    command.set_defaults(run=_run_render)


_cell_size = number_where(lambda v: 0 < v <= MAX_CELL_SIZE, f"a number of pixels above 0 and at most {MAX_CELL_SIZE}")


def _run_render(args: argparse.Namespace) -> int:
    from kakuro.render import render

    refuse_existing(args.output, args.force)
    puzzle = _one_puzzle(args)
    solution = None
    if args.solution:
        grid = read_solution(Path(args.solution))
        problems = puzzle.check(grid)
        if problems:
            raise KakuroError(f"{args.solution} does not solve the puzzle: {problems[0]}")
        solution = puzzle.solution([grid[r][c] for r, c in puzzle.cells])
    elif args.solution == "":
        result = warm(kakuro.get_solver(args.backend)).solve(puzzle, time_limit=args.time_limit)
        if not result.solved:
            print(f"kakuro: {puzzle.id or 'the puzzle'}: {result.status.value} ({result.message or result.backend}); "
                  "no solution to draw", file=sys.stderr)
            return EXIT_CODES[result.status]
        solution = result.solution
    path = render(puzzle, args.output, solution=solution, overwrite=args.force, cell_size=args.cell_size)
    print(f"wrote {path}")
    return EXIT_OK
