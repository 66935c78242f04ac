"""Models handed to external engines (CP-SAT, SAT, python-constraint) and the native GAC model.

Every module here that defines a backend registers it with `@kakuro.solver.register`.
"""
