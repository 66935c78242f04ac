"""The quality checks configured in pyproject.toml run in the suite, so CI fails on a violation:
ruff (lint and import order), mypy (strict on `kakuro/`) and import-linter (the layers of
DESIGN.md, and backends that do not import each other).

Each runs as a subprocess on this checkout (not on an installed copy) and shows its output when
it fails; a tool that is not installed skips its test, naming the package (all three are in the
`test` extra). Caches live under the system temp folder, never in the repository.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINTED = ["kakuro", "tests", "benchmarks", "experiments"]
CACHE = Path(tempfile.gettempdir()) / f"kakuro-quality-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"
"""One cache folder per checkout, outside it."""


def _run(module: str, package: str, command: list[str]) -> None:
    """Run `command` (after the interpreter) from the repository root with this checkout first
    on the path; fail with its output unless it exits 0. Skip when `module` is not installed."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{package} is not installed (pip install -e '.[test]' installs it)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    done = subprocess.run([sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        pytest.fail(f"{package} found problems (exit {done.returncode}):\n{output}", pytrace=False)


def test_ruff_lint_passes() -> None:
    _run("ruff", "ruff", ["-m", "ruff", "check", "--no-cache", "--output-format", "concise", *LINTED])


def test_mypy_passes() -> None:
    _run("mypy", "mypy", ["-m", "mypy", "--cache-dir", str(CACHE / "mypy")])


def test_import_contracts_are_kept() -> None:
    _run("importlinter", "import-linter",
         ["-c", "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())",
          "--no-cache"])
