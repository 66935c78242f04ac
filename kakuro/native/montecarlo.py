"""The Monte-Carlo games on the compiled state by name (`kakuro.engine.montecarlo`: one restart
driver for sampling, nested, flat and UCT; `kakuro.engine.playout`: the moves they play)."""

from __future__ import annotations

import dataclasses

from kakuro.engine import montecarlo as engine
from kakuro.engine.playout import configure
from kakuro.native.settings import CAZENAVE, Game, Playing
from kakuro.native.state import State


def play(st: State, game: Game, playing: Playing = CAZENAVE, games: int = 0) -> int:
    """Games of `game` from the current (root-propagated, armed) `st`, each move played as
    `playing` says, restarted until one solves the puzzle: SOLVED (the solution in the state:
    `solution_values`), STOPPED (the deadline, a stop), or LIMIT after `games` failed games
    (0: no such bound). Raises KeyboardInterrupt on Ctrl-C."""
    configure(st, playing.strategy, playing.selection)
    return engine.run(st, game.name, games, **dataclasses.asdict(game))  # the game's fields are its settings
