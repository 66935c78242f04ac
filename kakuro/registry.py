"""The registry of backends: `@register("name")`, discovery of the shipped backends (every
module of `kakuro.solvers`), lookup with "did you mean" (`backend_class`,
`suggest_backend`), what `kakuro backends` lists (`backend_info`), and `get_solver` from a spec
string."""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from kakuro.errors import BackendUnavailableError, UnknownBackendError
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
    """Class decorator: make a Solver subclass available under `name`."""

    def decorate(cls: S) -> S:
        if not name or not name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"backend name {name!r} must be alphanumeric")
        cls.name = name
        cls.options = MappingProxyType(dict(cls.options))
        _REGISTRY[name] = cls
        return cls

    return decorate


def _discover() -> None:
    """Import every module of the backend packages once, so their @register lines run."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for package_name in _BACKEND_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package_name}.{info.name}")


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
            needs_time_limit=cls.needs_time_limit(),
        ))
    return infos


def get_solver(spec: str | Solver, **options: Any) -> Solver:
    """A solver from a spec string such as "nmcs:level=2"; keyword options override it."""
    if isinstance(spec, Solver):
        return type(spec)(**{**spec.settings, **options}) if options else spec
    name, raw = parse_spec(spec)
    return backend_class(name)(**{**raw, **options})
