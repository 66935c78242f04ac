"""`kakuro backends [NAME]`: argument handling (the table and the details are
`kakuro.cli.present`)."""

from __future__ import annotations

import argparse
from typing import Any

import kakuro
from kakuro.cli.common import add_imports
from kakuro.cli.exits import EXIT_OK
from kakuro.cli.present import backend_details, print_backends


def add_commands(commands: Any) -> None:
    """Add this module's subcommands to the `kakuro` parser's subparsers."""
    _add_backends(commands)


def _add_backends(commands: Any) -> None:
    command = commands.add_parser(
        "backends",
        help="list the backends, or show one backend's options",
        description="Without NAME: every backend, whether it can run here (engine version, or why not), "
        "whether it is complete, and its options with their defaults. With NAME: that backend's "
        "capabilities and each option's default, accepted values and meaning.",
    )
    command.add_argument("name", nargs="?", metavar="NAME", help="a backend name, e.g. cpsat")
    add_imports(command)
    command.set_defaults(run=_run_backends)


def _run_backends(args: argparse.Namespace) -> int:
    if args.name is not None:
        print("\n".join(backend_details(kakuro.backend_info(args.name)[0])))
    else:
        print_backends(kakuro.backend_info())
    return EXIT_OK
