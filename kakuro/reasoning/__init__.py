"""Reasoning shared by several backends, the generator and the deduction, below all of them:
the Reducing Domain Values rules (`rdv`), root GAC and shaving (`root`), the CNF encoding and
running a SAT solver on it (`cnf`), and the grid's implied sums (`implied`)."""
