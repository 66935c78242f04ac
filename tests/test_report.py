"""Reports a paper can use: PAR-2, repeats aggregated, one job set, no silent mix of time
limits, per-puzzle tables, LaTeX, plots, and an HTML report checked in a real browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kakuro.cli.report import main
from kakuro.records.files import read_results
from kakuro.records.record import JobStatus, Record
from kakuro.report import ALL, aggregate, effective, sections, summarize
from kakuro.report.about import about
from kakuro.report.html import html_report
from kakuro.report.latex import escape, per_puzzle_latex, summary_latex
from kakuro.report.plots import UNANSWERED_AT, cactus, scatter
from kakuro.report.summary import ranking
from kakuro.report.tables import puzzle_table
from kakuro.report.text import markdown, per_puzzle_csv
from tests.browser import Page, chromium_or_skip


def rec(backend: str, puzzle: int, status: str, time: float | None, *, limit: float = 10.0, seed: int = 0,
        **extra) -> dict:
    """A results line (JSON object) of puzzle `puzzle` of set0.txt / set1.txt."""
    return {"schema": 3, "source": f"set{puzzle % 2}.txt", "index": puzzle, "digest": f"d{puzzle}",
            "instance": f"p{puzzle}", "backend": backend, "spec": f"{backend}:full", "seed": seed, "repeat": seed,
            "status": status, "time": time, "wall": time, "time_limit": limit, "grace": 1.0, "rows": 6 + puzzle % 2,
            "cols": 6, "message": "", "finished": f"2025-01-01T00:00:{puzzle:02d}+00:00",
            "versions": {"kakuro": "0.1.0", "python": "3.11", "engine": f"{backend}-engine 1.0"},
            "machine": {"hostname": "box", "cpus": 2}, **extra}


def records(lines: list[dict]) -> list[Record]:
    return [Record.from_json(line) for line in lines]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def only(parts):
    assert len(parts) == 1
    return parts[0]


def overall(section) -> dict:
    return {row.backend: row for row in summarize(section) if row.group == ALL}


def test_par2_counts_unanswered_puzzles_at_twice_the_limit(tmp_path: Path, capsys) -> None:
    lines = [
        rec("a", 0, "SOLVED", 1.0),
        rec("a", 1, "TIMEOUT", None),
        rec("a", 2, "UNSATISFIABLE", 3.0),
        rec("a", 3, "CRASH", None),
        rec("a", 3, "SOLVED", 2.0),  # the re-run after the crash counts
        rec("b", 0, "SOLVED", 4.0),
        rec("b", 1, "WRONG", 0.1),
        rec("b", 2, "MEMOUT", None),
        rec("b", 3, "UNSATISFIABLE", 0.5),  # contradicted by a's solution: WRONG
    ]
    path = write(tmp_path / "results.jsonl", lines)
    with path.open("a") as stream:
        stream.write('{"torn": \n')
    rows = overall(only(sections(read_results(path))))
    a, b = rows["a"], rows["b"]
    assert (a.puzzles, a.counts["solved"], a.counts["unsatisfiable"], a.counts["timeout"], a.counts["crash"]) == (4, 2, 1, 1, 0)
    assert a.par2 == pytest.approx((1.0 + 20.0 + 3.0 + 2.0) / 4)
    assert a.time_total == pytest.approx(6.0) and a.time_median == pytest.approx(2.0)
    assert (b.counts["wrong"], b.counts["memout"], b.counts["unsatisfiable"]) == (2, 1, 0)
    assert b.par2 == pytest.approx((4.0 + 20.0 + 20.0 + 20.0) / 4)
    wrong = next(r for r in effective(read_results(path)) if r.backend == "b" and r.index == 3)
    assert wrong.status is JobStatus.WRONG and "a has a verified solution" in wrong.message

    assert main([str(path), "--csv", str(tmp_path / "t.csv"), "--markdown", str(tmp_path / "t.md")]) == 0
    shown = capsys.readouterr()
    assert "PAR-2" in shown.out and "Per source" in shown.out and ":10:" in shown.err  # the torn line is named
    assert (tmp_path / "t.csv").read_text().splitlines()[1].startswith("10,all,a,4,4,2,1,0,1,")
    assert "| a " in (tmp_path / "t.md").read_text()


def test_repeats_are_aggregated_per_puzzle_and_backend() -> None:
    lines = [
        *(rec("a", 0, "SOLVED", t, seed=s) for s, t in enumerate([3.0, 1.0, 2.0])),  # median 2, spread [1, 3]
        rec("a", 1, "SOLVED", 1.0, seed=0), rec("a", 1, "TIMEOUT", None, seed=1), rec("a", 1, "TIMEOUT", None, seed=2),
        rec("a", 2, "SOLVED", 1.0, seed=0), rec("a", 2, "SOLVED", 1.5, seed=1), rec("a", 2, "WRONG", 0.1, seed=2),
        rec("a", 3, "SOLVED", 1.0, seed=0), rec("a", 3, "MEMOUT", None, seed=1),  # half is no majority
    ]
    results = {r.instance: r for r in aggregate(records(lines))}
    assert (results["p0"].status, results["p0"].time, results["p0"].low, results["p0"].high) == (JobStatus.SOLVED, 2.0, 1.0, 3.0)
    assert len(results["p0"].runs) == 3  # the raw rows are kept
    assert results["p1"].status is JobStatus.TIMEOUT and results["p1"].time is None and results["p1"].score == 20.0
    assert results["p2"].status is JobStatus.WRONG  # a wrong answer is never outvoted
    assert results["p3"].status is JobStatus.MEMOUT
    section = only(sections(records(lines)))
    row = overall(section)["a"]
    assert (row.puzzles, row.runs, row.counts["solved"]) == (4, 11, 1)
    table = puzzle_table(section, ["a"])
    assert table.rows[0][2] == "2.000 [1.000, 3.000]"
    assert "1 pair with 2 runs, 3 pairs with 3 runs" in markdown_text(section)


def markdown_text(section) -> str:
    from kakuro.report.text import markdown_report

    return markdown_report([section])


def test_backends_are_compared_on_the_puzzles_they_all_ran(tmp_path: Path, capsys) -> None:
    lines = [rec("cpsat", p, "SOLVED", 0.5) for p in range(6)] + [rec("sat", p, "SOLVED", 0.1) for p in range(2)]
    lines += [rec("nmcs:level=2", p, "SOLVED", 0.2) for p in range(3)]
    section = only(sections(records(lines)))
    assert [p[0] for p in section.puzzles] == ["p0", "p1"]
    assert {row.backend: row.puzzles for row in overall(section).values()} == {"cpsat": 2, "sat": 2, "nmcs:level=2": 2}
    assert "Compared on the 2 puzzles all 3 backends ran" in section.note() and "cpsat 6" in section.note()
    each = only(sections(records(lines), scope="each"))
    assert {row.backend: row.puzzles for row in overall(each).values()} == {"cpsat": 6, "sat": 2, "nmcs:level=2": 3}
    assert "not comparable" in each.note()
    path = write(tmp_path / "r.jsonl", lines)
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "nmcs:level=2" in out and "Compared on the 2 puzzles" in out  # named by the full spec
    assert main([str(path), "--puzzles", "each"]) == 0 and "not comparable" in capsys.readouterr().out


def test_time_limits_are_never_mixed_silently(tmp_path: Path, capsys) -> None:
    path = write(tmp_path / "r.jsonl", [rec("a", 0, "SOLVED", 1.0), rec("a", 1, "TIMEOUT", None, limit=5.0)])
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "mix time limits (5 s: 1 runs, 10 s: 1 runs)" in err and "--time-limit" in err and "--by-limit" in err
    assert "Traceback" not in err
    assert main([str(path), "--time-limit", "5"]) == 0
    assert "time limit 5 s" in capsys.readouterr().out
    assert main([str(path), "--time-limit", "7"]) == 1 and "no results with time limit 7 s" in capsys.readouterr().err
    assert main([str(path), "--by-limit", "--plot", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert "time limit 5 s" in out and "time limit 10 s" in out
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["cactus-10s.png", "cactus-5s.png"]


def test_per_puzzle_tables_mark_the_best_time() -> None:
    lines = [rec("a", 0, "SOLVED", 1.0), rec("b", 0, "SOLVED", 0.5), rec("a", 1, "SOLVED", 0.2),
             rec("b", 1, "TIMEOUT", None), rec("a", 2, "TIMEOUT", None), rec("b", 2, "ERROR", None)]
    section = only(sections(records(lines)))
    order = ranking(section)
    assert order == ["a", "b"]
    table = puzzle_table(section, order)
    assert [row[2:] for row in table.rows] == [("1.000", "0.500"), ("0.200", "timeout"), ("timeout", "error")]
    assert table.bold == {(0, 3), (1, 2)}
    text = markdown(table)
    assert "**0.500**" in text and "**0.200**" in text and "**1.000**" not in text
    csv_lines = per_puzzle_csv([section]).splitlines()
    assert csv_lines[1].endswith(",b") and csv_lines[2].endswith(",a") and csv_lines[3].endswith(",")


def test_latex_uses_booktabs_and_escapes() -> None:
    lines = [rec("sat:solver=g4", 0, "SOLVED", 1.0), rec("a_b", 0, "SOLVED", 0.5), rec("a_b", 1, "TIMEOUT", None),
             rec("sat:solver=g4", 1, "SOLVED", 2.0)]
    section = only(sections(records(lines)))
    text = summary_latex([section], title="50% of #1")
    assert r"\toprule" in text and r"\midrule" in text and r"\bottomrule" in text and r"\hline" not in text
    assert r"a\_b" in text and r"50\% of \#1" in text
    assert re.search(r"sat:solver=g4 & .*\\textbf\{1\.500\} \\\\", text)  # best PAR-2 in bold
    longtable = per_puzzle_latex([section])
    assert r"\begin{longtable}{llrr}" in longtable and r"\endhead" in longtable and r"\textbf{0.500}" in longtable
    assert escape(r"\&~^{}") == r"\textbackslash{}\&\textasciitilde{}\textasciicircum{}\{\}"


PLOT_LINES = [rec("a", 0, "SOLVED", 0.01), rec("b", 0, "SOLVED", 0.1), rec("a", 1, "SOLVED", 3.0),
              rec("b", 1, "TIMEOUT", None), rec("a", 2, "TIMEOUT", None), rec("b", 2, "TIMEOUT", None)]


def test_plots_are_titled_draw_the_limit_and_keep_timeouts_apart() -> None:
    section = only(sections(records(PLOT_LINES)))
    figure = cactus(section, ["a", "b"], title="My campaign")
    axes = figure.axes[0]
    assert "My campaign" in axes.get_title() and "time limit 10 s" in axes.get_title()
    assert axes.get_yscale() == "log"
    assert any(list(line.get_ydata()) == [10.0, 10.0] for line in axes.get_lines())  # the limit line
    assert [text.get_text() for text in axes.get_legend().get_texts()] == ["a (2/3 answered)", "b (1/3 answered)"]
    figure = scatter(section, "a", "b", title="My campaign")
    axes = figure.axes[0]
    assert (axes.get_xscale(), axes.get_yscale()) == ("log", "log") and "My campaign" in axes.get_title()
    low, high = axes.get_xlim()
    assert any(list(line.get_xdata()) == [low, high] == list(line.get_ydata()) for line in axes.get_lines())  # diagonal
    groups = {c.get_label(): c.get_offsets().tolist() for c in axes.collections if c.get_label()[0] != "_"}
    assert groups["both answered (1)"] == [[0.01, 0.1]]
    out = 10.0 * UNANSWERED_AT
    assert sorted(groups["unanswered by one or both (2)"]) == [[3.0, out], [out, out]]


def test_outputs_are_never_overwritten_without_force(tmp_path: Path, capsys) -> None:
    path = write(tmp_path / "r.jsonl", PLOT_LINES)
    target = tmp_path / "report.html"
    target.write_text("mine")
    assert main([str(path), "--html", str(target), "--latex", str(tmp_path / "new.tex")]) == 1
    assert target.read_text() == "mine" and not (tmp_path / "new.tex").exists()  # nothing half done
    assert "already exist" in capsys.readouterr().err
    assert main([str(path), "--html", str(target), "--force"]) == 0 and target.read_text().startswith("<!doctype html>")
    assert main([str(path), "--html", str(target), "--overwrite"]) == 0  # the older flag still works
    assert main([str(path), "--per-puzzle", str(tmp_path / "p.txt")]) == 2  # a usage error
    assert ".csv, .md, .tex" in capsys.readouterr().err
    assert main([str(path), "--scatter", "a", "zzz", "--plot", str(tmp_path / "plots")]) == 2
    assert not (tmp_path / "plots").exists()


def test_old_results_files_still_make_reports(tmp_path: Path, capsys) -> None:
    old = [{k: v for k, v in rec("nmcs", p, "SOLVED", 0.1).items() if k not in ("schema", "spec", "instance")}
           for p in range(2)]
    path = write(tmp_path / "old.jsonl", old)
    assert main([str(path), "--html", str(tmp_path / "old.html")]) == 0
    page = (tmp_path / "old.html").read_text()
    assert "predate full specs" in page and "not recorded (schema 1)" in page
    assert "set0#1" in page  # the instance name is derived as compare derives it


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """An HTML report over two backends, repeats and a timeout."""
    folder = tmp_path_factory.mktemp("html")
    lines = [rec("cpsat", p, "SOLVED", 0.05 * (p + 1), seed=s) for p in range(5) for s in range(2)]
    lines += [rec("nmcs:level=2", p, "SOLVED" if p != 3 else "TIMEOUT", 0.5 / (p + 1) if p != 3 else None, seed=s)
              for p in range(5) for s in range(2)]
    parts = sections(records(lines))
    page = html_report(parts, about(records(lines), title="Demo <campaign>", files=["r.jsonl"]))
    path = folder / "report.html"
    path.write_text(page)
    return path


def test_the_html_report_is_self_contained_and_says_what_ran(report: Path) -> None:
    page = report.read_text()
    assert page.startswith("<!doctype html>") and "<title>Demo &lt;campaign&gt;</title>" in page
    assert not re.search(r"""(src|href)=["'](?!data:)""", page)  # nothing loaded from anywhere
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert page.count("data:image/svg+xml;base64,") == 2  # the cactus and one scatter plot
    for fact in ("nmcs:level=2:full", "nmcs:level=2-engine 1.0", "hostname: box", "10 s", "2: 10 pairs", "0, 1"):
        assert fact in page, fact
    assert 'id="limit-0-puzzles"' in page and 'id="limit-0-runs"' in page


