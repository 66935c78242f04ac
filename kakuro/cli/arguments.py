"""How the command line reads its arguments: `CommandParser`, the parser of `kakuro` and of
each subcommand (it refuses what it does not know with a "did you mean"), and the argument
types (numbers written in ASCII, checked, with a one-line message naming the text). A refusal
here exits 2 (`kakuro.cli.exits`)."""

from __future__ import annotations

import argparse
import math
import reprlib
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from kakuro.errors import closest


class CommandParser(argparse.ArgumentParser):
    """The parser of `kakuro` and of each of its subcommands. It refuses an argument it does
    not know itself, so that a typo in a subcommand's flag prints that subcommand's usage
    (argparse would hand the leftover to the top-level parser, which prints the top-level
    usage), and it names the option or the choice a misspelt one most likely means (argparse
    suggests nothing before Python 3.14)."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self._words = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}{self._suggestion(extras)}")
        return parsed, extras

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's check of a choice (a subcommand's name too); Python 3.14 suggests here itself
        choices = action.choices
        if choices is not None and isinstance(value, str) and value not in choices:
            meant = closest(value, [str(choice) for choice in choices])
            if meant is not None:
                listed = ", ".join(map(str, choices))
                raise argparse.ArgumentError(action, f"invalid choice: {value!r}; did you mean {meant!r}? "
                                                     f"(choose from {listed})")
        super()._check_value(action, value)

    def _long_options(self) -> list[str]:
        return [option for option in self._option_string_actions if option.startswith("--")]  # argparse keeps them there

    def _suggestion(self, extras: Iterable[str]) -> str:
        """"; did you mean --x?" for the first unknown option that looks like a misspelt one."""
        for extra in extras:
            if extra.startswith("--"):
                meant = closest(extra.partition("=")[0], self._long_options())
                if meant is not None:
                    return f"; did you mean {meant}?"
        return ""

    def error(self, message: str) -> NoReturn:
        """Print the usage and `PROG: error: MESSAGE` (one line) on stderr and exit 2. A
        misspelt option is named before an argument found missing (`kakuro --verison`)."""
        if message.startswith("the following arguments are required"):
            unknown = [word for word in getattr(self, "_words", []) if word.startswith("--") and word != "--"
                       and not any(known.startswith(word.partition("=")[0]) for known in self._long_options())]
            if unknown:
                message = f"unrecognized arguments: {' '.join(unknown)}{self._suggestion(unknown)}"
        super().error(" ".join(message.split()))


MAX_DIGITS = 100
"""Digits an integer argument may have (Python refuses to read one of over 4,300)."""


def number_where(accept: Callable[[float], bool], requirement: str) -> Callable[[str], float]:
    """An argparse type: a finite number written in ASCII (no '_', no other scripts' digits)
    that `accept` admits; `requirement` completes "must be ..." in the error."""

    def parse(text: str) -> float:
        try:
            if not text.isascii() or "_" in text:
                raise ValueError(text)
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{reprlib.repr(text)} is not a number") from None
        if not math.isfinite(value) or not accept(value):
            raise argparse.ArgumentTypeError(f"{reprlib.repr(text)} must be {requirement}")
        return value

    return parse


positive_seconds = number_where(lambda v: v > 0, "a positive number of seconds")


def seconds_or_none(text: str) -> float | None:
    """An argparse type for `--time-limit`: seconds (a positive number), or `none` (any case)
    for no limit."""
    return None if text.strip().lower() == "none" else positive_seconds(text)


non_negative_seconds = number_where(lambda v: v >= 0, "a number of seconds, 0 or more")


def at_least(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer of at least `minimum` (and at most `maximum`, if given),
    written with ASCII digits."""
    wanted = f"of at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"

    def parse(text: str) -> int:
        if (not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS or int(text) < minimum
                or (maximum is not None and int(text) > maximum)):
            raise argparse.ArgumentTypeError(f"{reprlib.repr(text)} must be an integer {wanted}")
        return int(text)

    return parse
