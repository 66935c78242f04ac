"""Reading and writing puzzle files: one module per format, detected by extension or content.

`read(source)` takes a path, the text itself or a binary stream (`sys.stdin.buffer`) and
returns every puzzle in it;
`read_lazily(source)` the same as a sequence that builds each puzzle when it is reached (a file
of 200,000 one-line Sudokus starts at once, in bounded memory); `write(puzzles, path)` never
replaces an existing file unless told to.

Detection when reading: a given `format=` wins; then an extension that belongs to one format
(`.jsonl`, `.ecl`, `.puzzlink`, `.kakuro`, ...); for a generic extension (`.txt`, `.kak`,
`.json`, `.dat`, none) or text given directly, the content decides (`course`, `jsonl`,
`simonis`, `puzzlink` recognise their own), and `text` is the fallback.
"""

from __future__ import annotations

import io
import json
import os
import warnings
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import BinaryIO

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.files import refuse_existing, write_new
from kakuro.formats import (
    course,
    dimacs,
    jigsaw,
    jsonl,
    killer,
    minizinc,
    puzzlink,
    simonis,
    sudoku,
    sudoku_grid,
    text,
    xcsp,
)
from kakuro.formats.base import BadPuzzle, LazyPuzzles, line_column
from kakuro.puzzle import Puzzle

FORMATS: dict[str, ModuleType] = {
    module.NAME: module
    for module in (course, jsonl, simonis, puzzlink, killer, jigsaw, sudoku, sudoku_grid, text, dimacs, minizinc, xcsp)
}
"""Format name -> module. Detection tries them in this order; `text` is the fallback.
Export formats (DIMACS, MiniZinc, XCSP3 JSON) set `parse = None`: written, never read; their
`sniff` recognises their own output only so that reading it fails with a clear message."""

GENERIC_EXTENSIONS = frozenset({".txt", ".kak", ".json", ".dat", ""})
"""Extensions several formats use: reading such a file goes by its content. (Writing still
takes the format whose EXTENSIONS list the extension: `.txt`/`.kak` text, `.json` xcsp.)"""


class SkippedPuzzleWarning(UserWarning):
    """A puzzle that `read(..., skip_bad=True)` could not read and skipped (the message is its
    PuzzleFormatError: file, line, column)."""

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Refuse larger inputs (no more is ever read): no real collection of puzzles comes near this."""


Source = str | os.PathLike[str] | bytes | BinaryIO
"""What `read` takes: a path, a text (or its bytes), or a binary stream read to its end."""


def read(
    source: Source,
    *,
    format: str | None = None,
    skip_bad: bool | BadPuzzle = False,
) -> list[Puzzle]:
    """Every puzzle in a file (path), a text or a binary stream; the format is detected unless
    given.

    A str holding a newline, or naming no existing file, is read as puzzle text; a stream
    (`sys.stdin.buffer`) is read to its end and its errors name it (`<stdin>`).
    Raises PuzzleFormatError (file, line, column) for anything that is not a valid puzzle.
    `skip_bad=True` skips each puzzle that cannot be read (a JSON line, a text block, a
    Simonis fact, a puzz.link URL, a course grid) with a `SkippedPuzzleWarning` naming it, and
    returns the others (possibly none); a callable instead receives each PuzzleFormatError.
    A file that cannot be read at all (missing, not UTF-8, an export format) still raises.
    """
    name, content, module = _loaded(source, format)
    try:
        parsed: list[Puzzle] = module.parse(content, name, on_bad=_bad_handler(skip_bad))
        return parsed
    except PuzzleFormatError as exc:
        if format is None:
            _refuse_other_file(exc, module, name, content)
        raise


def read_lazily(source: Source, *, format: str | None = None) -> Sequence[Puzzle]:
    """The puzzles of `read(source, format=format)` as a sequence that builds each one when it
    is reached (iterated or indexed) and keeps none: formats of one puzzle per line (`sudoku`
    `.sdm`, `jsonl`) are split into lines only; the others are read whole, as by `read`. The
    input is bounded as for `read`; a bad puzzle raises its PuzzleFormatError when reached."""
    name, content, module = _loaded(source, format)
    try:
        if getattr(module, "attempts", None) is None:
            parsed: list[Puzzle] = module.parse(content, name)
            return parsed
        explain = None if format is not None else partial(_refuse_other_file, module=module, name=name, content=content)
        return LazyPuzzles(module.attempts(content, name), file=name, empty=module.EMPTY, explain=explain)
    except PuzzleFormatError as exc:
        if format is None:
            _refuse_other_file(exc, module, name, content)
        raise


def _loaded(source: Source, format: str | None) -> tuple[str | None, str, ModuleType]:
    """The name, text and format module of a source to read."""
    name, data = load_source(source)
    content = decode_text(data, name)
    return name, content, _choose(format, name, content)


RESULTS_KEYS = ("backend", "status", "digest")
"""Keys of every record of a compare results file (`kakuro.records.record`), none of a puzzle's."""


