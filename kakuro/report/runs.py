"""Which runs a report counts, and under which time limit.

The last record of each job counts (a re-run after a crash replaces it), with the verdict's
UNSATISFIABLE rule applied over all the records read (`effective`). Runs under different time limits
are not comparable: `by_time_limit` refuses to mix them silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from kakuro.errors import KakuroError
from kakuro.records.record import Record, latest
from kakuro.records.verdict import overrule


def effective(records: Iterable[Record]) -> list[Record]:
    """The records that count: the last one per job, with every UNSATISFIABLE claim on a puzzle that
    has a SOLVED record turned WRONG (the message says who solved it)."""
    return overrule(latest(records))


def by_time_limit(
    records: Sequence[Record], *, time_limit: float | None = None, by_limit: bool = False
) -> dict[float, list[Record]]:
    """The records per time limit (seconds), in increasing order of limit. With `time_limit`,
    only that limit; with `by_limit`, every limit; otherwise the records must share one limit,
    else KakuroError says which limits there are and how to choose."""
    groups: dict[float, list[Record]] = {}
    for record in records:
        groups.setdefault(record.time_limit, []).append(record)
    groups = dict(sorted(groups.items()))
    if time_limit is not None:
        if time_limit not in groups:
            raise KakuroError(f"no results with time limit {time_limit:g} s; the results have {_listing(groups)}")
        return {time_limit: groups[time_limit]}
    if len(groups) > 1 and not by_limit:
        raise KakuroError(f"the results mix time limits ({_listing(groups)}), which are not comparable; "
                          "pass --time-limit S to report one, or --by-limit for a separate report per limit")
    return groups


def _listing(groups: dict[float, list[Record]]) -> str:
    return ", ".join(f"{limit:g} s: {len(runs)} runs" for limit, runs in groups.items())


def repeats(records: Iterable[Record]) -> Counter[int]:
    """How many (puzzle, backend) pairs have each number of runs."""
    return Counter(Counter((r.instance, r.digest, r.backend) for r in records).values())
