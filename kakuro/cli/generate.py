"""`kakuro generate cazenave`, `classic`, `sudoku`, `killer` and `jigsaw`: argument handling (the
generators are `kakuro.generate`, imported when a command runs)."""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any

import kakuro
from kakuro.cli.arguments import at_least, number_where
from kakuro.cli.common import DEFAULT_GENERATE_LIMIT, add_time_limit, refuse_output
from kakuro.cli.exits import EXIT_OK
from kakuro.errors import UsageError
from kakuro.formats import dumps
from kakuro.puzzle import MAX_VALUE, Puzzle

_percentage = number_where(lambda v: 0 <= v <= 100, "a percentage from 0 to 100")


def add_commands(commands: Any) -> None:
    """Add this module's subcommands to the `kakuro` parser's subparsers."""
    _add_generate(commands)


def _target_grade(text: str) -> str:
    """An argparse type: a grade `generate classic` can aim at (the generator is imported only
    when the option is used)."""
    from kakuro.generate.classic_grids import TARGET_GRADES

    if text not in TARGET_GRADES:
        raise argparse.ArgumentTypeError(f"{text!r} must be one of {', '.join(TARGET_GRADES)}")
    return text


def _target_rating(text: str) -> int:
    """An argparse type: a rating level `generate classic` can aim at."""
    from kakuro.generate.classic_grids import TARGET_RATINGS

    if not text.isascii() or not text.isdigit() or int(text) not in TARGET_RATINGS:
        raise argparse.ArgumentTypeError(f"{text!r} must be a level from {TARGET_RATINGS[0]} to {TARGET_RATINGS[-1]}")
    return int(text)


def _add_generate(commands: Any) -> None:
    command = commands.add_parser("generate", help="generate puzzles")
    kinds = command.add_subparsers(dest="kind", required=True, metavar="KIND")
    _add_generate_cazenave(kinds)
    _add_generate_classic(kinds)
    _add_generate_sudoku(kinds)
    _add_generate_killer(kinds)
    _add_generate_jigsaw(kinds)


def _add_output(command: argparse.ArgumentParser) -> None:
    """The output options every generator shares."""
    command.add_argument("-o", "--output", metavar="FILE", help="write here (format from the extension); default: print text")
    command.add_argument("--force", action="store_true", help="replace FILE if it exists")


def _add_generate_cazenave(kinds: Any) -> None:
    command = kinds.add_parser("cazenave", help="Cazenave (2010) all-white n x n grids with holes")
    command.add_argument("--size", type=at_least(1, MAX_VALUE), required=True, metavar="N", help="grid side")
    command.add_argument("--values", type=at_least(1, MAX_VALUE), required=True, metavar="V",
                         help=f"values 1..V, V from N to {MAX_VALUE}")
    command.add_argument("--holes", type=_percentage, required=True, metavar="P", help="percentage of empty cells")
    command.add_argument("--count", type=at_least(1), default=1, metavar="K", help="number of puzzles (default 1)")
    command.add_argument("--seed", type=at_least(0), default=0, metavar="S", help="random seed (default 0)")
    command.add_argument("--unsatisfiable", action="store_true",
                         help="move one row sum and one column sum by one (needs V = N + 1): no solution, "
                              "though the sums still add up and every run alone can be satisfied")
    _add_output(command)
    command.set_defaults(run=_run_generate_cazenave)


def _run_generate_cazenave(args: argparse.Namespace) -> int:
    from kakuro.generate import cazenave

    refuse_output(args)

    puzzles = cazenave(size=args.size, values=args.values, holes=args.holes, count=args.count, seed=args.seed,
                       unsatisfiable=args.unsatisfiable)
    return _emit(puzzles, args)


def _add_generate_classic(kinds: Any) -> None:
    command = kinds.add_parser(
        "classic",
        help="classic grids with black and clue cells, optionally with a unique solution",
        description="A symmetric layout (every white cell in an across and a down run of 2..LONGEST "
        "cells), a random filling and its clues. With --unique the filling is changed until "
        "propagation proves the puzzle has exactly one solution; its difficulty grade (rdv, gac "
        "or gac+shaving: the weakest reasoning that solves it) and its human rating (kakuro explain) "
        "are written to the puzzle's metadata, and --grade and --rate ask for one.",
    )
    command.add_argument("--rows", type=at_least(3), required=True, metavar="R", help="grid rows, clue row included")
    command.add_argument("--cols", type=at_least(3), required=True, metavar="C", help="grid columns, clue column included")
    command.add_argument("--density", type=number_where(lambda x: 0.1 <= x <= 0.6, "a black share from 0.1 to 0.6"),
                         default=0.3, metavar="D", help="share of black interior cells (default 0.3)")
    command.add_argument("--longest", type=at_least(4, 9), default=5, metavar="L", help="longest run, 4..9 (default 5)")
    command.add_argument("--unique", action=argparse.BooleanOptionalAction,
                         help="search until the solution is unique (the default, as in kakuro.generate.classic); "
                         "--no-unique writes the random filling's clues as they are, often with many solutions")
    command.add_argument("--grade", type=_target_grade, metavar="G",
                         help="the difficulty grade wanted (implies --unique): rdv (Panov and Koceski's rules solve "
                         "it), gac (arc consistency does) or gac+shaving (shaving is needed too)")
    command.add_argument("--rate", type=_target_rating, metavar="LEVEL",
                         help="the rating level wanted (implies --unique), 1..6: the hardest technique a person needs "
                         "(1 basic, 2 combinations, 3 subsets, 4 placement, 5 region arithmetic, 6 contradiction)")
    command.add_argument("--count", type=at_least(1), default=1, metavar="K", help="number of puzzles (default 1)")
    command.add_argument("--seed", type=at_least(0), default=0, metavar="S", help="random seed (default 0)")
    add_time_limit(command, DEFAULT_GENERATE_LIMIT, "seconds per unique puzzle")
    _add_output(command)
    command.add_argument("--certify", action="store_true",
                         help="also write each puzzle's certificate (kakuro certify) beside FILE, named after its id")
    command.set_defaults(run=_run_generate_classic)