def _refuse_other_file(error: PuzzleFormatError, module: ModuleType, name: str | None, content: str) -> None:
    """Raise a PuzzleFormatError that says what the file is instead, when the format reader
    `module` failed (`error`) on a file that is not a puzzle file at all: a compare results
    file, or a file whose extension no format has whose content no format recognises."""
    first = next((line for line in content.splitlines() if line.strip()), "")
    if module is jsonl:
        try:
            record = json.loads(first)
        except ValueError:
            record = None
        if isinstance(record, dict) and "grid" not in record and all(key in record for key in RESULTS_KEYS):
            raise PuzzleFormatError(
                'looks like a compare results file (records with "backend"/"status"), not puzzles; '
                "give it to `python -m kakuro.report`", file=name) from None
    if module is text and name is not None and _foreign(name):
        known = " ".join(sorted({ext for m in FORMATS.values() for ext in m.EXTENSIONS if _can_read(m)}))
        raise PuzzleFormatError(
            f"not a puzzle file (no known format matches: {Path(name).suffix} is none of the puzzle extensions "
            f"{known}, and as text it fails at line {error.line}: {error.message})", file=name) from None


def _foreign(name: str) -> bool:
    """True for a file name whose extension no format lists and that is not generic (`.md`, `.py`)."""
    suffix = Path(name).suffix.lower()
    return suffix not in GENERIC_EXTENSIONS and all(suffix not in m.EXTENSIONS for m in FORMATS.values())


def _bad_handler(skip_bad: bool | BadPuzzle) -> BadPuzzle | None:
    if skip_bad is True:
        return lambda error: warnings.warn(str(error), SkippedPuzzleWarning, stacklevel=5)
    if skip_bad is False:
        return None
    if not callable(skip_bad):
        raise TypeError(f"skip_bad takes True, False or a callable, not {skip_bad!r}")
    return skip_bad


def write(
    puzzles: Puzzle | Iterable[Puzzle],
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    overwrite: bool = False,
) -> Path:
    """Write puzzles to `path` (format from the extension unless given); never replaces an
    existing file unless `overwrite`. Returns the path written."""
    items = [puzzles] if isinstance(puzzles, Puzzle) else list(puzzles)
    target = Path(path)
    module = _choose(format, str(target), None)
    refuse_existing(target, overwrite)  # before formatting
    return write_new(target, dumps(items, module.NAME), overwrite=overwrite)


def dumps(puzzles: Puzzle | Iterable[Puzzle], format: str = "text") -> str:
    """The puzzles as a string in `format`."""
    items = [puzzles] if isinstance(puzzles, Puzzle) else list(puzzles)
    module = _module(format)
    kinds = getattr(module, "KINDS", ("kakuro",))
    for puzzle in items:
        if puzzle.kind not in kinds:
            family = [name for name, m in FORMATS.items() if puzzle.kind in getattr(m, "KINDS", ("kakuro",))]
            held = " and ".join(kinds) if len(kinds) < 3 else f"{', '.join(kinds[:-1])} and {kinds[-1]}"
            raise KakuroError(f"the {format} format holds {held} puzzles, not a {puzzle.kind}; "
                              f"formats for it: {', '.join(family)}")
    dumped: str = module.dumps(items)
    return dumped


def _module(format: str) -> ModuleType:
    try:
        return FORMATS[format]
    except KeyError:
        raise KakuroError(f"unknown format {format!r}; known formats: {', '.join(FORMATS)}") from None


