"""`kakuro certify` and `kakuro verify`: argument handling, and the certificates `kakuro generate
classic --certify` writes beside its puzzles (`certify_all`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kakuro.certificates.tools import CHECKERS, DEFAULT_SOLVER, PROOF_SOLVERS
from kakuro.cli.arguments import at_least
from kakuro.cli.common import DEFAULT_TIME_LIMIT, PUZZLE_ARGUMENT, add_time_limit, pick, pick_puzzles, read_puzzles
from kakuro.cli.exits import EXIT_ERROR, EXIT_LIMIT, EXIT_OK, EXIT_WRONG, worst
from kakuro.errors import KakuroError
from kakuro.files import refuse_existing, write_all, write_new
from kakuro.puzzle import Puzzle

VERIFY_SEVERITY = (EXIT_WRONG, EXIT_ERROR, EXIT_LIMIT, EXIT_OK)
"""`kakuro verify`'s exit codes from worst to best: checking several certificates exits with the worst."""


def add_commands(commands: Any) -> None:
    """Add this module's subcommands to the `kakuro` parser's subparsers."""
    _add_certify(commands)
    _add_verify(commands)


def _add_certify(commands: Any) -> None:
    command = commands.add_parser(
        "certify", help="certify how many solutions puzzles have (0, exactly 1, at least 2), with a proof",
        description="For each puzzle, a certificate file in DIR (named after the puzzle's id, .cert): the puzzle, "
        "its CNF, the solution if there is one and a DRUP proof that the CNF (without that solution) is "
        "unsatisfiable, or two solutions when there are several. Each certificate is verified as kakuro verify "
        "does before it is written. Exit status 0 when every puzzle is certified, 1 on an error, 4 when the "
        "time limit stopped one.",
    )
    command.add_argument("file", metavar="FILE", help=PUZZLE_ARGUMENT)
    which = command.add_mutually_exclusive_group()
    which.add_argument("--index", type=at_least(1), metavar="K", help="certify the K-th puzzle (default 1)")
    which.add_argument("--all", action="store_true", help="certify every puzzle of the file")
    command.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder for the certificates")
    command.add_argument("--force", action="store_true", help="replace certificates that exist")
    command.add_argument("--solver", choices=PROOF_SOLVERS, default=DEFAULT_SOLVER,
                         help="the proof-logging SAT solver (default: %(default)s)")
    add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds of solving per puzzle")
    command.set_defaults(run=_run_certify)


def _run_certify(args: argparse.Namespace) -> int:
    puzzles = read_puzzles(args.file)
    chosen = pick_puzzles(args, puzzles)
    numbers = list(range(1, len(puzzles) + 1)) if args.all else [args.index or 1]
    return certify_all([puzzle for _, puzzle in chosen], Path(args.output), overwrite=args.force,
                       time_limit=args.time_limit, solver=args.solver, numbers=numbers)


def certificate_paths(puzzles: Sequence[Puzzle], folder: Path, numbers: Sequence[int] | None = None) -> list[Path]:
    """Where the certificates of `puzzles` go in `folder`: one file per puzzle named after its
    id (`kakuro.certificates.file_name`), a clash numbered."""
    from kakuro.certificates import EXTENSION, file_name

    paths: list[Path] = []
    taken: set[str] = set()
    for k, puzzle in enumerate(puzzles, start=1):
        name = file_name(puzzle, numbers[k - 1] if numbers else k)
        while name in taken:
            name = f"{name.removesuffix(EXTENSION)}-{k}{EXTENSION}"
        taken.add(name)
        paths.append(folder / name)
    return paths


