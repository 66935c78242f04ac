"""`kakuro explain` and `kakuro hint`: argument handling (the deduction and its texts are
`kakuro.deduction`, imported when a command runs)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kakuro.cli.arguments import at_least
from kakuro.cli.common import DEFAULT_TIME_LIMIT, PUZZLE_ARGUMENT, add_time_limit, pick_puzzles, read_puzzles, refuse_output
from kakuro.cli.exits import EXIT_LIMIT, EXIT_OK, EXIT_UNSATISFIABLE, EXIT_WRONG, worst
from kakuro.errors import UsageError
from kakuro.files import write_new
from kakuro.formats.solution import read_solution

EXPLAIN_FORMATS = {".json": "json", ".svg": "svg", ".png": "png", ".html": "html", ".htm": "html"}
"""`kakuro explain`'s output format by the extension of -o (text otherwise)."""


def add_commands(commands: Any) -> None:
    """Add this module's subcommands to the `kakuro` parser's subparsers."""
    _add_explain(commands)
    _add_hint(commands)


def _add_explain(commands: Any) -> None:
    command = commands.add_parser(
        "explain",
        help="a step-by-step deduction with named human techniques, and a difficulty rating",
        description="Solves the puzzle as a person would, simplest technique first, and prints every step "
        "(technique, cells, removed candidates, one sentence) with the rating (hardest level needed, and how "
        "often). --format svg or png draws one step (--step, default the first at the hardest level); html "
        "writes a page that steps through the whole trace. A puzzle with several solutions gets a warning. "
        f"Exit {EXIT_UNSATISFIABLE} when the puzzle has no solution, {EXIT_LIMIT} when the time limit came first "
        "(the steps found so far are printed).",
    )
    _add_deduction_input(command, "explain")
    command.add_argument("--format", choices=("text", "json", "svg", "png", "html"),
                         help="output (default: from the extension of -o, else text)")
    command.add_argument("-o", "--output", metavar="OUT", help="write here instead of printing (png needs it)")
    command.add_argument("--step", type=at_least(1), metavar="N", help="the step to draw (svg, png; 1-based)")
    command.add_argument("--force", action="store_true", help="replace OUT if it exists")
    command.set_defaults(run=_run_explain)


def _add_deduction_input(command: argparse.ArgumentParser, verb: str) -> None:
    """PUZZLE, --index K / --all and --time-limit, for explain and hint."""
    command.add_argument("file", metavar="PUZZLE", help=PUZZLE_ARGUMENT)
    which = command.add_mutually_exclusive_group()
    which.add_argument("--index", type=at_least(1), metavar="K", help=f"{verb} the K-th puzzle (default 1)")
    which.add_argument("--all", action="store_true", help=f"{verb} every puzzle of the file")
    add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds per puzzle")


def _warn_not_unique(name: str, what: str) -> None:
    """One line on stderr: the puzzle has several solutions, and what that means for `what`."""
    print(f"kakuro: warning: {name} is not unique (it has more than one solution); {what}", file=sys.stderr)


