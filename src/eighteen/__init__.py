"""eighteen: 18xx railroad games as data.

Titles are TOML folders compiled to rule tables (generated/<id>.json); one generic engine
runs any compiled title:

>>> from eighteen import load_title, Game
>>> game = Game.new(load_title("1830"), players=["Ann", "Bob", "Cy"])  # doctest: +SKIP
>>> game.legal_actions()[:2]                                          # doctest: +SKIP
"""

from eighteen import native as _native

_native.install()  # the compiled engine modules, when built (eighteen.native)

from eighteen.engine.actions import IllegalAction  # noqa: E402
from eighteen.engine.game import Game  # noqa: E402
from eighteen.engine.tables import Tables, load_title  # noqa: E402

__version__ = "0.1.0"
__all__ = ["Game", "IllegalAction", "Tables", "load_title", "__version__"]
