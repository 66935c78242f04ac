"""Whatever a results file holds, `report` and `compare --resume` answer with lines a person
reads, never a traceback: a fuzzer over results lines (records with fields of any JSON value:
numbers of any size, any Unicode, lone surrogates; truncated, binary and random lines), and
the cases it is built around, picked by hand.

The fuzzer draws a few dozen files per test (a few seconds); the report's plots, which take
longer to draw, get a handful.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import matplotlib.pyplot as plt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro
from kakuro.cli import compare as cli
from kakuro.cli import main as kakuro_main
from kakuro.cli import report as report_cli
from kakuro.records.files import read_results
from kakuro.records.record import Record
from kakuro.report.about import about, describe_machine
from kakuro.report.comparison import sections
from kakuro.report.latex import escape as latex_escape
from kakuro.report.plots import cactus, render, scatter
from kakuro.report.text import print_sections
from tests.conftest import EXAMPLES, TWO_SOLUTIONS
from tests.test_compare import restore_registry  # noqa: F401 (a fixture: the test backends stay in this module)
from tests.test_results_files import BACKENDS, BACKENDS_FILE, work  # noqa: F401 (work: a fixture)


@dataclass(frozen=True)
class Raw:
    """JSON text written as it is: a number JSON libraries refuse to write (5,000 digits)."""

    text: str


def dumps(value: Any) -> str:
    """`value` as JSON text, `Raw` parts as they are; lone surrogates escaped, as kakuro writes them."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    return json.dumps(value)


NASTY = ["$\\frac{a$", "$x^2$", "_hidden", "[/]", "[bold]x", "\udcff", "a\ud800b", "size10\u00b2", "</script><b>",
         "\x00", "\u202eevil", "a\nb", "x" * 5000, "\\", "%&#_{}~^", "\U0001f600", "\ufeff"]
"""Texts that broke a report once, or could: mathtext, rich markup, lone surrogates, '²'."""
TEXT = st.one_of(
    st.sampled_from(NASTY),
    st.text(st.one_of(st.characters(exclude_categories=()), st.characters(categories=["Cs"])), max_size=30),
    st.lists(st.sampled_from(NASTY), min_size=2, max_size=3).map("".join),
)
NUMBER = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**400), max_value=10**400),  # past any float
    st.integers(min_value=4290, max_value=6000).map(lambda n: Raw("9" * n)),  # past what Python reads
    st.floats(allow_nan=False),
    st.sampled_from([Raw("1e999"), Raw("-1e999"), Raw("1" + "0" * 400 + ".5"), Raw("0.1e-400"), -0.0]),
)
VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBER, TEXT, st.just([]), st.just({})),
    lambda inner: st.lists(inner, min_size=1, max_size=3) | st.dictionaries(TEXT, inner, min_size=1, max_size=3),
    max_leaves=8,
)
MACHINE = {"hostname": "box", "cpu_model": "cpu", "cpus": 2, "cores": 2, "memory_mb": 2048, "load": [1.0, 0.5, 0.2],
           "platform": "linux"}
WHOLE = st.one_of(st.integers(min_value=0), st.integers(min_value=-(10**4300) + 1, max_value=10**4300 - 1))
SECONDS = st.one_of(st.floats(min_value=0, allow_infinity=False), st.sampled_from([1e300, 1.7e308, 5e-324, 0, 10**300]))
MAPPING = st.dictionaries(st.one_of(st.sampled_from([*MACHINE, "kakuro", "python", "engine", "paradigm", "nodes",
                                                     "root_solved"]), TEXT), VALUE, max_size=4)
OWN = {"schema": st.sampled_from([1, 2, 3, 4, 0, Raw("9" * 5000)]),
       "status": st.sampled_from(["SOLVED", "UNSATISFIABLE", "UNSAT", "TIMEOUT", "MEMOUT", "CRASH", "ERROR", "WRONG",
                                  "GREAT"]),
       "certified": st.sampled_from([True, False, None]),
       **dict.fromkeys(["source", "digest", "backend", "instance", "spec", "message", "finished"], TEXT),
       **dict.fromkeys(["index", "seed", "repeat", "memory_limit_mb", "rows", "cols"], WHOLE),
       **dict.fromkeys(["time_limit", "time", "wall", "grace", "peak_rss_mb"], SECONDS),
       **dict.fromkeys(["stats", "versions", "machine"], MAPPING), "unknown": VALUE}
