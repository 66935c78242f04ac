"""The toolkit's exceptions. Every error a user can cause is a `KakuroError`; a `UsageError` is
one about what was asked (a name, an option, a value out of its range), the rest are about
input (a file, a puzzle, a solution) or what the machine allows.

Unsatisfiable puzzles and reached limits are *results* (see `kakuro.outcome.Status`),
never exceptions; exceptions are for bad input and misuse. `closest` finds the word a
misspelt one means, for the "did you mean" of a message.

Positions in messages count from 1 (`kakuro.values.position_name`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class KakuroError(Exception):
    """Base class of every error the toolkit raises on purpose."""


class UsageError(KakuroError, ValueError):
    """A request outside what is accepted: an unknown name, an option a backend does not
    declare, a value out of its range, arguments that exclude each other. The command line
    exits 2 for it, as for a flag its parser refuses."""


class LimitReachedError(KakuroError):
    """A call whose time limit ran out before it had anything to give back (a generator that
    made no puzzle in time). Where a result can say so, a limit is a result instead
    (`Status.UNKNOWN`). The command line exits 4 for it, as for a solve stopped by its limit."""


def closest(word: str, known: Iterable[str]) -> str | None:
    """The one of `known` that `word` most likely misspells (difflib's closest match with a
    ratio of 0.6 or more), or None when nothing is close."""
    found = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """"; did you mean 'x'?" when `word` looks like a misspelling of x (`closest`), else ""."""
    meant = closest(word, known)
    return f"; did you mean {meant!r}?" if meant is not None else ""


class PuzzleFormatError(KakuroError, ValueError):
    """A puzzle file or text that cannot be read.

    `file` is the path (or None for text given directly), `line` and `column` are 1-based
    positions of the offending `text` (None where the problem has no single position).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.text = text
        super().__init__(self._render())

    def _render(self) -> str:
        where = self.file or "<text>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        shown = f" (at {self.text!r})" if self.text else ""
        return f"{where}: {self.message}{shown}"


class InvalidPuzzleError(KakuroError, ValueError):
    """A puzzle that is well formed but breaks a rule of Kakuro (e.g. a run without clue).

    `cell` is the (row, col) the problem is about, when there is one.
    """

    def __init__(self, message: str, *, cell: tuple[int, int] | None = None) -> None:
        self.message = message
        self.cell = cell
        super().__init__(message)


class InvalidSolutionError(KakuroError, ValueError):
    """A solution that does not fit the puzzle's shape (wrong number of cells), or a value that
    is not a digit (an integer; never a bool, a float or a string)."""


class UnknownBackendError(UsageError):
    """A backend name that is not registered; the message lists the known ones, or names the
    likeliest meant one (`suggestion`, None when nothing is close)."""

    def __init__(self, message: str, *, suggestion: str | None = None) -> None:
        self.suggestion = suggestion
        super().__init__(message)


class BackendOptionError(UsageError):
    """An option a backend does not declare, or a value it does not accept."""


class BackendUnavailableError(KakuroError, ImportError):
    """A registered backend whose engine is not installed; the message gives the pip command."""


class TablesTooLargeError(KakuroError):
    """A puzzle whose combination tables would be too large for table-based propagation
    (`consistency=gac`): its value range is too wide. Other models still solve it."""


class UnsupportedOperationError(KakuroError):
    """An operation a backend cannot do, e.g. counting solutions with an incomplete search."""


class OutputExistsError(KakuroError, FileExistsError):
    """A file the toolkit was asked to write already exists and replacing it was not allowed.

    The message names both ways to allow it: `--force` on the command line, `overwrite=True`
    in the library.
    """

    def __init__(self, path: object, *more: object) -> None:
        self.path = path
        if more:
            names = ", ".join(str(p) for p in (path, *more))
            message = f"{names} already exist; choose other names, or replace them with --force (overwrite=True in Python)"
        else:
            message = f"{path} already exists; choose another name, or replace it with --force (overwrite=True in Python)"
        super().__init__(message)
