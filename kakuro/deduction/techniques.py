"""The named techniques of a human deduction, simplest first, and the difficulty levels they
define (the scale of `kakuro.deduction.rating`).

Every technique is sound: it removes a candidate only when no solution of the puzzle has it, so
it never removes a value of any solution. The levels, and what a solver needs at each:

1. basic: a sum with one combination, a placed digit leaving its runs, the last cell of a run;
2. combinations: a cell's across and down digits intersected, digits no fitting combination of a
   run holds (in none), a digit every fitting combination holds with one place left (in all);
3. subsets: naked and hidden pairs, triples and quads inside a run;
4. placement: the combinations of a run tried against its cells one by one (exact reasoning on
   one run: generalized arc consistency);
5. region arithmetic: the sum of the cells that stick out of (or into) a closed block of rows or
   columns, from the clues of several runs;
6. contradiction: try a value, propagate (exact reasoning on every run), reach a wipe-out;
7. search: nothing above applies; a search decides: the puzzle has several solutions from here
   (a value is chosen), or it needs more than one assumption at a time, or it has no solution.

Levels 1-4 together reach exactly what generalized arc consistency on every run reaches, so a
puzzle that `kakuro.generate.grade` calls `rdv` or `gac` never needs level 5 or above, and one
that needs shaving (`gac+shaving`) always does.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Technique:
    """One named technique: `name` (used in traces), its difficulty `level` and what it does."""

    name: str
    level: int
    description: str


TECHNIQUES: tuple[Technique, ...] = (
    Technique("unique-combination", 1, "a run whose sum has one combination of digits for its length holds only those digits"),
    Technique("naked-single", 1, "a cell with one candidate left holds it, so no other cell of its runs can"),
    Technique("last-cell", 1, "the last open cell of a run holds the clue minus the digits placed in the run"),
    Technique("intersection", 2, "a cell holds only digits that some combination of its across run and some "
              "combination of its down run use (each with the digits placed in it)"),
    Technique("combination-digits", 2, "digits that no combination of a run fitting its cells' candidates holds "
              "leave the run (in none)"),
    Technique("required-digit", 2, "a digit that every fitting combination of a run holds, with one cell of the "
              "run left that can take it, goes there (in all: a hidden single)"),
    Technique("naked-subset", 3, "k cells of a run whose candidates are k digits between them keep those digits "
              "from the run's other cells (pair, triple, quad)"),
    Technique("hidden-subset", 3, "k digits that every fitting combination of a run holds, with only k cells able "
              "to take them, fill those cells (pair, triple, quad)"),
    Technique("combination-placement", 4, "each combination of a run is tried against its cells: a value stays "
              "only if some combination can be spread over the cells with that value in that cell"),
    Technique("region-arithmetic", 5, "a closed block of rows (or columns) is summed twice, from its across and "
              "its down clues: the difference is the sum of the few cells sticking out or in (outies, innies)"),
    Technique("contradiction", 6, "a value is tried and every run reasoned about exactly until some cell or run "
              "has no value left: the value is impossible"),
    Technique("search", 7, "no technique above applies: a search decides a cell (the puzzle has several solutions "
              "from here and one value is chosen, or only one value leads to a solution, or none does)"),
)
"""The techniques in the order the deduction tries them."""

BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}
"""Each technique by its name."""

LEVEL_NAMES: dict[int, str] = {
    1: "basic",
    2: "combinations",
    3: "subsets",
    4: "placement",
    5: "region arithmetic",
    6: "contradiction",
    7: "search",
}
"""What each difficulty level is called (the rating's words)."""


def level_of(name: str) -> int:
    """The level of the technique called `name` (KeyError for an unknown name)."""
    return BY_NAME[name].level
