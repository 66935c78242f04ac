"""A self-contained HTML page that steps through an explanation.

The page holds one SVG of the grid (drawn by `kakuro.render`, a Sudoku's boxes and a Killer's
cages with it) in which every candidate of every open cell, its strike-through line, the big
digit of each cell and a frame around each Kakuro clue are elements with ids, and the trace as
JSON; a small script shows the state before the chosen step (the cells it looks at shaded, what
it removes struck through, what it places in green).
The address names the step (`page.html#12` opens at step 12). Nothing is fetched from the
network.
"""

from __future__ import annotations

import html
import json

from kakuro.combos import values_of
from kakuro.deduction.board import initial_candidates
from kakuro.deduction.trace import Explanation
from kakuro.puzzle import Run
from kakuro.render import (
    CANDIDATE_TEXT,
    CLUE_HIGHLIGHT,
    HIGHLIGHT,
    INK,
    PAPER,
    PLACED,
    STRUCK,
    Marks,
    Shape,
    candidate_label,
    clue_frame,
    digit_label,
    layout,
    strike_line,
    svg_document,
)


def page(explanation: Explanation) -> str:
    """The HTML page of `explanation` (a complete document)."""
    puzzle = explanation.puzzle
    title = f"{puzzle.id or 'puzzle'}: {explanation.status}, rating {explanation.rating}"
    data = {
        "start": [values_of(m) for m in initial_candidates(puzzle)],
        "given": sorted(puzzle.givens),
        "lo": puzzle.values[0],
        "hi": puzzle.values[1],
        "colours": {"paper": PAPER, "highlight": HIGHLIGHT, "mark": CANDIDATE_TEXT, "struck": STRUCK,
                    "placed": PLACED, "ink": INK},
        "steps": [
            {
                "technique": step.technique,
                "level": step.level,
                "sentence": step.sentence,
                "cells": list(step.cells),
                "clues": [f"q{run.clue[0]}-{run.clue[1]}" for run in map(puzzle.groups.__getitem__, step.groups)
                          if isinstance(run, Run)],
                "removed": [[x.cell, list(x.values)] for x in step.removed],
                "placed": [[p.cell, p.value] for p in step.placed],
            }
            for step in explanation.steps
        ],
    }
    items = "\n".join(
        f'<li data-k="{k}"><b>{html.escape(step.technique)}</b> {html.escape(step.sentence)}</li>'
        for k, step in enumerate(explanation.steps)
    )
    return _TEMPLATE.format(
        title=html.escape(title),
        heading=html.escape(title),
        svg=_grid(explanation),
        items=items,
        data=json.dumps(data, separators=(",", ":")).replace("</", "<\\/"),
        clue=CLUE_HIGHLIGHT,
    )


def _grid(explanation: Explanation) -> str:
    """The SVG with an element (by id) for every candidate, strike line, digit and clue frame."""
    puzzle = explanation.puzzle
    width, height, shapes = layout(puzzle, marks=Marks())
    extra: list[Shape] = []
    for cell in range(puzzle.size):
        if cell in puzzle.givens:
            continue
        extra.append(digit_label(puzzle, cell, "", key=f"d{cell}"))
        for value in range(puzzle.values[0], puzzle.values[1] + 1):
            extra.append(candidate_label(puzzle, cell, value, key=f"m{cell}-{value}"))
            extra.append(strike_line(puzzle, cell, value, key=f"s{cell}-{value}"))
    for r, c in sorted(puzzle.clues):
        extra += clue_frame(r, c, key=f"q{r}-{c}")
    return svg_document(width, height, shapes + extra, puzzle.id)


