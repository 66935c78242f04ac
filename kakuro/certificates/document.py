"""The certificate file: one puzzle, what is claimed of its solutions, and the evidence.

A certificate is plain text, DIMACS-shaped, so that a SAT tool reads its parts as they are::

    c kakuro certificate {"version": 1, "claim": "unique", "puzzle": {...}, "solutions": [[...]], ...}
    c Kakuro puzzle ...                 (the DIMACS export's comments: the variable map)
    p cnf V C
    ...                                 (the puzzle's CNF, one clause a line)
    -1 -17 ... 0                        (claim "unique": the excluding clause, last)
    c proof DRUP
    ...                                 (the solver's proof, one step a line, `d` deletes)
    c end of certificate

Line 1 is a header, a JSON object after `c kakuro certificate `: `version` (`VERSION`), `claim`
(`Claim`), `puzzle` (the JSON-lines record of `kakuro.formats.jsonl`), `solutions` (one value
per white cell, cell order), `encoding`, `solver` and the versions that made it (information
only). Claim "several" holds two solutions and nothing else. Claims "none" and "unique" hold the
formula the proof refutes between `p cnf` and `c proof` (for "unique", the CNF and then the
clause excluding the one solution) and the proof after it. The last line, `c end of
certificate`, tells a whole file from a truncated one.

Nothing here is trusted: `kakuro.certificates.check.verify` re-encodes the puzzle and checks
every part. This module only reads and writes the layout, and a file that does not follow it
is a `CertificateFormatError` naming its line and column.
"""

from __future__ import annotations

import enum
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kakuro.errors import KakuroError, PuzzleFormatError
from kakuro.formats import jsonl
from kakuro.formats.dimacs import cnf_text
from kakuro.puzzle import Puzzle
from kakuro.reasoning.cnf import Encoding

VERSION = 1
"""The layout this module writes and reads (the header's `version`)."""

MAGIC = "c kakuro certificate "
"""How line 1 begins; the header's JSON follows."""
PROOF_LINE = "c proof DRUP"
"""The line between the formula and the proof."""
END_LINE = "c end of certificate"
"""The last line of a whole certificate."""

EXTENSION = ".cert"
"""The file extension `kakuro certify` gives certificates."""

MAX_CERTIFICATE_BYTES = 1 << 30
"""A larger file is refused unread (the largest janko certificate is under 2 MB)."""


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
    """A certificate file that cannot be read: missing, truncated, or not in the layout
    (`file`, `line`, `column` as in PuzzleFormatError)."""


@dataclass(frozen=True)
class Certificate:
    """A certificate as written or read: `clauses` is the formula the proof refutes (for a
    UNIQUE claim, the CNF with the excluding clause last; empty for SEVERAL), `num_vars` its
    variable count, `proof` its DRUP steps as `(deleted, literals)` (DIMACS literals)."""

    puzzle: Puzzle
    claim: Claim
    solutions: tuple[tuple[int, ...], ...]
    clauses: tuple[tuple[int, ...], ...] = ()
    num_vars: int = 0
    proof: tuple[tuple[bool, tuple[int, ...]], ...] = ()
    encoding: str = "combinations"
    made_by: dict[str, str] = field(default_factory=dict, compare=False)
    """Solver and versions that made it: information only, never checked."""

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
        record = jsonl.record(self.puzzle)
        record.pop("solution", None)  # the published solution is no part of the claim
        return {"version": VERSION, "claim": self.claim.value, "count": self.claim.bound, "puzzle": record,
                "solutions": [list(s) for s in self.solutions], "encoding": self.encoding, **self.made_by}

    def dumps(self) -> str:
        """The certificate as text (see the module docstring)."""
        lines = [MAGIC + json.dumps(self.header(), separators=(",", ":"))]
        text = "\n".join(lines) + "\n"
        if self.claim is not Claim.SEVERAL:
            enc = Encoding([list(c) for c in self.cnf], self.num_vars, self.puzzle.size, self.puzzle.values, self.encoding)
            extra = [list(self.excluding)] if self.excluding is not None else []
            text += cnf_text(self.puzzle, enc, extra)
            text += PROOF_LINE + "\n"
            text += "".join(("d " if deleted else "") + " ".join(map(str, lits)) + (" 0\n" if lits else "0\n")
                            for deleted, lits in self.proof)
        return text + END_LINE + "\n"


