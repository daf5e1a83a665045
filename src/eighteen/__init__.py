"""eighteen: 18xx railroad games as data.

Titles are TOML folders compiled to rule tables (generated/<id>.json); one generic engine
runs any compiled title.
"""

__version__ = "0.1.0"
