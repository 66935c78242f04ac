"""The command line's process starts numba without its SciPy BLAS probe (`kakuro.engine.startup`):
the probe alone is refused, SciPy stays importable, and `kakuro.cli.main` asks for it."""

from __future__ import annotations

import importlib.machinery
import sys
import types

import pytest

import kakuro.cli
from kakuro.engine import startup


def probing(monkeypatch: pytest.MonkeyPatch, initializing: bool) -> None:
    """`startup.PROBING` in sys.modules, halfway through its import or done."""
    module = types.ModuleType(startup.PROBING)
    module.__spec__ = importlib.machinery.ModuleSpec(startup.PROBING, None)
    module.__spec__._initializing = initializing  # type: ignore[attr-defined]  # what importlib sets meanwhile
    monkeypatch.setitem(sys.modules, startup.PROBING, module)


def test_only_the_probe_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    finder = startup._RefuseBlasProbe()
    probing(monkeypatch, initializing=True)
    with pytest.raises(ModuleNotFoundError, match="BLAS probe"):
        finder.find_spec(startup.PROBED, None)
    assert finder.find_spec("scipy", None) is None  # the rest of SciPy is not its business
    probing(monkeypatch, initializing=False)
    assert finder.find_spec(startup.PROBED, None) is None  # after numba's load: SciPy imports as ever


def test_installed_once_and_not_after_numba_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, startup._RefuseBlasProbe)])
    monkeypatch.delitem(sys.modules, startup.PROBING, raising=False)
    startup.without_numba_blas()
    startup.without_numba_blas()
    assert sum(isinstance(f, startup._RefuseBlasProbe) for f in sys.meta_path) == 1
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, startup._RefuseBlasProbe)])
    probing(monkeypatch, initializing=False)
    startup.without_numba_blas()
    assert not any(isinstance(f, startup._RefuseBlasProbe) for f in sys.meta_path)


def test_the_command_line_asks_for_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    asked = []
    monkeypatch.setattr(kakuro.cli, "without_numba_blas", lambda: asked.append(True))
    assert kakuro.cli.main(["backends", "--help"]) == 0
    assert asked == [True]


def test_a_campaign_asks_for_it_however_it_is_started(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m kakuro.compare` runs `kakuro.cli.compare.main`, not `kakuro.cli.main`."""
    from kakuro.cli import compare

    asked = []
    monkeypatch.setattr(kakuro.cli, "without_numba_blas", lambda: asked.append(True))
    assert compare.main(["--help"]) == 0
    assert asked == [True]
