"""Native search algorithms: the compiled engine (`kakuro.search.engine`) and the thin
backends over it.

Every module here that defines a backend registers it with `@kakuro.solver.register`.
"""