def _run_generate_classic(args: argparse.Namespace) -> int:
    from kakuro.generate import classic
    from kakuro.generate import unique as unique_search

    refuse_output(args)
    if args.certify and args.output is None:
        raise UsageError("--certify writes the certificates beside the puzzle file: give -o FILE")

    unique = inspect.signature(classic).parameters["unique"].default if args.unique is None else args.unique
    if unique and sys.stderr.isatty() and unique_search.is_cold():
        print("kakuro: compiling the generator's native search (once per install, a few seconds)...",
              file=sys.stderr, flush=True)
    puzzles = classic(args.rows, args.cols, density=args.density, count=args.count, seed=args.seed,
                      unique=unique, longest=args.longest, time_limit=args.time_limit,
                      grade=args.grade, rating=args.rate)
    if args.certify:
        from kakuro.cli.certify import certify_all

        output = Path(args.output)
        return certify_all(puzzles, output.parent, overwrite=args.force, time_limit=args.time_limit, also=output,
                           first=lambda: _emit(puzzles, args))
    return _emit(puzzles, args)


def _emit(puzzles: list[Puzzle], args: argparse.Namespace) -> int:
    """Write generated puzzles to `--output`, or print them in the text format."""
    if args.output is None:
        sys.stdout.write(dumps(puzzles, "text"))
        return EXIT_OK
    path = kakuro.write(puzzles, args.output, overwrite=args.force)
    print(f"wrote {len(puzzles)} puzzle(s) to {path}")
    return EXIT_OK


def _box_shape(text: str) -> tuple[int, int]:
    """An argparse type: a box shape ROWSxCOLS (e.g. 2x3), both positive."""
    rows, x, cols = text.lower().partition("x")
    if not x or not rows.isascii() or not cols.isascii() or not rows.isdigit() or not cols.isdigit() \
            or int(rows) < 1 or int(cols) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a box shape ROWSxCOLS such as 2x3")
    return int(rows), int(cols)


def _checked_box(args: argparse.Namespace) -> None:
    """UsageError unless `--box` tiles the `--size` grid (or, without --box, square boxes do)."""
    from kakuro.errors import InvalidPuzzleError
    from kakuro.regions import sudoku_box

    try:
        sudoku_box(args.size, args.box)
    except InvalidPuzzleError as exc:
        raise UsageError(f"--size {args.size}" + (f" --box {args.box[0]}x{args.box[1]}" if args.box else "")
                         + f": {exc}") from None


def _add_sudoku_shape(command: argparse.ArgumentParser) -> None:
    """--size and --box, which both Sudoku generators take."""
    command.add_argument("--size", type=at_least(1, MAX_VALUE), default=9, metavar="N",
                         help=f"grid side, digits 1..N, N up to {MAX_VALUE} (default 9)")
    command.add_argument("--box", type=_box_shape, metavar="RxC",
                         help="box shape, e.g. 2x3 for a 6x6 (default square: N must be a square)")
    _add_diagonals(command)


def _add_diagonals(command: argparse.ArgumentParser) -> None:
    command.add_argument("--diagonals", action="store_true",
                         help="an X: both main diagonals hold every digit once too (Sudoku X, Killer X, Jigsaw X)")


def _add_generate_sudoku(kinds: Any) -> None:
    command = kinds.add_parser(
        "sudoku",
        help="Sudoku: a random full grid with cells emptied, optionally with a unique solution",
        description="A random full N x N grid with a share of its cells emptied, as Chan, Renous and Thai (2022) "
        "made their 16x16 sets (not unique). With --unique the cells are emptied one by one, each kept empty "
        "only while counting to 2 with the native engine finds exactly one solution: without --empty as many "
        "as uniqueness allows (every given left is needed).",
    )
    _add_sudoku_shape(command)
    command.add_argument("--empty", type=_percentage, metavar="P",
                         help="percentage of the cells to empty (default 50; with --unique, as many as it allows)")
    _add_unique_count_seed_output(command)
    command.set_defaults(run=_run_generate_sudoku)


