"""The compiled search state, as the code outside the engine uses it (`kakuro.engine.state`):
building it (`build_state`, `load_domains`, `with_learning`, `with_shared_stop`), arming it with a
deadline, a seed and budgets (`arm`, `bound`, `resume`, `request_stop`), reading it (`stats_of`,
`solution_values`, `all_fixed`, `stopped`), its `info` counters, and the searches' return codes.
"""

from __future__ import annotations

from kakuro.engine.state import (
    BY_CLOCK,
    BY_FAILS,
    BY_NODES,
    EXHAUSTED,
    FULL,
    MAX_SUM_TOTAL,
    NFREE,
    NODES,
    OUT_OF_MEMORY,
    PROPAGATIONS,
    RNG,
    ROOT_SOLVED,
    SAMPLES,
    SOLVED,
    STOP,
    STOPPED,
    SUMS_FROM,
    BuildStopped,
    LearningState,
    State,
    all_fixed,
    arm,
    bound,
    build_state,
    load_domains,
    raise_if_interrupted,
    range_refusal,
    request_stop,
    resume,
    rng_state,
    solution_values,
    stats_of,
    stopped_by,
    with_learning,
    with_shared_stop,
)

__all__ = [
    "BY_CLOCK", "BY_FAILS", "BY_NODES", "EXHAUSTED", "FULL", "MAX_SUM_TOTAL", "NFREE", "NODES", "OUT_OF_MEMORY",
    "PROPAGATIONS", "RNG", "ROOT_SOLVED", "SAMPLES", "SOLVED", "STOP", "STOPPED", "SUMS_FROM", "BuildStopped",
    "LearningState", "State", "all_fixed", "arm", "bound", "build_state", "load_domains", "raise_if_interrupted",
    "range_refusal", "request_stop", "resume", "rng_state", "solution_values", "stats_of", "stopped", "stopped_by",
    "with_learning", "with_shared_stop",
]


def stopped(st: State) -> bool:
    """True when the state's last kernel stopped at its deadline, a `request_stop` or Ctrl-C."""
    return bool(st.info[STOP] != 0)
