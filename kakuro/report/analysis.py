"""What a comparison concludes: the virtual best solver and each backend's contribution to it,
the shifted geometric mean, MiniZinc-Challenge Borda scores, Friedman's test with the Nemenyi
critical difference, pairwise Wilcoxon signed-rank tests with Holm's correction, and bootstrap
confidence intervals of PAR-2 over repeated runs.

Everything is computed from a section's per-(puzzle, backend) results (`aggregate`: repeats
answered by majority, time the median of the answered runs) on the puzzles every backend ran.
The value of a pair is its PAR-2 score: the time when answered (SOLVED or UNSATISFIABLE), else twice the
time limit (so a WRONG answer counts as unanswered). Times are seconds. scipy computes every
distribution (the Friedman chi-square, the Wilcoxon signed-rank statistic, the studentized range
behind the critical difference); Holm's step-down correction is the arithmetic of its definition.
scipy.stats is imported where a statistic needs it (about 0.6 s): a campaign of one backend, the
common case of a single run, reports without it.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kakuro.report.aggregate import PuzzleId, PuzzleResult, majority, run_arrays
from kakuro.report.comparison import Section

SGM_SHIFT = 0.01
"""Default shift s of the shifted geometric mean, in seconds (docs/guide/reading.md says why)."""
ALPHA = 0.05
"""Significance level of the critical difference and of the tests' conclusions."""
BOOTSTRAP_SEED = 20261128
"""Seed of the bootstrap's resampling: the same results file gives the same intervals."""
BOOTSTRAP_RESAMPLES = 2000
"""Bootstrap replicates of each confidence interval."""


@dataclass(frozen=True)
class Values:
    """PAR-2 values of `backends` (columns) on `puzzles` (rows), and which of them answered."""

    puzzles: tuple[PuzzleId, ...]
    backends: tuple[str, ...]
    par2: np.ndarray
    """float array (puzzles x backends), seconds."""
    answered: np.ndarray
    """bool array (puzzles x backends)."""
    time_limit: float

    @classmethod
    def of(cls, results: Sequence[PuzzleResult], backends: Sequence[str], time_limit: float) -> Values:
        """The values of `results` (one per puzzle and backend: every backend ran every puzzle)."""
        puzzles = tuple(dict.fromkeys(r.puzzle for r in results))
        row = {p: i for i, p in enumerate(puzzles)}
        col = {b: j for j, b in enumerate(backends)}
        par2 = np.full((len(puzzles), len(backends)), np.nan)
        answered = np.zeros(par2.shape, dtype=bool)
        for r in results:
            par2[row[r.puzzle], col[r.backend]] = r.score
            answered[row[r.puzzle], col[r.backend]] = r.answered
        if np.isnan(par2).any():
            raise ValueError("every backend must have a result on every puzzle")
        return cls(puzzles, tuple(backends), par2, answered, time_limit)


@dataclass(frozen=True)
class BackendScores:
    """One backend's figures over the compared puzzles (seconds where a time)."""

    solved: int
    """Puzzles answered (SOLVED or UNSATISFIABLE)."""
    par2: float
    sgm: float
    """Shifted geometric mean of the PAR-2 values."""
    borda: float
    """MiniZinc Challenge score (complete solvers): summed over puzzles and other backends."""
    vbs_contribution: float | None
    """VBS PAR-2 without this backend minus VBS PAR-2 with all (None with one backend)."""
    avg_rank: float
    """Mean over puzzles of the rank of its PAR-2 value (1 fastest, ties averaged)."""
    par2_ci: tuple[float, float] | None
    """Bootstrap 95 % interval of PAR-2 when some pair has more than one run, else None."""


@dataclass(frozen=True)
class Pair:
    """Two backends' paired PAR-2 values: Wilcoxon's signed-rank p, Holm's adjusted p, and on
    how many puzzles each one was faster."""

    a: str
    b: str
    wilcoxon_p: float
    holm_p: float
    a_faster: int
    b_faster: int


