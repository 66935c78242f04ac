"""The registry of backends: `@register("name")`, discovery of the shipped backends (every
module of `kakuro.solvers`) and of the plug-ins installed packages declare, lookup with "did
you mean" (`backend_class`, `suggest_backend`), what `kakuro backends` lists (`backend_info`),
and `get_solver` from a spec string.

A plug-in cannot disturb the shipped backends or the caller: the names of the shipped backends
are reserved (`register` refuses them to any other module, and an entry point named like one is
not loaded); an entry point is only a name until a lookup asks for it (`-b gac` imports no
plug-in; an unknown name, `backends()` and `kakuro backends` load them all), and before it is
imported here it is imported in a separate interpreter under a time limit
(`PLUGIN_PROBE_SECONDS`): one that ends that process or hangs there is listed unavailable with
the reason, never imported here.
"""

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

from kakuro.availability import Unavailable
from kakuro.clock import Deadline
from kakuro.errors import BackendUnavailableError, KakuroError, UnknownBackendError
from kakuro.options import Option, parse_spec
from kakuro.outcome import described
from kakuro.programs import run_program
from kakuro.shipped import SHIPPED_PACKAGE, is_shipped
from kakuro.solver import Solver

_REGISTRY: dict[str, type[Solver]] = {}
_PLUGINS: dict[str, importlib.metadata.EntryPoint] = {}
"""The entry points found and not loaded yet, by name."""
_BACKEND_PACKAGES = (SHIPPED_PACKAGE,)
_discovered = False

S = TypeVar("S", bound=type[Solver])


@contextlib.contextmanager
def registry_restored() -> Iterator[None]:
    """Within the block, backends may be registered (tests, plug-ins tried out); on leaving,
    the registry is as it was (the shipped backends discovered first)."""
    _discover()
    before, plugins = dict(_REGISTRY), dict(_PLUGINS)
    try:
        yield
    finally:
        _REGISTRY.clear()
        _REGISTRY.update(before)
        _PLUGINS.clear()
        _PLUGINS.update(plugins)


def register(name: str) -> Callable[[S], S]:
    """Class decorator: make a Solver subclass available under `name`. Raises TypeError for a
    class that is not a backend (not a Solver subclass, options that are not
    `Option` instances) and ValueError for a name that is not alphanumeric (dashes and underscores
    allowed) or that a shipped backend has, registered from outside `kakuro.solvers`."""

    def decorate(cls: S) -> S:
        if not isinstance(name, str) or not name or not name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"backend name {name!r} must be alphanumeric")
        problem = _not_a_backend(cls)
        if problem:
            raise TypeError(f"backend {name!r}: {problem}")
        if not is_shipped(cls):
            _discover_shipped()  # a plug-in imported before the first lookup cannot take a shipped name either
            if name in _REGISTRY and is_shipped(_REGISTRY[name]):
                raise ValueError(f"backend name {name!r} is {RESERVED}")
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


RESERVED = "the name of a backend kakuro ships; a plug-in registers under a name of its own"
"""Why a plug-in cannot have a shipped backend's name."""


_shipped_discovered = False


def _discover_shipped() -> None:
    """Import every module of the shipped backend package once, so their @register lines run."""
    global _shipped_discovered
    if _shipped_discovered:
        return
    _shipped_discovered = True
    for package_name in _BACKEND_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package_name}.{info.name}")


def _discover() -> None:
    """The shipped backends (`_discover_shipped`), then, once, the names of the plug-ins
    installed packages declare (`ENTRY_POINT_GROUP`): read from their metadata, nothing
    imported. One named like a shipped backend, or like one found before, is listed
    unavailable at once (under `name@package`), never loaded."""
    global _discovered
    _discover_shipped()
    if _discovered:
        return
    _discovered = True
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry_point.name in _REGISTRY and is_shipped(_REGISTRY[entry_point.name]):
            _refuse(entry_point, f"{entry_point.name!r} is {RESERVED}")
        elif entry_point.name in _PLUGINS or entry_point.name in _REGISTRY:
            _refuse(entry_point, f"another plug-in has the name {entry_point.name!r}")
        else:
            _PLUGINS[entry_point.name] = entry_point


def _refuse(entry_point: importlib.metadata.EntryPoint, reason: str) -> None:
    """List a plug-in that is not loaded as unavailable, with `reason`: under its entry point's
    name when that is free, else as `name@package`."""
    name = entry_point.name
    if name in _REGISTRY or name in _PLUGINS:
        name = f"{name}@{_package(entry_point) or 'unknown'}"
    _REGISTRY.setdefault(name, _unusable(name, f"{_origin(entry_point)} was not loaded: {reason}"))


def _load_plugin(name: str) -> None:
    """Load the plug-in found under `name` (`_PLUGINS`), if it imports in a separate
    interpreter first (`_probe`); else list it unavailable with the reason."""
    entry_point = _PLUGINS.pop(name)
    refusal = _probe(entry_point)
    if refusal:
        _refuse(entry_point, refusal)
    else:
        _load_entry_point(entry_point)


def _load_plugins() -> None:
    """Load every plug-in not loaded yet (`_load_plugin`)."""
    _discover()
    for name in list(_PLUGINS):
        _load_plugin(name)


