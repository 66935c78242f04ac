"""How a command ends: the exit-code table, the same for every subcommand and entry point
(`kakuro`, `python -m kakuro.compare`, `python -m kakuro.report`), and `run_command`, the one
place that turns what a command raised into one line on stderr and its exit code.

    0      done: solved, valid, written, certified
    1      bad input or a failed run: a file that cannot be read, an output that exists, a
           backend that failed, an internal error
    2      usage error: an unknown subcommand, option or backend (with a "did you mean"), a
           value out of its range, options that exclude each other
    3      a wrong answer or a refuted claim: a solution `puzzle.check` rejects (from a backend,
           `check`, `hint --progress`), a WRONG job of a campaign, a certificate that fails
    4      a limit reached before an answer
    5      no solution (unsatisfiable)
    128+N  stopped by signal N: 130 Ctrl-C, 143 SIGTERM; 141 when the reader of the output went
           away (`| head`), quietly
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
from collections.abc import Callable, Iterable

from kakuro.errors import KakuroError, LimitReachedError, UsageError
from kakuro.outcome import Status

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_WRONG = 3
"""A wrong answer or a refuted claim: a solution the checker rejects (`Status.WRONG`: a bug in
the backend that returned it), a WRONG campaign record, a certificate that fails."""
EXIT_LIMIT = 4
EXIT_UNSATISFIABLE = 5
EXIT_SIGNAL = 128
"""128 + N: the command was stopped by signal N, as shells report it."""
EXIT_INTERRUPTED = EXIT_SIGNAL + signal.SIGINT
"""130: Ctrl-C."""
EXIT_BROKEN_PIPE = EXIT_SIGNAL + signal.SIGPIPE
"""141: the reader of the output went away (`| head`); what a shell reports for a program the
closed pipe stopped (`yes | head -1`), and no message."""

EXIT_TABLE = (
    (str(EXIT_OK), "done"),
    (str(EXIT_ERROR), "bad input or a failed run"),
    (str(EXIT_USAGE), "usage error: an unknown subcommand, option or backend, a value out of range"),
    (str(EXIT_WRONG), "a wrong answer or a refuted claim"),
    (str(EXIT_LIMIT), "a limit reached before an answer"),
    (str(EXIT_UNSATISFIABLE), "no solution"),
    (f"{EXIT_SIGNAL}+N", f"stopped by signal N ({EXIT_INTERRUPTED}: Ctrl-C)"),
)
"""(code, meaning) of every exit code, as `kakuro --help` and docs/guide/cli.md list them."""
EXIT_CODES_HELP = "exit codes, the same for every subcommand: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_TABLE)
"""The table in one paragraph: the epilog of `kakuro --help`."""

EXIT_CODES = {
    Status.SOLVED: EXIT_OK,
    Status.UNSATISFIABLE: EXIT_UNSATISFIABLE,
    Status.UNKNOWN: EXIT_LIMIT,
    Status.ERROR: EXIT_ERROR,
    Status.WRONG: EXIT_WRONG,
}
"""The exit code of a solve's or a count's status."""
SEVERITY = (EXIT_WRONG, EXIT_ERROR, EXIT_LIMIT, EXIT_UNSATISFIABLE, EXIT_OK)
"""Exit codes from worst to best: a command on several puzzles exits with the worst."""

PROGRAM = "kakuro"
"""The name every error line starts with, whatever the entry point."""


def worst(codes: Iterable[int]) -> int:
    """The worst of several exit codes (`SEVERITY`): a command on several puzzles exits with it."""
    return min(codes, key=SEVERITY.index)


LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character Python's `str.splitlines` ends a line at."""
_ESCAPED_BREAKS = {ord(char): char.encode("unicode_escape").decode("ascii") for char in LINE_BREAKS}


def say(message: str) -> None:
    """One line on stderr: `kakuro: message`, a line break inside `message` (a backend named
    by a results file, say) shown escaped, as `\\n`."""
    print(f"{PROGRAM}: {message.translate(_ESCAPED_BREAKS)}", file=sys.stderr, flush=True)


def error_line(exc: Exception) -> tuple[str, int]:
    """What a command that raised `exc` prints (one line, without the program's name) and its
    exit code: a usage error 2; a time limit that ran out before an answer 4; bad input, a
    failed write (a full disk, a read-only folder), memory that ran out 1; anything else is a
    bug, named as one, 1."""
    if isinstance(exc, UsageError):
        return str(exc), EXIT_USAGE
    if isinstance(exc, LimitReachedError):
        return str(exc), EXIT_LIMIT
    if isinstance(exc, KakuroError):
        return str(exc), EXIT_ERROR
    if isinstance(exc, OSError) and exc.strerror:
        return (f"{exc.filename}: {exc.strerror}" if exc.filename is not None else exc.strerror), EXIT_ERROR
    if isinstance(exc, MemoryError):
        return "out of memory (MemoryError); try a smaller puzzle, a lower limit or a machine with more memory", EXIT_ERROR
    text = " ".join(str(exc).split()) or "(no message)"
    return f"internal error: {type(exc).__name__}: {text[:500]} (please report)", EXIT_ERROR


def run_command(body: Callable[[], int]) -> int:
    """`body()`'s exit code, whatever it raises: every exception is one line on stderr (see
    `error_line`); Ctrl-C is `kakuro: interrupted` and 130; a reader that went away (`| head`)
    ends the command quietly with 141. Output streams never fail on a character their encoding
    lacks (the undecodable bytes of a file name are shown escaped)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        return body()
    except KeyboardInterrupt:
        hook, sys.unraisablehook = sys.unraisablehook, _unsaid
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # no flush at exit into the closed pipe
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as exc:
        line, code = error_line(exc)
        say(line)
        return code
    try:  # interrupted: what the work left half-built goes now, its finalizers' errors unsaid
        gc.collect()
    finally:
        sys.unraisablehook = hook
    say("interrupted")
    return EXIT_INTERRUPTED


def _unsaid(unraisable: object) -> None:
    """`sys.unraisablehook` while an interrupted command ends: an engine object whose
    constructor Ctrl-C cut short (pychoco's handle wrapper) raises in its finalizer, which
    Python would print as a traceback after `kakuro: interrupted`."""