def _choose(format: str | None, name: str | None, content: str | None) -> ModuleType:
    """The format module for writing (`content` None) or for reading `content`. Reading never
    picks an export-only format: content one of them recognises as its own, or a file with its
    extension that no readable format recognises, raises PuzzleFormatError saying so (a
    `.json` file holding JSON lines is still read)."""
    reading = content is not None
    if format is not None:
        return _readable(_module(format), name) if reading else _module(format)
    export_only = None
    if name is not None:
        suffix = Path(name).suffix.lower()
        for module in FORMATS.values():
            if suffix in module.EXTENSIONS:
                if not reading or (_can_read(module) and suffix not in GENERIC_EXTENSIONS):
                    return module
                if not _can_read(module):
                    export_only = export_only or module
    if content is None:
        raise KakuroError(f"cannot tell the format of {name!r} from its extension; pass format=")
    for module in FORMATS.values():
        if not _can_read(module) and module.sniff(content) and not (name is not None and _foreign(name)):
            _readable(module, name)  # an exported file given back (not, say, a README that mentions it): say so
    for module in FORMATS.values():
        if module is not text and _can_read(module) and module.sniff(content):
            return module
    if export_only is not None:
        _readable(export_only, name)
    return text


def _can_read(module: ModuleType) -> bool:
    return getattr(module, "parse", None) is not None


def _readable(module: ModuleType, name: str | None) -> ModuleType:
    """`module`, or PuzzleFormatError when it is an export-only format."""
    if not _can_read(module):
        readable = ", ".join(n for n, m in FORMATS.items() if _can_read(m))
        raise PuzzleFormatError(
            f"{module.NAME} is an export format: kakuro writes it but cannot read puzzles from it "
            f"(readable formats: {readable})",
            file=name,
        )
    return module


def load_source(source: Source) -> tuple[str | None, bytes | str]:
    """(the file's name or None, its content) of a path, of text or bytes given directly, or
    of a binary stream (its `name`, e.g. `<stdin>`), read to its end."""
    if isinstance(source, bytes):
        return None, source
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source)
        try:
            with open(path, "rb") as stream:  # a device or a pipe has no size to look at first
                data = _read_bounded(stream)
            if len(data) > MAX_INPUT_BYTES:
                raise PuzzleFormatError(f"the file holds more than {MAX_INPUT_BYTES} bytes; the limit is {MAX_INPUT_BYTES}",
                                        file=str(path))
            return str(path), data
        except FileNotFoundError:
            raise PuzzleFormatError("no such file", file=str(path)) from None
        except IsADirectoryError:
            raise PuzzleFormatError("is a folder, not a puzzle file", file=str(path)) from None
        except OSError as exc:
            raise PuzzleFormatError(f"cannot be read: {exc.strerror}", file=str(path)) from None
    if isinstance(source, str):
        return None, source
    if isinstance(source, io.TextIOBase):
        raise TypeError("read() takes a binary stream (such as sys.stdin.buffer), not a text stream")
    if callable(getattr(source, "read", None)):
        name = getattr(source, "name", None)
        return (name if isinstance(name, str) else None), _read_bounded(source)
    raise TypeError(f"read() takes a path, a text, bytes or a binary stream, not {type(source).__name__}")


READ_PIECE = 1 << 20
"""Bytes read at once: `read(MAX_INPUT_BYTES + 1)` would hold 64 MiB for a file of any size."""


def _read_bounded(stream: BinaryIO) -> bytes:
    """What `stream` holds, up to MAX_INPUT_BYTES + 1 bytes (one more than allowed: the caller
    refuses it), read a piece at a time."""
    pieces: list[bytes] = []
    total = 0
    while total <= MAX_INPUT_BYTES:
        piece = stream.read(min(READ_PIECE, MAX_INPUT_BYTES + 1 - total))
        if not piece:
            break
        pieces.append(piece)
        total += len(piece)
    return b"".join(pieces)


def _looks_like_path(source: str) -> bool:
    if "\n" in source or len(source) > 4096:
        return False
    if os.path.exists(source):
        return True
    return Path(source).suffix.lower() in {ext for m in FORMATS.values() for ext in m.EXTENSIONS}


def decode_text(data: bytes | str, name: str | None) -> str:
    """The content as text (UTF-8, a BOM dropped); PuzzleFormatError naming `name` when it is
    too large or not text."""
    if len(data) > MAX_INPUT_BYTES:
        raise PuzzleFormatError(f"the input has {len(data)} bytes or characters; the limit is {MAX_INPUT_BYTES}", file=name)
    if isinstance(data, str):
        content = data
    else:
        try:
            content = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            prefix = data[: exc.start].decode("utf-8", "replace")
            line, column = line_column(prefix, len(prefix))
            raise PuzzleFormatError("not UTF-8 text", file=name, line=line, column=column,
                                    text=repr(data[exc.start : exc.start + 4])) from None
    if "\x00" in content:
        line, column = line_column(content, content.index("\x00"))
        raise PuzzleFormatError("a NUL character: this is not a text file", file=name, line=line, column=column)
    return content
