"""The shipped backends, one module per backend (CPMpy's `solvers` layout): each a thin adapter that
registers its `Solver` subclass with `@kakuro.registry.register` and takes its reasoning from
below (`kakuro.native_solver` and `kakuro.native`, the one driver of the compiled engine: no backend
imports `kakuro.engine`; `kakuro.reasoning`; the engines' own packages). Backends never import each
other (contracts in `pyproject.toml` say both)."""
