"""Tree search on the compiled state, in two forms that `gac`, `fc`, `rdv` and the
backtracking family configure.

`depth_first` is the papers' search: an explicit stack (no recursion, so it is cached on disk)
of (cell, values left, trail mark), each node assigning a value with `assign` at the state's
strength (`gac` maintains arc consistency, `fc` forward checks, `check` / `projected` only
check the assigned cells). Its variable order is the smallest domain first (lowest cell on
ties) or a fixed list of cells (the backtracking family's row-major order); its value order
ascending, descending or uniformly random (from the state's generator).

`learning_search` (on gac and learning states only: it refutes x != v by propagating the
removal) is a search that does not collapse when propagation is not enough: binary
branching (x = v, then x != v), restarts (Luby or geometric, counted in conflicts), the
smallest domain over the weighted degree of its runs (dom/wdeg: a run's weight grows with
each wipe-out it causes; an implied sum's wipe-out is shared out among its cells' runs) with
random ties, phase saving (a cell gets the value it last had), the balance check after each
propagation (`kakuro.engine.balance`: an open region whose runs' sums disagree is a wipe-out;
its runs share the weight), and, on a LearningState, conflict learning: each wipe-out is
analysed to a 1-UIP nogood (`kakuro.engine.nogoods`), the search backjumps to the nogood's
second highest level and the nogood propagates from there; nogoods are reduced at restarts. A
LearningState's implied sums (`with_learning`) are propagated first, at the search's root.
Without learning it backtracks chronologically (x != v at the level above); the search's
settings and buffers are its `Plan` (`kakuro.engine.plan`). Solutions are counted exactly: a found
solution is excluded by the nogood of its decisions, which no reduction deletes (the store grows
for them: `nogoods.make_room`), and the search goes on (without learning, the search stops
restarting once it has found a solution, so it cannot find it twice).

Both searches count `nodes` (values tried: d-way nodes, or decisions of the binary search) and
`fails` (dead ends), and stop exactly at the budgets of `kakuro.engine.interrupt.bound`: before a
node past the node budget, at a dead end past the fail budget (`out_of_nodes`, `out_of_fails`).

Both searches write their solutions in rows that their Python drivers (`run_depth_first`,
`run_learning_search`) hand out a chunk at a time (`kakuro.engine.chunks`): a kernel whose rows
are full stops where it is (FILLED) and goes on when called again, so memory grows with the
solutions found, not with the limit asked for.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from kakuro.engine import nogoods
from kakuro.engine.balance import CAUSES, PARTS, balanced, colour_runs
from kakuro.engine.bits import highest_bit_index, lowest_bit_index
from kakuro.engine.build import warm_up_state, with_learning
from kakuro.engine.chunks import chunk_rows, drained
from kakuro.engine.compile import INTERNAL, compiled, entry_point, instance_of
from kakuro.engine.interrupt import clock_ns, out_of_fails, out_of_nodes
from kakuro.engine.layout import (
    ASSIGNED,
    DECISION,
    EXHAUSTED,
    FAILED,
    FAILS,
    FILLED,
    FULL,
    LEARNED,
    LIMIT,
    NFREE,
    NODES,
    NOGOOD_BASE,
    REASON,
    RESTARTS,
    STOP,
    STOPPED,
    SUMS_FROM,
    TRAIL,
    UNBALANCED,
    LearningState,
    State,
)
from kakuro.engine.plan import (
    ASCENDING,
    DECAY,
    DESCENDING,
    DOM_ACTIVITY,
    DOM_WDEG,
    P_BUDGET,
    P_CONFLICTS,
    P_FOUND,
    P_LEVEL,
    P_PAUSE,
    P_RESTART,
    S_KEEP,
    S_LEARNING,
    S_ORDER,
    S_PHASE,
    S_VALUES,
    VALUE_ORDERS,
    Plan,
    conflict_budget,
    plan_for,
)
from kakuro.engine.propagate import assign, propagate, propagate_implied, root_propagate
from kakuro.engine.queries import copy_values, is_fixed, select_variable
from kakuro.engine.rng import random_below, random_value
from kakuro.engine.trail import enqueue_cell_runs, set_domain, trail_cell, undo


@entry_point
def depth_first(st: State, cells: np.ndarray, value_order: int, solutions: np.ndarray,
                stack: np.ndarray, position: np.ndarray, limit: int) -> tuple[int, int]:
    """Depth-first search from the current state, to `limit` solutions in all.

    `cells` (int64) is the fixed variable order, one entry per free cell; empty for smallest
    domain first. `value_order` is a value of VALUE_ORDERS. Writes the solutions it finds in
    the rows of `solutions` from row 0; `stack` is int64 (3, cells + 1) scratch and `position`
    int64 (POSITION_SLOTS,), zero for a new search. Returns (code, rows written): EXHAUSTED (the
    search finished), LIMIT (`limit` found in all) or STOPPED, the state restored and
    `position` zero again; or FILLED: the rows are full first; the state, `stack` and
    `position` are kept, and a call with them (the rows read) goes on where it stopped.
    """
    rows = solutions.shape[0]
    count = 0
    found = position[D_FOUND]
    position[D_FOUND] = 0
    s_var, s_vals, s_mark = stack[0], stack[1], stack[2]
    dynamic = cells.shape[0] == 0
    if found > 0:  # called again after FILLED: on from the solution it stopped at
        d = position[D_DEPTH]
        root = position[D_ROOT]
    else:
        root = st.info[TRAIL]
        if st.info[NFREE] == 0:
            copy_values(st, solutions[0])
            return (LIMIT if limit <= 1 else EXHAUSTED), 1
        d = np.int64(0)  # not a literal 0: numba would also compile the callees for a constant
        s_var[d] = select_variable(st) if dynamic else cells[d]
        s_vals[d] = st.dom[s_var[d]]
        s_mark[d] = root
    while d >= 0:
        vals = s_vals[d]
        if vals == 0:
            d -= 1
            continue
        if value_order == ASCENDING:
            v = lowest_bit_index(vals)
        elif value_order == DESCENDING:
            v = highest_bit_index(vals)
        else:
            v = random_value(st, vals)
        s_vals[d] = vals & ~(np.int64(1) << v)
        undo(st, s_mark[d])
        if out_of_nodes(st):
            undo(st, root)
            return STOPPED, count
        st.info[NODES] += 1
        if not assign(st, s_var[d], v):
            if st.info[STOP] != 0 or out_of_fails(st):
                undo(st, root)
                return STOPPED, count
            st.info[FAILS] += 1
            continue
        if st.info[NFREE] == 0:
            copy_values(st, solutions[count])
            count += 1
            found += 1
            if found >= limit:
                undo(st, root)
                return LIMIT, count
            if count >= rows:
                position[D_FOUND] = found
                position[D_DEPTH] = d
                position[D_ROOT] = root
                return FILLED, count
            continue
        d += 1
        c = select_variable(st) if dynamic else cells[d]
        s_var[d] = c
        s_vals[d] = st.dom[c]
        s_mark[d] = st.info[TRAIL]
    undo(st, root)
    return EXHAUSTED, count


D_FOUND, D_DEPTH, D_ROOT = range(3)
POSITION_SLOTS = 3
"""`depth_first`'s `position`: the solutions found so far (0: a new search), the depth and the
trail length where it began, kept while it stops with FILLED."""
NO_CELLS = np.zeros(0, dtype=np.int64)


def run_depth_first(
    st: State, value_order: str = "ascending", limit: int = 1, cells: np.ndarray = NO_CELLS
) -> tuple[int, list[list[int]]]:
    """`depth_first` with its buffers: (code, up to `limit` solutions as value lists; code
    OUT_OF_MEMORY when memory ran out for them, see `drained`). `cells`: the fixed variable
    order (int64), or empty for smallest domain first."""
    n = st.val.shape[0]
    solutions = np.zeros((chunk_rows(n, limit), n), dtype=np.int64)
    stack = np.zeros((3, n + 1), dtype=np.int64)
    position = np.zeros(POSITION_SLOTS, dtype=np.int64)
    order = VALUE_ORDERS[value_order]
    return drained(lambda: depth_first(st, cells, order, solutions, stack, position, limit), st, solutions)


def free_cells(st: State) -> np.ndarray:
    """The free cells in cell order (int64): the backtracking family's fixed order."""
    return np.flatnonzero(st.val < 0).astype(np.int64)


