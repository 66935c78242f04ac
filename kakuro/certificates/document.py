"""The certificate file: one puzzle, what is claimed of its solutions, and the evidence.

A certificate is plain text, DIMACS-shaped, so that a SAT tool reads its parts as they are::

    c kakuro certificate {"version":2,"claim":"unique","count":"exactly 1","puzzle":{...},...}
    c Kakuro puzzle ...                 (the DIMACS export's comments: the variable map)
    p cnf V C
    ...                                 (the puzzle's CNF, one clause a line)
    -1 -17 ... 0                        (claim "unique": the excluding clause, last)
    c proof DRUP
    ...                                 (the solver's proof, one step a line, `d` deletes)
    0                                   (the empty clause: the proof's last step)
    c end of certificate

Line 1 is a header, a JSON object after `c kakuro certificate ` holding exactly `version`
(`VERSION`), `claim` (`Claim`), `count` (the claim in words), `puzzle` (`format`, a puzzle
format of `kakuro.formats`, and `text`, the puzzle written in it without id or notes: any kind
of puzzle a format holds, Kakuro, Sudoku, Killer...), `solutions` (one value per cell, cell
order) and `encoding`. Claim "several" holds two solutions and nothing else. Claims "none" and
"unique" hold the formula the proof refutes between `p cnf` and `c proof DRUP` (for "unique",
the CNF and then the clause excluding the one solution) and the proof after it. The last line,
`c end of certificate`, tells a whole file from a truncated one.

Everything but the proof is what `header_line` and `formula_text` write from the claim, the
puzzle and its solutions: `kakuro.certificates.check.verify` writes it again and requires the
same text, and checks the proof, so a certificate states nothing that is not checked (who made
it is not written: nothing could check it). This module writes the layout and reads it line
by line (`CertificateReader`: a file is streamed, never loaded whole); a file that does not
follow it is a `CertificateFormatError` naming its line and column.
"""

from __future__ import annotations

import dataclasses
import enum
import io
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.files import special_kind
from kakuro.formats import FORMATS, MAX_INPUT_BYTES, dumps
from kakuro.formats.dimacs import cnf_text
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import Encoding

VERSION = 2
"""The layout this module writes and reads (the header's `version`). Version 1 kept the
puzzle's id, a Kakuro grid only, and who made it, none of which `verify` could check."""

MAGIC = "c kakuro certificate "
"""How line 1 begins; the header's JSON follows."""
PROOF_LINE = "c proof DRUP"
"""The line between the formula and the proof."""
END_LINE = "c end of certificate"
"""The last line of a whole certificate."""
HEADER_KEYS = ("version", "claim", "count", "puzzle", "solutions", "encoding")
"""The header's keys, in the order they are written: no other key is allowed."""

EXTENSION = ".cert"
"""The file extension `kakuro certify` gives certificates."""

MAX_HEADER_BYTES = MAX_INPUT_BYTES
"""The longest header line read (it holds the puzzle: the bound of a puzzle file)."""
PREFERRED_FORMATS = ("jsonl",)
"""Tried first for the header's puzzle (exact for every Kakuro, value ranges included); then
every readable format of `kakuro.formats`, in its order, that holds the puzzle's kind."""


class Claim(str, enum.Enum):  # noqa: UP042  # a StrEnum would change str(claim)
    """What a certificate claims of a puzzle's solutions."""

    NONE = "none"
    """No solution: a proof that the CNF is unsatisfiable."""
    UNIQUE = "unique"
    """Exactly one solution: it, and a proof that the CNF without it is unsatisfiable."""
    SEVERAL = "several"
    """Two solutions or more: two distinct ones (no proof needed)."""

    @property
    def bound(self) -> str:
        """The count in words: "0", "exactly 1", "at least 2"."""
        return {"none": "0", "unique": "exactly 1", "several": "at least 2"}[self.value]

    @property
    def solutions(self) -> int:
        """How many solutions a certificate of this claim lists."""
        return {"none": 0, "unique": 1, "several": 2}[self.value]


class CertificateFormatError(PuzzleFormatError):
    """A certificate file that cannot be read: missing, not a regular file, truncated, or not
    in the layout (`file`, `line`, `column` as in PuzzleFormatError)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled whole (a check run in a child process raises it in the parent)."""
        return (_format_error, (self.message, self.file, self.line, self.column, self.text))


def _format_error(message: str, file: str | None, line: int | None, column: int | None,
                  text: str | None) -> CertificateFormatError:
    return CertificateFormatError(message, file=file, line=line, column=column, text=text)


