"""Reports from `kakuro.compare` results files: `python -m kakuro.report FILE... [--html R.html] ...`.

Reading rules: the last record of each job counts (a re-run after a crash replaces it); an
UNSATISFIABLE claim on a puzzle that any backend solved (verified) in the records read becomes WRONG
(`kakuro.records.verdict`); time limits are never mixed silently; backends are compared on the
puzzles they all ran; repeats are aggregated per (puzzle, backend).

Modules: runs (which records count, per time limit), aggregate (repeats), comparison (sections),
summary (PAR-2 rows), per_puzzle, tables (table data), text (Markdown, CSV, terminal), latex,
html, plots, about (campaign facts), files; the command line is `kakuro.cli.report`. Of the
campaign machinery this package imports only `kakuro.records` (the results record and the
verdict rules), never `kakuro.compare`.
"""

from __future__ import annotations

from kakuro.report.aggregate import PuzzleResult, aggregate
from kakuro.report.comparison import Section, sections
from kakuro.report.runs import by_time_limit, effective
from kakuro.report.summary import ALL, Row, ranking, summarize
from kakuro.report.text import print_summary

__all__ = [
    "ALL", "PuzzleResult", "Row", "Section", "aggregate", "by_time_limit", "effective", "print_summary",
    "ranking", "sections", "summarize",
]

