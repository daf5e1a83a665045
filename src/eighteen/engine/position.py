"""The board's position: the laid tiles and the station tokens (:class:`MapState`), with
the fingerprints the board's caches are keyed by (:meth:`MapState.track_key`,
:meth:`MapState.token_key`).  Generic: no title is named."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class Tiles(dict[str, tuple[str, int]]):
    """:attr:`MapState.tiles`: a dict that counts the changes made to it
    (:attr:`changes`), so that the track's fingerprint (:meth:`MapState.track_key`) is
    known to hold while the count stands, without comparing the tiles again.  Every
    method of a dict that changes it counts; reading is a dict's.

    :attr:`last` says what the last change was when it set one hex (a lay): (the count it
    made, the hex, the tile there before or None); None after any other change.
    From it the fingerprint of the new tiles is the old one with that hex's entry changed
    (:meth:`MapState.track_step`), not made again from every tile."""

    __slots__ = ("changes", "last")

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.changes = 0
        self.last: tuple[int, str, tuple[str, int] | None] | None = None

    def __reduce__(
        self,
    ) -> tuple[type[Tiles], tuple[dict[str, tuple[str, int]]], tuple[None, dict[str, int]]]:
        # pickled and copied as its items, made again by __init__ (a dict's own way sets
        # the items before the count exists), then its count: a state's kept track key,
        # copied with it, holds for the count it was made at
        return (Tiles, (dict(self),), (None, {"changes": self.changes}))

    def __setitem__(self, key: str, value: tuple[str, int]) -> None:
        self.changes += 1
        self.last = (self.changes, key, dict.get(self, key))
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self.changes += 1
        self.last = None
        dict.__delitem__(self, key)

    def __ior__(self, other: Any) -> Tiles:  # type: ignore[override,misc]
        self.changes += 1
        self.last = None
        dict.update(self, other)
        return self

    def pop(self, *args: Any) -> Any:
        self.changes += 1
        self.last = None
        return dict.pop(self, *args)

    def popitem(self) -> tuple[str, tuple[str, int]]:
        self.changes += 1
        self.last = None
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.changes += 1
        self.last = None
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kw: Any) -> None:
        self.changes += 1
        self.last = None
        dict.update(self, *args, **kw)

    def clear(self) -> None:
        self.changes += 1
        self.last = None
        dict.clear(self)


#: A track fingerprint: the set of (hex, (tile, rotation)) of the laid tiles.
TrackKey = frozenset[tuple[str, tuple[str, int]]]
#: How a fingerprint follows from the one before it when one hex changed (a lay): (the
#: fingerprint before, the hex, its tile before or None, its tile now).
TrackStep = tuple[TrackKey, str, tuple[str, int] | None, tuple[str, int]]
#: A map state's kept track fingerprint: (what it was made of: the state's :class:`Tiles`,
#: or a copy of a plain dict put in their place; the count of changes of those tiles
#: then; the fingerprint; the step it followed from, or None).
_KeptTrack = tuple[dict[str, tuple[str, int]], int, TrackKey, TrackStep | None]
#: Its kept token fingerprints: (a copy of the tokens, their fingerprint, their snapshot,
#: the station cities of each corporation found so far).
KeptTokens = tuple[
    dict[str, list[list[str]]],
    frozenset[tuple[str, tuple[tuple[str, ...], ...]]],
    dict[str, tuple[tuple[str, ...], ...]],
    dict[str, list[tuple[str, str, int]]],
]


@dataclass
class MapState:
    """Mutable board: laid tiles and station tokens. Copy with .copy(); to_json/from_json for saves.

    ``tiles`` maps hex -> (tile id, rotation) for hexes with a laid tile (a hex that is not
    listed shows its printed face). ``tokens`` maps hex -> per city index -> corporation ids
    in its slots, in the order they were placed (list index = slot).
    """

    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: dict[str, list[list[str]]] = field(default_factory=dict)
    # the fingerprints kept, with the copies they were made of (:meth:`track_key`,
    # :meth:`_kept_tokens`): not part of the position
    _track_key: _KeptTrack | None = field(default=None, init=False, repr=False, compare=False)
    _token_key: KeptTokens | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.tiles) is not Tiles:
            self.tiles = Tiles(self.tiles)  # (a dict given, as tests and loads do)

    def copy(self) -> MapState:
        """An independent copy."""
        return MapState(
            tiles=Tiles(self.tiles),
            tokens={h: [list(c) for c in cities] for h, cities in self.tokens.items()},
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (keys sorted for stable saves)."""
        return {
            "tiles": {h: [t, r] for h, (t, r) in sorted(self.tiles.items())},
            "tokens": {h: [list(c) for c in cs] for h, cs in sorted(self.tokens.items())},
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MapState:
        """Inverse of :meth:`to_json`."""
        return cls(
            tiles={h: (str(v[0]), int(v[1])) for h, v in d.get("tiles", {}).items()},
            tokens={h: [list(c) for c in cs] for h, cs in d.get("tokens", {}).items()},
        )

    def track_key(self) -> TrackKey:
        """Fingerprint of the laid tiles: equal keys mean equal track (cache key).

        Kept with the tiles it was made of and their count of changes (:class:`Tiles`):
        it holds while those tiles are still the state's and the count stands.  After one
        change that set one hex (a lay, :attr:`Tiles.last`), the new key is the kept one
        with that hex's entry changed (a copy of a set whose entries keep their hashes,
        not every tile's entry made and hashed again), and the step is kept with it
        (:meth:`track_step`).  A plain dict put in place of the tiles by hand counts
        nothing: the key is kept with a copy of it, and holds while the two are equal (a
        kept key's hash is kept too)."""
        kept = self._track_key
        tiles = self.tiles
        if isinstance(tiles, Tiles):
            n = tiles.changes
            if kept is not None and kept[0] is tiles:
                if kept[1] == n:
                    return kept[2]
                last = tiles.last
                if last is not None and last[0] == n and kept[1] == n - 1:
                    h, before = last[1], last[2]
                    now = dict.__getitem__(tiles, h)
                    step = (kept[2], h, before, now)
                    key = _stepped_key(kept[2], h, before, now)
                    self._track_key = (tiles, n, key, step)
                    return key
            key = frozenset(tiles.items())
            self._track_key = (tiles, n, key, None)
            return key
        if kept is not None and type(kept[0]) is dict and kept[0] == tiles:
            return kept[2]
        key = frozenset(tiles.items())
        self._track_key = (dict(tiles), 0, key, None)
        return key

    def track_step(self) -> TrackStep | None:
        """How :meth:`track_key` followed from the key before it, when the tiles changed
        by one lay since that key was made: (that key, the hex, its tile before or None,
        its tile now); None otherwise.  A cache keyed by the fingerprint may make its
        value for the new key from the one kept for the old (the tile supply does)."""
        key = self.track_key()
        kept = self._track_key
        return kept[3] if kept is not None and kept[2] is key else None

    def token_key(self) -> frozenset[tuple[str, tuple[tuple[str, ...], ...]]]:
        """Fingerprint of the station tokens: equal keys mean equal tokens (cache key);
        kept with a copy of the tokens, and made again only when they differ from it (the
        tokens' city lists change in place, so no count says they held)."""
        return self._kept_tokens()[1]

    def token_snapshot(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """The station tokens as tuples, hex by hex (the hexes holding a token only); kept
        as :meth:`token_key` is (the same object while the tokens hold still: shared, do
        not mutate it)."""
        return self._kept_tokens()[2]

    def station_cities(
        self, corp: str, kept: KeptTokens | None = None
    ) -> list[tuple[str, str, int]]:
        """The cities holding a token of ``corp``, as (hex, "city", index), sorted; kept
        with the tokens (shared, do not mutate it). ``kept``: :meth:`_kept_tokens` asked
        a moment before, the tokens unchanged since (so they are not compared again)."""
        by_corp = (kept if kept is not None else self._kept_tokens())[3]
        got = by_corp.get(corp)
        if got is None:
            got = by_corp[corp] = [(h, "city", i) for h, i in self.token_cities(corp)]
        return got

    def _kept_tokens(self) -> KeptTokens:
        """(a copy of the tokens, :meth:`token_key`, :meth:`token_snapshot`, the
        :meth:`station_cities` found so far), made again only when the tokens differ from
        the copy."""
        kept = self._token_key
        if kept is not None and kept[0] == self.tokens:
            return kept
        tuples = {h: tuple(map(tuple, cs)) for h, cs in self.tokens.items()}
        kept = (
            {h: [list(c) for c in cs] for h, cs in self.tokens.items()},
            frozenset(tuples.items()),
            {h: cs for h, cs in tuples.items() if any(cs)},
            {},
        )
        self._token_key = kept
        return kept

    def city_tokens(self, hex_id: str, city: int) -> list[str]:
        """Corporations in the slots of one city (empty list when none)."""
        cities = self.tokens.get(hex_id, [])
        return list(cities[city]) if city < len(cities) else []

    def token_cities(self, corp: str) -> list[tuple[str, int]]:
        """Every (hex, city index) holding a token of ``corp``, sorted."""
        return sorted(  # (a list, not a generator expression: compiled, this method is typed)
            [(h, i) for h, cities in self.tokens.items() for i, c in enumerate(cities) if corp in c]
        )


def _stepped_key(
    key: TrackKey, h: str, before: tuple[str, int] | None, now: tuple[str, int]
) -> TrackKey:
    """``key`` with the entry of hex ``h`` changed from ``before`` (None: it had none) to
    ``now`` (:meth:`MapState.track_key`)."""
    if before == now:
        return key
    if before is None:
        return key.union([(h, now)])
    entries = set(key)
    entries.discard((h, before))
    entries.add((h, now))
    return frozenset(entries)
