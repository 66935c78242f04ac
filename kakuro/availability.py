"""Engine availability: the third-party package a backend needs (`Engine`), whether it can be
imported here, and its version; an engine whose import can end the process is tried in a
separate interpreter first (`import_refused`)."""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import subprocess
import sys
from dataclasses import dataclass

from kakuro.errors import BackendUnavailableError


@dataclass(frozen=True)
class Engine:
    """The third-party package a backend needs: import name, pip name, distribution name."""

    module: str
    pip: str
    distribution: str | None = None
    import_may_exit: bool = False
    """True when importing it can end the process instead of raising: pychoco's GraalVM
    isolate exits when it cannot reserve its ~33 GB of address space (`ulimit -v`). Under an
    address-space limit such an engine is imported in a separate interpreter first
    (`import_refused`), and is unavailable if that one dies."""

    def version(self) -> str:
        """The installed version; raises BackendUnavailableError when it cannot be imported."""
        if self.import_may_exit:
            refusal = import_refused(self.module)
            if refusal:
                raise BackendUnavailableError(refusal)
        try:
            importlib.import_module(self.module)
        except Exception as exc:  # ImportError, or a broken install raising anything
            raise BackendUnavailableError(
                f"{self.module} cannot be imported ({exc}); install it with: pip install {self.pip}"
            ) from exc
        try:
            return importlib.metadata.version(self.distribution or self.pip)
        except importlib.metadata.PackageNotFoundError:
            return "unknown"


class Unavailable(Engine):
    """An engine that cannot be used here, and why: a plug-in that failed to load, say."""

    reason: str

    def __init__(self, reason: str) -> None:
        super().__init__(module="", pip="")
        object.__setattr__(self, "reason", reason)

    def version(self) -> str:
        raise BackendUnavailableError(self.reason)


@functools.cache
def import_refused(module: str) -> str:
    """Why `module` cannot be imported here without ending this process (empty: it can): only
    under an address-space limit (RLIMIT_AS) is the import tried, once, in a separate
    interpreter (up to `PROBE_SECONDS`)."""
    if module in sys.modules:
        return ""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return ""
    if limit == resource.RLIM_INFINITY:
        return ""
    try:
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                               timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{module} could not be tried under the address-space limit of {limit // 2**20} MiB (ulimit -v): {exc}"
    if probe.returncode == 0:
        return ""
    said = (probe.stderr.strip().splitlines() or [f"exit status {probe.returncode}"])[-1]
    return (f"{module} cannot start under the address-space limit of {limit // 2**20} MiB (ulimit -v): {said[:200]}; "
            "raise or remove the limit to use it")


PROBE_SECONDS = 120.0
"""How long `import_refused` lets the separate interpreter import the module."""
