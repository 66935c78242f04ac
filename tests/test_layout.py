"""The package layout: one module per backend under `kakuro.solvers`, shared reasoning under
`kakuro.reasoning`, the compiled engine under `kakuro.engine`; every name has one home (no
compatibility aliases, no import hooks)."""

from __future__ import annotations

import subprocess
import sys

import kakuro
from tests.conftest import ROOT


def test_importing_kakuro_adds_no_import_hook() -> None:
    """In a fresh interpreter: `import kakuro` leaves `sys.meta_path` and `sys.path_hooks` as they were."""
    code = ("import sys\nbefore = (list(sys.meta_path), list(sys.path_hooks))\nimport kakuro\n"
            "assert (sys.meta_path, sys.path_hooks) == before, (sys.meta_path, sys.path_hooks)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_one_module_per_backend() -> None:
    """Each registered backend's class lives in `kakuro.solvers` (the Monte-Carlo family shares
    one module: one engine driver, four games)."""
    modules = {kakuro.get_solver(name).__class__.__module__ for name in kakuro.backends()}
    assert all(module.startswith("kakuro.solvers.") for module in modules), modules
    solvers = ROOT / "kakuro" / "solvers"
    shipped = ({path.stem for path in solvers.glob("*.py")} - {"__init__"}) | {
        path.parent.name for path in solvers.glob("*/__init__.py")}  # a backend too large for one module: a package
    assert {module.rsplit(".", 1)[1] for module in modules} == shipped


FAMILIES = {"montecarlo": {"sampling", "nmcs", "flat", "uct"}}
"""Modules that hold a family of backends (one engine driver, several games), by the family's name."""


def test_each_backend_module_is_named_after_its_backend() -> None:
    """`kakuro/solvers/csp.py` holds `csp`, `sahs.py` holds `sahs`: a backend is found under its
    own name; a family's module holds exactly its family."""
    held: dict[str, set[str]] = {}
    for name in kakuro.backends():
        held.setdefault(kakuro.get_solver(name).__class__.__module__.rsplit(".", 1)[1], set()).add(name)
    for module, names in held.items():
        assert names == FAMILIES.get(module, {module}), (module, names)