PLUGIN_PROBE_SECONDS = 30.0
"""Seconds a plug-in's import may take in the separate interpreter (`_probe`)."""
_PROBED = "kakuro-probe: imported"
_PROBE = f"""
import importlib.metadata, os, sys
group, name, value = sys.argv[1:4]
sys.path[:] = sys.argv[4:]
for entry_point in importlib.metadata.entry_points(group=group):
    if (entry_point.name, entry_point.value) == (name, value):
        try:
            entry_point.load()
        except BaseException:
            pass  # what it raises is said when it is imported in the caller
print({_PROBED!r}, flush=True)
os._exit(0)
"""
"""What the separate interpreter runs: import the entry point, say so, exit at once (a thread
the plug-in started does not keep it alive)."""


def _probe(entry_point: importlib.metadata.EntryPoint) -> str:
    """Why `entry_point` cannot be imported in this process ("" when it can): it ended a
    separate interpreter that imported it with this process's `sys.path`, or did not finish
    within `PLUGIN_PROBE_SECONDS` (the interpreter and all it started are killed then)."""
    argv = [sys.executable, "-c", _PROBE, ENTRY_POINT_GROUP, entry_point.name, entry_point.value, *map(str, sys.path)]
    try:
        run = run_program(argv, Deadline.after(PLUGIN_PROBE_SECONDS), keep=(_PROBED.encode(),))
    except BackendUnavailableError as exc:
        return f"it could not be tried in a separate interpreter: {exc}"
    if run.timed_out:
        return f"its import did not finish within {PLUGIN_PROBE_SECONDS:g} s"
    if _PROBED not in run.kept:
        return f"its import ended the process ({run.ended()}{run.said_suffix()})"
    return ""


ENTRY_POINT_GROUP = "kakuro.backends"
"""The entry-point group through which an installed package adds backends: each entry point
names a module whose `@register` lines register them (`mine = "my_package.backend"`), or a
Solver subclass registered under the entry point's name (`mine = "my_package.backend:Mine"`)."""


def _load_entry_point(entry_point: importlib.metadata.EntryPoint) -> None:
    """Load one plug-in; one that fails (import error, not a backend, bad options, a shipped
    backend's name) is registered under its entry point's name as unavailable, with the
    reason, and never disturbs the other backends."""
    try:
        loaded = entry_point.load()
        if isinstance(loaded, type) and loaded not in _REGISTRY.values():
            register(entry_point.name)(loaded)
    except BaseException as exc:  # a plug-in may even call sys.exit
        if isinstance(exc, KeyboardInterrupt):
            raise
        _REGISTRY.setdefault(entry_point.name, _unusable(entry_point.name, f"{_origin(entry_point)} failed to load: "
                                                         f"{described(exc)}"))


def _origin(entry_point: importlib.metadata.EntryPoint) -> str:
    """The plug-in in words: its value, its entry point's name and its package."""
    package = _package(entry_point)
    of = f"package {package}" if package else "an installed package"
    return f"the plug-in {entry_point.value!r} (entry point {entry_point.name!r} of {of})"


def _package(entry_point: importlib.metadata.EntryPoint) -> str | None:
    """The name of the distribution that declares `entry_point` (None when unknown)."""
    dist = getattr(entry_point, "dist", None)
    return None if dist is None else str(dist.name)


def _unusable(name: str, reason: str) -> type[Solver]:
    """A registry entry for a backend that cannot run here: listed, unavailable with `reason`."""

    class Unusable(Solver):
        description = "a plug-in that cannot be used here (see its reason)"
        paradigm = "plug-in"
        engine = Unavailable(reason)

        def _solve(self, puzzle: Any, opts: Mapping[str, Any], limits: Any, seed: int) -> Any:
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
    folded = {key.lower(): key for key in [*_REGISTRY, *_PLUGINS]}
    wanted = name.strip().lower()
    for candidate in (wanted, wanted.replace("-", "").replace("_", ""), BACKEND_ALIASES.get(wanted, "")):
        if candidate in folded:
            return folded[candidate]
    close = difflib.get_close_matches(wanted, list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def backend_class(name: str) -> type[Solver]:
    """The registered class called `name`; UnknownBackendError names the likeliest meant one
    ("did you mean"), or lists the known ones. Loads the plug-in of that name first, or every
    plug-in when none has it (one may register several names); a shipped name loads none."""
    _discover()
    if isinstance(name, str) and name not in _REGISTRY:
        if name in _PLUGINS:
            _load_plugin(name)
        if name not in _REGISTRY:
            _load_plugins()
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
    """Names of every registered backend, available or not (every plug-in loaded first)."""
    _load_plugins()
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
    budgets: Mapping[str, str] = field(default_factory=dict)
    """The budgets beyond time it honours with its default options (`Solver.budgets`: name ->
    the stats key that counts it)."""
    budgets_vary: bool = False
    """True when its options can narrow `budgets` (it overrides `Solver.budgets_for`)."""


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
            needs_time_limit=cls.needs_time_limit(), paradigm=cls.paradigm, budgets=dict(cls.budgets),
            budgets_vary=cls.budgets_for is not Solver.budgets_for,
        ))
    return infos


def get_solver(spec: str | Solver, **options: Any) -> Solver:
    """A solver from a spec string such as "nmcs:level=2"; keyword options override it."""
    if isinstance(spec, Solver):
        return type(spec)(**{**spec.settings, **options}) if options else spec
    name, raw = parse_spec(spec)
    return backend_class(name)(**{**raw, **options})