@dataclass(frozen=True)
class Analysis:
    """Every conclusion about one set of backends on one set of puzzles under one time limit."""

    time_limit: float
    sgm_shift: float
    puzzles: int
    backends: Mapping[str, BackendScores]
    vbs_solved: int
    vbs_par2: float
    friedman_p: float | None
    """None with fewer than three backends (the test needs three) or fewer than two puzzles."""
    cd: float
    """Nemenyi critical difference of average ranks at `ALPHA`."""
    pairs: tuple[Pair, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`kakuro report --json`)."""
        return {
            "time_limit": self.time_limit, "sgm_shift": self.sgm_shift, "puzzles": self.puzzles,
            "alpha": ALPHA, "bootstrap": {"seed": BOOTSTRAP_SEED, "resamples": BOOTSTRAP_RESAMPLES},
            "backends": {name: {
                "solved": s.solved, "par2": s.par2, "sgm": s.sgm, "borda": s.borda,
                "vbs_contribution": s.vbs_contribution, "avg_rank": s.avg_rank,
                "par2_ci": list(s.par2_ci) if s.par2_ci is not None else None,
            } for name, s in self.backends.items()},
            "vbs": {"solved": self.vbs_solved, "par2": self.vbs_par2},
            "friedman": {"p": self.friedman_p, "cd": None if math.isnan(self.cd) else self.cd},
            "pairwise": [{"a": p.a, "b": p.b, "wilcoxon_p": p.wilcoxon_p, "holm_p": p.holm_p,
                          "a_faster": p.a_faster, "b_faster": p.b_faster} for p in self.pairs],
        }


def analyse(section: Section, *, sgm_shift: float = SGM_SHIFT, puzzles: Sequence[PuzzleId] | None = None) -> Analysis:
    """The analysis of a section's compared puzzles (or of `puzzles` among them: a group)."""
    keep = set(section.puzzles if puzzles is None else puzzles)
    results = [r for r in section.results if r.puzzle in keep]
    values = Values.of(results, section.backends, section.time_limit)
    return analyse_values(values, sgm_shift=sgm_shift, intervals=_intervals(results, section))


def analyse_values(
    values: Values, *, sgm_shift: float = SGM_SHIFT, intervals: Mapping[str, tuple[float, float]] | None = None,
) -> Analysis:
    """The analysis of `values`; `intervals` the bootstrap intervals of the backends that have one."""
    par2, answered = values.par2, values.answered
    names = values.backends
    ranks = average_ranks(par2)
    contribution = vbs_contributions(par2)
    borda = borda_scores(par2, answered)
    scores = {
        name: BackendScores(
            solved=int(answered[:, j].sum()), par2=float(par2[:, j].mean()), sgm=shifted_geometric_mean(par2[:, j], sgm_shift),
            borda=float(borda[j]), vbs_contribution=contribution[j], avg_rank=float(ranks[j]),
            par2_ci=(intervals or {}).get(name),
        ) for j, name in enumerate(names)
    }
    return Analysis(
        time_limit=values.time_limit, sgm_shift=sgm_shift, puzzles=len(values.puzzles), backends=scores,
        vbs_solved=int(answered.any(axis=1).sum()), vbs_par2=float(par2.min(axis=1).mean()),
        friedman_p=friedman_p(par2), cd=critical_difference(len(names), len(values.puzzles)),
        pairs=pairwise(par2, names),
    )


def shifted_geometric_mean(values: np.ndarray, shift: float) -> float:
    """exp(mean(log(v + shift))) - shift."""
    return float(np.exp(np.mean(np.log(np.asarray(values, dtype=float) + shift))) - shift)


def vbs_contributions(par2: np.ndarray) -> list[float | None]:
    """Per backend (column): the VBS's PAR-2 without it minus the VBS's PAR-2 with all."""
    if par2.shape[1] < 2:
        return [None] * par2.shape[1]
    best = par2.min(axis=1).mean()
    return [float(np.delete(par2, j, axis=1).min(axis=1).mean() - best) for j in range(par2.shape[1])]


