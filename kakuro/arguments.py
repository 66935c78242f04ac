"""What the command lines (`kakuro`, `python -m kakuro.compare`, `python -m kakuro.report`)
share: argument types (numbers written in ASCII, checked, with a one-line message naming the
text), and `run_command`, which runs a command's body so that Ctrl-C, a closed pipe or a file
name that is not UTF-8 end in one line, never a traceback."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable

EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""
EXIT_BROKEN_PIPE = 141
"""Exit status when the reader of the output went away (`| head`): 128 + SIGPIPE, what a
shell reports for a program the closed pipe stopped (`yes | head -1`), and no error message."""


def run_command(prog: str, body: Callable[[], int]) -> int:
    """`body()`'s exit status. Output streams never fail on a character their encoding lacks
    (the undecodable bytes of a file name are shown escaped); Ctrl-C prints `prog: interrupted`
    and returns 130; a reader that went away (`| head`) ends the command quietly with 141."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        return body()
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # no flush at exit into the closed pipe
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def number_where(accept: Callable[[float], bool], requirement: str) -> Callable[[str], float]:
    """An argparse type: a finite number written in ASCII (no '_', no other scripts' digits)
    that `accept` admits; `requirement` completes "must be ..." in the error."""

    def parse(text: str) -> float:
        try:
            if not text.isascii() or "_" in text:
                raise ValueError(text)
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or not accept(value):
            raise argparse.ArgumentTypeError(f"{text!r} must be {requirement}")
        return value

    return parse


positive_seconds = number_where(lambda v: v > 0, "a positive number of seconds")


def seconds_or_none(text: str) -> float | None:
    """An argparse type for `--time-limit`: seconds (a positive number), or `none` (any case)
    for no limit."""
    return None if text.strip().lower() == "none" else positive_seconds(text)


non_negative_seconds = number_where(lambda v: v >= 0, "a number of seconds, 0 or more")


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least `minimum`, written with ASCII digits."""

    def parse(text: str) -> int:
        if not text.isascii() or not text.isdigit() or int(text) < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be an integer of at least {minimum}")
        return int(text)

    return parse