def _add_unique_count_seed_output(command: argparse.ArgumentParser) -> None:
    """The options `generate sudoku`, `killer` and `jigsaw` share after their own."""
    command.add_argument("--unique", action="store_true", help="every puzzle has exactly one solution")
    command.add_argument("--count", type=at_least(1), default=1, metavar="K", help="number of puzzles (default 1)")
    command.add_argument("--seed", type=at_least(0), default=0, metavar="S",
                         help="random seed (default 0); puzzle k is the one of seed S + k")
    add_time_limit(command, DEFAULT_GENERATE_LIMIT, "seconds per unique puzzle")
    _add_output(command)


def _run_generate_sudoku(args: argparse.Namespace) -> int:
    from kakuro.generate.sudoku_grids import sudoku
    from kakuro.generate.unique_sudoku import unique_sudoku

    refuse_output(args)
    _checked_box(args)
    share = None if args.empty is None else args.empty / 100
    if args.unique:
        puzzles = [unique_sudoku(args.size, args.seed + k, share, args.box, args.time_limit, diagonals=args.diagonals)
                   for k in range(args.count)]
    else:
        puzzles = [sudoku(args.size, 0.5 if share is None else share, args.seed + k, args.box, args.diagonals)
                   for k in range(args.count)]
    square = args.box is None or args.box[0] == args.box[1]
    return _emit_as(puzzles, args, "sudoku" if square else "sudoku-grid")  # one line each, where one line can hold it


def _add_generate_killer(kinds: Any) -> None:
    command = kinds.add_parser(
        "killer",
        help="Killer Sudoku: cages grown over a random full grid, optionally with a unique solution",
        description="Cages of connected cells grown at random over a full N x N grid, each with the sum of its "
        "digits, no givens. With --unique cages are split until counting to 2 with the native engine finds "
        "exactly one solution, then neighbouring cages are merged while it stays one.",
    )
    _add_sudoku_shape(command)
    command.add_argument("--largest", type=at_least(1), metavar="L", help="largest cage (default: 9, or N if smaller)")
    _add_unique_count_seed_output(command)
    command.set_defaults(run=_run_generate_killer)


def _run_generate_killer(args: argparse.Namespace) -> int:
    from kakuro.generate.sudoku_grids import MAX_CAGE, killer
    from kakuro.generate.unique_sudoku import unique_killer

    refuse_output(args)
    _checked_box(args)
    largest = min(MAX_CAGE, args.size) if args.largest is None else args.largest
    if args.unique:
        puzzles = [unique_killer(args.size, args.seed + k, largest, args.box, args.time_limit, diagonals=args.diagonals)
                   for k in range(args.count)]
    else:
        puzzles = [killer(args.size, args.seed + k, largest, args.box, args.diagonals) for k in range(args.count)]
    return _emit_as(puzzles, args, "killer")


def _add_generate_jigsaw(kinds: Any) -> None:
    command = kinds.add_parser(
        "jigsaw",
        help="Jigsaw Sudoku: random irregular regions and a full grid, cells emptied, optionally unique",
        description="N connected regions of N cells drawn at random in place of boxes (tilings are drawn until one "
        "has a full grid), then a share of the cells emptied (not unique). With --unique the cells are emptied one "
        "by one, each kept empty only while counting to 2 with the native engine finds exactly one solution.",
    )
    command.add_argument("--size", type=at_least(1, MAX_VALUE), default=9, metavar="N",
                         help=f"grid side, digits 1..N, N up to {MAX_VALUE} (default 9; any N: no boxes to fit)")
    _add_diagonals(command)
    command.add_argument("--empty", type=_percentage, metavar="P",
                         help="percentage of the cells to empty (default 50; with --unique, as many as it allows)")
    _add_unique_count_seed_output(command)
    command.set_defaults(run=_run_generate_jigsaw)


def _run_generate_jigsaw(args: argparse.Namespace) -> int:
    from kakuro.generate.sudoku_grids import jigsaw
    from kakuro.generate.unique_sudoku import unique_jigsaw

    refuse_output(args)
    share = None if args.empty is None else args.empty / 100
    if args.unique:
        puzzles = [unique_jigsaw(args.size, args.seed + k, share, args.time_limit, diagonals=args.diagonals)
                   for k in range(args.count)]
    else:
        puzzles = [jigsaw(args.size, 0.5 if share is None else share, args.seed + k, args.diagonals)
                   for k in range(args.count)]
    return _emit_as(puzzles, args, "jigsaw")


def _emit_as(puzzles: list[Puzzle], args: argparse.Namespace, format: str) -> int:
    """Write generated puzzles to `--output` (format from its extension), or print them in `format`."""
    if args.output is None:
        sys.stdout.write(dumps(puzzles, format))
        return EXIT_OK
    return _emit(puzzles, args)