_SCRIPT = r"""
const D = JSON.parse(document.getElementById('trace').textContent);
const n = D.start.length, steps = D.steps;
const given = new Set(D.given);
const el = id => document.getElementById(id);
let cands = D.start.map(values => new Set(values)), at = 0;   // the candidates before step `at`
function apply(k, sign) {
  for (const [c, values] of steps[k].removed) for (const v of values) sign > 0 ? cands[c].delete(v) : cands[c].add(v);
}
function go(k) {
  k = Math.max(0, Math.min(steps.length, k));
  while (at < k) { apply(at, 1); at++; }
  while (at > k) { at--; apply(at, -1); }
  draw();
}
function draw() {
  const step = at < steps.length ? steps[at] : null;
  const struck = new Map((step ? step.removed : []).map(([c, values]) => [c, new Set(values)]));
  const kept = new Map(step ? step.placed : []);
  const looked = new Set(step ? step.cells : []);
  for (let c = 0; c < n; c++) {
    el('cell-' + c).setAttribute('fill', looked.has(c) ? D.colours.highlight : D.colours.paper);
    if (given.has(c)) continue;
    const m = cands[c], gone = struck.get(c) || new Set();
    const showDigit = m.size === 1 && gone.size === 0;
    el('d' + c).textContent = showDigit ? String([...m][0]) : '';
    for (let v = D.lo; v <= D.hi; v++) {
      const has = !showDigit && m.has(v);
      const mark = el('m' + c + '-' + v), line = el('s' + c + '-' + v);
      mark.style.display = has ? 'inline' : 'none';
      const isGone = has && gone.has(v);
      const isKept = has && kept.get(c) === v;
      mark.setAttribute('fill', isGone ? D.colours.struck : isKept ? D.colours.placed : D.colours.mark);
      mark.setAttribute('font-weight', isKept ? 'bold' : 'normal');
      line.style.display = isGone ? 'inline' : 'none';
    }
  }
  document.querySelectorAll('line[id^="q"]').forEach(x => x.style.display = 'none');
  for (const q of step ? step.clues : []) for (let k = 0; k < 4; k++) el(q + '-' + k).style.display = 'inline';
  el('where').textContent = step ? `step ${at + 1} of ${steps.length}: ${step.technique} (level ${step.level})`
                                 : `after the last of ${steps.length} steps`;
  el('sentence').textContent = step ? step.sentence : '';
  el('slider').value = at;
  history.replaceState(null, '', '#' + (at + 1));
  document.querySelectorAll('#steps li').forEach(li => li.classList.toggle('now', Number(li.dataset.k) === at));
}
el('slider').max = steps.length;
el('slider').addEventListener('input', e => go(Number(e.target.value)));
el('first').onclick = () => go(0);
el('back').onclick = () => go(at - 1);
el('next').onclick = () => go(at + 1);
el('last').onclick = () => go(steps.length);
document.querySelectorAll('#steps li').forEach(li => li.onclick = () => go(Number(li.dataset.k)));
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') go(at + 1);
  if (e.key === 'ArrowLeft') go(at - 1);
});
const asked = /^#(\d+)$/.exec(location.hash);
asked ? go(Number(asked[1]) - 1) : draw();
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: #1b1b1b; }}
#grid svg {{ max-width: 100%; height: auto; }}
#grid line[id^="s"], #grid line[id^="q"] {{ display: none; }}
#controls {{ margin: 0.8em 0; }}
#controls button {{ font-size: 1em; }}
#slider {{ width: 40%; vertical-align: middle; }}
#sentence {{ font-size: 1.1em; min-height: 3em; max-width: 60em; }}
#steps {{ max-height: 22em; overflow-y: auto; font-size: 0.9em; max-width: 60em; }}
#steps li {{ cursor: pointer; margin: 0.15em 0; }}
#steps li.now {{ background: {clue}33; }}
</style>
</head>
<body>
<h1>{heading}</h1>
<div id="controls">
<button id="first" title="first step">&laquo;</button>
<button id="back" title="previous step (left arrow)">&#x25C0;</button>
<button id="next" title="next step (right arrow)">&#x25B6;</button>
<button id="last" title="after the last step">&raquo;</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<span id="where"></span>
</div>
<p id="sentence"></p>
<div id="grid">
{svg}
</div>
<h2>Steps</h2>
<ol id="steps" start="1">
{items}
</ol>
<script type="application/json" id="trace">{data}</script>
<script>
""" + _SCRIPT.replace("{", "{{").replace("}", "}}") + """
</script>
</body>
</html>
"""
