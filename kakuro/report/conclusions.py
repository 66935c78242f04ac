"""The analysis of a section (`kakuro.report.analysis`) as tables (`Table`), each with a sentence
saying what its numbers mean: the conclusions per backend with the virtual best solver, the
pairwise tests, and the conclusions per group of puzzles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kakuro.errors import KakuroError
from kakuro.report.analysis import ALPHA, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, SGM_SHIFT, Analysis, analyse
from kakuro.report.comparison import Section
from kakuro.report.summary import group_of, group_order
from kakuro.report.tables import Cell, Table, seconds

VBS = "virtual best"
"""The name of the virtual best solver's row."""


def p_value(p: float | None) -> str:
    """A p-value as a table shows it: three significant digits, `<0.001` below that, `n/a` for none."""
    if p is None or math.isnan(p):
        return "n/a"
    return "<0.001" if p < 0.001 else f"{p:.3g}"


def _counted(number: int, noun: str) -> str:
    """"1 puzzle", "2 puzzles": `number` and `noun`, plural but for one."""
    return f"{number} {noun}{'s' * (number != 1)}"


def friedman_sentence(analysis: Analysis) -> str:
    """What Friedman's test and the critical difference say of the backends' ranks."""
    k = len(analysis.backends)
    if analysis.friedman_p is None:
        here = f"{_counted(k, 'backend')}, {_counted(analysis.puzzles, 'puzzle')} here"
        pairs = "; the pairwise tests below still compare them" if k >= 2 else ""
        return f"Friedman's test needs three backends or more and two puzzles ({here}){pairs}."
    verdict = "differ significantly" if analysis.friedman_p < ALPHA else "do not differ significantly"
    return (f"Friedman's test: the backends' PAR-2 ranks {verdict} (p = {p_value(analysis.friedman_p)}, "
            f"alpha {ALPHA:g}); two average ranks further apart than the Nemenyi critical difference "
            f"CD = {analysis.cd:.2f} ({k} backends, {analysis.puzzles} puzzles) are significantly different.")


def conclusions_table(analysis: Analysis, time_limit: float) -> Table:
    """One row per backend (best average rank first) and the virtual best solver's."""
    with_ci = any(s.par2_ci is not None for s in analysis.backends.values())
    header = ("backend", "solved", "PAR-2 (s)", *(["PAR-2 95% CI (s)"] if with_ci else []), "SGM (s)", "Borda",
              "VBS contribution (s)", "avg rank")
    order = sorted(analysis.backends, key=lambda name: (analysis.backends[name].avg_rank, name))
    rows: list[tuple[Cell, ...]] = []
    for name in order:
        s = analysis.backends[name]
        interval = f"[{seconds(s.par2_ci[0])}, {seconds(s.par2_ci[1])}]" if s.par2_ci is not None else None
        rows.append((name, s.solved, s.par2, *([interval] if with_ci else []), s.sgm, round(s.borda, 3),
                     s.vbs_contribution, round(s.avg_rank, 3)))
    rows.append((VBS, analysis.vbs_solved, analysis.vbs_par2, *([None] if with_ci else []), None, None, None, None))
    bold = {(0, len(header) - 1)} if order else set()
    caption = (
        f"Over the {_counted(analysis.puzzles, 'puzzle')} every backend ran: "
        "solved = answered (SOLVED or UNSATISFIABLE); PAR-2 = mean time, "
        f"an unanswered puzzle counting 2 x {time_limit:g} s; SGM = shifted geometric mean of the PAR-2 values, "
        f"shift {analysis.sgm_shift:g} s; Borda = the MiniZinc Challenge's score against every other backend; "
        "VBS contribution = how much the virtual best solver's PAR-2 (the best backend per puzzle) grows without this one; "
        "avg rank = mean rank of the PAR-2 value per puzzle, 1 the fastest."
        + (f" The 95% intervals resample each puzzle's repeated runs ({BOOTSTRAP_RESAMPLES} times, seed "
           f"{BOOTSTRAP_SEED})." if with_ci else "")
        + " " + friedman_sentence(analysis))
    return Table(f"Conclusions, time limit {time_limit:g} s", header, tuple(rows), frozenset(bold), caption=caption)


