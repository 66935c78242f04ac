"""The compiled core every native backend runs on (numba, nopython mode, cached on disk).

One module per concept, each importing only the modules above it in this list (and
`kakuro.puzzle` / `kakuro.combos`, never `kakuro.solver`):

- `compile`: the kernel decorators, the disk cache keyed by these sources, compilation before
  the clock (`ensure`, `is_cold`);
- `state`: the state arrays and constants, building, the trail (`set_domain`, `set_value`,
  `undo`), the clock and deadline (`arm`, `should_stop`), the random numbers;
- `propagate`: `assign` at the state's strength (check, projected, fc, gac), run-level GAC and
  its matching, root propagation, shaving, retargeting a layout;
- `tree`: the one depth-first search (variable and value orders);
- `playout`: move choice, playing strategies, playouts;
- `montecarlo`: sampling, nested, flat and UCT on one restart driver;
- `harmony`: Self-Adaptive Harmony Search's kernels;
- `local`: the classic generator's local search on fillings.

The thin `Solver` adapters live beside this package (`kakuro.search.fc`, `.montecarlo`,
`.rdv`, `.backtrack`, `.harmony`, `kakuro.models.gac`), sharing `kakuro.search.native`.
"""
