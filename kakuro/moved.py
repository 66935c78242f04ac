"""Old import paths kept for one release: a module whose names moved serves them from their new
homes with a DeprecationWarning (`moved_names` builds its module `__getattr__` and `__dir__`)."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any


def moved_names(module: str, homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`(__getattr__, __dir__)` for `module`, whose names `homes` maps to the modules they moved
    to: each read warns (DeprecationWarning naming the new home) and returns the new home's
    object; any other name is an AttributeError."""

    def getattr_(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} moved to {home}; import it from there", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)

    def dir_() -> list[str]:
        return sorted(set(vars(importlib.import_module(module))) | set(homes))

    return getattr_, dir_
