"""Backend options and spec strings: an `Option` declares one (default, type, accepted values)
and parses its values, from Python or from the text of a spec string `name[:key=value,...]`
(`parse_spec`, `spec_value`); and the seed every backend gets (`SEED_BITS`, `seed_below`,
`solving_seed`)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from kakuro.errors import BackendOptionError, UnknownBackendError, did_you_mean
from kakuro.values import is_integer


@dataclass(frozen=True)
class Option:
    """A backend option: its default, its type, and optionally the accepted values or bounds."""

    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def accepted(self) -> str:
        """The values this option accepts, in words ("one of a, b", "an integer from 1 to 5")."""
        if self.choices is not None:
            return "one of " + ", ".join(value_text(choice) for choice in self.choices)
        kind = KIND_WORDS[type(self.default)]
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {value_text(self.minimum)} to {value_text(self.maximum)}"
        if self.minimum is not None:
            return f"{kind} of at least {value_text(self.minimum)}"
        if self.maximum is not None:
            return f"{kind} of at most {value_text(self.maximum)}"
        return kind

    def parse(self, name: str, raw: Any) -> Any:
        """Convert `raw` (a value or a spec-string text) to this option's type, or raise."""
        kind = type(self.default)
        value = raw
        if isinstance(raw, str) and kind is not str:
            value = _parse_text(name, raw, kind)
        elif kind is float and is_integer(raw):
            value = float(raw)
        if type(value) is not kind:
            raise BackendOptionError(f"option {name!r} takes {KIND_WORDS.get(kind, kind.__name__)}, not {raw!r}")
        if self.choices is not None and value not in self.choices:
            raise BackendOptionError(f"option {name!r} accepts {', '.join(map(str, self.choices))}; got {raw!r}"
                                     f"{did_you_mean(str(raw), map(str, self.choices))}")
        if self.minimum is not None and value < self.minimum:
            raise BackendOptionError(f"option {name!r} must be at least {self.minimum}; got {raw!r}")
        if self.maximum is not None and value > self.maximum:
            raise BackendOptionError(f"option {name!r} must be at most {self.maximum}; got {raw!r}")
        return value


_ASCII_INT = re.compile(r"-?[0-9]+")
_ASCII_FLOAT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _parse_text(name: str, text: str, kind: type) -> Any:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise BackendOptionError(f"option {name!r} takes true or false, not {text!r}")
    pattern = _ASCII_INT if kind is int else _ASCII_FLOAT
    if not pattern.fullmatch(text.strip()):
        raise BackendOptionError(f"option {name!r} takes {KIND_WORDS.get(kind, kind.__name__)}, not {text!r}")
    return kind(text.strip())


KIND_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a text"}
"""An option's type in the words of its messages ("takes an integer")."""


def value_text(value: Any) -> str:
    """An option's value as people read it: a bool as true or false, a whole float without
    its ".0"."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return str(value)


def spec_value(value: Any) -> str:
    """An option's value as a spec string writes it (a bool as true or false); a text that
    `parse_spec` would split or mistake (a comma, colon, equals sign, quote or space in it, or
    nothing at all) in double quotes, `"` and `\\` in it escaped with a backslash."""
    if isinstance(value, bool):
        return str(value).lower()
    text = str(value)
    if isinstance(value, str) and (not text or any(ch in _SPECIAL for ch in text) or text != text.strip()):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


_SPECIAL = frozenset(',:="\'\\') | frozenset(" \t")
"""Characters that make `spec_value` quote a text."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `name[:key=value,...]` into the name and its raw option texts. A value may be
    quoted, `"..."` or `'...'`, to hold commas, colons, equals signs or spaces (a path:
    `dimacs:cmd="/opt/my solver/kissat"`); within quotes a backslash escapes the next character."""
    if not isinstance(spec, str) or not spec.strip():
        raise UnknownBackendError(f"a backend spec must be a non-empty string like 'cpsat' or 'nmcs:level=2', not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for part, quoted in _split_options(spec, rest):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BackendOptionError(f"in backend spec {spec!r}: {part!r} is not key=value")
        if quoted is not None:
            if value.strip():
                raise BackendOptionError(f"in backend spec {spec!r}: {part!r} has text before its quoted value")
            options[key.strip()] = quoted
            continue
        if ":" in value and "=" in value:  # name:a=1:b=2, the separator mistaken
            fixed = f"{name.strip()}:{rest.strip().replace(':', ',')}"
            raise BackendOptionError(f"in backend spec {spec!r}: options are separated by commas: {fixed}")
        options[key.strip()] = value.strip()
    return name.strip(), options


def _split_options(spec: str, rest: str) -> list[tuple[str, str | None]]:
    """The comma-separated parts of `rest`, each as (its text before a quoted value, that value
    unquoted) or (its text, None) when nothing in it is quoted. Empty parts are dropped."""
    parts: list[tuple[str, str | None]] = []
    i, n = 0, len(rest)
    while i < n:
        head: list[str] = []
        quoted: str | None = None
        while i < n and rest[i] != ",":
            if rest[i] in "\"'" and quoted is None and "=" in "".join(head):
                close, i = rest[i], i + 1
                value: list[str] = []
                while i < n and rest[i] != close:
                    if rest[i] == "\\" and i + 1 < n:
                        i += 1
                    value.append(rest[i])
                    i += 1
                if i >= n:
                    raise BackendOptionError(f"in backend spec {spec!r}: a quote {close} is not closed")
                i += 1
                quoted = "".join(value)
                start = i
                while i < n and rest[i] != ",":
                    i += 1
                if rest[start:i].strip():
                    raise BackendOptionError(
                        f"in backend spec {spec!r}: {rest[start:i].strip()!r} follows a quoted value; "
                        "separate options with commas")
                break
            head.append(rest[i])
            i += 1
        i += 1  # the comma
        text = "".join(head).strip()
        if text or quoted is not None:
            parts.append((text, quoted))
    return parts


SEED_BITS = 63
"""Every backend's `_solve` gets a seed below 2**63 (a signed 64-bit integer: numpy, Java);
larger ones are folded (`seed_below`), and engines with a narrower range fold further."""


def seed_below(seed: int, bits: int) -> int:
    """`seed` folded into an engine's range 0 .. 2**bits - 1: unchanged when it fits (so small
    seeds mean what they always meant), else a hash of it, so that distinct large seeds stay
    distinct with high probability (`seed % 2**bits` would make 2**31 replay seed 0)."""
    if 0 <= seed < 1 << bits:
        return seed
    digest = hashlib.blake2b(str(seed).encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big") >> (128 - bits)


def solving_seed(seed: object) -> int:
    """The seed a backend's `_solve` gets for the `seed` a caller passed: 0 for None, else the
    non-negative int folded below 2**SEED_BITS (`seed_below`). Raises BackendOptionError for
    anything else."""
    if seed is None:
        return 0
    if not is_integer(seed) or seed < 0:
        raise BackendOptionError(f"seed must be a non-negative integer or None, not {seed!r}")
    return seed_below(seed, SEED_BITS)
