"""The HTML report: one self-contained file that opens with no network.

It holds the campaign's facts (files, backends with their full specs and engine versions,
machines, limits, seeds, dates), then per time limit the summary tables, the plots (inline
SVG as data URIs), the per-puzzle table and every raw run. Every table sorts when a header
is clicked (or activated with the keyboard); styles and script are inline, and a content
security policy forbids the page to load anything.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
from collections.abc import Sequence

from kakuro.records.record import is_finite
from kakuro.report.about import About, describe_machine
from kakuro.report.analysis import SGM_SHIFT
from kakuro.report.comparison import Section
from kakuro.report.plots import cactus, render, scatter
from kakuro.report.summary import ranking
from kakuro.report.tables import Table, puzzle_table, runs_table, show
from kakuro.report.text import heading, section_tables
from kakuro.values import is_number

MAX_SCATTERS = 4
"""Scatter plots per section by default: the best backend against each of the next ones."""

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 75em;
       padding: 0 1em; color: #1b1b1b; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0 1.5em; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #e3e3e3; text-align: right; white-space: nowrap; }
th { border-bottom: 2px solid #555; background: #f6f6f6; position: sticky; top: 0; }
th.text, td.text { text-align: left; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; }
td.best { font-weight: 700; background: #e7f4e4; }
td.message { white-space: normal; text-align: left; max-width: 40em; }
td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 12em; }
table.facts th { text-align: left; background: none; position: static; border-bottom: 1px solid #e3e3e3; }
table.facts td { text-align: left; white-space: normal; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
.caption { color: #444; max-width: 60em; margin-top: -1em; }
.note { background: #fff8e1; border-left: 4px solid #f0b400; padding: 0.4em 0.8em; }
details summary { cursor: pointer; font-weight: 600; margin: 0.5em 0; }
.scroll { overflow-x: auto; }
"""

SCRIPT = """
"use strict";
function sortKey(cell) {
  const key = cell.dataset.key;
  if (key === undefined) { return cell.textContent.trim(); }
  return key === "" ? null : Number(key);
}
function compareKeys(x, y, ascending) {
  if (x === null || x === "") { return (y === null || y === "") ? 0 : 1; }
  if (y === null || y === "") { return -1; }
  const order = (typeof x === "number" && typeof y === "number")
    ? x - y : String(x).localeCompare(String(y), undefined, {numeric: true});
  return ascending ? order : -order;
}
function sortTable(table, header, column) {
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) { other.removeAttribute("aria-sort"); }
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((a, b) => compareKeys(sortKey(a.cells[column]), sortKey(b.cells[column]), ascending));
  const ordered = document.createDocumentFragment();
  for (const row of rows) { ordered.appendChild(row); }
  body.appendChild(ordered);
}
for (const table of document.querySelectorAll("table.sortable")) {
  Array.from(table.tHead.rows[0].cells).forEach((header, column) => {
    header.tabIndex = 0;
    header.title = "sort by this column";
    header.addEventListener("click", () => sortTable(table, header, column));
    header.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortTable(table, header, column); }
    });
  });
}
"""

POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
"""The page may load nothing: images are data URIs, style and script are inline."""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def table_html(
    table: Table, *, table_id: str, sortable: bool = True, message_column: int | None = None,
    wrap: frozenset[int] = frozenset(),
) -> str:
    """A `<table>` with a caption, numbers right-aligned, bold cells marked `best`, and a
    `data-key` on cells that sort as numbers (empty: sorts last). The cells of the `wrap`
    columns break over lines (anywhere, if need be) so that a long value does not make the
    table wider than the page; a table still too wide scrolls sideways."""
    head = "".join(f'<th scope="col"{_class(j in table.text_columns and "text")}>{_e(h)}</th>'
                   for j, h in enumerate(table.header))
    lines = []
    for i, row in enumerate(table.rows):
        cells = []
        for j, value in enumerate(row):
            key = table.keys[i][j] if table.keys is not None else value
            classes = [name for name, on in (("text", j in table.text_columns), ("best", (i, j) in table.bold),
                                             ("message", j == message_column), ("wrap", j in wrap)) if on]
            data = f' data-key="{"" if key is None else _number(key)}"' if key is None or is_number(key) else ""
            cells.append(f"<td{_class(' '.join(classes))}{data}>{_e(show(value))}</td>")
        lines.append("<tr>" + "".join(cells) + "</tr>")
    kind = ' class="sortable"' if sortable else ""
    return (f'<div class="scroll"><table id="{_e(table_id)}"{kind}><caption>{_e(table.title)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(lines) + "\n</tbody></table></div>")


def _number(value: float) -> str:
    """A number as the script's `Number()` reads it; one too large for a float (a whole number
    of 400 digits, a PAR-2 past 1.8e308) is an infinity, which sorts after every other."""
    if is_finite(value):
        return repr(float(value))
    return "Infinity" if value > 0 else "-Infinity"


def _class(names: str | bool) -> str:
    return f' class="{names}"' if names else ""


def _figure(svg: bytes, caption: str) -> str:
    data = base64.b64encode(svg).decode("ascii")
    return (f'<figure><img src="data:image/svg+xml;base64,{data}" alt="{_e(caption)}" width="480">'
            f"<figcaption>{_e(caption)}</figcaption></figure>")


def _facts(about: About) -> str:
    rows: list[tuple[str, str]] = [
        ("results files", ", ".join(about.files)),
        ("records", f"{about.records} read, {about.jobs} jobs count (the last record of each)"),
        ("puzzles", str(about.puzzles)),
        ("time limits", ", ".join(f"{x:g} s" for x in about.time_limits)),
        ("grace before the kill", ", ".join(f"{x:g} s" for x in about.graces) or "not recorded"),
        ("memory limit", ", ".join(f"{x} MiB" for x in about.memory_limits_mb) or "none"),
        ("seeds", ", ".join(map(str, about.seeds))),
        ("runs per (puzzle, backend)", ", ".join(f"{n}: {pairs} pairs" for n, pairs in about.runs_per_pair.items())),
        ("software", ", ".join(about.software) or "not recorded"),
        ("jobs finished (UTC)", f"{about.first} to {about.last}" if about.first else "not recorded"),
    ]
    for machine in about.machines or [{}]:
        rows.append(("machine", describe_machine(machine)))
    body = "".join(f'<tr><th scope="row">{_e(k)}</th><td>{_e(v)}</td></tr>' for k, v in rows)
    return f'<table class="facts" id="campaign-facts"><caption>Campaign</caption><tbody>{body}</tbody></table>'


def _backends(about: About) -> str:
    header = ("backend", "paradigm", "full spec (every option)", "engine")
    rows = tuple((b.name, ", ".join(b.paradigms) or "not recorded", "; ".join(b.specs) or "not recorded (schema 1)",
                  ", ".join(b.engines) or "not recorded") for b in about.backends)
    return table_html(Table("Backends as they ran", header, rows, text_columns=frozenset({0, 1, 2, 3})),
                      table_id="backends", sortable=True, wrap=frozenset({2, 3}))


def _section(section: Section, number: int, *, group_by: str,
             pairs: Sequence[tuple[str, str]] | None, sgm_shift: float) -> str:
    order = ranking(section)
    anchor = f"limit-{number}"
    parts = [f'<section id="{anchor}"><h2>Time limit {section.time_limit:g} s</h2>',
             f"<p>{_e(heading(section, ''))}.</p>",
             f'<p class="{"" if section.same_puzzles else "note"}">{_e(section.note())}</p>',
             *(f'<p class="note">{_e(note)}</p>' for note in section.notes()[1:])]
    for k, table in enumerate(section_tables(section, group_by, sgm_shift)):
        parts.append(table_html(table, table_id=f"{anchor}-summary-{k}"))
        if table.caption:
            parts.append(f'<p class="caption">{_e(show(table.caption))}</p>')
    if section.empty:  # nothing to compare: no winner, no plots (the note says how to see each)
        return "\n".join([*parts, "</section>"])
    figures = [_figure(render(cactus(section, order), "svg"),
                       f"Cactus plot, time limit {section.time_limit:g} s")]
    chosen = list(pairs) if pairs is not None else [(order[0], other) for other in order[1:1 + MAX_SCATTERS]]
    for a, b in chosen:
        figures.append(_figure(render(scatter(section, a, b), "svg"), f"{a} against {b} per puzzle"))
    parts.append('<h3>Plots</h3><div class="figures">' + "".join(figures) + "</div>")
    parts.append("<h3>Per puzzle</h3>")
    parts.append(table_html(puzzle_table(section, order), table_id=f"{anchor}-puzzles"))
    runs = runs_table(section)
    parts.append(f"<details><summary>{_e(runs.title)} (the raw rows behind the aggregates)</summary>"
                 + table_html(runs, table_id=f"{anchor}-runs", message_column=len(runs.header) - 1) + "</details>")
    parts.append("</section>")
    return "\n".join(parts)


def html_report(
    parts: Sequence[Section],
    about: About,
    *,
    group_by: str = "source",
    pairs: Sequence[tuple[str, str]] | None = None,
    sgm_shift: float = SGM_SHIFT,
) -> str:
    """The whole report as one HTML document. `pairs` chooses the scatter plots (default:
    the best backend of each section against the next ones); `sgm_shift` is the shifted
    geometric mean's shift in seconds."""
    made = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    notes = "".join(f"<li>{_e(note)}</li>" for note in about.notes)
    body = [
        f"<h1>{_e(about.title)}</h1>",
        f"<p>Report of a <code>kakuro.compare</code> campaign, made {made}. Every answer was checked by "
        "<code>puzzle.check</code>; times are the backends' own, in seconds; PAR-2 counts twice the time limit for "
        "a puzzle not answered. Click a column header to sort.</p>",
        _facts(about),
        _backends(about),
        f'<div class="note"><strong>Notes</strong><ul>{notes}</ul></div>' if notes else "",
        *(_section(section, n, group_by=group_by, pairs=pairs, sgm_shift=sgm_shift) for n, section in enumerate(parts)),
    ]
    return "\n".join([
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<link rel="icon" href="data:,">',
        f"<title>{_e(about.title)}</title>",
        f"<style>{STYLE}</style></head><body>",
        *body,
        f"<script>{SCRIPT}</script>",
        "</body></html>",
        "",
    ])
