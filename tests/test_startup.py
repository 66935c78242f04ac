"""The command line's process starts light: numba without its SciPy BLAS probe
(`kakuro.engine.startup`: the probe alone is refused, SciPy stays importable, and
`kakuro.cli.main` asks for it), and a command imports only what it runs (the parser no numpy,
`kakuro --help` and `kakuro report` no numba)."""

from __future__ import annotations

import importlib.machinery
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

import kakuro.cli
from kakuro.engine import startup
from kakuro.records.record import JobStatus, Record


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


# --------------------------------------------------------------------- what a command imports
SEEN = """
import json, sys
import kakuro.cli
kakuro.cli.build_parser()
parser = sorted(sys.modules)
codes = [kakuro.cli.main(["--help"]), kakuro.cli.main(["report", sys.argv[1]])]
with open(sys.argv[2], "w") as out:
    json.dump({"parser": parser, "commands": sorted(sys.modules), "codes": codes}, out)
"""
"""A fresh process: the parser built, then `kakuro --help` and `kakuro report FILE` run; the
modules loaded after each, and the exit codes, written to the file argv[2]."""


def solved_on_two_puzzles(path: Path, times: dict[str, tuple[float, float]]) -> Path:
    """A results file at `path`: each backend of `times` SOLVED the puzzles a and b in its two times."""
    records = [Record(source=f"{name}.txt", index=0, digest=f"{k:016x}", backend=backend, seed=0, repeat=0,
                      status=JobStatus.SOLVED, time_limit=10.0, time=seconds[k], wall=seconds[k] + 0.1)
               for k, name in enumerate(("a", "b")) for backend, seconds in times.items()]
    path.write_text("".join(json.dumps(record.to_json()) + "\n" for record in records))
    return path


def two_backends_on_two_puzzles(path: Path) -> Path:
    """A results file whose report runs the analysis (ranks, Friedman's test: SciPy)."""
    return solved_on_two_puzzles(path, {"cpsat": (0.5, 1.5), "gac": (0.2, 0.2)})


ONE_BACKEND = """
import sys
import kakuro.cli
code = kakuro.cli.main(["report", sys.argv[1]])
print("exit", code, "scipy.stats" in sys.modules)
"""


def test_a_report_of_one_backend_imports_no_statistics(tmp_path: Path) -> None:
    """A campaign of one backend (what `compare` reports after a single run) has nothing for
    scipy.stats to test: its report, and so `compare`'s summary, loads none of it (about 0.6 s
    of start-up), and still ranks the backend first with no Friedman p-value."""
    results = solved_on_two_puzzles(tmp_path / "one.jsonl", {"gac": (0.2, 1.2)})
    run = subprocess.run([sys.executable, "-c", ONE_BACKEND, str(results)], capture_output=True, text=True, timeout=120)
    assert run.stdout.splitlines()[-1] == "exit 0 False", (run.stdout, run.stderr)
    [row] = [line for line in run.stdout.splitlines() if line.startswith("| gac ") and "**1.000**" in line]
    assert "(1 backend, 2 puzzles here)." in run.stdout


def test_the_parser_help_and_report_import_no_engine(tmp_path: Path) -> None:
    """Every `kakuro` process builds the parser: it imports no numpy, no certificate machinery
    (the parser names the proof tools from `kakuro.certificates.tools`), and `kakuro --help`
    and `kakuro report` import no numba (a second of start-up each)."""
    results, seen = two_backends_on_two_puzzles(tmp_path / "results.jsonl"), tmp_path / "seen.json"
    run = subprocess.run([sys.executable, "-c", SEEN, str(results), str(seen)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Friedman" in run.stdout  # the report did its whole work, SciPy's statistics included
    loaded = json.loads(seen.read_text())
    assert loaded["codes"] == [0, 0]
    light = {"kakuro.engine", "kakuro.engine.startup"}  # the package, and the hook that imports no numba
    heavy = ("numpy", "numba", "llvmlite", "scipy", "kakuro.combos", "kakuro.reasoning", "kakuro.engine", "kakuro.native.")
    assert [m for m in loaded["parser"] if m.startswith(heavy) and m not in light | {"kakuro.native.startup"}] == []
    assert [m for m in loaded["parser"] if m.startswith("kakuro.certificates.")] == ["kakuro.certificates.tools"]
    engine = ("numba", "llvmlite", "kakuro.engine")
    assert [m for m in loaded["commands"] if m.startswith(engine) and m not in light] == []
