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

A Sudoku, Killer, Jigsaw or X is explained on the same scale, with the techniques that carry over
(its rows, columns, boxes or Jigsaw regions, diagonals and cages are the groups;
`Technique.kinds` says which puzzles a technique is tried on) and two of its own:
`hidden-single` (level 1) and `locked-candidates` (level 2: pointing and box/line reduction).
Level 1 is the singles (naked and hidden, the last cell of a
group, a cage with one combination); level 2 the intersections (locked candidates; in a Killer
the cage combinations too); level 3 the subsets; level 4 exact reasoning on one group (for a
row, column or box: every subset at once); level 5 the rule of 45 (a Killer's innies and
outies, over rows, columns, boxes and any other group that holds every value once); 6 and 7 as
for Kakuro. Here levels 1-4 reach at least arc consistency on every group
(and locked candidates reach beyond it). `level_names(kind)` gives each kind's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from kakuro.puzzle import KINDS

KAKURO, SUDOKU, KILLER = "kakuro", "sudoku", "killer"
"""Kinds of puzzle (`Puzzle.kind`; every kind is `kakuro.puzzle.KINDS`)."""
ALL_KINDS: tuple[str, ...] = KINDS
KILLERS = tuple(kind for kind in KINDS if kind.startswith(KILLER))
"""Killer and Killer X: the family's kinds with cages."""
WITH_SUMS = (KAKURO, *KILLERS)
"""Kinds with groups whose sum is a rule (Kakuro runs, Killer cages): the combination techniques."""
SUDOKU_FAMILY = tuple(kind for kind in KINDS if kind != KAKURO)
"""Sudoku, Killer and Jigsaw, each also with Sudoku X's diagonals."""


@dataclass(frozen=True)
class Technique:
    """One named technique: `name` (used in traces), its difficulty `level`, what it does, and
    the `kinds` of puzzle it is tried on."""

    name: str
    level: int
    description: str
    kinds: tuple[str, ...] = ALL_KINDS


TECHNIQUES: tuple[Technique, ...] = (
    Technique("unique-combination", 1, "a run whose sum has one combination of digits for its length holds only those digits",
              WITH_SUMS),
    Technique("naked-single", 1, "a cell with one candidate left holds it, so no other cell of its groups can"),
    Technique("hidden-single", 1, "a digit that has one place left in a row, column, box (a Jigsaw's region, "
              "a diagonal of an X) goes there",
              SUDOKU_FAMILY),
    Technique("last-cell", 1, "the last open cell of a run holds the clue minus the digits placed in the run"),
    Technique("locked-candidates", 2, "a digit that a group must hold and can only put in cells that all lie in "
              "another group leaves that group's other cells (pointing: from a box to a row or column; box/line "
              "reduction: from a row or column to a box or Jigsaw region; also between a diagonal of an X and the "
              "others, and in a Killer from or to a cage)", SUDOKU_FAMILY),
    Technique("intersection", 2, "a cell holds only digits that some combination of its across run and some "
              "combination of its down run use (each with the digits placed in it)", WITH_SUMS),
    Technique("combination-digits", 2, "digits that no combination of a run fitting its cells' candidates holds "
              "leave the run (in none)", WITH_SUMS),
    Technique("required-digit", 2, "a digit that every fitting combination of a run holds, with one cell of the "
              "run left that can take it, goes there (in all: a hidden single)", WITH_SUMS),
    Technique("naked-subset", 3, "k cells of a run whose candidates are k digits between them keep those digits "
              "from the run's other cells (pair, triple, quad)"),
    Technique("hidden-subset", 3, "k digits that every fitting combination of a run holds, with only k cells able "
              "to take them, fill those cells (pair, triple, quad)"),
    Technique("combination-placement", 4, "each combination of a run is tried against its cells: a value stays "
              "only if some combination can be spread over the cells with that value in that cell"),
    Technique("region-arithmetic", 5, "a closed block of rows (or columns) is summed twice, from its across and "
              "its down clues: the difference is the sum of the few cells sticking out or in (outies, innies); in "
              "a Killer, rows, columns or a box hold 45 each (the rule of 45), the cages inside or across them "
              "the rest", WITH_SUMS),
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
"""What each difficulty level is called (the rating's words) for a Kakuro."""

SUDOKU_LEVEL_NAMES: dict[int, str] = LEVEL_NAMES | {1: "singles", 2: "intersections", 4: "placement in a group",
                                                    5: "rule of 45"}
"""A Sudoku's level names."""
KILLER_LEVEL_NAMES: dict[int, str] = SUDOKU_LEVEL_NAMES | {2: "intersections and cage combinations"}
"""A Killer's level names."""


def level_names(kind: str) -> dict[int, str]:
    """What each level is called for a puzzle of `kind` (`Puzzle.kind`)."""
    if kind in KILLERS:
        return KILLER_LEVEL_NAMES
    return SUDOKU_LEVEL_NAMES if kind in SUDOKU_FAMILY else LEVEL_NAMES


def level_of(name: str) -> int:
    """The level of the technique called `name` (KeyError for an unknown name)."""
    return BY_NAME[name].level
