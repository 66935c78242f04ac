"""The registry of backends: `@register("name")`, discovery of the shipped backends (every
module of `kakuro.solvers`), lookup with "did you mean" (`backend_class`,
`suggest_backend`), what `kakuro backends` lists (`backend_info`), and `get_solver` from a spec
string."""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, TypeVar

from kakuro.engines import Unavailable
from kakuro.errors import BackendUnavailableError, KakuroError, UnknownBackendError
from kakuro.options import Option, parse_spec
from kakuro.solver import Solver

_REGISTRY: dict[str, type[Solver]] = {}
_BACKEND_PACKAGES = ("kakuro.solvers",)
_discovered = False

S = TypeVar("S", bound=type[Solver])


@contextlib.contextmanager
def registry_restored() -> Iterator[None]:
    """Within the block, backends may be registered (tests, plug-ins tried out); on leaving,
    the registry is as it was (the shipped backends discovered first)."""
    _discover()
    before = dict(_REGISTRY)
    try:
        yield
    finally:
        _REGISTRY.clear()
        _REGISTRY.update(before)


def register(name: str) -> Callable[[S], S]:
    """Class decorator: make a Solver subclass available under `name`. Raises TypeError for a
    class that is not a backend (not a Solver subclass, options that are not
    `Option` instances) and ValueError for a name that is not alphanumeric (dashes and underscores
    allowed)."""

    def decorate(cls: S) -> S:
        if not name or not name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"backend name {name!r} must be alphanumeric")
        problem = _not_a_backend(cls)
        if problem:
            raise TypeError(f"backend {name!r}: {problem}")
        cls.name = name
        cls.options = MappingProxyType(dict(cls.options))
        _REGISTRY[name] = cls
        return cls

    return decorate


def _not_a_backend(cls: Any) -> str:
    """Why `cls` cannot be registered as a backend ("" when it can)."""
    if not (isinstance(cls, type) and issubclass(cls, Solver)):
        return f"{cls!r} is not a subclass of kakuro.Solver"
    if not isinstance(cls.options, Mapping):
        return f"{cls.__name__}.options is a {type(cls.options).__name__}, not a mapping of names to kakuro.Option"
    for key, option in cls.options.items():
        if not isinstance(key, str) or not isinstance(option, Option):
            return f"{cls.__name__}.options[{key!r}] is a {type(option).__name__}, not a kakuro.Option"
    return ""


def _discover() -> None:
    """Import every module of the shipped backend package once, so their @register lines run,
    then load the backends installed packages declare (`ENTRY_POINT_GROUP`)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for package_name in _BACKEND_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package_name}.{info.name}")
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        _load_entry_point(entry_point)


ENTRY_POINT_GROUP = "kakuro.backends"
"""The entry-point group through which an installed package adds backends: each entry point
names a module whose `@register` lines register them (`mine = "my_package.backend"`), or a
Solver subclass registered under the entry point's name (`mine = "my_package.backend:Mine"`)."""


def _load_entry_point(entry_point: importlib.metadata.EntryPoint) -> None:
    """Load one plug-in; one that fails (import error, not a backend, bad options) is
    registered under its entry point's name as unavailable, with the reason, and never
    disturbs the other backends."""
    try:
        loaded = entry_point.load()
        if isinstance(loaded, type) and loaded not in _REGISTRY.values():
            register(entry_point.name)(loaded)
    except BaseException as exc:  # a plug-in may even call sys.exit
        if isinstance(exc, KeyboardInterrupt):
            raise
        origin = f"the plug-in {entry_point.value!r} (entry point {entry_point.name!r} of {_distribution(entry_point)})"
        _REGISTRY.setdefault(entry_point.name, _unusable(entry_point.name, f"{origin} failed to load: "
                                                         f"{type(exc).__name__}: {exc}"))


