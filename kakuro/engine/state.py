"""The one compiled search state every native algorithm runs on, by its parts (each in its own
module; this one names what code outside the engine uses):

- `layout`: the arrays (`State` and its classes by mode, `LearningState`), the `info` slots,
  return codes and limits;
- `bits`: bit intrinsics (`popcount`, `lowest_bit_index`, `highest_bit_index`);
- `rng`: the state's own xorshift64* generator (`random_below`, `random_value`);
- `interrupt`: the kernels' clock, deadline and Ctrl-C (`arm`, `should_stop`,
  `raise_if_interrupted`, `with_shared_stop`);
- `trail`: changes with undo (`set_domain`, `set_value`, `undo`) and the run queue;
- `queries`: reading the state (`select_variable`, `capture`, `stats_of` ...);
- `build`: building a state in Python (`build_state`, `with_learning`, `load_domains`).

Code outside the engine imports the state from here; the engine's own modules import each name
from its home.
"""

from __future__ import annotations

from kakuro.engine.build import (
    BuildStopped,
    build_state,
    load_domains,
    nogood_store_size,
    range_refusal,
    with_learning,
)
from kakuro.engine.interrupt import (
    arm,
    bound,
    clock_ns,
    kernel_clock_offset,
    postpone,
    raise_if_interrupted,
    request_stop,
    resume,
    stopped_by,
    with_shared_stop,
)
from kakuro.engine.layout import (
    ASSIGNED,
    ASSIGNMENTS,
    BY_CLOCK,
    BY_FAILS,
    BY_NODES,
    DELETED,
    EXHAUSTED,
    FAILS,
    FULL,
    LIMIT,
    MAX_SUM_TOTAL,
    NFREE,
    NG_COUNT,
    NG_KEPT,
    NG_TOP,
    NODES,
    OUT_OF_MEMORY,
    PROPAGATIONS,
    RESTARTS,
    RNG,
    ROOT_SOLVED,
    SAMPLES,
    SOLVED,
    STOP,
    STOPPED,
    SUMS_FROM,
    TARGET,
    TRAIL,
    GacState,
    LearningState,
    State,
)
from kakuro.engine.queries import (
    all_fixed,
    select_variable,
    solution_values,
    stats_of,
)
from kakuro.engine.rng import (
    random_value,
    rng_state,
)
from kakuro.engine.trail import (
    set_value,
    undo,
)

__all__ = [
    "BuildStopped",
    "build_state",
    "load_domains",
    "nogood_store_size",
    "range_refusal",
    "with_learning",
    "arm",
    "bound",
    "clock_ns",
    "kernel_clock_offset",
    "postpone",
    "raise_if_interrupted",
    "request_stop",
    "resume",
    "stopped_by",
    "with_shared_stop",
    "ASSIGNED",
    "ASSIGNMENTS",
    "BY_CLOCK",
    "BY_FAILS",
    "BY_NODES",
    "DELETED",
    "EXHAUSTED",
    "FAILS",
    "FULL",
    "LIMIT",
    "MAX_SUM_TOTAL",
    "NFREE",
    "NG_COUNT",
    "NG_KEPT",
    "NG_TOP",
    "NODES",
    "OUT_OF_MEMORY",
    "PROPAGATIONS",
    "RESTARTS",
    "RNG",
    "ROOT_SOLVED",
    "SAMPLES",
    "SOLVED",
    "STOP",
    "STOPPED",
    "SUMS_FROM",
    "TARGET",
    "TRAIL",
    "GacState",
    "LearningState",
    "State",
    "all_fixed",
    "select_variable",
    "solution_values",
    "stats_of",
    "random_value",
    "rng_state",
    "set_value",
    "undo",
]