def _run_explain(args: argparse.Namespace) -> int:
    from kakuro.deduction import SEVERAL, STOPPED, UNSATISFIABLE, explain
    from kakuro.deduction.page import page
    from kakuro.deduction.picture import hardest_step, render_step, step_marks
    from kakuro.deduction.text import explanation_lines
    from kakuro.render import to_svg

    by_extension = EXPLAIN_FORMATS.get(Path(args.output).suffix.lower(), "text") if args.output else "text"
    kind = args.format or by_extension
    if kind == "png" and args.output is None:
        raise UsageError("--format png needs -o OUT.png")
    if kind in ("svg", "png") and args.output is not None and Path(args.output).suffix.lower() != f".{kind}":
        raise UsageError(f"{args.output}: --format {kind} draws a .{kind} file")
    if args.all and kind not in ("text", "json"):
        raise UsageError(f"--all writes text or json; --format {kind} shows one puzzle (--index K)")
    refuse_output(args)
    codes, contents = [], []
    for name, puzzle in pick_puzzles(args, read_puzzles(args.file)):
        explanation = explain(puzzle, time_limit=args.time_limit)
        if explanation.status == SEVERAL:
            _warn_not_unique(name, "the trace chose one solution at its search step")
        codes.append({UNSATISFIABLE: EXIT_UNSATISFIABLE, STOPPED: EXIT_LIMIT}.get(explanation.status, EXIT_OK))
        if kind in ("svg", "png"):
            index = args.step - 1 if args.step is not None else hardest_step(explanation)
            if args.output is not None:
                print(f"wrote {render_step(explanation, index, args.output, overwrite=args.force)}")
            else:
                sys.stdout.write(to_svg(explanation.puzzle, marks=step_marks(explanation, index)))
            return codes[0]
        if kind == "text":
            content = "\n".join(explanation_lines(explanation)) + "\n"
        elif kind == "json":
            content = json.dumps({**explanation.to_dict(), "id": name}) + "\n"
        else:
            content = page(explanation)
        if args.output is None:
            sys.stdout.write(content)
            sys.stdout.flush()
        contents.append(content)
    if args.output is not None:
        print(f"wrote {write_new(args.output, ''.join(contents), overwrite=args.force)}")
    return worst(codes)


def _add_hint(commands: Any) -> None:
    command = commands.add_parser(
        "hint",
        help="the next step from a partly filled grid, or the first mistake in it",
        description="PROGRESS is the grid filled so far, in the layouts `kakuro check` reads (a JSON grid, "
        "or a text grid with _ for empty cells); without it, the empty grid. Prints the first mistake (a "
        "digit out of range, a broken rule, or the first digit in reading order that no solution shares with "
        "the ones before it), or help towards the next digit the deduction places, graded by --level: 1 the "
        "technique to use, 2 also where, 3 the digit with the steps that lead to it. A puzzle with several "
        f"solutions gets a warning. Exit {EXIT_OK} for a step or a finished grid, {EXIT_WRONG} for a mistake, "
        f"{EXIT_UNSATISFIABLE} when the puzzle has no solution, {EXIT_LIMIT} when the time limit came first.",
    )
    _add_deduction_input(command, "give a hint for")
    command.add_argument("--progress", metavar="FILE", help="the partly filled grid (JSON or text; one puzzle only)")
    command.add_argument("--level", type=int, choices=(1, 2, 3), default=1,
                         help="how much to show: 1 the technique (default), 2 also the cells, 3 also the digit")
    command.add_argument("--format", choices=("text", "json"), default="text",
                         help="text (default) or json (everything, whatever --level)")
    command.set_defaults(run=_run_hint)


def _run_hint(args: argparse.Namespace) -> int:
    from kakuro.deduction import hint
    from kakuro.deduction.hints import MISTAKE, STOPPED, UNSOLVABLE, hint_to_dict
    from kakuro.deduction.text import hint_lines

    if args.all and args.progress is not None:
        raise UsageError("--progress is one puzzle's grid: use --index K, not --all")
    progress = read_solution(Path(args.progress)) if args.progress is not None else None
    codes = []
    for name, puzzle in pick_puzzles(args, read_puzzles(args.file)):
        found = hint(puzzle, progress, source=args.progress, time_limit=args.time_limit)
        if found.unique is False:
            _warn_not_unique(name, "the hint follows one of its solutions")
        if args.format == "json":
            print(json.dumps({**hint_to_dict(puzzle, found), "id": name}), flush=True)
        else:
            lines = hint_lines(found, puzzle, args.level)
            print("\n".join([f"{name}: {lines[0]}", *lines[1:]]) if args.all else "\n".join(lines), flush=True)
        codes.append({MISTAKE: EXIT_WRONG, UNSOLVABLE: EXIT_UNSATISFIABLE, STOPPED: EXIT_LIMIT}.get(found.kind, EXIT_OK))
    return worst(codes)