def pairwise_table(analysis: Analysis, time_limit: float) -> Table:
    """Each pair of backends: how often each was faster, Wilcoxon's p and Holm's."""
    header = ("backend A", "backend B", "A faster", "B faster", "Wilcoxon p", "Holm p", f"differ at {ALPHA:g}")
    rows = tuple((p.a, p.b, p.a_faster, p.b_faster, p_value(p.wilcoxon_p), p_value(p.holm_p),
                  "yes" if p.holm_p < ALPHA else "no") for p in analysis.pairs)
    caption = (f"Wilcoxon's signed-rank test on the paired PAR-2 values of each two backends (p = 1 when they tie on "
               f"every puzzle), with Holm's correction over all {len(rows)} pairs: a pair differs when its Holm p is "
               f"below {ALPHA:g}; 'A faster' counts the puzzles where A's PAR-2 value was lower.")
    return Table(f"Pairwise tests, time limit {time_limit:g} s", header, rows,
                 text_columns=frozenset({0, 1, 6}), caption=caption)


def group_analyses(section: Section, group_by: str, sgm_shift: float = SGM_SHIFT) -> dict[str, Analysis]:
    """The analysis of each group of the section's puzzles (`source` or `size`), in natural order;
    empty with a single group."""
    members: dict[str, list[tuple[str, str]]] = {}
    for result in section.results:
        members.setdefault(group_of(result, group_by), []).append(result.puzzle)
    if len(members) < 2:
        return {}
    return {g: analyse(section, sgm_shift=sgm_shift, puzzles=list(dict.fromkeys(members[g])))
            for g in sorted(members, key=group_order)}


def group_conclusions_table(groups: dict[str, Analysis], group_by: str, time_limit: float) -> Table | None:
    """Per group and backend: solved, PAR-2, SGM, Borda and average rank; None with a single group."""
    if not groups:
        return None
    header = (group_by, "backend", "puzzles", "solved", "PAR-2 (s)", "SGM (s)", "Borda", "avg rank", "Friedman p")
    rows: list[tuple[Cell, ...]] = []
    for group, analysis in groups.items():
        for name in sorted(analysis.backends, key=lambda n: (analysis.backends[n].avg_rank, n)):
            s = analysis.backends[name]
            rows.append((group, name, analysis.puzzles, s.solved, s.par2, s.sgm, round(s.borda, 3),
                         round(s.avg_rank, 3), p_value(analysis.friedman_p)))
    caption = ("The conclusions' figures within each group of puzzles (ranks and Borda scores compare the backends "
               "on that group only; Friedman's p is the group's).")
    return Table(f"Conclusions per {group_by}, time limit {time_limit:g} s", header, tuple(rows),
                 text_columns=frozenset({0, 1}), caption=caption)


def analysis_tables(section: Section, group_by: str, sgm_shift: float = SGM_SHIFT) -> Sequence[Table]:
    """The conclusions, pairwise and per-group tables of a section (none when it is empty, or
    when its backends are each shown on their own puzzles: the analysis pairs them by puzzle)."""
    if section.empty or not comparable(section):
        return []
    analysis = analyse(section, sgm_shift=sgm_shift)
    tables = [conclusions_table(analysis, section.time_limit)]
    if analysis.pairs:
        tables.append(pairwise_table(analysis, section.time_limit))
    grouped = group_conclusions_table(group_analyses(section, group_by, sgm_shift), group_by, section.time_limit)
    return tables + ([grouped] if grouped else [])


def comparable(section: Section) -> bool:
    """True when every backend of the section ran the same puzzles: what the analysis pairs."""
    return section.scope == "common" or section.same_puzzles


def analysis_document(parts: Sequence[Section], group_by: str, sgm_shift: float = SGM_SHIFT) -> dict[str, Any]:
    """The analysis as `kakuro report --json` writes it: one section's `Analysis.to_dict()`,
    with `groups` (the same per group of puzzles, `group_by`) and `group_by`; several time
    limits give `{"sections": [...]}`, one such object each."""
    documents = []
    for section in parts:
        if not comparable(section):
            raise KakuroError("the analysis pairs the backends' values puzzle by puzzle: with --puzzles each the "
                              "backends ran different puzzles; leave --puzzles out to analyse the puzzles they all ran")
        document = analyse(section, sgm_shift=sgm_shift).to_dict()
        document["group_by"] = group_by
        document["groups"] = {g: a.to_dict() for g, a in group_analyses(section, group_by, sgm_shift).items()}
        documents.append(document)
    return documents[0] if len(documents) == 1 else {"sections": documents}
