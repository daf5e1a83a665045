"""The training run of the compiled engine's profile-guided build
(:data:`eighteen.native_build.TRAINING` runs :func:`train` in a process of its own, with the
modules compiled with counters loaded): bot games of every title, exported and imported
again, so that the profile covers the engine's whole path.
"""

from __future__ import annotations

from eighteen.engine.bots import make_bots, play
from eighteen.engine.game import Game
from eighteen.engine.tables import load_title
from eighteen.io.games18xx import import_game
from eighteen.io.games18xx_export import export_game
from eighteen.locations import known_titles
from eighteen.native import describe


def train() -> str:
    """The training run of the engine's profile-guided build (:data:`TRAINING`): two
    greedy four-player bot games of every title found, each written as an 18xx.games
    export and imported again: the engine's whole path (the rounds, the track, the routes,
    the importer).  Returns what it played, and how the engine ran (:func:`eighteen.native.describe`)."""
    games = 0
    for title_id in known_titles():
        tables = load_title(title_id)
        for seed in range(2):
            names = [f"Player{i + 1}" for i in range(4)]
            game = Game.new(tables, players=names, seed=seed)
            try:
                for _ in play(game, make_bots("greedy", names, seed)):
                    pass
            except RuntimeError:
                if not game.stuck:  # (a game no rule ends is played up to where it stuck)
                    raise
            games += 1
            import_game(export_game(game), tables)  # (it reads every action the engine has)
    return f"trained on {games} bot games, each imported again; {describe()}"
