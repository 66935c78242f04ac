"""The results record and the verdict rules live in `kakuro.records`, below both the harness and
the report: every import arrow points down, and `kakuro compare` / `kakuro report` are
subcommands of the one command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kakuro.records  # noqa: F401  # ruff misses its use as `kakuro.records.Record` below
from kakuro.cli import compare as compare_cli
from kakuro.cli import main
from kakuro.compare import attempt
from kakuro.records import record, tally, verdict
from kakuro.records.files import read_results
from tests.conftest import EXAMPLES, ROOT


def _imported(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (functions and `if TYPE_CHECKING` included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _under(package: str) -> dict[str, set[str]]:
    paths = sorted((ROOT / "kakuro" / package).glob("*.py"))
    assert len(paths) >= 3, f"no modules found under kakuro/{package}"
    return {path.name: _imported(path) for path in paths}


def _reaches(imports: set[str], package: str) -> list[str]:
    return sorted(name for name in imports if name == package or name.startswith(package + "."))


def test_every_arrow_between_harness_records_and_report_points_down() -> None:
    for name, imports in _under("compare").items():
        assert not _reaches(imports, "kakuro.report"), f"kakuro/compare/{name} imports the report"
        if name != "__main__.py":  # the entry point runs the command line, as the console script does
            assert not _reaches(imports, "kakuro.cli"), f"kakuro/compare/{name} imports the command line"
    for name, imports in _under("records").items():
        for above in ("kakuro.compare", "kakuro.report", "kakuro.cli"):
            assert not _reaches(imports, above), f"kakuro/records/{name} imports {above}"
    for name, imports in _under("report").items():
        if name != "__main__.py":
            assert not _reaches(imports, "kakuro.compare"), f"kakuro/report/{name} imports the harness"
    assert _reaches(_imported(ROOT / "kakuro" / "report" / "runs.py"), "kakuro.records")  # the walk sees imports


def test_the_import_check_catches_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("def late():\n    from kakuro.report.text import print_summary\n")
    assert _reaches(_imported(module), "kakuro.report") == ["kakuro.report.text", "kakuro.report.text.print_summary"]


def test_each_package_exports_its_own_names() -> None:
    """`kakuro.records` is the one home of the record and the verdict rules; `kakuro.compare`
    exports the harness's names, not those."""
    import kakuro.compare

    assert kakuro.records.Record is record.Record and kakuro.records.judge is verdict.judge
    assert kakuro.compare.Attempt is attempt.Attempt
    for name in ("Record", "JobStatus", "judge", "read_results"):
        assert name not in kakuro.compare.__all__ and not hasattr(kakuro.compare, name), name


def test_compare_and_report_are_subcommands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    assert "\n    compare " in listed and "\n    report " in listed
    assert main(["compare", "--help"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: kakuro compare") and "--resume" in shown and "--dask" in shown
    assert main(["report", "-h"]) == 0
    assert capsys.readouterr().out.startswith("usage: kakuro report")
    assert main(["compare"]) == 2
    assert "kakuro compare: error: the following arguments are required: PATH" in capsys.readouterr().err

    out = tmp_path / "run.jsonl"
    puzzles = str(EXAMPLES / "puzzlink-6x5.txt")
    assert main(["compare", puzzles, "-b", "cpsat", "-j", "1", "--time-limit", "20", "-o", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    records = read_results(out)
    assert records and {r.status.value for r in records} == {"SOLVED"} and {r.backend for r in records} == {"cpsat"}
    assert "PAR-2" in printed and f"results: {out}" in printed  # the report's summary, not the short count
    assert main(["report", str(out), "--csv", str(tmp_path / "s.csv")]) == 0
    assert "PAR-2" in capsys.readouterr().out
    assert "cpsat" in (tmp_path / "s.csv").read_text()
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 1


def test_the_short_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.jsonl"
    puzzles = str(EXAMPLES / "puzzlink-6x5.txt")
    assert compare_cli.main([puzzles, "-b", "cpsat", "-j", "1", "--time-limit", "20", "-o", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    tally.print_tally(read_results(out), title=str(out))
    printed = capsys.readouterr().out
    count = len(read_results(out))
    assert f"{out}: {count} jobs\n  cpsat: {count} SOLVED\n" in printed and "PAR-2" not in printed
    assert tally.tally_lines([]) == ["no results"]
