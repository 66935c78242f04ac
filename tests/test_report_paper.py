"""Reports a paper can use (issue #27, items 9-11): huge time limits, outputs all or none, mixed
memory and grace limits noted, nothing to compare said so, LaTeX that prints as written, natural
group order, UNSATISFIABLE and root-solved answers marked, column-wide plots without a title in PNG,
PDF or SVG, an HTML report that fits its window and names the machine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import kakuro.files
from kakuro.cli.exits import EXIT_ERROR
from kakuro.cli.report import main, parser
from kakuro.compare.worker import machine_info
from kakuro.files import write_all
from kakuro.report import sections
from kakuro.report.about import about
from kakuro.report.html import html_report
from kakuro.report.latex import per_puzzle_latex, summary_latex
from kakuro.report.plots import COLUMN_WIDTH, cactus, scatter
from kakuro.report.summary import summarize
from kakuro.report.tables import ROOT_MARK, puzzle_table, summary_table
from kakuro.report.text import markdown_report, per_puzzle_csv, summary_csv
from tests.browser import Page, chromium_or_skip
from tests.test_report import rec, records, write


def only(parts):
    assert len(parts) == 1
    return parts[0]


def test_a_time_limit_of_1e300_makes_plots_and_html(tmp_path: Path, capsys) -> None:
    lines = [rec("a", p, "SOLVED", 0.01 * (p + 1), limit=1e300) for p in range(3)]
    lines += [rec("b", p, "TIMEOUT" if p == 2 else "SOLVED", 0.02, limit=1e300) for p in range(3)]
    path = write(tmp_path / "r.jsonl", lines)
    assert main([str(path), "--html", str(tmp_path / "r.html"), "--plot", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert "6.667e+299" in out  # b's PAR-2, not 300 digits
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["cactus.png", "scatter-a-vs-b.png"]
    section = only(sections(records(lines)))
    axes = cactus(section, ["a", "b"]).axes[0]
    assert axes.get_ylim()[1] <= 1e7 and any("1e+300" in t.get_text() for t in axes.texts)
    axes = scatter(section, "a", "b").axes[0]
    assert axes.get_xlim()[1] <= 1e7 and axes.get_ylim()[1] <= 1e7


def test_outputs_are_written_all_or_none(tmp_path: Path, capsys, monkeypatch) -> None:
    path = write(tmp_path / "r.jsonl", [rec("a", 0, "SOLVED", 1.0), rec("b", 0, "SOLVED", 2.0)])
    (tmp_path / "blocker").write_text("a file where a folder should be")
    csv, tex = tmp_path / "out" / "t.csv", tmp_path / "t.tex"
    assert main([str(path), "--csv", str(csv), "--latex", str(tex), "--plot", str(tmp_path / "blocker" / "plots")]) == 1
    assert "blocker is not a folder" in capsys.readouterr().err
    assert not csv.exists() and not tex.exists() and not (tmp_path / "out").exists()  # nothing half done
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "r.jsonl"]  # no temporary file left

    # a path taken while the files are put in place: the ones already placed are taken back
    mine = tmp_path / "mine.txt"
    mine.write_text("mine")
    real_link = kakuro.files.os.link

    def link(source, target, **kwargs):
        if Path(target).name == "second.txt":
            real_link(mine, target)  # someone else's file appears just now
        return real_link(source, target, **kwargs)

    monkeypatch.setattr(kakuro.files.os, "link", link)
    with pytest.raises(FileExistsError):
        write_all([(tmp_path / "first.txt", "1"), (tmp_path / "second.txt", "2")])
    assert not (tmp_path / "first.txt").exists() and (tmp_path / "second.txt").read_text() == "mine"
    monkeypatch.undo()
    old = tmp_path / "old.txt"
    old.write_text("old")
    monkeypatch.setattr(kakuro.files.os, "replace", _fail_on("new.txt", kakuro.files.os.replace))
    with pytest.raises(kakuro.files.KakuroError):
        write_all([(old, "replaced"), (tmp_path / "new.txt", "new")], overwrite=True)
    assert old.read_text() == "old" and not (tmp_path / "new.txt").exists()  # the replaced file is restored


def _fail_on(name: str, real):
    def replace(source, target):
        if Path(target).name == name:
            raise OSError(28, "No space left on device")
        return real(source, target)

    return replace


def test_an_existing_output_is_refused_before_the_report_is_printed(tmp_path: Path, capsys) -> None:
    path = write(tmp_path / "r.jsonl", [rec("a", 0, "SOLVED", 1.0)])
    (tmp_path / "r.html").write_text("mine")
    assert main([str(path), "--csv", str(tmp_path / "t.csv"), "--html", str(tmp_path / "r.html")]) == 1
    shown = capsys.readouterr()
    assert shown.out == "" and "r.html already exists" in shown.err and not (tmp_path / "t.csv").exists()


def test_runs_under_different_memory_or_grace_limits_are_noted() -> None:
    lines = [rec("a", p, "SOLVED", 1.0, memory_limit_mb=1024) for p in range(2)]
    lines += [rec("b", p, "MEMOUT", None, grace=5.0) for p in range(2)]
    section = only(sections(records(lines)))
    note = section.settings_note()
    assert note is not None and "memory limit (1024 MiB: a; none: b)" in note
    assert "grace before the kill (1 s: a; 5 s: b)" in note
    assert note in markdown_report([section]) and note in summary_latex([section])
    same = only(sections(records([rec("a", 0, "SOLVED", 1.0), rec("b", 0, "SOLVED", 1.0)])))
    assert same.settings_note() is None and same.notes() == [same.note()]


def test_no_puzzle_in_common_is_nothing_to_compare(tmp_path: Path, capsys) -> None:
    first = write(tmp_path / "first.jsonl", [rec("a", p, "SOLVED", 1.0) for p in range(3)])
    second = write(tmp_path / "second.jsonl", [rec("b", p, "SOLVED", 1.0) for p in range(3, 5)])
    assert main([str(first), str(second), "--html", str(tmp_path / "r.html")]) == EXIT_ERROR
    shown = capsys.readouterr()
    assert shown.out == "" and shown.err.count("\n") == 1 and "nothing to compare" in shown.err
    assert "a 3, b 2" in shown.err and f"python -m kakuro.report {first}" in shown.err and "--puzzles each" in shown.err
    assert not (tmp_path / "r.html").exists()
    assert main([str(first), str(second), "--puzzles", "each"]) == 0
    section = only(sections(records([rec("a", 0, "SOLVED", 1.0), rec("b", 1, "SOLVED", 1.0)])))
    assert section.empty and "Nothing to compare" in section.note()
    assert summary_table(section).bold == frozenset()  # no winner over no puzzles
    assert "0.000" not in markdown_report([section])
    assert f"{EXIT_ERROR} unreadable input, mixed time limits, backends that ran no puzzle in common" in " ".join(
        parser().format_help().split())


def test_latex_prints_less_than_and_keeps_captions_short() -> None:
    lines = [rec("a", 0, "SOLVED", 0.0001), rec("b", 0, "SOLVED", 0.5), rec("a", 1, "SOLVED", 0.2),
             rec("b", 1, "SOLVED", 0.3)]
    section = only(sections(records(lines)))
    for text in (summary_latex([section], title="T"), per_puzzle_latex([section], title="T")):
        assert r"\textbf{$<$0.001}" in text or "$<$0.001" in text
        assert not re.search(r"(?<!\$)<0\.001", text)  # `<` outside math prints as an inverted exclamation mark
        captions = re.findall(r"\\caption\{(.*?)\}(?=\\label|$)", text, re.MULTILINE)
        assert captions
        for caption in captions:
            assert len(caption) < 160 and "runs" not in caption, caption
        assert "% T: 4 runs, 2 puzzles compared" in text  # the facts stay, as comments
    assert r"\textbf{$<$0.001}" in per_puzzle_latex([section])


def test_size_groups_sort_by_area_not_as_text() -> None:
    lines = [rec("a", p, "SOLVED", 1.0, rows=rows, cols=cols) for p, (rows, cols) in enumerate([(10, 7), (6, 6), (7, 6)])]
    section = only(sections(records(lines)))
    groups = [row.group for row in summarize(section, group_by="size") if row.group != "all"]
    assert groups == ["6x6", "7x6", "10x7"]
    lines = [rec("a", p, "SOLVED", 1.0, source=f"set{n}.txt") for p, n in enumerate([10, 2, 1])]
    assert [row.group for row in summarize(only(sections(records(lines)))) if row.group != "all"] == \
        ["set1", "set2", "set10"]


def test_per_puzzle_tables_mark_unsatisfiable_and_root_solved_answers() -> None:
    lines = [rec("a", 0, "SOLVED", 0.5, stats={"root_solved": True}),
             rec("a", 1, "UNSATISFIABLE", 0.2, stats={"root_solved": False}),
             rec("b", 0, "SOLVED", 0.7, stats={}), rec("b", 1, "UNSATISFIABLE", 0.1, stats={})]
    section = only(sections(records(lines)))
    table = puzzle_table(section, ["a", "b"])
    assert [row[2:] for row in table.rows] == [(f"0.500{ROOT_MARK}", "0.700"), ("0.200 unsatisfiable", "0.100 unsatisfiable")]
    assert "root propagation, no search" in table.title and "unsatisfiable: no solution" in table.title  # the legend
    assert r"0.500\dag{}" in per_puzzle_latex([section])
    summary = summary_table(section)
    column = summary.header.index("root-solved")
    assert {row[0]: row[column] for row in summary.rows} == {"a": 1, "b": None}  # b does not report it
    assert summary_csv([section]).splitlines()[1].endswith(",1,") and "a: root solved" in per_puzzle_csv([section])


def test_plots_fit_a_column_have_no_title_and_come_as_pdf_or_svg(tmp_path: Path, capsys) -> None:
    lines = [rec("a", 0, "SOLVED", 0.01), rec("b", 0, "SOLVED", 0.1), rec("a", 1, "SOLVED", 3.0), rec("b", 1, "TIMEOUT", None)]
    path = write(tmp_path / "r.jsonl", lines)
    for kind, magic in (("pdf", b"%PDF"), ("svg", b"<?xml")):
        folder = tmp_path / kind
        assert main([str(path), "--title", "My campaign", "--plot", str(folder), "--plot-format", kind]) == 0
        files = sorted(folder.iterdir())
        assert [p.name for p in files] == [f"cactus.{kind}", f"scatter-a-vs-b.{kind}"]
        assert all(p.read_bytes().startswith(magic) and b"My campaign" not in p.read_bytes() for p in files)
    capsys.readouterr()
    section = only(sections(records(lines)))
    for figure in (cactus(section, ["a", "b"]), scatter(section, "a", "b")):
        assert figure.axes[0].get_title() == "" and figure.axes[0].get_xlabel()
        assert figure.get_size_inches()[0] == COLUMN_WIDTH


def _machine(**more) -> dict:
    return {"hostname": "box", "cpus": 2, **more}


def test_the_html_backend_table_fits_a_window(tmp_path: Path) -> None:
    chromium = chromium_or_skip()
    lines = []
    for p in range(2):
        for name in ("cpsat", "sat:solver=glucose4"):
            line = rec(name, p, "SOLVED", 0.1)
            line["spec"] = name + ":" + ",".join(f"option_{i}=value_{i}" for i in range(30))
            lines.append(line)
    page = tmp_path / "r.html"
    page.write_text(html_report(sections(records(lines)), about(records(lines), title="wide", files=["r.jsonl"])))
    with Page(chromium, page) as shown:
        engine = "document.querySelector('#backends thead th:nth-child(3)').getBoundingClientRect()"
        assert shown.evaluate(f"{engine}.right") <= shown.evaluate("window.innerWidth")  # not cut off, no scrolling
        assert shown.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert shown.problems == []


def test_the_machine_section_names_cpu_memory_and_load() -> None:
    here = machine_info()
    assert {"cpu_model", "cpus", "cores", "memory_mb", "load"} <= set(here)
    assert isinstance(here["memory_mb"], int) and here["memory_mb"] > 0
    new = [rec("a", p, "SOLVED", 0.1, machine=_machine(cpu_model="Test CPU 9000", cores=1, memory_mb=2048,
                                                       load=[0.5 + p, 0.25, 0.125]))
           for p in range(3)]
    facts = about(records(new), title="t", files=["r.jsonl"])
    assert len(facts.machines) == 1  # one machine, whatever the load when each worker started
    page = html_report(sections(records(new)), facts)
    for shown in ("CPU: Test CPU 9000", "logical CPUs: 2", "physical cores: 1", "memory: 2.0 GiB",
                  "load average: 0.5 to 2.5 (1 min, at 3 worker starts)"):
        assert shown in page, shown
    old = [rec("a", 0, "SOLVED", 0.1, machine=_machine())]
    page = html_report(sections(records(old)), about(records(old), title="t", files=["r.jsonl"]))
    assert "CPU: not recorded" in page and "memory: not recorded" in page and "load average: not recorded" in page
    assert json.dumps(here)  # records store it as JSON
