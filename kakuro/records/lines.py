"""One line of a results file: a `Record` as one bounded line of JSON, and back.

`encode` always gives a line, of at most `MAX_LINE` bytes: whatever a backend returned, its job
gets its record. `decode` gives the record a line holds, or the reason it holds none, in words
a person reads (never an exception: a line may be torn, edited, binary or hostile).
"""

from __future__ import annotations

import codecs
import dataclasses
import json
import sys
from typing import Any

from kakuro.records.record import Record, clipped

MAX_LINE = 2**20
"""Bytes of the longest line of a results file, its newline included. `encode` writes none
longer, so a longer line is no record of kakuro's (a binary file, a line of gigabytes): readers
stop there instead of reading it."""
MAX_TEXT = 10_000
"""Characters kept of the source, instance, backend and spec of a record that would not fit in
`MAX_LINE` otherwise (each JSON-escaped character may take 12 bytes)."""
_MAPPINGS = ("stats", "versions", "machine")
"""The record's free-form fields: what a backend or a machine reported."""
_TEXTS = ("source", "instance", "backend", "spec")
_SHARED = ("machine", "versions", "source", "backend", "spec")
"""The fields most records of a campaign have equal."""


def encode(record: Record) -> bytes:
    """`record` as one line of JSON (ASCII, newline included) of at most `MAX_LINE` bytes. A
    free-form field (stats, versions, machine) that JSON cannot hold (a value over 4,300 digits,
    a NaN, a cycle...) is written as {}, and when the line would still be too long all three
    are, and its texts are clipped to `MAX_TEXT` characters; the message says what was left out."""
    line = _dumps(record)
    if line is not None and len(line) < MAX_LINE:
        return (line + "\n").encode("ascii")
    dropped: dict[str, Any] = {}
    notes = []
    for name in _MAPPINGS:
        try:
            json.dumps(getattr(record, name), allow_nan=False, default=str)
        except (ValueError, TypeError, RecursionError, OverflowError) as exc:
            dropped[name] = {}
            notes.append(f"{name} not recorded: {clipped(f'{type(exc).__name__}: {exc}', 200)}")
    smaller = dataclasses.replace(record, **dropped, message=clipped("; ".join(filter(None, [record.message, *notes]))))
    line = _dumps(smaller)
    if line is None or len(line) >= MAX_LINE:
        notes = [f"stats, versions and machine not recorded: the record would take more than {MAX_LINE} bytes"]
        texts: dict[str, Any] = {name: clipped(getattr(record, name), MAX_TEXT) for name in _TEXTS
                                 if getattr(record, name) is not None}
        message = clipped("; ".join(filter(None, [record.message, *notes])))
        smaller = dataclasses.replace(record, stats={}, versions={}, machine={}, message=message, **texts)
        line = json.dumps(smaller.to_json(), allow_nan=False)  # texts and numbers only: it fits
    return (line + "\n").encode("ascii")


def _dumps(record: Record) -> str | None:
    """`record` as JSON text, or None when JSON cannot hold it."""
    try:
        return json.dumps(record.to_json(), allow_nan=False, default=str)
    except (ValueError, TypeError, RecursionError, OverflowError):
        return None


def decode(line: bytes, shared: dict[tuple[str, str], Any] | None = None) -> Record | str:
    """The record `line` (without its newline) holds, or why it holds none: not UTF-8, not
    JSON, a number of more digits than Python reads, not a record (`Record.from_json`'s reason).
    The reason is one line of at most a few hundred characters. `shared`, one dict kept over
    the lines of a file, makes records share their equal machine and versions objects and
    names (most are the same in every record of a campaign): memory then grows with what
    differs from record to record (a third of a record's size)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start + 1} of the line)"
    try:
        parsed = json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg}, column {exc.colno})"
    except _TooLong as exc:
        return str(exc)
    except (ValueError, RecursionError) as exc:
        return f"not JSON ({clipped(str(exc), 200)})"
    if not isinstance(parsed, dict):
        return f"not a result record: a JSON {type(parsed).__name__}, not an object"
    try:
        if shared is not None:
            _share(parsed, shared)
        return Record.from_json(parsed)
    except (ValueError, TypeError, RecursionError, OverflowError) as exc:
        return f"not a result record: {clipped(str(exc), 200)}"


def _share(parsed: dict[str, Any], shared: dict[tuple[str, str], Any]) -> None:
    """Replace the machine, versions, source, backend and spec of `parsed` by the equal object
    `shared` already holds, or add them to it."""
    for name in _SHARED:
        value = parsed.get(name)
        if isinstance(value, (dict, str)):
            parsed[name] = shared.setdefault((name, value if isinstance(value, str) else repr(value)), value)


class _TooLong(ValueError):
    """A whole number longer than Python converts (`sys.get_int_max_str_digits`)."""


def _whole_number(digits: str) -> int:
    """`int(digits)`, or _TooLong saying how long the number is when Python refuses it."""
    limit = sys.get_int_max_str_digits()
    if limit and len(digits.lstrip("-")) > limit:
        raise _TooLong(f"a number of {len(digits.lstrip('-'))} digits (at most {limit} are read)")
    return int(digits)


def without_bom(line: bytes) -> bytes:
    """The first line of a file without the UTF-8 byte-order mark some editors add."""
    return line.removeprefix(codecs.BOM_UTF8)