"""For each field, values of its own kind (a record that is valid, and strange), and any other."""
FIELDS = list(OWN)


def template(backend: str, index: int, status: str = "SOLVED") -> dict[str, Any]:
    """A valid results line (as a JSON object) of a campaign with a time limit of 10 s."""
    return {"schema": 3, "source": f"set/{backend}{index % 3}.txt", "index": index, "digest": f"d{index}",
            "backend": backend, "seed": 0, "repeat": 0, "status": status, "time_limit": 10.0, "instance": f"p{index}",
            "spec": f"{backend}:full", "time": 0.5 + index, "wall": 0.6 + index, "grace": 1.0, "memory_limit_mb": None,
            "peak_rss_mb": 100.0, "rows": 6, "cols": 6, "stats": {"nodes": 3, "root_solved": index % 2 == 0},
            "message": "", "finished": f"2026-01-01T00:00:0{index}+00:00",
            "versions": {"kakuro": "0.1.0", "python": "3.11", "engine": "e 1"}, "machine": MACHINE, "certified": None}


@st.composite
def line(draw: st.DrawFn, base: list[dict[str, Any]]) -> bytes:
    """One line of a results file: a record of `base` with fields replaced (or removed), cut
    short, binary bytes or any text."""
    kind = draw(st.sampled_from(["record"] * 6 + ["cut", "binary", "text"]))
    record = dict(draw(st.sampled_from(base)))
    if kind == "binary":
        return draw(st.binary(max_size=60)).replace(b"\n", b"")
    if kind == "text":
        return draw(TEXT).encode("utf-8", "surrogatepass").replace(b"\n", b"")
    record["digest"] = "fuzz-" + str(record["digest"])  # never the key of a job compare would run again
    record["spec"] = "fuzz-" + str(record["spec"])  # never a configuration compare would rename
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=8, unique=True)):
        if draw(st.integers(0, 5)) == 0:
            record.pop(name, None)
        elif isinstance(record.get(name), dict) and draw(st.booleans()):  # a few of its entries changed
            record[name] = {**record[name], **draw(st.dictionaries(st.one_of(st.sampled_from(sorted(record[name]) or ["x"]),
                                                                             TEXT), VALUE, min_size=1, max_size=3))}
        else:
            record[name] = draw(st.one_of(OWN[name], OWN[name], OWN[name], VALUE))
    text = dumps(record).encode()
    return text[: draw(st.integers(0, len(text)))] if kind == "cut" else text


def results_file(folder: Path, base: list[dict[str, Any]], lines: list[bytes], *, first: bool) -> Path:
    """`base` as lines, with the fuzzed `lines` after them (or, with `first`, before them)."""
    good = [dumps(record).encode() for record in base]
    path = folder / "results.jsonl"
    path.write_bytes(b"\n".join([*lines, *good] if first else [*good, *lines]) + b"\n")
    return path


@contextlib.contextmanager
def captured() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield out, err


def said_in_lines(code: int, err: str, allowed: set[int]) -> None:
    """A command ended with an exit status it documents, an error in one line."""
    assert code in allowed, (code, err[-3000:])
    assert "Traceback" not in err, err
    if code == 1:
        assert err.strip().splitlines()[-1].startswith("kakuro: "), err[-3000:]


REPORT_BASE = [template(backend, index, status) for backend in ("a", "b") for index, status in
               enumerate(["SOLVED", "UNSATISFIABLE", "TIMEOUT"])]
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.lists(line(REPORT_BASE), min_size=1, max_size=6), st.booleans(), st.sampled_from(["source", "size"]),
       st.sampled_from(["common", "each"]))
