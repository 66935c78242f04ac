"""The package layout: one module per backend under `kakuro.solvers`, shared reasoning under
`kakuro.reasoning`, the compiled engine under `kakuro.engine`; the module paths of the previous
release still import (one module, two names) with a DeprecationWarning naming the new home."""

from __future__ import annotations

import subprocess
import sys

import pytest

import kakuro
from kakuro.moved import MOVED_MODULES, new_home
from tests.conftest import ROOT

OLD_PATHS = {
    "kakuro.models.sat": "kakuro.solvers.sat",
    "kakuro.models.csp": "kakuro.solvers.python_constraint",
    "kakuro.models.auto": "kakuro.solvers.auto",
    "kakuro.search.rdv": "kakuro.solvers.rdv",
    "kakuro.search.native": "kakuro.native",
    "kakuro.search.engine.state": "kakuro.engine.state",
    "kakuro.search.engine.explain": "kakuro.engine.reasons",
    "kakuro.search.engine.local": "kakuro.engine.local_search",
    "kakuro.implied": "kakuro.reasoning.implied",
}


@pytest.mark.parametrize(("old", "new"), sorted(OLD_PATHS.items()))
def test_an_old_module_path_imports_its_new_home_with_a_warning(old: str, new: str) -> None:
    """In a fresh interpreter (this one imported the new homes already): the old path is the
    very module of the new one, and the warning names it."""
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({new!r})\n"
        "assert old is new, (old, new)\n"
        "assert new.__spec__.name == new.__name__, new.__spec__\n"
        f"assert any({new!r} in str(w.message) and w.category is DeprecationWarning for w in caught), "
        "[str(w.message) for w in caught]\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_names_that_moved_out_of_a_backend_are_still_there() -> None:
    """`from kakuro.models.sat import encode` and `from kakuro.models.gac import prepare` worked
    before: the backend modules still hold those names (imported from kakuro.reasoning)."""
    with pytest.warns(DeprecationWarning):
        from kakuro.models.gac import prepare
        from kakuro.models.sat import encode
        from kakuro.search.rdv import reduce_domains
    from kakuro.reasoning import cnf, rdv, root

    assert (encode, prepare, reduce_domains) == (cnf.encode, root.prepare, rdv.reduce_domains)


def test_every_new_home_exists_and_nothing_else_is_redirected() -> None:
    for old, new in MOVED_MODULES.items():
        assert new_home(old) == new and (ROOT / new.replace(".", "/")).with_suffix(".py").exists() or (
            ROOT / new.replace(".", "/") / "__init__.py").exists(), new
    assert new_home("kakuro.solvers.sat") is None and new_home("kakuro.modelsX") is None


def test_one_module_per_backend() -> None:
    """Each registered backend's class lives in `kakuro.solvers` (the Monte-Carlo family shares
    one module: one engine driver, four games)."""
    modules = {kakuro.get_solver(name).__class__.__module__ for name in kakuro.backends()}
    assert all(module.startswith("kakuro.solvers.") for module in modules), modules
    solvers = ROOT / "kakuro" / "solvers"
    shipped = ({path.stem for path in solvers.glob("*.py")} - {"__init__"}) | {
        path.parent.name for path in solvers.glob("*/__init__.py")}  # a backend too large for one module: a package
    assert {module.rsplit(".", 1)[1] for module in modules} == shipped
