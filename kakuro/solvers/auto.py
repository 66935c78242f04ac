"""The backend a user gets without choosing one (`auto`): a portfolio of the two cores,
chosen by what the root saw.

1. Presolve: root GAC (`kakuro.reasoning.root.gac_root`); most published puzzles end here.
2. A wide-open grid (`wide_open`: empty Cazenave grids) gets up to `playouts` random playouts
   (Cazenave's sampling on the GAC root), which solve such grids before anything else is paid.
3. The whole-grid counts (`kakuro.reasoning.root.count_root`: the totals, and each value's count
   over the across and the down runs, `values_refutation`, which refutes the unsatisfiable
   Cazenave grids whose sums add up, where SAT took 0.04-4 s and the native search minutes).
4. Shaving (`kakuro.reasoning.root.shave_root`, `bounded`: stopped where it is seen to remove
   nothing).
5. Native search that can pause and resume (`kakuro.native_solver.ResumableSearch`): `gac`'s learning
   search (restarts, dom/wdeg, phase saving, conflict learning, implied sums, the balance
   check) on the shaved domains runs alone until its first restart after `head_start` seconds
   (0.05 s; `rival_after`, 1 s, when the rival is native), which decides the easier half of the
   puzzles left without starting any process, and pauses.
6. Race it (`kakuro.isolation.race`) against a rival in a forked child (`choose_rival`): SAT on
   the reduced domains (`kakuro.reasoning.pysat_search.sat_items` over
   `kakuro.reasoning.cnf.encode` with `domains`, CaDiCaL 1.9.5 by default: `sat_solver`) where
   every run's values are known, else the native search with another seed
   (`ResumableSearch.variant`). The native search goes on in this process where it paused (the
   very decisions `gac` makes with the same seed); the child raises its stop flag (shared
   memory) once it has answered; when the native search answers first the child is killed.
   The race uses two cores; `search=native` or `search=sat` keeps to one.

A puzzle whose value range is too wide for the root's combination tables (`TablesTooLargeError`:
a long run over 1..62, say) goes to `cpsat` instead (`WIDE_RANGE_BACKEND`), whose model needs
no table.

Stats: `path` says what decided the puzzle ("root", "playout", "native", "sat",
"native-reseeded" or "cpsat"; "none" when the time ran out), `rival`, the root's counters
(`removed_gac`, `removed_shaving`, `probes`, `shaving_cut`), `search_time` (seconds after the
root) and the winner's counters. Complete: it proves unsatisfiability and counts solutions.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kakuro.clock import Deadline, Stopwatch
from kakuro.errors import BackendUnavailableError, KakuroError, TablesTooLargeError
from kakuro.family_search import FAMILY, FamilySolver, family_count
from kakuro.isolation import race
from kakuro.limits import Limits
from kakuro.native.kernels import compile_off_clock
from kakuro.native.montecarlo import play
from kakuro.native.settings import FAMILY_KERNELS, ROOT, SHAVE, SHAVE_KERNEL, Sampling, Strength, game_kernel, root_kernel
from kakuro.native.state import RNG, SAMPLES, SOLVED, STOPPED, State, range_refusal, solution_values
from kakuro.native_solver import DEFAULT_TREE, TIME_LIMIT_REACHED, ResumableSearch, TreeSearchSolver
from kakuro.options import Option
from kakuro.outcome import Enumeration, Status
from kakuro.puzzle import Puzzle
from kakuro.reasoning.pysat_search import (
    DEFAULT_ENCODING,
    DEFAULT_SOLVER,
    SOLVER_NAMES,
    enumerate_with_sat,
    enumeration_of,
    sat_items,
)
from kakuro.reasoning.root import SHAVING, count_root, gac_root, root_answer, run_values, shave_root
from kakuro.registry import get_solver, register

SEARCHES = ("race", "native", "sat")


@register("auto")
class Auto(TreeSearchSolver, FamilySolver):
    """Root GAC and shaving, then the native learning search raced against SAT on the shaved domains."""

    description = "root GAC + shaving, then native search with learning raced against SAT on the shaved domains (the default)"
    paradigm = "portfolio"
    options = {
        "shaving": Option("bounded", "the root's shaving (as gac's): bounded (stopped where it removes nothing), "
                                     "fixpoint, once or none", choices=SHAVING),
        "search": Option("race", "after the root: race (native and SAT side by side, the "
                                 "first answer wins), native or sat", choices=SEARCHES),
        "sat_solver": Option(DEFAULT_SOLVER, "the PySAT solver of the SAT stage", choices=SOLVER_NAMES),
        "playouts": Option(8, "random playouts tried first when the root leaves the grid wide open (see "
                              "wide_open) and one solution is asked for; 0: none", minimum=0, maximum=1_000_000),
        "rival": Option("chosen", "race: what runs beside the native search: chosen (by the root: see "
                                  "choose_rival), sat, or native (the native search with another seed)",
                        choices=("chosen", "sat", "native")),
        "rival_after": Option(1.0, "race: seconds the native search runs alone before a native rival starts "
                                   "(it is there for the heavy tail; started after 0.05 s on a busy 2-core machine it "
                                   "took auto's total on loose 60x60 grids to 1.5x gac's)", minimum=0.0),
        "head_start": Option(0.05, "race: seconds the native search runs alone first (no "
                                   "process is started for what it decides)", minimum=0.0),
        "family": FAMILY,
    }

    def engine_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        family = FAMILY_KERNELS if settings["family"] else ()
        if settings["search"] == "sat":
            return (root_kernel(Strength.GAC), SHAVE_KERNEL, PLAYOUT_KERNEL, *family)
        root, shave, search = DEFAULT_TREE.kernels(Strength.GAC, (ROOT, SHAVE))
        return (root, shave, PLAYOUT_KERNEL, search, *family)

    def lazy_kernels(self, settings: Mapping[str, Any]) -> tuple[str, ...]:
        return self.engine_kernels(settings)[1:]  # shaving, playouts, search: compiled when a puzzle needs them

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        deadline = limits.deadline
        family = family_count(puzzle, limit, deadline) if opts["family"] and not limits.budget.asked() else None
        if family is not None:
            return family
        wide = range_refusal(puzzle)
        if wide is not None:  # see WIDE_RANGE_BACKEND: the range decides, even where the givens' tables fit
            return _wide_range(puzzle, limit, deadline, seed, wide)
        # 1. presolve
        watch = Stopwatch()
        st, reduction = gac_root(puzzle, deadline, seed)  # the givens' tables are subsets: they fit too
        stats: dict[str, Any] = {"path": "none"}
        if st is None or reduction is None:  # (no state: no reduction either)
            return Enumeration([], False, stats, "time limit reached during root propagation")
        open_root = not (reduction.wiped_out or reduction.solved) and wide_open(puzzle, st.dom)
        if limit == 1 and opts["playouts"] and open_root:
            played = _playouts(st, opts["playouts"])  # before the counts: a solution needs none
            if played is not None:
                return played
        reduction = shave_root(st, puzzle, count_root(st, puzzle, reduction, counting=True), opts["shaving"])
        deadline = deadline.postponed(watch)  # by the compilation met on the way (shaving's, the playouts')
        if reduction is None:
            return Enumeration([], False, stats, "time limit reached during shaving")
        stats.update(removed_gac=reduction.removed_gac, removed_shaving=reduction.removed_shaving, probes=reduction.probes,
                     shaving_cut=reduction.cut)
        decided = root_answer(reduction, {**stats, "path": "root"})
        if decided is not None:
            return decided
        # 2. search what is left
        start = time.perf_counter()
        sat_job = (puzzle, limit, opts["sat_solver"], DEFAULT_ENCODING, reduction.domains)  # SAT on the reduced domains
        if opts["search"] == "sat":
            found = enumerate_with_sat(puzzle, limit, deadline, opts["sat_solver"], DEFAULT_ENCODING, reduction.domains)
            path = "sat"
        else:
            native = ResumableSearch(st, puzzle, DEFAULT_TREE, deadline, seed)
            if opts["search"] == "native":
                found, path = native.run(limit), "native"
            else:
                rival = opts["rival"] if opts["rival"] != "chosen" else choose_rival(puzzle, st)
                stats["rival"] = rival
                alone = opts["head_start"] if rival == "sat" else max(opts["head_start"], opts["rival_after"])
                found, path = _race(native, limit, sat_job, alone, rival, seed)
        stats["search_time"] = time.perf_counter() - start
        settled = _decided(found, limit)
        stats = {**stats, **found.stats, "path": path if settled else "none"}
        return Enumeration(found.solutions, found.exhausted, stats, "" if settled else found.message or TIME_LIMIT_REACHED)


def wide_open(puzzle: Puzzle, domains: Sequence[int] | np.ndarray) -> bool:
    """The root left the grid wide open: its open cells keep OPEN_SHARE of the value range on
    average (`domains`: bitmasks after root GAC)."""
    sizes = np.bitwise_count(np.asarray(domains, dtype=np.int64))
    open_cells = sizes[sizes > 1]
    lo, hi = puzzle.values
    return open_cells.size > 0 and float(open_cells.mean()) >= OPEN_SHARE * (hi - lo + 1)


OPEN_SHARE = 0.8
"""`wide_open`'s share of the value range. After root GAC the open cells keep 85-94 % of it on
average on empty Cazenave grids (12x12 over 1..13 to 30x30 over 1..31) and 67-75 % on the loose
classic grids of instances/hard; published puzzles end at the root."""


def _playouts(st: State, games: int) -> Enumeration | None:
    """Up to `games` of Cazenave's random playouts (smallest domain, random value, GAC after each
    move) from the root `st`: the solution one found (stats `path` "playout"), or None with
    `st` back at its root and its generator where it was (the search then makes the very
    decisions gac's does), or a time-limit answer when the deadline passed."""
    rng = int(st.info[RNG])
    compile_off_clock([PLAYOUT_KERNEL], st)
    code = play(st, Sampling(), games=games)
    stats: dict[str, Any] = {"samples": int(st.info[SAMPLES])}
    if code == SOLVED:
        return Enumeration([solution_values(st)], False, {**stats, "path": "playout"})
    if code == STOPPED:
        return Enumeration([], False, {**stats, "path": "none"}, "time limit reached during the playouts")
    st.info[RNG] = rng
    return None


PLAYOUT_KERNEL = game_kernel(Sampling, Strength.GAC)


def choose_rival(puzzle: Puzzle, st: State) -> str:
    """What races the native search, from what the root saw: "sat" where every run's values are
    known (each run's allowed combinations hold the same values: counting arguments over the
    whole grid decide, which clause learning finds and the native search does not), else
    "native" (the native search with another seed: on loose grids SAT was never the faster)."""
    sets = run_values(puzzle, st)
    if sets is not None and np.array_equal(sets[0], sets[1]):
        return "sat"
    return "native"


RIVAL_SEED = 1_000_003
"""Added to the solve's seed for the native rival's generator."""


def rival_native(variant: ResumableSearch, limit: int) -> tuple[list[list[int]], bool]:
    """In `_race`'s child: the native search with another seed (`ResumableSearch.variant`, made
    before the fork: its counters copied while the parent's search stood still) run on to the
    end: (its solutions, exhausted)."""
    found = variant.run(limit)
    return [[int(v) for v in values] for values in found.solutions], found.exhausted


def _race(native: ResumableSearch, limit: int, sat_job: tuple[Any, ...], head_start: float, rival: str,
          seed: int) -> tuple[Enumeration, str]:
    """The native search alone for `head_start` seconds (to its first restart after them: what it
    decides then starts no process), then on where it paused, raced against `rival` in a forked
    child (`isolation.race`), until one answers: SAT (`sat_items(*sat_job)`) or the native search
    with another seed (`rival_native`). (The answer, "native", "sat" or "native-reseeded".)"""
    found = native.run(limit, pause=time.perf_counter() + head_start)
    if _decided(found, limit) or native.deadline.expired():
        return found, "native"
    if rival == "native":
        variant = native.variant(seed + RIVAL_SEED)  # here, while the native search is paused
        found, theirs, failure = race(
            lambda: native.run(limit), lambda: rival_native(variant, limit), stop_here=native.stop,
            here_won=lambda found: _decided(found, limit),
            grace=lambda: 0.0 if native.deadline.expired() else ANSWER_GRACE,
        )
        if failure is not None:
            found.stats["rival_failed"] = f"{type(failure).__name__}: {failure}"
        if theirs is None or not _decided(Enumeration(theirs[0], theirs[1]), limit):
            return found, "native"
        return Enumeration(theirs[0], theirs[1], dict(found.stats)), "native-reseeded"
    found, items, failure = race(
        lambda: native.run(limit), lambda: list(sat_items(*sat_job)), stop_here=native.stop,
        here_won=lambda found: _decided(found, limit),
        grace=lambda: 0.0 if native.deadline.expired() else ANSWER_GRACE,  # stopped by the flag, unless the time is up
    )
    if failure is not None:  # SAT is out of the race (a died child, a table too large): the native answer stands
        found.stats["sat_failed"] = f"{type(failure).__name__}: {failure}"
    if items is None:
        return found, "native"
    return enumeration_of(items, True, limit), "sat"


ANSWER_GRACE = 0.5
"""Seconds the parent waits for the SAT child's answer once the native search has stopped:
the child raises the stop flag just before it sends."""


WIDE_RANGE_BACKEND = "cpsat"
"""The backend `auto` hands a puzzle whose value range is too wide for the GAC tables: CP-SAT's
AllDifferent + sum model needs no table, and it solved every such generated grid measured
(empty 8x8 over 1..62 in 0.01 s, 20x20 in 0.1 s, 44x44 with 10% holes in 6 s) where forward
checking (`fc:consistency=fc`) timed out at 20 s on each. The range decides (the tables of
each run's (length, total)), not whether the tables that hold the givens fit: those fit on
Cazenave grids over 1..62 with about 10 % holes, but `gac`'s root shaving over them is slow,
and of 11 such grids measured cpsat was the faster on 8 (25x25: 0.12 s against 9.8 s; 35x35
and 40x40: 0.4 s and 2.8 s against no answer in 30 s; 30x30: 0.6 s against 9.9 s), gac on 2
(20x20 with 10 % holes, 45x45 with 5 %: 0.2 s and 0.1 s against 1.3 s and 1.9 s), and
neither answered within 120 s on the 45x45 grid with 10 % holes of issue #27."""


def _wide_range(puzzle: Puzzle, limit: int, deadline: Deadline, seed: int, refusal: TablesTooLargeError) -> Enumeration:
    """Up to `limit` solutions of `puzzle` from `WIDE_RANGE_BACKEND` within `deadline` (its
    solutions checked by its own `count_solutions`), stats `path` "cpsat"; the GAC `refusal`
    stands, with the reason, when that backend is not installed or fails."""
    stats: dict[str, Any] = {"path": "none"}
    remaining = deadline.remaining()
    if remaining is not None and remaining <= 0:
        return Enumeration([], False, stats, TIME_LIMIT_REACHED)
    try:
        found = get_solver(WIDE_RANGE_BACKEND).count_solutions(puzzle, limit=limit, time_limit=remaining, seed=seed)
    except BackendUnavailableError as exc:
        raise KakuroError(f"{refusal}; {WIDE_RANGE_BACKEND} would solve it but is not available: {exc}") from None
    if found.status not in (Status.SOLVED, Status.UNSATISFIABLE, Status.UNKNOWN):
        raise KakuroError(f"{refusal}; {WIDE_RANGE_BACKEND} failed on it: {found.status.value}: {found.message}")
    decided = found.exhausted or found.count >= limit
    stats = {**found.stats, "path": WIDE_RANGE_BACKEND if decided else "none"}
    return Enumeration([s.values for s in found.solutions], found.exhausted, stats,
                       "" if decided else found.message or TIME_LIMIT_REACHED)


def _decided(found: Enumeration, limit: int) -> bool:
    """The search finished, or found all `limit` solutions asked for."""
    return found.exhausted or len(found.solutions) >= limit