def test_the_report_of_any_results_file_is_lines_never_a_traceback(lines: list[bytes], first: bool, group: str,
                                                                    scope: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = results_file(Path(folder), REPORT_BASE, lines, first=first)
        outputs = [f"--{kind}={folder}/out.{ext}" for kind, ext in (("csv", "csv"), ("markdown", "md"), ("latex", "tex"))]
        with captured() as (_, err):
            code = report_cli.main([str(path), "--by-limit", "--group", group, "--puzzles", scope, *outputs,
                                    f"--per-puzzle={folder}/puzzles.tex"])
        said_in_lines(code, err.getvalue(), {0, 1, 2})
        if code != 1:  # what the HTML report and a terminal show of the same records
            records = read_results(path)
            for machine in about(records, title="t", files=[str(path)]).machines:
                describe_machine(machine)
            with mock.patch.dict(os.environ, {"COLUMNS": "1000"}):  # wide: rich tables, not Markdown
                print_sections(sections(records, by_limit=True, scope=scope), group_by=group, file=Terminal())


class Terminal(io.StringIO):
    """A stream rich takes for a terminal: the summary is drawn as rich tables."""

    def isatty(self) -> bool:
        return True


@settings(FUZZ, max_examples=3)
@given(st.lists(line(REPORT_BASE), min_size=1, max_size=4))
def test_the_html_report_and_its_plots_of_any_results_file_never_fail(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = results_file(Path(folder), REPORT_BASE, lines, first=False)
        with captured() as (_, err):
            code = report_cli.main([str(path), "--by-limit", "--puzzles", "each", f"--html={folder}/r.html"])
        said_in_lines(code, err.getvalue(), {0, 1, 2})


def test_compare_resumes_any_results_file_in_lines(work: Path) -> None:  # noqa: F811 (work: the fixture)
    """compare --resume of the fixture's campaign (four jobs, all recorded) with fuzzed lines:
    it runs nothing and ends in lines (0, 1 for a file it refuses, 3 for a WRONG record)."""
    base = [json.loads(text) for text in (work / "results.jsonl").read_text().splitlines()]

    @settings(FUZZ, max_examples=30)
    @given(st.lists(line(base), min_size=1, max_size=5), st.booleans())
    def resume(lines: list[bytes], first: bool) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = results_file(Path(folder), base, lines, first=first)
            with captured() as (_, err):
                code = compare_in(work, ["set/p.jsonl", *BACKENDS, "-o", str(path), "--resume"])
            said_in_lines(code, err.getvalue(), {0, 1, 3})

    resume()


def compare_in(cwd: Path, argv: list[str]) -> int:
    """`kakuro compare ARGV` in this process, from `cwd` (the full summary, as `kakuro compare`)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return cli.main(["--import", BACKENDS_FILE, "-j", "1", "--no-progress", *argv])
    finally:
        os.chdir(old)


# --- picked by hand: what broke a report or a resume once ---------------------------------


def test_numbers_of_any_size_are_a_line_naming_file_and_line(work: Path, tmp_path: Path, capsys) -> None:  # noqa: F811
    """A number of 5,000 digits (more than Python reads), or of 400 (more than a float holds)
    where a time belongs, made report and compare --resume end in a traceback; a seed of 400
    digits is a record, sorted last in the HTML report."""
    base = [json.loads(text) for text in (work / "results.jsonl").read_text().splitlines()]
    picks = {"stats": {"nodes": Raw("9" * 5000)}, "index": Raw("9" * 5000), "time": 10**400, "time_limit": 10**400,
             "wall": Raw("1" + "0" * 400 + ".5"), "peak_rss_mb": -(10**400), "seed": 10**400}
    lines = [dumps({**base[0], "digest": f"picked-{n}", name: value}) for n, (name, value) in enumerate(picks.items())]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(dumps(record) + "\n" for record in base) + "".join(line + "\n" for line in lines))
    skipped = {f"{path}:{len(base) + 1 + n}:" for n, name in enumerate(picks) if name != "seed"}
    capsys.readouterr()
    assert report_cli.main([str(path), "--html", str(tmp_path / "report.html")]) == 0
    err = capsys.readouterr().err
    assert {line.split(" ", 2)[1] for line in err.splitlines() if line.startswith("warning: /")} - {f"{path}:"} == skipped
    assert "Traceback" not in err and "a number of 5000 digits (at most 4300 are read)" in err
    assert "(a whole number of about 400 digits) is not a number of seconds" in err
    assert compare_in(work, ["set/p.jsonl", *BACKENDS, "-o", str(path), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "4 of 4 jobs already recorded, 0 to run" in err and all(place in err for place in skipped)


def test_a_puzzle_file_named_with_a_superscript_is_grouped_by_compare_and_report(tmp_path: Path, capsys) -> None:
    """'²' is a digit to str.isdigit but not to int: the natural order of groups failed on it."""
    folder = tmp_path / "set"
    kakuro.write(kakuro.read(EXAMPLES / "cazenave-2010-table1.txt"), folder / "size10\u00b2.txt")
    kakuro.write(kakuro.read(TWO_SOLUTIONS), folder / "size3.txt")
    out = tmp_path / "results.jsonl"
    assert kakuro_main(["compare", str(folder), "-b", "cpsat", "-j", "1", "--no-progress", "-o", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "Per source" in shown and shown.index("| size3 ") < shown.index("| size10\u00b2 ")
    assert report_cli.main([str(out), "--csv", str(tmp_path / "summary.csv")]) == 0
    assert "size10\u00b2" in capsys.readouterr().out and "size10\u00b2" in (tmp_path / "summary.csv").read_text()


LABELS = ["$\\frac{a$", "_x\udcff", "[/]", "y" * 300]
"""Backend names a report once failed on (mathtext; a lone surrogate; rich markup) or hid (a
legend drops names starting with `_`), and one too long for a file name."""


def test_backend_names_are_drawn_and_written_as_they_are(tmp_path: Path, capsys) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("".join(dumps(template(label, index)) + "\n" for label in LABELS for index in range(2)))
    section, = sections(read_results(path))
    figure = cactus(section, LABELS)
    legend = figure.axes[0].get_legend().get_texts()
    assert [text.get_text() for text in legend] == [
        "$\\frac{a$ (2/2 answered)", "_x\\udcff (2/2 answered)", "[/] (2/2 answered)", "y" * 77 + "... (2/2 answered)"]
    assert not any(text.get_parse_math() for text in legend)
    plt.close(figure)
    outputs = {"html": "r.html", "latex": "r.tex", "csv": "r.csv", "markdown": "r.md", "per-puzzle": "p.csv"}
    argv = [str(path), "--plot", str(tmp_path / "plots"), *(f"--{k}={tmp_path / v}" for k, v in outputs.items())]
    assert report_cli.main([*argv, "--scatter", LABELS[0], LABELS[3]]) == 0
    assert "Traceback" not in capsys.readouterr().err
    written = {kind: (tmp_path / name).read_text() for kind, name in outputs.items()}
    assert html.escape(LABELS[0]) in written["html"] and "_x\\udcff" in written["html"]
    assert latex_escape(LABELS[0]) in written["latex"] and "\\_x\\textbackslash{}udcff" in written["latex"]
    assert all("_x\\udcff" in written[kind] for kind in ("csv", "markdown", "per-puzzle"))
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["cactus.png", f"scatter-__frac_a_-vs-{'y' * 40}.png"]
    terminal = Terminal()
    with mock.patch.dict(os.environ, {"COLUMNS": "1000"}):
        print_sections([section], file=terminal)
    assert "\n  [/] " in terminal.getvalue() and "_x\\udcff" in terminal.getvalue()


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("limit", [1.7e308, 5e-324])
def test_times_from_the_smallest_float_to_the_largest_are_drawn_without_a_warning(limit: float) -> None:
    times = [5e-324, 0.0, 1.0, 1e300, 1.7e308]
    lines = [{**template(backend, index), "time_limit": limit, "time": time if backend == "a" else times[-1 - index]}
             for backend in ("a", "b") for index, time in enumerate(times)]
    section, = sections([Record.from_json(line) for line in lines])
    for figure in (cactus(section, ["a", "b"]), scatter(section, "a", "b")):
        assert render(figure, "png").startswith(b"\x89PNG")
