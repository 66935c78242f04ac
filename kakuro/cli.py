"""The `kakuro` command line: solve, count, check, convert, render, explain, hint, backends,
generate.

Each subcommand is one `_add_*` function that declares its arguments and one `_run_*`
function that does the work; `generate` has its own subcommands (one per generator).
Exit codes: 0 solved (or done), 1 error (bad input, an invalid solution), 2 usage,
3 unsatisfiable, 4 limit reached, 5 wrong answer (the backend's solution failed the checker),
130 interrupted (Ctrl-C). Errors print one line, never a
traceback. Every solve has a
time limit (DEFAULT_TIME_LIMIT unless `--time-limit` says otherwise), and no file is replaced
without `--force`.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import kakuro
from kakuro.arguments import at_least, number_where, run_command, seconds_or_none
from kakuro.errors import KakuroError, UnknownBackendError
from kakuro.files import refuse_existing, write_new
from kakuro.formats import FORMATS, dumps, text
from kakuro.formats.solution import read_solution
from kakuro.puzzle import GridCell, Puzzle
from kakuro.render import CELL, MAX_CELL_SIZE
from kakuro.solver import KIND_WORDS, BackendInfo, Count, Option, Result, Solver, Status

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

_EXIT_CODES = {
    Status.SOLVED: EXIT_OK,
    Status.UNSATISFIABLE: EXIT_UNSATISFIABLE,
    Status.UNKNOWN: EXIT_LIMIT,
    Status.ERROR: EXIT_ERROR,
    Status.WRONG: EXIT_WRONG,
}
_SEVERITY = (EXIT_WRONG, EXIT_ERROR, EXIT_LIMIT, EXIT_UNSATISFIABLE, EXIT_OK)
"""Exit codes from worst to best: solving several puzzles exits with the worst."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: sys.argv[1:]) and return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help (0) and on usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_OK

    def body() -> int:
        try:
            return int(args.run(args))
        except UnknownBackendError as exc:  # a misspelt -b is a usage error, as a misspelt flag is
            print(f"kakuro: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except KakuroError as exc:
            print(f"kakuro: {exc}", file=sys.stderr)
            return EXIT_ERROR

    return run_command("kakuro", body)


class _CommandParser(argparse.ArgumentParser):
    """An argument parser that refuses an argument it does not know itself, so that a typo in
    a subcommand's flag prints that subcommand's usage (argparse would hand the leftover to the
    top-level parser, which prints the top-level usage)."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="kakuro",
        description="Solve, check, convert and generate Kakuro puzzles with interchangeable backends.",
        epilog="exit codes: 0 solved, 1 error, 2 usage, 3 unsatisfiable, 4 limit reached, 5 wrong answer (a backend bug)",
    )
    parser.add_argument("--version", action="version", version=f"kakuro {kakuro.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_CommandParser)
    _add_solve(commands)
    _add_count(commands)
    _add_check(commands)
    _add_convert(commands)
    _add_render(commands)
    _add_explain(commands)
    _add_hint(commands)
    _add_backends(commands)
    _add_generate(commands)
    return parser


# --------------------------------------------------------------------- argument types
_percentage = number_where(lambda v: 0 <= v <= 100, "a percentage from 0 to 100")


def _add_time_limit(command: argparse.ArgumentParser, default: float, what: str) -> None:
    """--time-limit S: seconds, or 'none' (which the incomplete backends refuse: they could
    search forever)."""
    command.add_argument("--time-limit", type=seconds_or_none, default=default, metavar="S",
                         help=f"{what} (default: %(default)g; 'none' for no limit)")


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


def _read(source: str, format: str | None = None) -> list[Puzzle]:
    """The puzzles of a FILE argument: a path, or a puzz.link URL given on the command line."""
    if "?kakuro/" in source and not os.path.exists(source):
        return kakuro.read(source, format=format)
    return kakuro.read(Path(source), format=format)


def _add_one_puzzle(command: argparse.ArgumentParser, verb: str) -> None:
    """PUZZLE (a file or a puzz.link URL) and --index K, for a command on one puzzle
    (`_one_puzzle` reads it)."""
    command.add_argument("file", metavar="PUZZLE", help="a puzzle file (any format) or a puzz.link URL")
    command.add_argument("--index", type=at_least(1), default=1, metavar="K", help=f"{verb} the K-th puzzle (default 1)")


def _one_puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle `_add_one_puzzle`'s arguments name."""
    return _pick(_read(args.file), args.index, args.file)


def _pick(puzzles: list[Puzzle], index: int, source: str) -> Puzzle:
    """The `index`-th (1-based) puzzle of a file."""
    if index > len(puzzles):
        raise KakuroError(f"{source} holds {len(puzzles)} puzzle(s); there is no puzzle {index}")
    return puzzles[index - 1]


# --------------------------------------------------------------------- solve
def _add_per_puzzle(command: argparse.ArgumentParser, verb: str, backend_help: str, format_help: str) -> None:
    """The arguments `solve` and `count` share: FILE, backend, limits, seed, output format and
    which puzzles of the file."""
    command.add_argument("file", metavar="FILE", help="a puzzle file (any format) or a puzz.link URL")
    command.add_argument("-b", "--backend", default=kakuro.DEFAULT_BACKEND, metavar="SPEC",
                         help=f"{backend_help} (default: %(default)s)")
    _add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds per puzzle")
    command.add_argument("--seed", type=at_least(0), metavar="N", help="random seed (non-negative)")
    command.add_argument("--format", choices=("text", "json"), default="text", help=format_help)
    which = command.add_mutually_exclusive_group()
    which.add_argument("--index", type=at_least(1), metavar="K", help=f"{verb} the K-th puzzle (default 1)")
    which.add_argument("--all", action="store_true", help=f"{verb} every puzzle of the file")


def _for_each_puzzle(args: argparse.Namespace, handle: Callable[[Solver, Puzzle, str], Status]) -> int:
    """Run `handle(solver, puzzle, name)` on the chosen puzzles of FILE (it prints and returns
    the status); the exit code is the worst over them. The backend spec is checked before the
    file is read."""
    solver = kakuro.get_solver(args.backend)
    chosen = _pick_puzzles(args, _read(args.file))
    solver = _warm(solver)
    codes = [_EXIT_CODES[handle(solver, puzzle, name)] for name, puzzle in chosen]
    return min(codes, key=_SEVERITY.index)


def _pick_puzzles(args: argparse.Namespace, puzzles: list[Puzzle]) -> list[tuple[str, Puzzle]]:
    """(name, puzzle) of the puzzles of `args.file` that `--all` / `--index K` choose: all, or
    the K-th (default the first, with a note on stderr when the file holds more). A puzzle's
    name is its id, or `FILE#K` (K 1-based) when it has none."""
    every = getattr(args, "all", False)
    if not every and args.index is None and len(puzzles) > 1:
        print(f"kakuro: puzzle 1 of {len(puzzles)} in {args.file}; --all for every puzzle or --index K",
              file=sys.stderr)
    numbers = range(1, len(puzzles) + 1) if every else [args.index or 1]
    if not every:
        _pick(puzzles, numbers[0], args.file)  # refuses an index past the end
    return [(puzzles[k - 1].id or f"{args.file}#{k}", puzzles[k - 1]) for k in numbers]


def _add_solve(commands: Any) -> None:
    command = commands.add_parser("solve", help="solve a puzzle and print its solution")
    _add_per_puzzle(command, "solve", "backend spec name[:key=value,...]",
                    "text (a grid) or json (one object per puzzle, one a line)")
    command.set_defaults(run=_run_solve)


def _run_solve(args: argparse.Namespace) -> int:
    def handle(solver: Solver, puzzle: Puzzle, name: str) -> Status:
        result = solver.solve(puzzle, time_limit=args.time_limit, seed=args.seed)
        if args.format == "json":
            print(json.dumps(_result_record(name, result)))
        else:
            _print_result(name, puzzle, result)
        return result.status

    return _for_each_puzzle(args, handle)


def _warm(solver: Solver) -> Solver:
    """Compile the backend's native engine now (solving would do it first anyway; neither
    counts in a time limit); on a terminal say so when that means compiling (once per install
    or engine change)."""
    if sys.stderr.isatty() and solver.is_cold():
        print(f"kakuro: compiling the native engine for {solver.spec} (once per install, a few seconds)...",
              file=sys.stderr, flush=True)
    solver.ensure_warm(everything=False)  # a search kernel is compiled when a puzzle first needs it
    return solver


def _solved_grid(puzzle: Puzzle, result: Result) -> list[list[GridCell]]:
    """The puzzle's grid with the solution's digits in its white cells (empty if unsolved)."""
    grid = puzzle.to_grid()
    if result.solution is not None:
        for (r, c), value in zip(puzzle.cells, result.solution.values):
            grid[r][c] = value
    return grid


def _result_record(name: str, result: Result) -> dict[str, Any]:
    return {"id": name, **result.to_dict()}


def _print_result(name: str, puzzle: Puzzle, result: Result) -> None:
    summary = f"{name}: {result.status.value} in {result.time:.3f} s ({result.backend})"
    if result.message:
        summary += f": {result.message}"
    grid = _solved_grid(puzzle, result) if result.solved else None
    console = _console()
    if console is None:
        print("\n".join([summary, *(text.render_grid(grid, solved=True) if grid else [])]))
        return
    from rich.text import Text

    colour = {Status.SOLVED: "green", Status.UNSATISFIABLE: "yellow", Status.UNKNOWN: "yellow"}
    console.print(Text(summary, style=f"bold {colour.get(result.status, 'red')}"))
    if grid:
        console.print(_styled_grid(puzzle, grid))


def _styled_grid(puzzle: Puzzle, grid: list[list[GridCell]]) -> Any:
    """The text-format lines of a solved grid, clues dim, given digits bold, found digits cyan."""
    from rich.text import Text

    tokens = [[text.token(cell, solved=True) for cell in row] for row in grid]
    width = max(len(t) for row in tokens for t in row)
    out = Text()
    for r, row in enumerate(tokens):
        for c, token in enumerate(row):
            cell = puzzle.index.get((r, c))
            if cell is None:
                style = "dim"
            elif cell in puzzle.givens:
                style = "bold"
            else:
                style = "bold cyan"
            out.append((" " if c else "") + token.rjust(width), style=style)
        out.append("\n")
    out.rstrip()
    return out


def _console() -> Any:
    """A rich console when stdout is a terminal; None for plain output (pipes, files)."""
    if not sys.stdout.isatty():
        return None
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


# --------------------------------------------------------------------- count
def _add_count(commands: Any) -> None:
    command = commands.add_parser(
        "count",
        help="count solutions (is the puzzle unique?)",
        description="Counts the solutions of a puzzle up to --limit with a complete backend and says "
        "\"exactly N\" when the search finished or \"at least N\" when it stopped at the limit or the time "
        "limit. Exit 0 when a solution exists, 3 when none does, 4 when the time ran out first.",
    )
    _add_per_puzzle(command, "count", "a complete backend spec",
                    "text (one line per puzzle) or json (one object per puzzle, one a line)")
    command.add_argument("--limit", type=at_least(1), default=2, metavar="N",
                         help="stop after N solutions (default: %(default)s, enough to tell unique from not)")
    command.set_defaults(run=_run_count)


def _run_count(args: argparse.Namespace) -> int:
    def handle(solver: Solver, puzzle: Puzzle, name: str) -> Status:
        found = solver.count_solutions(puzzle, limit=args.limit, time_limit=args.time_limit, seed=args.seed)
        if args.format == "json":
            print(json.dumps(_count_record(name, found)))
        else:
            print(_count_line(name, found, args.limit))
        return found.status

    return _for_each_puzzle(args, handle)


def _count_line(name: str, found: Count, limit: int) -> str:
    noun = "solution" if found.count == 1 else "solutions"
    if found.status in (Status.ERROR, Status.WRONG):
        return f"{name}: {found.status.value} ({found.backend}): {found.message}"
    if found.exhausted:
        verdict = {0: "no solution", 1: "exactly 1 solution: unique"}.get(found.count, f"exactly {found.count} {noun}")
    elif found.count >= limit:
        verdict = f"at least {found.count} {noun} (stopped at --limit {limit})"
    elif found.count:
        verdict = f"at least {found.count} {noun} (time limit reached)"
    else:
        verdict = "unknown: the time limit came before the first solution"
    return f"{name}: {verdict} in {found.time:.3f} s ({found.backend})"


def _count_record(name: str, found: Count) -> dict[str, Any]:
    return {"id": name, **found.to_dict()}


# --------------------------------------------------------------------- check
def _add_check(commands: Any) -> None:
    command = commands.add_parser(
        "check",
        help="check a solution against a puzzle",
        description="SOLUTION is a JSON grid (a list of rows, or an object with a \"solution\" grid, "
        "as `kakuro solve --format json` prints) or a text grid with a digit in every white cell "
        "(as `kakuro solve` prints). Exit 0 if valid, 1 if not.",
    )
    command.add_argument("puzzle", metavar="PUZZLE", help="the puzzle file")
    command.add_argument("solution", metavar="SOLUTION", help="the solution file (JSON or text grid)")
    command.add_argument("--index", type=at_least(1), default=1, metavar="K", help="check the K-th puzzle of PUZZLE")
    command.set_defaults(run=_run_check)


def _run_check(args: argparse.Namespace) -> int:
    puzzle = _pick(_read(args.puzzle), args.index, args.puzzle)
    problems = puzzle.check(read_solution(Path(args.solution)))
    if not problems:
        print("valid: every rule holds")
        return EXIT_OK
    print(f"invalid: {len(problems)} rule(s) broken")
    for problem in problems:
        print(f"  - {problem}")
    return EXIT_ERROR


# --------------------------------------------------------------------- convert
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
    puzzles = _read(args.source, format=args.source_format)
    if args.index is not None:
        puzzles = [_pick(puzzles, args.index, args.source)]
    path = kakuro.write(puzzles, args.target, format=args.to, overwrite=args.force)
    print(f"wrote {len(puzzles)} puzzle(s) to {path}")
    return EXIT_OK


# --------------------------------------------------------------------- render
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
    _add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds for that solve")
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
        result = _warm(kakuro.get_solver(args.backend)).solve(puzzle, time_limit=args.time_limit)
        if not result.solved:
            print(f"kakuro: {puzzle.id or 'the puzzle'}: {result.status.value} ({result.message or result.backend}); "
                  "no solution to draw", file=sys.stderr)
            return _EXIT_CODES[result.status]
        solution = result.solution
    path = render(puzzle, args.output, solution=solution, overwrite=args.force, cell_size=args.cell_size)
    print(f"wrote {path}")
    return EXIT_OK


# --------------------------------------------------------------------- explain, hint
EXPLAIN_FORMATS = {".json": "json", ".svg": "svg", ".png": "png", ".html": "html", ".htm": "html"}
"""`kakuro explain`'s output format by the extension of -o (text otherwise)."""


def _add_explain(commands: Any) -> None:
    command = commands.add_parser(
        "explain",
        help="a step-by-step deduction with named human techniques, and a difficulty rating",
        description="Solves the puzzle as a person would, simplest technique first, and prints every step "
        "(technique, cells, removed candidates, one sentence) with the rating (hardest level needed, and how "
        "often). --format svg or png draws one step (--step, default the first at the hardest level); html "
        "writes a page that steps through the whole trace. A puzzle with several solutions gets a warning. "
        "Exit 3 when the puzzle has no solution, 4 when the time limit came first (the steps found so far "
        "are printed).",
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
    command.add_argument("file", metavar="PUZZLE", help="a puzzle file (any format) or a puzz.link URL")
    which = command.add_mutually_exclusive_group()
    which.add_argument("--index", type=at_least(1), metavar="K", help=f"{verb} the K-th puzzle (default 1)")
    which.add_argument("--all", action="store_true", help=f"{verb} every puzzle of the file")
    _add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds per puzzle")


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
        raise KakuroError("--format png needs -o OUT.png")
    if kind in ("svg", "png") and args.output is not None and Path(args.output).suffix.lower() != f".{kind}":
        raise KakuroError(f"{args.output}: --format {kind} draws a .{kind} file")
    if args.all and kind not in ("text", "json"):
        raise KakuroError(f"--all writes text or json; --format {kind} shows one puzzle (--index K)")
    _refuse_output(args)
    codes, contents = [], []
    for name, puzzle in _pick_puzzles(args, _read(args.file)):
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
    return min(codes, key=_SEVERITY.index)


def _add_hint(commands: Any) -> None:
    command = commands.add_parser(
        "hint",
        help="the next step from a partly filled grid, or the first mistake in it",
        description="PROGRESS is the grid filled so far, in the layouts `kakuro check` reads (a JSON grid, "
        "or a text grid with _ for empty cells); without it, the empty grid. Prints the first mistake (a "
        "digit out of range, a broken rule, or the first digit in reading order that no solution shares with "
        "the ones before it), or help towards the next digit the deduction places, graded by --level: 1 the "
        "technique to use, 2 also where, 3 the digit with the steps that lead to it. A puzzle with several "
        "solutions gets a warning. Exit 0 for a step or a finished grid, 1 for a mistake, 3 when the puzzle "
        "has no solution, 4 when the time limit came first.",
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
        raise KakuroError("--progress is one puzzle's grid: use --index K, not --all")
    progress = read_solution(Path(args.progress)) if args.progress is not None else None
    codes = []
    for name, puzzle in _pick_puzzles(args, _read(args.file)):
        found = hint(puzzle, progress, source=args.progress, time_limit=args.time_limit)
        if found.unique is False:
            _warn_not_unique(name, "the hint follows one of its solutions")
        if args.format == "json":
            print(json.dumps({**hint_to_dict(puzzle, found), "id": name}), flush=True)
        else:
            lines = hint_lines(found, puzzle, args.level)
            print("\n".join([f"{name}: {lines[0]}", *lines[1:]]) if args.all else "\n".join(lines), flush=True)
        codes.append({MISTAKE: EXIT_ERROR, UNSOLVABLE: EXIT_UNSATISFIABLE, STOPPED: EXIT_LIMIT}.get(found.kind, EXIT_OK))
    return min(codes, key=_SEVERITY.index)


# --------------------------------------------------------------------- backends
def _add_backends(commands: Any) -> None:
    command = commands.add_parser(
        "backends",
        help="list the backends, or show one backend's options",
        description="Without NAME: every backend, whether it can run here (engine version, or why not), "
        "whether it is complete, and its options with their defaults. With NAME: that backend's "
        "capabilities and each option's default, accepted values and meaning.",
    )
    command.add_argument("name", nargs="?", metavar="NAME", help="a backend name, e.g. cpsat")
    command.set_defaults(run=_run_backends)


def _run_backends(args: argparse.Namespace) -> int:
    if args.name is not None:
        print("\n".join(_backend_details(kakuro.backend_info(args.name)[0])))
        return EXIT_OK
    headers = ("name", "available", "version", "complete", "options")
    infos = kakuro.backend_info()
    rows = [
        (info.name, "yes" if info.available else "no", info.version or "-", "yes" if info.complete else "no",
         " ".join(f"{key}={_shown(option.default)}" for key, option in info.options.items()) or "-")
        for info in infos
    ]
    notes = [f"{info.name} is not available: {info.reason}" for info in infos if not info.available]
    notes.append("kakuro backends NAME shows a backend's options: accepted values and meaning")
    console = _console()
    if console is None:
        widths = [max(len(str(row[i])) for row in (headers, *rows)) for i in range(len(headers))]
        for row in (headers, *rows):
            print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
        print("\n" + "\n".join(notes))
        return EXIT_OK
    from rich.table import Table

    table = Table(*headers, caption="\n".join(notes))
    for row in rows:
        style = None if row[1] == "yes" else "dim"
        table.add_row(*row, style=style)
    console.print(table)
    return EXIT_OK


def _backend_details(info: BackendInfo) -> list[str]:
    """The lines `kakuro backends NAME` prints."""
    availability = f"available, version {info.version}" if info.available else f"not available: {info.reason}"
    lines = [
        f"{info.name}: {info.description}",
        f"  engine:      {availability}",
        "  complete:    " + ("yes: proves unsatisfiability and counts solutions" if info.complete
                             else "no: finds solutions, never proves there is none"),
        f"  seed:        {'used' if info.supports_seed else 'ignored (deterministic)'}",
        f"  time limit:  {'required (it could search forever)' if info.needs_time_limit else 'optional'}",
    ]
    if not info.options:
        return [*lines, "  options:     none"]
    lines.append("  options (spec: " + info.name + ":key=value,...):")
    for key, option in info.options.items():
        lines.append(f"    {key} = {_shown(option.default)}  ({_accepted(option)})")
        if option.help:
            lines.append(f"        {option.help}")
    return lines


def _accepted(option: Option) -> str:
    """The values an option accepts, in words."""
    if option.choices is not None:
        return "one of " + ", ".join(_shown(choice) for choice in option.choices)
    kind = KIND_WORDS[type(option.default)]
    if option.minimum is not None and option.maximum is not None:
        return f"{kind} from {_shown(option.minimum)} to {_shown(option.maximum)}"
    if option.minimum is not None:
        return f"{kind} of at least {_shown(option.minimum)}"
    if option.maximum is not None:
        return f"{kind} of at most {_shown(option.maximum)}"
    return kind


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return str(value)


# --------------------------------------------------------------------- generate
def _add_generate(commands: Any) -> None:
    command = commands.add_parser("generate", help="generate puzzles")
    kinds = command.add_subparsers(dest="kind", required=True, metavar="KIND")
    _add_generate_cazenave(kinds)
    _add_generate_classic(kinds)


def _add_output(command: argparse.ArgumentParser) -> None:
    """The output options every generator shares."""
    command.add_argument("-o", "--output", metavar="FILE", help="write here (format from the extension); default: print text")
    command.add_argument("--force", action="store_true", help="replace FILE if it exists")


def _add_generate_cazenave(kinds: Any) -> None:
    command = kinds.add_parser("cazenave", help="Cazenave (2010) all-white n x n grids with holes")
    command.add_argument("--size", type=at_least(1), required=True, metavar="N", help="grid side")
    command.add_argument("--values", type=at_least(1), required=True, metavar="V", help="values 1..V")
    command.add_argument("--holes", type=_percentage, required=True, metavar="P", help="percentage of empty cells")
    command.add_argument("--count", type=at_least(1), default=1, metavar="K", help="number of puzzles (default 1)")
    command.add_argument("--seed", type=at_least(0), default=0, metavar="S", help="random seed (default 0)")
    command.add_argument("--unsatisfiable", action="store_true",
                         help="move one row sum and one column sum by one (needs V = N + 1): no solution, though the sums still add up and every run alone can be satisfied")
    _add_output(command)
    command.set_defaults(run=_run_generate_cazenave)


def _run_generate_cazenave(args: argparse.Namespace) -> int:
    from kakuro.generate import cazenave

    _refuse_output(args)

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
    command.add_argument("--longest", type=at_least(4), default=5, metavar="L", help="longest run, 4..9 (default 5)")
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
    _add_time_limit(command, DEFAULT_GENERATE_LIMIT, "seconds per unique puzzle")
    _add_output(command)
    command.set_defaults(run=_run_generate_classic)


def _run_generate_classic(args: argparse.Namespace) -> int:
    from kakuro.generate import classic
    from kakuro.generate import unique as unique_search

    _refuse_output(args)

    unique = inspect.signature(classic).parameters["unique"].default if args.unique is None else args.unique
    if unique and sys.stderr.isatty() and unique_search.is_cold():
        print("kakuro: compiling the generator's native search (once per install, a few seconds)...",
              file=sys.stderr, flush=True)
    puzzles = classic(args.rows, args.cols, density=args.density, count=args.count, seed=args.seed,
                      unique=unique, longest=args.longest, time_limit=args.time_limit,
                      grade=args.grade, rating=args.rate)
    return _emit(puzzles, args)


def _refuse_output(args: argparse.Namespace) -> None:
    """Stop before any work when -o names an existing file and --force was not given."""
    if args.output is not None:
        refuse_existing(args.output, args.force)


def _emit(puzzles: list[Puzzle], args: argparse.Namespace) -> int:
    """Write generated puzzles to `--output`, or print them in the text format."""
    if args.output is None:
        sys.stdout.write(dumps(puzzles, "text"))
        return EXIT_OK
    path = kakuro.write(puzzles, args.output, overwrite=args.force)
    print(f"wrote {len(puzzles)} puzzle(s) to {path}")
    return EXIT_OK

