"""The typed settings of the engine's searches, and the compiled kernels each one runs.

A backend's options are strings (spec strings, `kakuro.options`); these enums take their
values, so `Strength(opts["consistency"])` or `TreeSearch.of(opts)` turn a backend's settings
into what the driver takes. A kernel's name ("learning:gac", "nested:fc": the names of
`kakuro.engine.compile.KERNELS`) is made here only, from the settings of the search it runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar


class Strength(StrEnum):
    """Propagation after each assignment (the state's mode): the backtracking family's checks
    (`check`, `projected`: the run's free cells can still reach its clue), forward checking
    (`fc`) or exact run-level reasoning (`gac`)."""

    CHECK = "check"
    PROJECTED = "projected"
    FC = "fc"
    GAC = "gac"


class Restarts(StrEnum):
    """The learning search's restarts, counted in conflicts."""

    LUBY = "luby"
    GEOMETRIC = "geometric"
    NONE = "none"


class Order(StrEnum):
    """The learning search's variable order."""

    DOM_WDEG = "dom/wdeg"
    DOM_ACTIVITY = "dom/activity"
    DOM = "dom"


class ValueOrder(StrEnum):
    """The order in which a search tries a cell's values (random: drawn from the seed)."""

    ASCENDING = "ascending"
    DESCENDING = "descending"
    RANDOM = "random"


ROOT = "root"
SHAVE = "shave"
STAGES = (ROOT, SHAVE)
"""The root stages whose kernels a backend may name before its search's (`TreeSearch.kernels`)."""
SHAVE_KERNEL = "shave:gac"
"""Shaving (singleton arc consistency, at GAC)."""
REFUTE_KERNELS = ("root:gac", "refute:gac")
"""The values whose assumption wipes out (`kakuro.native.refutations`)."""
HARMONY_KERNELS = ("harmony",)
"""Self-Adaptive Harmony Search (`kakuro.native.harmony`)."""
UNIQUE_KERNELS = ("root:gac", "shave:gac", "local")
"""The classic generator's local search (`kakuro.native.unique`)."""
FAMILY_SEARCH_KERNEL = "family"
"""The Sudoku family's search alone: one puzzle's (`kakuro.native.family.search`), whose
answers the template checks."""
FAMILY_KERNELS = (FAMILY_SEARCH_KERNEL, "verify")
"""The Sudoku family's search and the compiled check of a batch's answers (`kakuro.native.family`)."""


def root_kernel(strength: Strength) -> str:
    """Root propagation at `strength`."""
    return f"{ROOT}:{strength}"


@dataclass(frozen=True)
class TreeSearch:
    """The complete tree search's parts (the options `restarts`, `learning`, `order`, `phase`,
    `implied` and `balance` of `gac`, `fc` and `rdv`): with every part off (`PLAIN`) or below
    gac it is the papers' depth-first search, else the learning search."""

    restarts: Restarts = Restarts.LUBY
    learning: bool = True
    """Conflict learning (at gac only: forward checking explains nothing)."""
    order: Order = Order.DOM_WDEG
    phase: bool = True
    implied: bool = True
    """The grid's implied sums kept at GAC during a learning search."""
    balance: bool = True

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> TreeSearch:
        """The tree search of a backend's `settings` (its options named as these fields)."""
        return cls(Restarts(settings["restarts"]), bool(settings["learning"]), Order(settings["order"]),
                   bool(settings["phase"]), bool(settings["implied"]), bool(settings["balance"]))

    def learns(self, strength: Strength) -> bool:
        """True when the search at `strength` learns nogoods (on a learning state)."""
        return self.learning and strength == Strength.GAC

    def is_plain(self, strength: Strength) -> bool:
        """True when the search at `strength` is the depth-first one: below gac, or with every
        part of the learning search off (`implied` aside: only a learning search keeps sums)."""
        if strength != Strength.GAC:
            return True
        return (self.restarts == Restarts.NONE and not self.learning and self.order == Order.DOM and not self.phase
                and not self.balance)

    def kernel(self, strength: Strength) -> str:
        """The kernel of this search at `strength` (on a learning state when it learns)."""
        search = "depth_first" if self.is_plain(strength) else "learning"
        return f"{search}:{'learn' if self.learns(strength) else strength}"

    def kernels(self, strength: Strength, stages: tuple[str, ...] = (ROOT,)) -> tuple[str, ...]:
        """The kernels of the root `stages` (of STAGES) at `strength` and, last, this search's."""
        return tuple(f"{stage}:{strength}" for stage in stages) + (self.kernel(strength),)


PLAIN = TreeSearch(Restarts.NONE, False, Order.DOM, False, False, False)
"""Every part off: the papers' depth-first search (d-way branching, smallest domain first)."""


def depth_first_kernel(strength: Strength) -> str:
    """The depth-first search at `strength`."""
    return PLAIN.kernel(strength)


class Strategy(StrEnum):
    """A playout's playing strategy: always in a smallest-domain cell (Cazenave's), the chosen
    move only, or then every cell left with one value."""

    PRIORITY = "priority"
    NAIVE = "naive"
    MAX_INFERENCE = "max-inference"


class Selection(StrEnum):
    """A playout's random move: a value of a smallest-domain cell, a uniform free (cell, value)
    pair, or a uniform free cell then a value."""

    PRIORITY = "priority"
    VALUES = "values"
    CELLS = "cells"


@dataclass(frozen=True)
class Playing:
    """How the Monte-Carlo games play a move (the options `strategy` and `selection`)."""

    strategy: Strategy = Strategy.PRIORITY
    selection: Selection = Selection.PRIORITY

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Playing:
        return cls(Strategy(settings["strategy"]), Selection(settings["selection"]))


CAZENAVE = Playing()
"""Cazenave's playout: every move in a smallest-domain cell, a random value of it."""


@dataclass(frozen=True)
class Sampling:
    """Iterative sampling: random playouts from the root until one solves the puzzle."""

    name: ClassVar[str] = "sampling"


@dataclass(frozen=True)
class Nested:
    """Nested Monte-Carlo search at `level` (1: meta Monte-Carlo), best-sequence memory."""

    level: int = 1
    name: ClassVar[str] = "nested"


@dataclass(frozen=True)
class Flat:
    """Flat Monte-Carlo: each move scored by the best of `playouts` random games."""

    playouts: int = 1
    name: ClassVar[str] = "flat"


@dataclass(frozen=True)
class Uct:
    """UCT with exploration constant `c`, `playouts` iterations before each move."""

    playouts: int = 1
    c: float = 0.0
    name: ClassVar[str] = "uct"


Game = Sampling | Nested | Flat | Uct
"""A Monte-Carlo game with its settings (`kakuro.native.montecarlo.play`)."""


def game_kernel(game: type[Game] | Game, strength: Strength) -> str:
    """The kernel of `game` (a game or its class) at `strength` (fc or gac)."""
    return f"{game.name}:{strength}"