def warm_up(search: str, strength: str) -> None:
    """Compile `depth_first` or `learning_search` ("learning") for states of `strength` (one
    signature serves every setting)."""
    st = warm_up_state("gac" if strength == "learn" else strength)
    root_propagate(st)
    if strength == "learn":  # as the backends run it: root propagation on the plain state
        st = with_learning(st)
    if search == "learning":
        run_learning_search(st, 2, learning=strength == "learn")
    else:
        run_depth_first(st, "ascending", 2)


# --------------------------------------------------------------------- the learning search
@compiled
def _choose_cell(st: State, plan: Plan) -> int:
    """The cell to branch on: the smallest domain, over its runs' weights under dom/wdeg,
    ties broken at random; -1 when every domain is a single value (a solution)."""
    best = -1
    best_score = np.inf
    ties = 0
    order = plan.settings[S_ORDER]
    for c in range(st.size.shape[0]):
        s = st.size[c]
        if s <= 1 or s == ASSIGNED:
            continue
        score = float(s)
        if order == DOM_WDEG:
            w = 0.0
            for k in range(st.cell_runs.shape[1]):
                r = st.cell_runs[c, k]
                if r >= 0:
                    w += plan.weights[r]
            score /= w
        elif order == DOM_ACTIVITY:
            score /= plan.activity[c]
        if score < best_score:
            best_score = score
            best = c
            ties = 1
        elif score == best_score:
            ties += 1
            if random_below(st, ties) == 0:
                best = c
    return best


