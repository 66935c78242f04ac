"""A short count of a campaign's results: per backend, how many jobs ended in each status,
counting the last record of each job with the verdict's UNSATISFIABLE rule applied. It is what
`kakuro.compare.main` prints when it is given no summary printer; the full summary (times,
PAR-2, per group) is `kakuro.report.print_summary`, which `kakuro compare` and
`python -m kakuro.compare` print."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from kakuro.records.record import JobStatus, Record, latest
from kakuro.records.verdict import overrule


def status_counts(records: Iterable[Record]) -> dict[str, Counter[JobStatus]]:
    """Jobs per status for each backend (in order of first appearance), over the records that
    count: the last one per job, an UNSATISFIABLE claim refuted by a SOLVED record counted WRONG."""
    counts: dict[str, Counter[JobStatus]] = {}
    for record in overrule(latest(records)):
        counts.setdefault(record.backend, Counter())[record.status] += 1
    return counts


def tally_lines(records: Iterable[Record], *, title: str = "") -> list[str]:
    """A heading line, then one line per backend: `  cpsat: 3 SOLVED, 1 TIMEOUT`."""
    counts = status_counts(records)
    jobs = sum(sum(c.values()) for c in counts.values())
    lines = [(f"{title}: " if title else "") + (f"{jobs} jobs" if counts else "no results")]
    for backend, found in counts.items():
        lines.append(f"  {backend}: " + ", ".join(f"{found[s]} {s.value}" for s in JobStatus if found[s]))
    return lines


def print_tally(records: Iterable[Record], *, group_by: str = "source", title: str = "", file: TextIO | None = None) -> None:
    """Print `tally_lines`. `group_by` is accepted for the summary printers' common call and
    not used: the counts are per backend only."""
    print("\n".join(tally_lines(records, title=title)), file=file if file is not None else sys.stdout)
