"""Old import paths kept for one release, each with a DeprecationWarning: a module whose names
moved serves them from their new homes (`moved_names` builds its module `__getattr__` and
`__dir__`), and a module that moved is found at its old path (`MovedModuleFinder`)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
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


MOVED_MODULES = {
    "kakuro.models.csp": "kakuro.solvers.python_constraint",
    "kakuro.models": "kakuro.solvers",
    "kakuro.search.engine.explain": "kakuro.engine.reasons",
    "kakuro.search.engine.local": "kakuro.engine.local_search",
    "kakuro.search.engine": "kakuro.engine",
    "kakuro.search.native": "kakuro.native",
    "kakuro.search": "kakuro.solvers",
    "kakuro.implied": "kakuro.reasoning.implied",
}
"""Old module path -> its new home (the most specific prefix wins: `kakuro.models.sat` is
`kakuro.solvers.sat`)."""


def new_home(name: str) -> str | None:
    """Where the module once imported as `name` lives now, or None when it did not move."""
    for old, new in MOVED_MODULES.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


class _Alias(importlib.abc.Loader):
    """Loads an old module path as its new home's module object (one module, two names)."""

    def __init__(self, home: str) -> None:
        self.home = home

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        warnings.warn(f"{spec.name} moved to {self.home}; import it from there", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(self.home)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run (the new home is imported already); the module keeps its own spec,
        which the import system replaced by the old path's."""
        module.__spec__ = self.spec


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """`import kakuro.models.sat` (any old path in `MOVED_MODULES`) gives the module at its new home,
    with a DeprecationWarning; installed by `kakuro/__init__.py`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        home = new_home(name)
        if home is None or importlib.util.find_spec(home) is None:
            return None
        return importlib.machinery.ModuleSpec(name, _Alias(home), is_package=True)


def install_moved_module_finder() -> None:
    """Put `MovedModuleFinder` on `sys.meta_path` once."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())  # before the path finder, which would load a second copy