@compiled
def _choose_value(st: State, plan: Plan, c: int) -> int:
    d = st.dom[c]
    v = plan.phase[c]
    if plan.settings[S_PHASE] and v >= 0 and (d >> v) & 1:
        return v
    order = plan.settings[S_VALUES]
    if order == ASCENDING:
        return lowest_bit_index(d)
    if order == DESCENDING:
        return highest_bit_index(d)
    return random_value(st, d)


@compiled
def _undo_saving_phases(st: State, phase: np.ndarray, mark: int) -> None:
    """`undo` to `mark`, first remembering the value of each cell the undo frees (phase
    saving): only the cells of the trail entries above `mark` can lose their value."""
    for t in range(st.info[TRAIL] - 1, mark - 1, -1):
        c = trail_cell(st, t)
        if is_fixed(st, c):
            phase[c] = lowest_bit_index(st.dom[c])
    undo(st, mark)


NO_SOLUTION_LEFT = -1
STORE_FULL = -2
"""`learn`'s answers besides a level: the puzzle has no further solution; the nogood store is
full of found solutions' nogoods (the count cannot go on exactly)."""


def learn(st: State, plan: Plan, level: int, solution: bool) -> int:
    """After a wipe-out (or, `solution`, to exclude the solution just found) at `level` >= 1:
    learn, backjump, store the nogood and assert it. Returns the new level, or
    NO_SOLUTION_LEFT or STORE_FULL. Learning states only."""
    raise NotImplementedError("learn runs inside compiled kernels")


@overload(learn, jit_options=INTERNAL)
def _learn(st, plan, level, solution):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        return lambda st, plan, level, solution: _learn_and_assert(st, plan, level, solution)
    return lambda st, plan, level, solution: NO_SOLUTION_LEFT


@compiled
def _bump(plan: Plan, cells: np.ndarray, k: int) -> None:
    """dom/activity: raise the activity of the first `k` of `cells` (a conflict's), then the bump."""
    act = plan.activity
    n = act.shape[0] - 1
    for i in range(k):
        act[cells[i]] += act[n]
    act[n] /= DECAY
    if act[n] > 1e100:  # rescale all, keeping the order (and every activity above 0)
        for c in range(n + 1):
            act[c] = act[c] * 1e-100 + 1e-300