def _distribution(entry_point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    return f"package {dist.name}" if dist is not None else "an installed package"


def _unusable(name: str, reason: str) -> type[Solver]:
    """A registry entry for a backend that cannot run here: listed, unavailable with `reason`."""

    class Unusable(Solver):
        description = "a plug-in that failed to load"
        paradigm = "plug-in"
        engine = Unavailable(reason)

        def _solve(self, puzzle: Any, opts: Mapping[str, Any], deadline: Any, seed: int) -> Any:
            raise BackendUnavailableError(reason)

    Unusable.name = name
    return Unusable


def import_plugins(names: Iterable[str]) -> None:
    """`import_plugin` each of `names` in turn (the `--import` options of a command)."""
    for name in names:
        import_plugin(name)


def import_plugin(name: str) -> ModuleType:
    """Import a module that registers backends (`--import`): a dotted module name, looked up
    from the working folder first, or the path of a .py file (imported under a name derived
    from its path; importing the same file again returns the loaded module). Raises
    KakuroError naming it, whatever the module raised (SystemExit included)."""
    try:
        return _import(name)
    except (KakuroError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # a user module may even call sys.exit
        raise KakuroError(f"--import {name}: {type(exc).__name__}: {exc}") from None


def _import(name: str) -> ModuleType:
    path = Path(name)
    if name.endswith(".py") or os.sep in name:
        if not path.is_file():
            raise KakuroError(f"--import {name}: no such file")
        resolved = path.resolve()
        module_name = "_kakuro_import_" + "".join(c if c.isalnum() else "_" for c in str(resolved))
        if module_name in sys.modules:
            return sys.modules[module_name]
        spec = importlib.util.spec_from_file_location(module_name, resolved)
        if spec is None or spec.loader is None:
            raise KakuroError(f"--import {name}: cannot be loaded as a module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[module_name]
            raise
        return module
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    return importlib.import_module(name)


BACKEND_ALIASES = {
    "ortools": "cpsat", "or-tools": "cpsat", "cp-sat": "cpsat", "pysat": "sat", "cadical": "sat",
    "minisat": "sat", "glucose": "sat", "choco-solver": "choco", "chocosolver": "choco",
    "python-constraint": "csp", "constraint": "csp", "default": "auto",
}
"""Names people reach for (an engine, a package) -> the backend they mean, for "did you mean"."""


def suggest_backend(name: str) -> str | None:
    """The registered backend `name` most likely means (case, dashes, aliases, close spelling),
    or None when nothing is close."""
    import difflib

    _discover()
    folded = {key.lower(): key for key in _REGISTRY}
    wanted = name.strip().lower()
    for candidate in (wanted, wanted.replace("-", "").replace("_", ""), BACKEND_ALIASES.get(wanted, "")):
        if candidate in folded:
            return folded[candidate]
    close = difflib.get_close_matches(wanted, list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def backend_class(name: str) -> type[Solver]:
    """The registered class called `name`; UnknownBackendError names the likeliest meant one
    ("did you mean"), or lists the known ones."""
    _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        suggestion = suggest_backend(name) if isinstance(name, str) else None
        if suggestion is not None:
            raise UnknownBackendError(f"unknown backend {name!r}; did you mean {suggestion!r}?",
                                      suggestion=suggestion) from None
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownBackendError(f"unknown backend {name!r}; known backends: {known}") from None


def backends() -> list[str]:
    """Names of every registered backend, available or not."""
    _discover()
    return sorted(_REGISTRY)


@dataclass(frozen=True)
class BackendInfo:
    """What `kakuro backends` lists for one backend: availability (with the engine's version,
    or the reason and the pip command), capabilities and declared options."""

    name: str
    available: bool
    version: str
    reason: str
    complete: bool
    description: str
    options: Mapping[str, Option] = field(default_factory=dict)
    """Option name -> Option (default, help, choices, minimum, maximum)."""
    supports_seed: bool = True
    supports_time_limit: bool = True
    paradigm: str = "plug-in"
    """The family of methods it belongs to (`Solver.paradigm`)."""
    needs_time_limit: bool = False
    """True when `time_limit=None` is refused (an incomplete search)."""


def backend_info(*names: str) -> list[BackendInfo]:
    """Availability, engine version, capabilities and options of the named backends (default:
    every registered one); UnknownBackendError for a name that is not registered."""
    infos = []
    for name in names or tuple(backends()):
        cls = backend_class(name)
        try:
            available, version, reason = True, cls.engine.version() if cls.engine else "built-in", ""
        except BackendUnavailableError as exc:
            available, version, reason = False, "", str(exc)
        infos.append(BackendInfo(
            name, available, version, reason, cls.complete, cls.description, cls.options,
            supports_seed=cls.supports_seed, supports_time_limit=cls.supports_time_limit,
            needs_time_limit=cls.needs_time_limit(), paradigm=cls.paradigm,
        ))
    return infos


def get_solver(spec: str | Solver, **options: Any) -> Solver:
    """A solver from a spec string such as "nmcs:level=2"; keyword options override it."""
    if isinstance(spec, Solver):
        return type(spec)(**{**spec.settings, **options}) if options else spec
    name, raw = parse_spec(spec)
    return backend_class(name)(**{**raw, **options})
