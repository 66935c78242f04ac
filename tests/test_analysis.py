"""The comparison's statistics (kakuro.report.analysis), each against a computation that does not
share its code: explicit loops, the textbook formulas, published tables, exact enumeration.
(pandas and scipy are imported by the tests that use them, not by every worker's collection.)"""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest

from kakuro.report import analysis
from kakuro.report.analysis import Values, analyse_values

TIME_LIMIT = 10.0


def random_values(seed: int, puzzles: int = 35, backends: int = 5, ties: bool = False) -> Values:
    """PAR-2 values of `backends` on `puzzles`: exponential times, a fifth unanswered."""
    rng = np.random.default_rng(seed)
    par2 = rng.exponential(1.0, (puzzles, backends))
    if ties:
        par2 = np.round(par2, 1)
    answered = rng.random((puzzles, backends)) > 0.2
    par2[~answered] = 2 * TIME_LIMIT
    names = tuple(f"b{j}" for j in range(backends))
    return Values(tuple((f"p{i}", "d") for i in range(puzzles)), names, par2, answered, TIME_LIMIT)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solved_par2_sgm_and_vbs_match_direct_formulas(seed: int) -> None:
    from scipy import stats

    values = random_values(seed)
    result = analyse_values(values, sgm_shift=0.5)
    best = [min(row) for row in values.par2.tolist()]
    assert result.vbs_par2 == pytest.approx(sum(best) / len(best), abs=1e-9)
    assert result.vbs_solved == sum(any(row) for row in values.answered.tolist())
    for j, name in enumerate(values.backends):
        column = values.par2[:, j]
        scores = result.backends[name]
        assert scores.solved == int(values.answered[:, j].sum())
        assert scores.par2 == pytest.approx(statistics.fmean(column.tolist()), abs=1e-9)
        assert scores.sgm == pytest.approx(stats.gmean(column + 0.5) - 0.5, abs=1e-9)
        others = [k for k in range(len(values.backends)) if k != j]
        without = statistics.fmean(min(row[k] for k in others) for row in values.par2.tolist())
        assert scores.vbs_contribution == pytest.approx(without - result.vbs_par2, abs=1e-9)


def test_borda_is_the_minizinc_challenge_score() -> None:
    values = random_values(4, puzzles=20, backends=4)
    result = analyse_values(values)
    for j, name in enumerate(values.backends):
        total = 0.0
        for i in range(len(values.puzzles)):
            for o in range(len(values.backends)):
                if o == j or not values.answered[i, j]:
                    continue
                if not values.answered[i, o]:
                    total += 1
                else:
                    mine, theirs = values.par2[i, j], values.par2[i, o]
                    total += 0.5 if mine + theirs == 0 else theirs / (mine + theirs)
        assert result.backends[name].borda == pytest.approx(total, abs=1e-9)


def test_borda_gives_a_half_to_two_zero_times() -> None:
    par2 = np.array([[0.0, 0.0]])
    assert analysis.borda_scores(par2, np.ones_like(par2, dtype=bool)).tolist() == [0.5, 0.5]


@pytest.mark.parametrize("ties", [False, True])
def test_average_ranks_and_friedman_match_the_textbook(ties: bool) -> None:
    import pandas as pd
    from scipy import stats

    values = random_values(5, ties=ties)
    result = analyse_values(values)
    ranks = pd.DataFrame(values.par2).rank(axis=1, method="average")
    for j, name in enumerate(values.backends):
        assert result.backends[name].avg_rank == pytest.approx(ranks[j].mean(), abs=1e-9)
    # Friedman's statistic with the correction for ties (Conover), its chi-square p-value.
    n, k = values.par2.shape
    r = ranks.to_numpy()
    tie_groups = sum(((counts**3 - counts).sum() for counts in
                      (np.unique(row, return_counts=True)[1] for row in values.par2)), 0)
    statistic = 12 / (n * k * (k + 1)) * sum(r[:, j].sum() ** 2 for j in range(k)) - 3 * n * (k + 1)
    statistic /= 1 - tie_groups / (n * (k**3 - k))
    assert result.friedman_p == pytest.approx(stats.chi2.sf(statistic, k - 1), abs=1e-4)


@pytest.mark.parametrize(("k", "q"), [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (6, 2.850), (10, 3.164)])
def test_critical_difference_uses_demsars_table(k: int, q: float) -> None:
    # q_0.05 of the Nemenyi test, Demsar (2006), Table 5(a).
    assert analysis.critical_difference(k, 30) == pytest.approx(q * math.sqrt(k * (k + 1) / (6 * 30)), abs=1e-3)


def exact_wilcoxon_p(x: np.ndarray, y: np.ndarray) -> float:
    """Two-sided exact p of the signed-rank statistic, by enumerating every sign assignment
    (no zero or tied differences)."""
    from scipy import stats

    d = x - y
    ranks = stats.rankdata(np.abs(d))
    observed = min(ranks[d > 0].sum(), ranks[d < 0].sum())
    sums = [sum(r for r, s in zip(ranks, signs) if s) for signs in itertools.product((0, 1), repeat=len(d))]
    return min(1.0, 2 * sum(s <= observed for s in sums) / len(sums))


def test_wilcoxon_and_holm_match_exact_enumeration() -> None:
    values = random_values(6, puzzles=12, backends=3)
    values.par2[:] = np.random.default_rng(6).exponential(1.0, values.par2.shape)  # no ties, no zeros
    result = analyse_values(values)
    raw = {}
    for pair in result.pairs:
        a, b = values.backends.index(pair.a), values.backends.index(pair.b)
        raw[(pair.a, pair.b)] = exact_wilcoxon_p(values.par2[:, a], values.par2[:, b])
        assert pair.wilcoxon_p == pytest.approx(raw[(pair.a, pair.b)], abs=1e-4)
        assert pair.a_faster == int((values.par2[:, a] < values.par2[:, b]).sum())
        assert pair.b_faster == int((values.par2[:, b] < values.par2[:, a]).sum())
    # Holm: sorted ascending, the i-th (from 0) times (m - i), running maximum, at most 1.
    ordered = sorted(raw.items(), key=lambda item: item[1])
    running = 0.0
    for i, (pair, p) in enumerate(ordered):
        running = max(running, min(1.0, (len(ordered) - i) * p))
        assert next(q.holm_p for q in result.pairs if (q.a, q.b) == pair) == pytest.approx(running, abs=1e-4)


def test_holm_on_a_hand_checked_example() -> None:
    assert analysis.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_identical_backends_are_not_different() -> None:
    values = random_values(7, backends=3)
    values.par2[:, 1] = values.par2[:, 0]
    values.par2[:, 2] = values.par2[:, 0]
    result = analyse_values(values)
    assert result.friedman_p == 1.0
    assert all(pair.wilcoxon_p == 1.0 and pair.a_faster == pair.b_faster == 0 for pair in result.pairs)


def test_friedman_needs_three_backends() -> None:
    assert analyse_values(random_values(8, backends=2)).friedman_p is None


def test_the_diagram_joins_exactly_the_groups_within_the_critical_difference() -> None:
    from kakuro.report.critical_difference import cliques

    ranks = {"a": 1.0, "b": 1.9, "c": 2.5, "d": 4.0}
    assert cliques(ranks, 1.0) == [("a", "b"), ("b", "c")]  # a-c differ by 1.5: not one group
    assert cliques(ranks, 3.5) == [("a", "b", "c", "d")]
    assert cliques(ranks, 0.5) == []