@compiled
def _learn_and_assert(st: LearningState, plan: Plan, level: int, solution: bool) -> int:
    a = plan.analysis
    if solution:  # its decisions' nogood: already in UIP form (the last decision first)
        for i in range(level):
            d = level - i
            c = plan.decision_cell[d]
            a.out_cells[i] = c
            a.out_masks[i] = a.root_dom[c] & ~(np.int64(1) << plan.decision_value[d])
            a.out_levels[i] = d
        length, backjump, lbd = level, level - 1, nogoods.PERMANENT
    else:
        length, backjump, lbd = nogoods.analyze(st, a, level, plan.count, plan.balance.cause,
                                                plan.balance.counters[CAUSES])
        if plan.settings[S_ORDER] == DOM_ACTIVITY:  # the activity is read by that order only
            _bump(plan, a.touched, plan.count[1])
    _undo_saving_phases(st, plan.phase, a.level_start[backjump + 1])
    nogoods.clear_queue(st)
    st.info[LEARNED] += 1
    uip = a.out_cells[0]
    if length == 1 or backjump == 0:  # a fact at the root: no explanation will ever be asked
        st.info[REASON] = DECISION
        set_domain(st, uip, st.dom[uip] & a.out_masks[0])
        enqueue_cell_runs(st, uip)
        return 0
    o = nogoods.add(st, a.out_cells, a.out_masks, length, lbd)
    if o < 0:  # the store is full: reduce it at the root, then keep the nogood there
        _undo_saving_phases(st, plan.phase, a.level_start[1])
        if not nogoods.reduce(st, plan.settings[S_KEEP] // 2):
            return NO_SOLUTION_LEFT
        o = nogoods.add_at_root(st, a.out_cells, a.out_masks, length, lbd)
        if o == -1:  # still full: keep only the solutions' nogoods (at most half the store: `has_room`)
            if not nogoods.reduce(st, 0, nogoods.PERMANENT):
                return NO_SOLUTION_LEFT
            o = nogoods.add_at_root(st, a.out_cells, a.out_masks, length, lbd)
            if o == -1:
                return STORE_FULL
        return NO_SOLUTION_LEFT if o == nogoods.NO_LITERAL_LEFT else 0
    st.info[REASON] = NOGOOD_BASE - o
    set_domain(st, uip, st.dom[uip] & a.out_masks[0])
    enqueue_cell_runs(st, uip)
    return backjump


def back_at_root(st: State, plan: Plan, restarts: int) -> bool:
    """At the root after a restart: refresh the root domains and reduce the nogoods when they
    grew past the budget (learning states). False when that proves no solution is left."""
    raise NotImplementedError("back_at_root runs inside compiled kernels")


@overload(back_at_root, jit_options=INTERNAL)
def _back_at_root(st, plan, restarts):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        def learning(st, plan, restarts):  # type: ignore[no-untyped-def]
            keep = plan.settings[S_KEEP] + 100 * restarts
            if st.info[nogoods.NG_COUNT] > keep and not nogoods.reduce(st, keep // 2):
                return False
            if not propagate(st):
                return False
            copy_domains(st, plan.analysis.root_dom)
            return True

        return learning
    return lambda st, plan, restarts: True


@compiled
def copy_domains(st: State, out: np.ndarray) -> None:
    for c in range(st.dom.shape[0]):
        out[c] = st.dom[c]


@compiled
def _weigh(st: State, plan: Plan, failed: int) -> None:
    """dom/wdeg: one more wipe-out of row `failed` of `runs` (none below 0); an implied sum's
    is shared out among its cells' runs, the only rows the variable order reads."""
    if failed == UNBALANCED:  # every run of the region
        for i in range(plan.balance.counters[PARTS]):
            plan.weights[plan.balance.part_runs[i]] += 1.0
        return
    if failed < st.info[SUMS_FROM]:
        if failed >= 0:
            plan.weights[failed] += 1.0
        return
    first, last = st.members[failed], st.members[failed + 1]
    for idx in range(first, last):
        for k in range(st.cell_runs.shape[1]):
            r = st.cell_runs[st.members[idx], k]
            if r >= 0:
                plan.weights[r] += 1.0 / (last - first)


GO_ON = -1
PAUSED = -2
"""A step's answers besides the search's return codes: the search goes on; it pauses at the
root (`pause_at`)."""


@compiled
def _start(st: State, plan: Plan) -> int:
    """Note the root (the current trail length, decision level 0) and propagate its implied
    sums (a learning state's). GO_ON, or EXHAUSTED / STOPPED with the state undone to the root."""
    a = plan.analysis
    root = st.info[TRAIL]
    a.level_start[0] = root
    colour_runs(st, plan.balance)
    if not (propagate_implied(st) and balanced(st, plan.balance, root, True)):
        undo(st, root)
        return STOPPED if st.info[STOP] != 0 else EXHAUSTED
    copy_domains(st, a.root_dom)
    return GO_ON


@compiled
def _store_solution(st: State, solutions: np.ndarray, row: int) -> None:
    """Write the solution the domains hold (every one a single value) in row `row` of `solutions`."""
    for x in range(st.dom.shape[0]):
        solutions[row, x] = lowest_bit_index(st.dom[x])


@compiled
def _decide(st: State, plan: Plan, c: int, level: int) -> bool:
    """Open decision level `level` on cell `c`: its value by the plan's value order (or saved
    phase), recorded, assigned and propagated. False on a wipe-out or a stop."""
    v = _choose_value(st, plan, c)
    plan.analysis.level_start[level] = st.info[TRAIL]
    plan.decision_cell[level] = c
    plan.decision_value[level] = v
    st.info[NODES] += 1
    st.info[REASON] = DECISION
    return assign(st, c, v) and balanced(st, plan.balance, plan.analysis.level_start[level], False)


@compiled
def _step_back(st: State, plan: Plan, level: int) -> int:
    """Chronological backtracking: undo decision level `level` and remove its decision's value
    from its cell one level up. Returns that level."""
    d = plan.decision_cell[level]
    bit = np.int64(1) << plan.decision_value[level]
    _undo_saving_phases(st, plan.phase, plan.analysis.level_start[level])
    st.info[REASON] = DECISION
    set_domain(st, d, st.dom[d] & ~bit)
    enqueue_cell_runs(st, d)
    return level - 1


@compiled
def _repair(st: State, plan: Plan, level: int, solution: bool) -> tuple[int, int, int]:
    """After a wipe-out at `level` (or, `solution`, to exclude the solution just found): learn
    and backjump, or step back, until propagation holds. Returns (GO_ON or the search's code
    EXHAUSTED / FULL / STOPPED, the new level, the wipe-outs met); the caller undoes to the
    root on a code."""
    learning = plan.settings[S_LEARNING] != 0
    conflicts = 0
    while True:
        if level == 0:
            return EXHAUSTED, level, conflicts
        if not solution:
            if out_of_fails(st):
                return STOPPED, level, conflicts
            st.info[FAILS] += 1
            conflicts += 1
            _weigh(st, plan, st.info[FAILED])
        if learning:
            level = learn(st, plan, level, solution)
            if level < 0:
                return (EXHAUSTED if level == NO_SOLUTION_LEFT else FULL), level, conflicts
        else:
            level = _step_back(st, plan, level)
        solution = False  # learning or stepping back undid to level_start[level + 1], then changed `level`
        if propagate(st):
            if balanced(st, plan.balance, plan.analysis.level_start[level + 1], False):
                return GO_ON, level, conflicts
        elif st.info[STOP] != 0:
            return STOPPED, level, conflicts


@compiled
def _restart(st: State, plan: Plan, restart: int) -> int:
    """Restart number `restart`: back to the root (phases saved), counted, the root refreshed
    (`back_at_root`). GO_ON; PAUSED when a pause moment has passed (`pause_at`); or EXHAUSTED /
    STOPPED (the caller undoes to where the search began)."""
    _undo_saving_phases(st, plan.phase, plan.analysis.level_start[1])
    st.info[RESTARTS] += 1
    if not back_at_root(st, plan, restart):
        return STOPPED if st.info[STOP] != 0 else EXHAUSTED
    plan.position[P_RESTART] = restart
    if 0 < plan.position[P_PAUSE] <= clock_ns():  # paused at the root, nothing undone: resumed,
        return PAUSED                             # the search goes on as if it had not paused
    return GO_ON


def room_for_solution(st: State, level: int) -> bool:
    """Whether the nogood of a solution found at decision `level` keeps found solutions'
    nogoods within half the store (`nogoods.has_room`); True for a state that does not learn."""
    raise NotImplementedError("room_for_solution runs inside compiled kernels")


@overload(room_for_solution, jit_options=INTERNAL)
def _room_for_solution(st, level):  # type: ignore[no-untyped-def]
    if instance_of(st, LearningState):
        return lambda st, level: nogoods.has_room(st, level)
    return lambda st, level: True


@entry_point
def learning_search(st: State, plan: Plan, solutions: np.ndarray, limit: int) -> tuple[int, int]:
    """The learning search (module docstring) from the current, propagated state, to `limit`
    solutions in all. Writes the solutions it finds in the rows of `solutions` from row 0.
    Returns (code, rows written) like `depth_first`: EXHAUSTED (finished: the count is exact),
    LIMIT, STOPPED, or FULL (the nogood store holds nothing but found solutions' nogoods and
    has no room for another), the state restored to where it started; or FILLED at a
    solution, when the rows are full or (learning) its nogood needs a larger store
    (`nogoods.make_room`): the state and `plan.position` kept, a call with them goes on."""
    learning = plan.settings[S_LEARNING] != 0
    pos = plan.position
    found = pos[P_FOUND]
    pos[P_FOUND] = 0
    pending = found > 0  # called again after FILLED: the solution it stopped at is still to exclude
    if pending:
        root, level, conflicts, budget = plan.analysis.level_start[0], pos[P_LEVEL], pos[P_CONFLICTS], pos[P_BUDGET]
        restart = pos[P_RESTART]
    else:
        root = st.info[TRAIL]
        code = _start(st, plan)
        if code != GO_ON:
            return code, 0
        level = 0
        restart = max(pos[P_RESTART], 1)  # a search paused at a restart goes on from it
        pos[P_RESTART] = restart
        budget = conflict_budget(plan.settings, restart)
        conflicts = 0
    count = 0
    while True:
        if pending:
            pending = False
            solution = conflict = True
        else:
            c = _choose_cell(st, plan)
            solution = c < 0  # every domain a single value: a solution (GAC and the checks hold)
            if solution:
                _store_solution(st, solutions, count)
                count += 1
                found += 1
                if not learning:  # nothing would stop a restart from finding it again: no more restarts
                    budget = np.iinfo(np.int64).max
                if found >= limit or level == 0:
                    undo(st, root)
                    return (LIMIT if found >= limit else EXHAUSTED), count
                if count >= solutions.shape[0] or (learning and not room_for_solution(st, level)):
                    pos[P_FOUND], pos[P_LEVEL], pos[P_CONFLICTS], pos[P_BUDGET] = found, level, conflicts, budget
                    return FILLED, count
                conflict = True
            else:
                if out_of_nodes(st):
                    undo(st, root)
                    return STOPPED, count
                level += 1
                conflict = not _decide(st, plan, c, level)
                if conflict and st.info[STOP] != 0:
                    undo(st, root)
                    return STOPPED, count
        if conflict:
            code, level, met = _repair(st, plan, level, solution)
            conflicts += met
            if code != GO_ON:
                undo(st, root)
                return code, count
        if level == 0 and learning:
            copy_domains(st, plan.analysis.root_dom)
        if conflicts >= budget and level > 0:
            level = 0
            restart += 1
            conflicts = 0
            budget = conflict_budget(plan.settings, restart)
            code = _restart(st, plan, restart)
            if code == PAUSED:
                return STOPPED, count
            if code != GO_ON:
                undo(st, root)
                return code, count


def run_learning_search(st: State, limit: int = 1, plan: Plan | None = None, **settings: object) -> tuple[int, list[list[int]]]:
    """`learning_search` with `plan` (a search resumed after a stop keeps its weights and phases)
    or fresh buffers of `plan_for`'s settings, the nogood store grown as found solutions' nogoods
    need (`nogoods.make_room`): (code, up to `limit` solutions as value lists; code
    OUT_OF_MEMORY when memory ran out for them or the store, see `drained`)."""
    plan = plan or plan_for(st, **settings)  # type: ignore[arg-type]
    solutions = np.zeros((chunk_rows(st.val.shape[0], limit), st.val.shape[0]), dtype=np.int64)
    grow = (lambda: nogoods.make_room(st)) if isinstance(st, LearningState) else (lambda: None)  # type: ignore[arg-type]
    return drained(lambda: learning_search(st, plan, solutions, limit), st, solutions, grow)
