"""The critical-difference diagram (Demšar 2006): the backends' average ranks on one axis (rank 1,
the fastest, on the left), each backend's name joined to its rank, and a thick bar under every
largest group of backends whose average ranks differ by less than the Nemenyi critical difference
(drawn above the axis): backends joined by a bar are not significantly different."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kakuro.report.analysis import Analysis
from kakuro.report.plots import FONT_SIZE, literal, subplots, tight


def cliques(ranks: Mapping[str, float], cd: float) -> list[tuple[str, ...]]:
    """The largest groups of backends (in order of rank) whose average ranks all lie within less
    than `cd` of each other, groups of two or more only: what the diagram joins with a bar."""
    order = sorted(ranks, key=lambda name: (ranks[name], name))
    spans: list[tuple[int, int]] = []
    for i, first in enumerate(order):
        j = i
        while j + 1 < len(order) and ranks[order[j + 1]] - ranks[first] < cd:
            j += 1
        if j > i and not (spans and spans[-1][1] >= j):
            spans.append((i, j))
    return [tuple(order[i:j + 1]) for i, j in spans]


def cd_diagram(analysis: Analysis) -> Any:
    """The diagram of `analysis`'s average ranks and critical difference (a matplotlib figure,
    one column wide; `kakuro.report.plots.render` writes it)."""
    ranks = {name: scores.avg_rank for name, scores in analysis.backends.items()}
    order = sorted(ranks, key=lambda name: (ranks[name], name))
    k = len(order)
    groups = cliques(ranks, analysis.cd)
    left = (k + 1) // 2  # the best half is named on the left, the others on the right
    bottom = -0.35 * (len(groups) + 1) - 0.2 - 0.45 * (max(left, k - left) - 1) - 0.3
    figure, axes = subplots(0.35 * (1.9 - bottom))
    axes.set_xlim(0.5 - 0.35 * k, k + 0.5 + 0.35 * k)
    axes.set_ylim(bottom, 1.6)
    axes.axis("off")
    text = {"fontsize": FONT_SIZE, "parse_math": False}
    axes.plot([1, k], [0, 0], color="black", linewidth=1)
    for tick in range(1, k + 1):
        axes.plot([tick, tick], [0, 0.15], color="black", linewidth=1)
        axes.text(tick, 0.25, str(tick), ha="center", va="bottom", **text)
    cd = analysis.cd
    if cd == cd and cd <= k - 1:  # a critical difference wider than the axis is said, not drawn (nan: none)
        axes.plot([1, 1 + cd], [1.2, 1.2], color="black", linewidth=1.5)
        for end in (1, 1 + cd):
            axes.plot([end, end], [1.1, 1.3], color="black", linewidth=1.5)
        axes.text(1 + cd / 2, 1.35, f"CD = {cd:.2f}", ha="center", va="bottom", **text)
    elif cd == cd:
        axes.text((1 + k) / 2, 1.2, f"CD = {cd:.2f}, wider than the ranks' range: no difference is significant",
                  ha="center", va="bottom", **text)
    bar = -0.35
    for group in groups:
        axes.plot([ranks[group[0]] - 0.03, ranks[group[-1]] + 0.03], [bar, bar], color="black", linewidth=3,
                  solid_capstyle="butt")
        bar -= 0.35
    start = bar - 0.2
    for i, name in enumerate(order):
        rank = ranks[name]
        on_left = i < left
        level = start - 0.45 * (i if on_left else k - 1 - i)
        edge = 0.5 - 0.1 * k if on_left else k + 0.5 + 0.1 * k
        axes.plot([rank, rank, edge], [0, level, level], color="black", linewidth=0.8)
        label = f"{literal(name)} ({rank:.2f})" if on_left else f"({rank:.2f}) {literal(name)}"
        axes.text(edge - 0.05 if on_left else edge + 0.05, level, label, ha="right" if on_left else "left",
                  va="center", **text)
    tight(figure)
    return figure
