"""The one driver of the compiled engine (`kakuro.engine`): everything outside the engine
reaches it through this package, which sits directly above it (the layers in
docs/architecture.md; an import-linter contract lets no other module import the engine).

Code asks for a search by name with typed settings (`settings`: strengths, the tree search's
parts, the Monte-Carlo games and their playing), never by a kernel's name or a tuple slot:

- `settings`: the typed settings, and the compiled kernels each search needs;
- `kernels`: compiling them before the clock (`warm`, `is_cold`) and, in the middle of a
  solve, off every clock (`compile_off_clock`, the one helper that does it);
- `state`: the compiled search state (building, arming, reading);
- `searches`: root propagation, shaving, the depth-first search and the learning search, and
  their answers in the `Solver` contract's terms (`start`, `search`);
- `montecarlo`: the Monte-Carlo games (`play`); `harmony`: Self-Adaptive Harmony Search's
  kernels; `family`: the Sudoku family's own search; `refutations`: the values whose assumption
  wipes out (for the explanations); `unique`: the classic generator's local search;
- `startup`: a lighter numba start for the command line's process.

This module imports nothing, so `kakuro.native.startup` stays free of numba.
"""
