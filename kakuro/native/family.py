"""The Sudoku family's own compiled search (`kakuro.engine.family`, its state per shape
`kakuro.engine.family_state`, many puzzles of a shape with their answers checked
`kakuro.engine.many` and `kakuro.engine.verify`), for `kakuro.family_search`: a shape built
(`shape_of`) and kept by its key (`shape_key`), one puzzle searched (`search`) or a batch
searched and checked (`solve_checked`), and the columns of a batch's `outcomes` rows (`CODE`:
EXHAUSTED, STOPPED, CUT or LIMIT; `COUNT`, `NODES`, `FAILS`, `TIME` in ns). Its kernels are
`kakuro.native.settings.FAMILY_KERNELS`."""

from __future__ import annotations

from kakuro.engine.family import CODE, COUNT, CUT, FAILS, NODES, TIME
from kakuro.engine.family_state import family_refusal, house_count, shape_key, takes_cages
from kakuro.engine.many import Shape, search, shape_of, solve_checked
from kakuro.native.state import EXHAUSTED, STOPPED

__all__ = [
    "CODE", "COUNT", "CUT", "EXHAUSTED", "FAILS", "NODES", "STOPPED", "TIME", "Shape", "family_refusal", "house_count",
    "search", "shape_key", "shape_of", "solve_checked", "takes_cages",
]
