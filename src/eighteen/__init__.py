"""eighteen: 18xx railroad games as data.

Titles are TOML folders compiled to rule tables (generated/<id>.json); one generic engine
runs any compiled title:

>>> from eighteen import load_title, Game
>>> game = Game.new(load_title("1830"), players=["Ann", "Bob", "Cy"])  # doctest: +SKIP
>>> game.legal_actions()[:2]                                          # doctest: +SKIP
"""

from eighteen.engine.actions import IllegalAction
from eighteen.engine.game import Game
from eighteen.engine.tables import Tables, load_title

__version__ = "0.1.0"
__all__ = ["Game", "IllegalAction", "Tables", "load_title", "__version__"]
