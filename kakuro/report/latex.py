"""LaTeX renderings with booktabs rules: the summary tables (`table` floats) and the
per-puzzle table (a `longtable`, which may run over several pages).

The output needs `\\usepackage{booktabs}` (and `\\usepackage{longtable}` for the per-puzzle
table); it says so in its first lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kakuro.report.analysis import SGM_SHIFT
from kakuro.report.comparison import Section
from kakuro.report.summary import ranking
from kakuro.report.tables import ROOT_MARK, Table, puzzle_table, show
from kakuro.report.text import heading, section_tables

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": "$<$", ">": "$>$", "|": r"\textbar{}",
    ROOT_MARK: r"\dag{}",
}
"""Characters LaTeX would not print as themselves; `<`, `>` and `|` print as other glyphs
(`<` as an inverted exclamation mark) in the default OT1 font encoding."""
_PATTERN = re.compile("|".join(re.escape(c) for c in _SPECIAL))


def escape(text: str) -> str:
    """`text` with LaTeX's special characters escaped."""
    return _PATTERN.sub(lambda m: _SPECIAL[m.group()], text)


def _cell(table: Table, i: int, j: int) -> str:
    text = escape(show(table.rows[i][j])) or "--"
    return rf"\textbf{{{text}}}" if (i, j) in table.bold else text


def _body(table: Table) -> list[str]:
    return [" & ".join(_cell(table, i, j) for j in range(len(table.header))) + r" \\" for i in range(len(table.rows))]


def _columns(table: Table) -> str:
    return "".join("l" if j in table.text_columns else "r" for j in range(len(table.header)))


def tabular(table: Table, *, caption: str, label: str) -> str:
    """A `table` float holding a booktabs `tabular`."""
    header = " & ".join(escape(h) for h in table.header) + r" \\"
    return "\n".join([
        r"\begin{table}[htbp]", r"\centering", rf"\caption{{{escape(caption)}}}", rf"\label{{{label}}}",
        rf"\begin{{tabular}}{{{_columns(table)}}}", r"\toprule", header, r"\midrule", *_body(table), r"\bottomrule",
        r"\end{tabular}", r"\end{table}", "",
    ])


def longtable(table: Table, *, caption: str, label: str) -> str:
    """A booktabs `longtable` whose header repeats on every page."""
    header = " & ".join(escape(h) for h in table.header) + r" \\"
    return "\n".join([
        rf"\begin{{longtable}}{{{_columns(table)}}}", rf"\caption{{{escape(caption)}}}\label{{{label}}} \\",
        r"\toprule", header, r"\midrule", r"\endfirsthead", r"\toprule", header, r"\midrule", r"\endhead",
        r"\bottomrule", r"\endfoot", *_body(table), r"\end{longtable}", "",
    ])


def _label(kind: str, section: Section, number: int) -> str:
    return f"tab:kakuro-{kind}-{section.time_limit:g}s-{number}".replace(".", "_")


def _comment(lines: Sequence[str]) -> str:
    """`lines` as LaTeX comments: what a caption leaves out, kept for the author."""
    return "".join(f"% {' '.join(line.split())}\n" for line in lines)


def _caption(title: str, text: str) -> str:
    return f"{' '.join(title.split())}: {text}" if title.strip() else text


def summary_latex(parts: Sequence[Section], *, group_by: str = "source", title: str = "",
                  sgm_shift: float = SGM_SHIFT) -> str:
    """The tables of every section (`section_tables`); PAR-2 best in bold, times in seconds.
    Captions are short (title, table, time limit); the campaign's facts and notes, and what the
    table's numbers mean, are comments above each table."""
    out = [r"% kakuro report: needs \usepackage{booktabs}", ""]
    for section in parts:
        for number, table in enumerate(section_tables(section, group_by, sgm_shift)):
            out.append(_comment([heading(section, title), *section.notes(), *filter(None, [table.caption])])
                       + tabular(table, caption=_caption(title, f"{table.title}; times in seconds."),
                                 label=_label("summary", section, number)))
    return "\n".join(out)


def per_puzzle_latex(parts: Sequence[Section], *, title: str = "") -> str:
    """The per-puzzle table of every section (best time in bold), as longtables."""
    out = [r"% kakuro report: needs \usepackage{booktabs} and \usepackage{longtable}", ""]
    for number, section in enumerate(parts):
        table = puzzle_table(section, ranking(section), spread=False)
        out.append(_comment([heading(section, title), *section.notes()])
                   + longtable(table, caption=_caption(title, table.title + "."), label=_label("puzzles", section, number)))
    return "\n".join(out)
