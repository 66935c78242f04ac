"""What kakuro ships: the package of its backends (`SHIPPED_PACKAGE`) and whether a class is one
of them (`is_shipped`). The template trusts a shipped backend with the caller's puzzle
(`kakuro.solver`); the registry discovers them and reserves their names (`kakuro.registry`)."""

from __future__ import annotations

SHIPPED_PACKAGE = "kakuro.solvers"
"""The package of the backends kakuro ships (one module each)."""


def is_shipped(cls: type) -> bool:
    """True for a class of the shipped backends' package (`SHIPPED_PACKAGE`): reviewed code that
    never changes the puzzle it is given (tests/test_contract.py checks every one), so it works on
    the caller's puzzle itself, which is free; any other backend (a plug-in, a subclass of a shipped
    one elsewhere) gets a copy, one new object per group."""
    return cls.__module__.startswith(SHIPPED_PACKAGE + ".")