def borda_scores(par2: np.ndarray, answered: np.ndarray) -> np.ndarray:
    """The MiniZinc Challenge's score of complete solvers, per backend (column): over puzzles
    and other backends, 1 when this one answered and the other did not, t_other / (t_this +
    t_other) when both did (0.5 when both times are 0), 0 when this one did not."""
    n, k = par2.shape
    total = np.zeros(k)
    for j, o in itertools.permutations(range(k), 2):
        both = answered[:, j] & answered[:, o]
        only = answered[:, j] & ~answered[:, o]
        t_j, t_o = par2[both, j], par2[both, o]
        shared = np.where(t_j + t_o > 0, t_o / np.where(t_j + t_o > 0, t_j + t_o, 1.0), 0.5)
        total[j] += only.sum() + shared.sum()
    return total


def average_ranks(par2: np.ndarray) -> np.ndarray:
    """Per backend (column): its mean rank over puzzles, rank 1 the least value, ties averaged."""
    if par2.shape[1] < 2:
        return np.ones(par2.shape[1])  # a backend alone ranks first everywhere
    from scipy import stats

    return np.asarray(stats.rankdata(par2, axis=1, method="average").mean(axis=0))


def friedman_p(par2: np.ndarray) -> float | None:
    """Friedman's test that the backends' PAR-2 values come from one distribution (None with
    fewer than three backends or two puzzles); 1.0 when every puzzle ties every backend."""
    n, k = par2.shape
    if k < 3 or n < 2:
        return None
    if all(np.all(row == row[0]) for row in par2):
        return 1.0
    from scipy import stats

    return float(stats.friedmanchisquare(*par2.T).pvalue)


def critical_difference(k: int, n: int, alpha: float = ALPHA) -> float:
    """Nemenyi's critical difference of average ranks: q_alpha(k) sqrt(k (k + 1) / (6 n)), q_alpha
    the studentized range's upper quantile (infinite degrees of freedom) over sqrt(2)."""
    if k < 2 or n < 1:
        return math.nan
    return _nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6 * n))


@functools.cache
def _nemenyi_q(k: int, alpha: float) -> float:
    """q_alpha(k) over sqrt(2): scipy finds the quantile by root-finding (about 5 ms a call), and
    a report asks for the same few (k, alpha) in every section."""
    from scipy import stats

    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2)


def pairwise(par2: np.ndarray, names: Sequence[str]) -> tuple[Pair, ...]:
    """Every pair of backends: Wilcoxon's signed-rank test on paired PAR-2 values (scipy's
    defaults; p = 1 when every difference is 0), Holm-corrected over all pairs."""
    if len(names) < 2:
        return ()
    from scipy import stats

    found = []
    for a, b in itertools.combinations(range(len(names)), 2):
        x, y = par2[:, a], par2[:, b]
        p = 1.0 if np.all(x == y) else float(stats.wilcoxon(x, y).pvalue)
        found.append((a, b, p, int((x < y).sum()), int((y < x).sum())))
    adjusted = holm([p for _, _, p, _, _ in found])
    return tuple(Pair(names[a], names[b], p, q, fa, fb) for (a, b, p, fa, fb), q in zip(found, adjusted))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the i-th smallest of m times
    (m - i + 1), made non-decreasing, at most 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _intervals(results: Sequence[PuzzleResult], section: Section) -> dict[str, tuple[float, float]]:
    """The bootstrap intervals of PAR-2 of the backends with some pair of several runs."""
    out = {}
    for backend in section.backends:
        mine = [r for r in results if r.backend == backend]
        if any(len(r.runs) > 1 for r in mine):
            out[backend] = bootstrap_interval(mine, section.time_limit)
    return out


def bootstrap_interval(
    results: Sequence[PuzzleResult], time_limit: float, *, resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED, level: float = 0.95,
) -> tuple[float, float]:
    """The percentile bootstrap interval of one backend's PAR-2 over `results` (one per puzzle):
    each replicate resamples every puzzle's runs with replacement, aggregates them by the
    report's rule (`majority`: answered by majority, the median time) and averages the PAR-2
    values over puzzles."""
    rng = np.random.default_rng(seed)
    replicates = np.zeros(resamples)
    for result in results:
        answered, wrong, times = run_arrays(result.runs)
        picks = rng.integers(0, len(result.runs), size=(resamples, len(result.runs)))
        ok, median = majority(answered[picks], wrong[picks], times[picks])
        replicates += np.where(ok, median, 2.0 * time_limit)
    replicates /= len(results)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(replicates, [tail, 100 - tail])
    return float(low), float(high)
