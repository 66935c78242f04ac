"""What the `kakuro` subcommands print: results (a grid, rich on a terminal), counts, checks,
the backends table and a backend's details, and the JSON records of `--format json`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from kakuro.cli.common import BUDGET_FLAGS
from kakuro.formats import text
from kakuro.options import value_text
from kakuro.outcome import Count, Result, Status
from kakuro.puzzle import Puzzle
from kakuro.registry import BackendInfo
from kakuro.wellformed import GridCell


def rich_console() -> Any:
    """A rich console when stdout is a terminal; None for plain output (pipes, files)."""
    if not sys.stdout.isatty():
        return None
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


def _solved_grid(puzzle: Puzzle, result: Result) -> list[list[GridCell]]:
    """The puzzle's grid with the solution's digits in its white cells (empty if unsolved)."""
    grid = puzzle.to_grid()
    if result.solution is not None:
        for (r, c), value in zip(puzzle.cells, result.solution.values):
            grid[r][c] = value
    return grid


def result_record(name: str, result: Result) -> dict[str, Any]:
    """`solve --format json`'s object: the puzzle's name, then `Result.to_dict()`."""
    return {"id": name, **result.to_dict()}


def print_result(name: str, puzzle: Puzzle, result: Result) -> None:
    summary = f"{name}: {result.status.value} in {result.time:.3f} s ({result.backend})"
    if result.message:
        summary += f": {result.message}"
    grid = _solved_grid(puzzle, result) if result.solved else None
    console = rich_console()
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


def count_line(name: str, found: Count, limit: int) -> str:
    noun = "solution" if found.count == 1 else "solutions"
    if found.status in (Status.ERROR, Status.WRONG):
        return f"{name}: {found.status.value} ({found.backend}): {found.message}"
    if found.exhausted:
        verdict = {0: "no solution", 1: "exactly 1 solution: unique"}.get(found.count, f"exactly {found.count} {noun}")
    elif found.count >= limit:
        verdict = f"at least {found.count} {noun} (stopped at --limit {limit})"
    elif found.count:
        verdict = f"at least {found.count} {noun} ({found.message or 'time limit reached'})"
    else:
        came = found.message if found.stopped_by not in (None, "time") else "the time limit came"  # or a budget
        verdict = f"unknown: {came} before the first solution"
    return f"{name}: {verdict} in {found.time:.3f} s ({found.backend})"


def count_record(name: str, found: Count) -> dict[str, Any]:
    """`count --format json`'s object: the puzzle's name, then `Count.to_dict()`."""
    return {"id": name, **found.to_dict()}


def check_lines(problems: Sequence[str]) -> list[str]:
    """What `kakuro check` prints for the rules a solution breaks (none: valid)."""
    if not problems:
        return ["valid: every rule holds"]
    return [f"invalid: {len(problems)} rule(s) broken", *(f"  - {problem}" for problem in problems)]


def print_backends(infos: Sequence[BackendInfo]) -> None:
    """The table of `kakuro backends`: rich on a terminal, aligned plain text otherwise; then
    why each unavailable backend is so."""
    headers = ("name", "paradigm", "available", "version", "complete", "options")
    rows = [
        (info.name, info.paradigm, "yes" if info.available else "no", info.version or "-", "yes" if info.complete else "no",
         " ".join(f"{key}={value_text(option.default)}" for key, option in info.options.items()) or "-")
        for info in infos
    ]
    notes = [f"{info.name} is not available: {info.reason}" for info in infos if not info.available]
    notes.append("kakuro backends NAME shows a backend's options: accepted values and meaning")
    shown_on = rich_console()
    if shown_on is None:
        widths = [max(len(str(row[i])) for row in (headers, *rows)) for i in range(len(headers))]
        for row in (headers, *rows):
            print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
        print("\n" + "\n".join(notes))
        return
    from rich.table import Table

    table = Table(*headers, caption="\n".join(notes))
    for row in rows:
        style = None if row[2] == "yes" else "dim"
        table.add_row(*row, style=style)
    shown_on.print(table)


def budget_text(info: BackendInfo) -> str:
    """The limits a backend honours, as `kakuro backends NAME` says them: "time, fails
    (--fail-limit, counted as its conflicts)"."""
    if not info.budgets:
        return "time only (--node-limit and --fail-limit are refused)"
    named = [f"{name} ({BUDGET_FLAGS[name]}" + (f", counted as its {key})" if key != name else ")")
             for name, key in info.budgets.items()]
    text = ", ".join(["time", *named])
    return text + ("; some options narrow them (a run refuses a budget they cannot honour)" if info.budgets_vary else "")


def backend_details(info: BackendInfo) -> list[str]:
    """The lines `kakuro backends NAME` prints."""
    availability = f"available, version {info.version}" if info.available else f"not available: {info.reason}"
    lines = [
        f"{info.name}: {info.description}",
        f"  paradigm:    {info.paradigm}",
        f"  engine:      {availability}",
        "  complete:    " + ("yes: proves unsatisfiability and counts solutions" if info.complete
                             else "no: finds solutions, never proves there is none"),
        f"  seed:        {'used' if info.supports_seed else 'ignored (deterministic)'}",
        f"  time limit:  {'required (it could search forever)' if info.needs_time_limit else 'optional'}",
        f"  budgets:     {budget_text(info)}",
    ]
    if not info.options:
        return [*lines, "  options:     none"]
    lines.append("  options (spec: " + info.name + ":key=value,...):")
    for key, option in info.options.items():
        lines.append(f"    {key} = {value_text(option.default)}  ({option.accepted()})")
        if option.help:
            lines.append(f"        {option.help}")
    return lines