def certify_all(
    puzzles: Sequence[Puzzle], folder: Path, *, overwrite: bool, time_limit: float | None,
    solver: str | None = None, numbers: Sequence[int] | None = None, also: Path | None = None,
    first: Callable[[], object] | None = None,
) -> int:
    """Certify and verify each puzzle, print a line for each, and write the certificates to
    `folder`: none is replaced unless `overwrite` (nor the file `also`), refused before any work.
    With `first` (a generator writing its puzzle file `also`) the certificates are written
    once all are made, all or none, after `first()`; otherwise each as soon as it is made.
    Returns the exit status."""
    from kakuro.certificates import CertifyLimitError, certify, verify

    paths = certificate_paths(puzzles, folder, numbers)
    refuse_existing([*paths, *([also] if also else [])], overwrite)
    made: list[tuple[Path, str]] = []
    codes = [EXIT_OK]
    for puzzle, path in zip(puzzles, paths):
        name = puzzle.id or path.stem
        try:
            cert = certify(puzzle, solver=solver or DEFAULT_SOLVER, time_limit=time_limit)
        except CertifyLimitError as exc:
            print(f"{name}: not certified: {exc}")
            codes.append(EXIT_LIMIT)
            continue
        verdict = verify(cert, puzzle=puzzle)
        if not verdict.ok:
            print(f"{name}: not certified: the certificate made here fails its check: {verdict.reason}")
            codes.append(EXIT_ERROR)
            continue
        text = cert.dumps()
        if first is not None:
            made.append((path, text))
        else:
            write_new(path, text, overwrite=overwrite)
        proof = f", proof of {len(cert.proof):,} steps" if cert.proof else ""
        print(f"{name}: {verdict}: {path}{proof}")
    if first is not None:
        first()
        write_all(made, overwrite=overwrite)
    return worst(codes)


def _add_verify(commands: Any) -> None:
    command = commands.add_parser(
        "verify", help="check certificates, trusting nothing in them",
        description="Reads each certificate line by line: re-encodes its puzzle and requires the same header and "
        "formula, line for line, checks its solutions with the rules, checks that the excluding clause excludes "
        "exactly the solution, and checks the proof with dratify (its native checker too when installed). "
        "Prints the certified count of each. Exit status 0 when every certificate holds, 3 when one is rejected "
        "(a refuted claim), 1 when one cannot be read (missing, not a regular file, not a certificate), 4 when the "
        "time limit stopped one.",
    )
    command.add_argument("certificates", nargs="+", metavar="CERT", help="certificate files")
    command.add_argument("--puzzle", metavar="FILE", help="require the certificates to be about this puzzle")
    command.add_argument("--index", type=at_least(1), default=1, metavar="K",
                         help="with --puzzle: the K-th puzzle of FILE (default 1)")
    command.add_argument("--checker", action="append", choices=CHECKERS, metavar="NAME",
                         help=f"a proof checker to run (repeatable; {', '.join(CHECKERS)}); default: every one installed")
    add_time_limit(command, DEFAULT_TIME_LIMIT, "seconds of checking per certificate")
    command.set_defaults(run=_run_verify)


def _run_verify(args: argparse.Namespace) -> int:
    from kakuro.certificates import VerifyLimitError, verify

    puzzle = pick(read_puzzles(args.puzzle), args.index, args.puzzle) if args.puzzle else None
    codes = [EXIT_OK]
    for path in args.certificates:
        try:
            verdict = verify(path, puzzle=puzzle, checkers=args.checker, time_limit=args.time_limit)
        except VerifyLimitError as exc:
            print(f"{path}: {exc}; give it more with --time-limit S ('none': no limit)")
            codes.append(EXIT_LIMIT)
            continue
        except KakuroError as exc:
            print(f"kakuro: {exc}", file=sys.stderr)
            codes.append(EXIT_ERROR)
            continue
        if verdict.ok:
            print(f"{path}: {verdict} ({', '.join(verdict.checkers)})" if verdict.checkers else f"{path}: {verdict}")
        else:
            print(f"{path}:{verdict.line}: {verdict}" if verdict.line else f"{path}: {verdict}")
            codes.append(EXIT_WRONG)
    return min(codes, key=VERIFY_SEVERITY.index)