@dataclass(frozen=True)
class Certificate:
    """A certificate made in memory: `clauses` is the formula the proof refutes (for a UNIQUE
    claim, the CNF with the excluding clause last; empty for SEVERAL), `num_vars` its
    variable count, `proof` its DRUP steps as `(deleted, literals)` (DIMACS literals)."""

    puzzle: Puzzle
    claim: Claim
    solutions: tuple[tuple[int, ...], ...]
    clauses: tuple[tuple[int, ...], ...] = ()
    num_vars: int = 0
    proof: tuple[tuple[bool, tuple[int, ...]], ...] = ()
    encoding: str = "combinations"
    made_by: dict[str, str] = field(default_factory=dict, compare=False)
    """Solver and versions that made it: kept here for the caller, never written (a file
    states only what `verify` checks)."""

    @property
    def excluding(self) -> tuple[int, ...] | None:
        """The clause excluding the solution (UNIQUE claims), else None."""
        return self.clauses[-1] if self.claim is Claim.UNIQUE and self.clauses else None

    @property
    def cnf(self) -> tuple[tuple[int, ...], ...]:
        """The puzzle's CNF as the certificate gives it (the formula less the excluding clause)."""
        return self.clauses[:-1] if self.excluding is not None else self.clauses

    def header(self) -> dict[str, Any]:
        """The JSON object of line 1."""
        return header_fields(self.claim, self.puzzle, self.solutions, self.encoding)

    def dumps(self) -> str:
        """The certificate as text (see the module docstring)."""
        text = header_line(self.claim, self.puzzle, self.solutions, self.encoding) + "\n"
        if self.claim is not Claim.SEVERAL:
            enc = Encoding([list(c) for c in self.cnf], self.num_vars, self.puzzle.size, self.puzzle.values, self.encoding)
            text += formula_text(self.puzzle, enc, self.excluding)
            text += PROOF_LINE + "\n"
            text += "".join(("d " if deleted else "") + " ".join(map(str, lits)) + (" 0\n" if lits else "0\n")
                            for deleted, lits in self.proof)
        return text + END_LINE + "\n"


def header_fields(claim: Claim, puzzle: Puzzle, solutions: Sequence[Sequence[int]], encoding: str) -> dict[str, Any]:
    """The header's JSON object for these contents (keys in `HEADER_KEYS` order)."""
    return {"version": VERSION, "claim": claim.value, "count": claim.bound, "puzzle": puzzle_fields(puzzle),
            "solutions": [list(s) for s in solutions], "encoding": encoding}


def header_line(claim: Claim, puzzle: Puzzle, solutions: Sequence[Sequence[int]], encoding: str) -> str:
    """Line 1 of a certificate, exactly as it is written (and required)."""
    return MAGIC + json.dumps(header_fields(claim, puzzle, solutions, encoding), separators=(",", ":"))


def puzzle_fields(puzzle: Puzzle) -> dict[str, str]:
    """The header's `puzzle`: `format` and `text` (see `written`)."""
    return written(puzzle)[0]


def written(puzzle: Puzzle) -> tuple[dict[str, str], Puzzle]:
    """The header's `puzzle` (`format` and `text`: the puzzle, without its id and notes, in the
    first format that gives exactly it back: `PREFERRED_FORMATS`, then any that holds its
    kind), and the puzzle as that text gives it back: the one a certificate is about, and
    encodes (a Killer's cages in the order the format reads them). KakuroError when no format
    gives it back."""
    bare = plain(puzzle)
    names = [*PREFERRED_FORMATS, *(n for n in FORMATS if n not in PREFERRED_FORMATS)]
    for name in names:
        module = FORMATS[name]
        if module.parse is None or puzzle.kind not in getattr(module, "KINDS", ("kakuro",)):
            continue
        try:
            text = dumps([bare], name)
            back = module.parse(text)
            if len(back) == 1:  # written again in the order the format reads
                text = dumps(back, name)
            again = module.parse(text)
        except KakuroError:
            continue
        if len(again) == 1 and again[0] == bare and dumps(again, name) == text:
            return {"format": name, "text": text}, again[0]
    raise KakuroError(f"no puzzle format gives this {puzzle.kind} back exactly: it cannot be put in a certificate")


def plain(puzzle: Puzzle) -> Puzzle:
    """The puzzle without its id and notes: what a certificate is about."""
    return puzzle if puzzle.id is None and not puzzle.meta else dataclasses.replace(puzzle, id=None, meta={})


def formula_text(puzzle: Puzzle, enc: Encoding, excluding: Sequence[int] | None) -> str:
    """The formula's lines: the DIMACS export of `enc` (its variable map as comments), with
    the excluding clause last when there is one."""
    return cnf_text(plain(puzzle), enc, [excluding] if excluding is not None else [])


