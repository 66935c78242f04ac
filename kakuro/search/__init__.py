"""Native search algorithms on one compiled search state (see `kakuro.search.kernel`).

Every module here that defines a backend registers it with `@kakuro.solver.register`.
"""