def file_name(puzzle: Puzzle, number: int) -> str:
    """The certificate's file name for the `number`-th (1-based) puzzle of a file: its id
    with characters other than letters, digits, `.`, `_` and `-` made `_`, or `puzzle-K`."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", puzzle.id) if puzzle.id else f"puzzle-{number}"
    return stem.lstrip(".") + EXTENSION if stem.lstrip(".") else f"puzzle-{number}{EXTENSION}"


def read_certificate(path: str | os.PathLike[str]) -> Certificate:
    """The certificate in file `path`; CertificateFormatError when it is missing, unreadable,
    truncated or not in the layout (the message names the file, line and column)."""
    name = os.fspath(path)
    try:
        size = os.path.getsize(name)
        if size > MAX_CERTIFICATE_BYTES:
            raise CertificateFormatError(f"{size:,} bytes is larger than a certificate may be "
                                         f"({MAX_CERTIFICATE_BYTES:,})", file=name)
        data = Path(name).read_bytes()
    except FileNotFoundError:
        raise CertificateFormatError("no such file", file=name) from None
    except IsADirectoryError:
        raise CertificateFormatError("is a folder, not a certificate file", file=name) from None
    except OSError as exc:
        raise CertificateFormatError(f"cannot be read: {exc.strerror or exc}", file=name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CertificateFormatError(f"not UTF-8 text (byte {exc.start + 1})", file=name) from None
    return loads(text, name)


def loads(text: str, file: str | None = None) -> Certificate:
    """The certificate in `text`; CertificateFormatError (naming `file`, line and column)
    when it does not follow the layout."""
    return _Reader(text, file).certificate()


class _Reader:
    """Reads the layout line by line; every error names its line (1-based) and column."""

    def __init__(self, text: str, file: str | None) -> None:
        self.file = file
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.at = 0

    def fail(self, message: str, line: int | None = None, column: int | None = None, text: str | None = None) -> KakuroError:
        return CertificateFormatError(message, file=self.file, line=line, column=column, text=text)

    def certificate(self) -> Certificate:
        if not self.lines:
            raise self.fail("empty file: not a certificate")
        header, puzzle, claim, solutions = self._header()
        if not self.lines[-1] == END_LINE:
            raise self.fail(f"the last line is not {END_LINE!r}: the certificate is truncated",
                            len(self.lines), 1, self.lines[-1][:40])
        made_by = {k: str(v) for k, v in header.items() if k in ("solver", "kakuro", "pysat")}
        encoding = header.get("encoding", "combinations")
        if not isinstance(encoding, str):
            raise self.fail(f"encoding {encoding!r} is not a name", 1)
        if claim is Claim.SEVERAL:
            if len(self.lines) != 2:
                raise self.fail("a certificate of several solutions holds the header and the end line only", 2, 1)
            return Certificate(puzzle, claim, solutions, encoding=encoding, made_by=made_by)
        num_vars, clauses = self._formula()
        proof = self._proof()
        return Certificate(puzzle, claim, solutions, clauses, num_vars, proof, encoding, made_by)

    def _header(self) -> tuple[dict[str, Any], Puzzle, Claim, tuple[tuple[int, ...], ...]]:
        first = self.lines[0]
        if not first.startswith(MAGIC):
            raise self.fail(f"not a kakuro certificate (line 1 does not begin {MAGIC.strip()!r})", 1, 1, first[:40])
        try:
            header = json.loads(first[len(MAGIC):])
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            column = len(MAGIC) + getattr(exc, "pos", 0) + 1
            raise self.fail(f"the header is not valid JSON: {getattr(exc, 'msg', exc)}", 1, column) from None
        if not isinstance(header, dict):
            raise self.fail("the header is not a JSON object", 1, len(MAGIC) + 1)
        version = header.get("version")
        if version != VERSION:
            raise self.fail(f"certificate version {version!r}; this kakuro reads version {VERSION}", 1)
        try:
            claim = Claim(header.get("claim"))
        except ValueError:
            raise self.fail(f"claim {header.get('claim')!r} is not one of {', '.join(c.value for c in Claim)}", 1) from None
        record = header.get("puzzle")
        if not isinstance(record, dict):
            raise self.fail("the header has no puzzle object", 1)
        try:
            (puzzle,) = jsonl.parse(json.dumps(record), self.file)
        except PuzzleFormatError as exc:
            raise self.fail(f"the header's puzzle cannot be read: {exc.message}", 1) from None
        solutions = header.get("solutions")
        if (not isinstance(solutions, list) or len(solutions) != claim.solutions
                or not all(isinstance(s, list) and all(type(v) is int for v in s) for s in solutions)):
            raise self.fail(f"claim {claim.value!r} needs {claim.solutions} solution(s), each a list of digits", 1)
        return header, puzzle, claim, tuple(tuple(s) for s in solutions)

    def _formula(self) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """The `p cnf` line and the clauses up to the proof line."""
        self.at = 1
        while self.at < len(self.lines) and self.lines[self.at].startswith("c"):
            if self.lines[self.at] in (PROOF_LINE, END_LINE):
                break
            self.at += 1
        number = self.at + 1
        match = re.fullmatch(r"p cnf (\d+) (\d+)", self.lines[self.at]) if self.at < len(self.lines) else None
        if match is None:
            raise self.fail("a 'p cnf VARIABLES CLAUSES' line should come here", number, 1, self.lines[self.at][:40])
        num_vars, count = int(match[1]), int(match[2])
        self.at += 1
        clauses = []
        for lits in self._clauses(PROOF_LINE, deletions=False):
            clauses.append(lits[1])
        if len(clauses) != count:
            raise self.fail(f"the 'p cnf' line announces {count} clauses, {len(clauses)} follow", number, 1)
        for k, clause in enumerate(clauses):
            outside = next((lit for lit in clause if abs(lit) > num_vars), None)
            if outside is not None:
                raise self.fail(f"literal {outside} lies outside the {num_vars} variables of the 'p cnf' line",
                                number + 1 + k, None)
        return num_vars, tuple(clauses)

    def _proof(self) -> tuple[tuple[bool, tuple[int, ...]], ...]:
        if self.at >= len(self.lines) or self.lines[self.at] != PROOF_LINE:
            raise self.fail(f"the proof should begin here with {PROOF_LINE!r}", self.at + 1, 1)
        self.at += 1
        return tuple(self._clauses(END_LINE, deletions=True))

    def _clauses(self, stop: str, *, deletions: bool) -> Iterator[tuple[bool, tuple[int, ...]]]:
        """Each line up to the line `stop` as (deleted, literals): integers ended by 0, one
        clause a line (a proof's may begin with `d`)."""
        while self.at < len(self.lines) and self.lines[self.at] != stop:
            line = self.lines[self.at]
            self.at += 1
            if line.startswith("c"):
                continue
            tokens = line.split()
            deleted = deletions and bool(tokens) and tokens[0] == "d"
            numbers = tokens[1:] if deleted else tokens
            try:
                lits = [int(t) for t in numbers]
            except ValueError:
                bad = next(t for t in numbers if not re.fullmatch(r"-?\d+", t))
                raise self.fail(f"{bad!r} is not a literal", self.at, line.find(bad) + 1, bad[:20]) from None
            if not lits or lits[-1] != 0 or 0 in lits[:-1]:
                raise self.fail("a clause is literals ended by one 0, on one line", self.at, 1, line[:40])
            yield deleted, tuple(lits[:-1])
        if self.at >= len(self.lines):  # the end line is there (checked first): only a missing proof line gets here
            raise self.fail(f"no {stop!r} line", len(self.lines), 1)