def file_name(puzzle: Puzzle, number: int) -> str:
    """The certificate's file name for the `number`-th (1-based) puzzle of a file: its id
    with characters other than letters, digits, `.`, `_` and `-` made `_`, or `puzzle-K`."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", puzzle.id) if puzzle.id else f"puzzle-{number}"
    return stem.lstrip(".") + EXTENSION if stem.lstrip(".") else f"puzzle-{number}{EXTENSION}"


def clip(text: str, width: int = 40) -> str:
    """`text` quoted for a one-line message: at most `width` characters, escapes for what
    cannot be printed (a lone surrogate, a control character)."""
    return repr(text if len(text) <= width else text[:width] + "...")


def json_shown(value: Any, width: int = 30) -> str:
    """`value` as JSON for a one-line message (ASCII, escapes for the rest), at most `width`
    characters and "..."."""
    text = json.dumps(value)
    return text if len(text) <= width else text[:width] + "..."


@dataclass(frozen=True)
class Header:
    """Line 1 as read: what it states (`claim`, `puzzle`, `solutions`), every field as parsed
    (`fields`), and the line itself."""

    claim: Claim
    puzzle: Puzzle
    solutions: tuple[tuple[int, ...], ...]
    fields: dict[str, Any]
    line: str


class CertificateReader:
    """A certificate's lines, one at a time: from a regular file (streamed; a FIFO, a device
    or a folder is refused at once), or from text. Each line is at most the length its caller
    allows and UTF-8; every error names the file, the line (1-based) and where it can, the
    column. `size` is the certificate's length in bytes."""

    def __init__(self, stream: BinaryIO, name: str | None, size: int) -> None:
        self.stream, self.name, self.size = stream, name, size
        self.number = 0
        """The line read last (1-based; 0 before the first)."""

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> CertificateReader:
        """The reader of file `path`, its beginning and its end line checked first (a file that
        is no certificate, or a truncated one, is refused before any work)."""
        name = os.fspath(path)
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise CertificateFormatError("no such file", file=name) from None
        except OSError as exc:
            raise CertificateFormatError(f"cannot be read: {exc.strerror or exc}", file=name) from None
        info = os.fstat(fd)
        kind = special_kind(info.st_mode)
        if kind is not None:
            os.close(fd)
            raise CertificateFormatError(f"is {kind}, not a certificate file", file=name)
        os.set_blocking(fd, True)
        reader = cls(os.fdopen(fd, "rb"), name, info.st_size)
        try:
            reader.check_ends()
        except BaseException:
            reader.close()
            raise
        return reader

    @classmethod
    def of_text(cls, text: str, name: str | None = None) -> CertificateReader:
        """The reader of a certificate's text."""
        data = text.encode("utf-8", "surrogateescape")
        reader = cls(io.BytesIO(data), name, len(data))
        reader.check_ends()
        return reader

    def __enter__(self) -> CertificateReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.stream.close()

    def fail(self, message: str, line: int | None = None, column: int | None = None, text: str | None = None
             ) -> CertificateFormatError:
        """The error to raise, at `line` (default: the line read last)."""
        return CertificateFormatError(message, file=self.name, line=line or self.number or None, column=column,
                                      text=text)

    def line(self, limit: int, *, cut: bool = False) -> str | None:
        """The next line without its newline, None at the end of the file. A line longer than
        `limit` bytes is refused, or with `cut` returned as its first `limit` bytes and "...":
        text that then differs from any line the caller expects."""
        raw = self.stream.readline(limit + 1)
        if not raw:
            return None
        self.number += 1
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        elif len(raw) > limit:
            if not cut:
                raise self.fail(f"the line is longer than {limit:,} bytes, more than this line of a certificate may "
                                "hold", column=limit + 1)
            return raw[:limit].decode("utf-8", "replace") + "..."
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self.fail(f"not UTF-8 text (byte {exc.start + 1} of the line)", column=exc.start + 1) from None

    def check_ends(self) -> None:
        """Refuse, before reading it, what does not begin as a certificate or does not end
        with `END_LINE` (then the message names the last line)."""
        head = self.stream.read(len(MAGIC))
        end = (END_LINE + "\n").encode()
        if not head:
            raise self.fail("empty file: not a certificate")
        if head != MAGIC.encode():
            first = self.stream.readline(40)
            shown = (head + first).split(b"\n")[0].decode("utf-8", "replace")
            raise self.fail(f"not a kakuro certificate (line 1 does not begin {MAGIC.strip()!r})", 1, 1, shown[:40])
        self.stream.seek(max(0, self.size - len(end) - 1))
        tail = self.stream.read()
        if not (tail.endswith(b"\n" + end) or tail.endswith(b"\n" + end[:-1])):
            last, lines = self._last_line()
            raise self.fail(f"the last line is not {END_LINE!r}: the certificate is truncated", lines, 1, last[:40])
        self.stream.seek(0)

    def _last_line(self) -> tuple[str, int]:
        """The last line's beginning and its number, counted through the file in blocks."""
        self.stream.seek(0)
        lines, previous, block = 0, b"", b""
        while chunk := self.stream.read(1 << 20):
            lines += chunk.count(b"\n")
            previous, block = block, chunk
        tail = (previous + block)[-4096:]
        if tail.endswith(b"\n"):
            tail = tail[:-1]
        else:
            lines += 1
        return tail.rsplit(b"\n", 1)[-1].decode("utf-8", "replace"), lines

    def header(self) -> Header:
        """Line 1, read: CertificateFormatError when it cannot be (what it states is checked
        by `verify`, not here)."""
        line = self.line(MAX_HEADER_BYTES)
        assert line is not None  # check_ends saw it
        fields = _header_json(line, self)
        version = fields.get("version")
        if type(version) is not int or version != VERSION:
            again = " (make it again with kakuro certify)" if type(version) is int and version < VERSION else ""
            raise self.fail(f"certificate version {json_shown(version)}; this kakuro reads version "
                            f"{VERSION}{again}")
        claim_name = fields.get("claim")
        if not isinstance(claim_name, str) or claim_name not in {c.value for c in Claim}:
            raise self.fail(f"claim {json_shown(claim_name)} is not one of {', '.join(c.value for c in Claim)}")
        claim = Claim(claim_name)
        puzzle = _header_puzzle(fields.get("puzzle"), self)
        solutions = fields.get("solutions")
        if (not isinstance(solutions, list) or len(solutions) != claim.solutions
                or not all(isinstance(s, list) and all(type(v) is int for v in s) for s in solutions)):
            raise self.fail(f"claim {claim.value!r} needs {claim.solutions} solution(s), each a list of integers")
        return Header(claim, puzzle, tuple(tuple(s) for s in solutions), fields, line)


