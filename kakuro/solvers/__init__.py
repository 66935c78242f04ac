"""The shipped backends, one module per backend (CPMpy's `solvers` layout): each a thin adapter that
registers its `Solver` subclass with `@kakuro.registry.register` and takes its reasoning from
below (`kakuro.native` and the compiled `kakuro.engine`, `kakuro.reasoning`, the engines'
own packages). Backends never import each other (a contract in `pyproject.toml`)."""
