"""The compiled core every native backend runs on (numba, nopython mode, cached on disk).

One module per concept, each importing only the modules above it in this list (and
`kakuro.puzzle` / `kakuro.combos`, never `kakuro.solver`):

- `compile`: the kernel decorators, the disk cache keyed by these sources, compilation before
  the clock (`ensure`, `is_cold`);
- `layout`: the state's arrays (`State`), its `info` slots, return codes and limits;
- `bits`: bit intrinsics (`popcount`, `lowest_bit_index`, `highest_bit_index`);
- `rng`: the state's random numbers (`random_below`, `random_value`);
- `interrupt`: the kernels' clock, deadline and Ctrl-C (`arm`, `should_stop`);
- `trail`: changes with undo (`set_domain`, `set_value`, `undo`) and the run queue;
- `queries`: reading the state (`select_variable`, `capture`, `stats_of`);
- `build`: building a state in Python (`build_state`, `with_learning`);
- `state`: all of the above by one name, for the code outside the engine;
- `propagate`: `assign` at the state's strength (check, projected, fc, gac), run-level GAC and
  its matching, root propagation, shaving;
- `balance`: the balance check of a grid's open regions (their runs' residual sums agree);
- `plan`: the learning search's settings and buffers (its restarts, orders, the check's);
- `chunks`: how the searches hand out their solutions, a chunk of rows at a time (`drained`);
- `tree`: the tree searches: the papers' depth-first one and the learning search (restarts,
  dom/wdeg, phase saving, nogoods, the balance check), pausable;
- `playout`: move choice, playing strategies, playouts;
- `montecarlo`: sampling, nested, flat and UCT on one restart driver;
- `harmony`: Self-Adaptive Harmony Search's kernels;
- `reasons`: the values whose assumption propagates to a wipe-out, for the explanations;
- `local_search`: the classic generator's local search on fillings (a layout's state retargeted
  to each filling's clues);
- `startup`: a lighter numba start for the command line's process (no SciPy BLAS probe).

Nothing else of `kakuro` imports it but its one driver, `kakuro.native` (an import-linter
contract): the backends, root reasoning, the explanations and the generator ask the driver for
its searches by name, and the driver pays its compilation off the clocks.
"""