def column(page: Page, table: str, index: int) -> list[str]:
    return page.evaluate(f"Array.from(document.querySelectorAll('#{table} tbody tr')).map(r => r.cells[{index}].textContent)")


def test_the_html_report_loads_in_a_browser_and_its_tables_sort(report: Path) -> None:
    chromium = chromium_or_skip()
    with Page(chromium, report) as page:
        assert page.evaluate("document.querySelectorAll('img').length") == 2
        assert page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
        before = column(page, "limit-0-puzzles", 0)
        assert before == ["p0", "p1", "p2", "p3", "p4"]
        page.click("#limit-0-puzzles thead th:nth-child(4)")  # nmcs:level=2, the slower backend overall
        header = "document.querySelector('#limit-0-puzzles thead th:nth-child(4)')"
        assert page.evaluate(f"{header}.getAttribute('aria-sort')") == "ascending"
        assert column(page, "limit-0-puzzles", 0) == ["p4", "p2", "p1", "p0", "p3"]  # the timeout last
        page.click("#limit-0-puzzles thead th:nth-child(4)")
        assert column(page, "limit-0-puzzles", 0) == ["p3", "p0", "p1", "p2", "p4"]
        page.click("#limit-0-summary-0 thead th:nth-child(1)")
        assert column(page, "limit-0-summary-0", 0) == ["cpsat", "nmcs:level=2"]
        assert page.problems == []


def test_the_browser_check_sees_a_broken_page(tmp_path: Path) -> None:
    chromium = chromium_or_skip()
    broken = tmp_path / "broken.html"
    broken.write_text('<!doctype html><html><body><img src="http://127.0.0.1:9/x.png">'
                      "<script>console.error('bad'); undefinedFunction();</script></body></html>")
    with Page(chromium, broken) as page:
        page.evaluate("1")
    kinds = {problem.split(":")[0] for problem in page.problems}
    assert {"console", "exception", "request"} <= kinds