class _HeaderValueError(ValueError):
    """Something JSON allows that a header may not hold (a repeated key, a huge number)."""


def _header_json(line: str, reader: CertificateReader) -> dict[str, Any]:
    """The header's JSON object."""
    try:
        fields = json.loads(line[len(MAGIC):], object_pairs_hook=_unique_keys, parse_int=_bounded_int,
                            parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise reader.fail(f"the header is not valid JSON: {exc.msg}", column=len(MAGIC) + exc.pos + 1) from None
    except _HeaderValueError as exc:
        raise reader.fail(f"the header {exc}") from None
    except (RecursionError, ValueError) as exc:
        raise reader.fail(f"the header is not valid JSON: {str(exc).splitlines()[0][:80]}") from None
    if not isinstance(fields, dict):
        raise reader.fail("the header is not a JSON object", column=len(MAGIC) + 1)
    return fields


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    fields = dict(pairs)
    if len(fields) < len(pairs):
        seen: set[str] = set()
        repeated = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _HeaderValueError(f"repeats the key {clip(repeated, 20)}")
    return fields


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise _HeaderValueError(f"holds a number of {len(text.lstrip('-')):,} digits")
    return int(text)


def _no_constant(text: str) -> Any:
    raise _HeaderValueError(f"holds {text}, which is no JSON number")


def _header_puzzle(record: Any, reader: CertificateReader) -> Puzzle:
    """The puzzle of the header's `puzzle` object (`format` and `text`)."""
    if not isinstance(record, dict) or not isinstance(record.get("format"), str) or not isinstance(record.get("text"), str):
        raise reader.fail('the header has no puzzle object ({"format": NAME, "text": PUZZLE})')
    name, text = record["format"], record["text"]
    module = FORMATS.get(name)
    if module is None or module.parse is None:
        readable = ", ".join(n for n, m in FORMATS.items() if m.parse is not None)
        raise reader.fail(f"the header's puzzle format {clip(name, 20)} is not one kakuro reads ({readable})")
    try:
        puzzles = module.parse(text)
    except PuzzleFormatError as exc:
        raise reader.fail(f"the header's puzzle cannot be read: {exc.message}") from None
    except KakuroError as exc:
        raise reader.fail(f"the header's puzzle cannot be read: {exc}") from None
    if len(puzzles) != 1:
        raise reader.fail(f"the header's puzzle text holds {len(puzzles)} puzzles, not one")
    puzzle: Puzzle = puzzles[0]
    return puzzle
