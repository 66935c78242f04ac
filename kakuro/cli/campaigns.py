"""`kakuro compare` and `kakuro report`: the comparison harness and its report as subcommands.

Each forwards its arguments, as written, to the program's own `main` (`kakuro.compare.cli`,
`kakuro.report.cli`): the same parser, the same `--help`, the same exit statuses as
`python -m kakuro.compare` and `python -m kakuro.report`, which run these functions too. This
is where the harness and the report meet: a campaign ends with the report's summary of its
results file (the harness itself never imports the report).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kakuro.engine.startup import without_numba_blas

COMPARE_HELP = "run backends head to head on puzzle files, every answer verified (kakuro compare --help)"
REPORT_HELP = "tables, PAR-2, LaTeX, HTML and plots from compare results files (kakuro report --help)"


def add_commands(commands: Any) -> None:
    """Add `compare` and `report` to the `kakuro` parser's subparsers (made by `CommandParser`)."""
    commands.add_parser("compare", help=COMPARE_HELP, add_help=False, forward=compare_main)
    commands.add_parser("report", help=REPORT_HELP, add_help=False, forward=report_main)


def compare_main(argv: Sequence[str] | None = None, *, prog: str = "kakuro compare") -> int:
    """Run a campaign (`kakuro.compare.cli.main`) and print the report's summary of its results
    file at the end; returns the exit status, usage errors (2) and `--help` (0) included."""
    without_numba_blas()  # `python -m kakuro.compare` does not pass through kakuro.cli.main; its workers fork from here
    from kakuro.compare.cli import main
    from kakuro.report import print_summary

    return _status(lambda: main(argv, prog=prog, summary=print_summary))


def report_main(argv: Sequence[str] | None = None, *, prog: str = "kakuro report") -> int:
    """Report results files (`kakuro.report.cli.main`); returns the exit status, usage errors
    (2) and `--help` (0) included."""
    from kakuro.report.cli import main

    return _status(lambda: main(argv, prog=prog))


def _status(run: Callable[[], int]) -> int:
    """`run()`'s exit status, argparse's exit (usage error, --help) returned as one too."""
    try:
        return run()
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        return 1


