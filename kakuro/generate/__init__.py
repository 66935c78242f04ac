"""Instance generators: `cazenave` (all-white grids with givens, Cazenave 2010) and `classic`
(black/white grids with clue cells, optionally with a unique solution), and `grade`, the
weakest reasoning that solves a puzzle without search."""

from kakuro.generate.cazenave_grids import cazenave, random_full_grid
from kakuro.generate.classic_grids import classic
from kakuro.generate.grade import GRADES, grade

__all__ = ["GRADES", "cazenave", "classic", "grade", "random_full_grid"]
