"""The compiled rule tables of one title (``generated/<id>.json``), read-only.

The engine never reads TOML: a title reaches it as the JSON document described in
docs/compiled-format.md, validated once as the typed models of :mod:`eighteen.compiled`
(``tables.doc``).  :class:`Tables` adds look-ups by id; the engine reads the typed models
(the track layer too: ``map.Board.of(tables.doc)``), as do the renderer and the 18xx.games
import and export.  The raw dictionary stays available as ``tables.data``, for the simulator
to ship to its workers.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from eighteen.compiled import (
    CompiledCorporation,
    CompiledTitle,
    CompiledTrain,
    CompiledVariant,
    MarketCellRecord,
    Reach,
)
from eighteen.engine import capabilities
from eighteen.locations import generated_dirs, known_titles, title_hint
from eighteen.title.model import Ferries, Phase, Private, Rules, TradeIn
from eighteen.title.model.corporations import JointToken, Reservation


class TitleNotFound(FileNotFoundError):
    """No compiled tables for the requested title."""


class TablesUnreadable(TitleNotFound):
    """Compiled tables found but not usable: not JSON, or not the compiled format (a
    damaged file, or one written by another version); the message names the file."""


class CompiledFormatError(ValueError):
    """Compiled tables that do not match the compiled format (docs/compiled-format.md)."""


def _problems(exc: ValidationError, prefix: str = "") -> str:
    return "; ".join(
        f"{prefix}{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
    )


def typed_document(data: dict[str, Any]) -> CompiledTitle:
    """The compiled document as the typed, frozen model; every mismatch named by its path."""
    try:
        return CompiledTitle.model_validate(data)
    except ValidationError as exc:
        raise CompiledFormatError(_problems(exc)) from None


def _typed_rules(data: dict[str, Any]) -> Rules:
    """The rules record as the typed, frozen model; every mismatch named by its path."""
    try:
        return Rules.model_validate(data)
    except ValidationError as exc:
        raise CompiledFormatError(_problems(exc, "rules.")) from None


@dataclass(frozen=True)
class MarketCell:
    """One stock-market cell with its zone flags and precomputed moves."""

    row: int
    col: int
    price: int
    par: bool
    cert_limit_exempt: bool
    holding_limit_exempt: bool
    multiple_buy: bool
    closes: bool
    ends_game: bool
    up: tuple[int, int]
    down: tuple[int, int]
    pay: tuple[int, int]
    withhold: tuple[int, int]

    @classmethod
    def of(cls, row: int, col: int, cell: MarketCellRecord) -> MarketCell:
        """The cell at (row, col) from its compiled record (moves as tuples, for speed)."""
        return cls(
            row=row,
            col=col,
            price=cell.price,
            par=cell.par,
            cert_limit_exempt=cell.cert_limit_exempt,
            holding_limit_exempt=cell.holding_limit_exempt,
            multiple_buy=cell.multiple_buy,
            closes=cell.closes,
            ends_game=cell.ends_game,
            up=(cell.up[0], cell.up[1]),
            down=(cell.down[0], cell.down[1]),
            pay=(cell.pay[0], cell.pay[1]),
            withhold=(cell.withhold[0], cell.withhold[1]),
        )


@dataclass(frozen=True)
class TrainType:
    """One side of a train card: its own id, distance and price, the card's life cycle.
    ``card`` names the card's first side, which phases, rusting and phasing out refer to."""

    id: str
    card: str
    distance: Reach
    price: int
    count: int | None
    rusts_on: str | None
    obsolete_on: str | None
    available_on: str | None
    trade_in: TradeIn | None
    events: tuple[str, ...]
    sides: tuple[str, ...]

    @classmethod
    def of(
        cls, card: CompiledTrain, side: CompiledTrain | CompiledVariant, sides: tuple[str, ...]
    ) -> TrainType:
        return cls(
            id=side.id,
            card=card.id,
            distance=side.distance,
            price=side.price,
            count=card.count,
            rusts_on=card.rusts_on,
            obsolete_on=card.obsolete_on,
            available_on=card.available_on,
            trade_in=card.trade_in,
            events=tuple(e.value for e in card.events),
            sides=sides,
        )


A = TypeVar("A", bound=BaseModel)


class Tables:
    """A compiled title: every table the engine needs, looked up by id.

    Options chosen for a game may override rules and train counts (each option record
    carries its ``rules`` and ``train_counts``).
    """

    def __init__(self, data: dict[str, Any], path: Path | None = None) -> None:
        self.data = data
        #: the document as typed models, validated once here
        self.doc: CompiledTitle = typed_document(data)
        doc = self.doc
        self.path = path
        self.id: str = doc.id
        self.name: str = doc.name
        self.version: str = doc.version
        self.hash: str = doc.hash
        self.bank: int = doc.bank
        self.players_min: int = doc.players.min
        self.players_max: int = doc.players.max
        self.option_ids: list[str] = [o.id for o in doc.options]
        self._rules: dict[str, Any] = dict(data["rules"])  # every field, defaults filled
        self._rules_by_options: dict[tuple[str, ...], Rules] = {(): doc.rules}
        self.privates: list[Private] = list(doc.privates)
        self.corporations: list[CompiledCorporation] = list(doc.corporations)
        self.trains: list[CompiledTrain] = list(doc.trains)
        self.phases: list[Phase] = list(doc.phases)
        #: each phase's tile colours as their names (:func:`~eighteen.engine.phases.tile_colors`)
        self.phase_colors: list[frozenset[str]] = [
            frozenset([c.value for c in ph.tiles]) for ph in self.phases
        ]
        #: each phase's id, train limit, off-board revenue and whether privates may be sold
        #: to corporations (read every action: list items, not the phase model's attributes)
        self.phase_ids: list[str] = [ph.id for ph in self.phases]
        self.phase_train_limits: list[int] = [ph.train_limit for ph in self.phases]
        self.phase_revenue_keys: list[str] = [ph.offboard_revenue for ph in self.phases]
        self.phase_privates_buyable: list[bool] = [ph.privates_buyable for ph in self.phases]
        self._private = {p.id: p for p in self.privates}
        self.private_ids: tuple[str, ...] = tuple(self._private)
        #: (private, ability class) -> its abilities of that class (:meth:`abilities`)
        self._abilities: dict[tuple[str, type], list[Any]] = {}
        #: ability class -> the privates holding one (:meth:`holders`)
        self._holders: dict[type, tuple[str, ...]] = {}
        self._corporation = {c.id: c for c in self.corporations}
        #: each corporation's id, home and reservations, in table order (the slots held,
        #: network.reserved, asked every lay and token question)
        self.homes: list[tuple[str, str | None, tuple[Reservation, ...]]] = [
            (c.id, c.home, tuple(c.reservations or ())) for c in self.corporations
        ]
        #: the corporations with a joint station (seed 003), with it, in table order
        self.joint_tokens: list[tuple[str, JointToken]] = [
            (c.id, c.joint_token) for c in self.corporations if c.joint_token
        ]
        #: the ferries' table (seed 003), or None
        self.ferries: Ferries | None = doc.ferries
        self._train: dict[str, TrainType] = {}
        for t in self.trains:
            sides = (t.id, *(v.id for v in t.variants))
            self._train[t.id] = TrainType.of(t, t, sides)
            for v in t.variants:
                # the other side of a double-sided card: the card's life cycle, its own
                # distance and price
                self._train[v.id] = TrainType.of(t, v, sides)
        self._cells: dict[tuple[int, int], MarketCell] = {
            (r, c): MarketCell.of(r, c, cell)
            for r, row in enumerate(doc.market.cells)
            for c, cell in enumerate(row)
            if cell is not None
        }
        self.par_cells: list[tuple[int, int]] = [(p[0], p[1]) for p in doc.market.par]

    # -- identity ---------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Tables {self.id} {self.version}>"

    # -- per-game settings ------------------------------------------------------------

    def starting_cash(self, players: int) -> int:
        """Cash each player starts with, for this player count."""
        return self.doc.starting_cash[str(players)]

    def certificate_limit(self, players: int) -> int:
        """Certificates a player may hold, for this player count."""
        return self.doc.certificate_limit[str(players)]

    def rules(self, options: list[str] | tuple[str, ...] = ()) -> Rules:
        """The rules (typed and frozen) with the chosen options' overrides applied."""
        key = tuple(options)
        cached = self._rules_by_options.get(key)
        if cached is None:
            rules = dict(self._rules)
            for opt in options:
                rules.update(self._option_effect(opt).get("rules", {}))
            cached = self._rules_by_options[key] = _typed_rules(rules)
        return cached

    def train_counts(self, options: list[str] | tuple[str, ...] = ()) -> dict[str, int | None]:
        """Copies of each train type (None = unlimited), options applied."""
        counts: dict[str, int | None] = {t.id: t.count for t in self.trains}
        for opt in options:
            counts.update(self._option_effect(opt).get("train_counts", {}))
        return counts

    def _option_effect(self, opt: str) -> dict[str, Any]:
        """An option's effects as compiled: rule overrides and train counts."""
        for o in self.doc.options:
            if o.id == opt:
                return {"rules": dict(o.rules), "train_counts": dict(o.train_counts)}
        return {}

    # -- look-ups ---------------------------------------------------------------------

    def private(self, pid: str) -> Private:
        return self._private[pid]

    def corporation(self, cid: str) -> CompiledCorporation:
        return self._corporation[cid]

    def train(self, tid: str) -> TrainType:
        """A train type (either side of a double-sided card)."""
        return self._train[tid]

    def is_train_type(self, tid: str) -> bool:
        """Is ``tid`` a train type (either side of a double-sided card)?"""
        return tid in self._train

    def is_private(self, pid: str) -> bool:
        return pid in self._private

    def is_corporation(self, cid: str) -> bool:
        return cid in self._corporation

    def cell(self, pos: tuple[int, int] | list[int]) -> MarketCell:
        return self._cells[(pos[0], pos[1])]

    def par_prices(self) -> list[int]:
        """Legal par prices, highest first."""
        return [self.cell(p).price for p in self.par_cells]

    def par_cell(self, price: int) -> tuple[int, int] | None:
        """The par cell with this price (the highest row if several), or None."""
        for p in self.par_cells:
            if self.cell(p).price == price:
                return p
        return None

    def abilities(self, pid: str, kind: type[A]) -> list[A]:
        """The private's abilities of one type (the ability model's class)."""
        key = (pid, kind)
        got = self._abilities.get(key)
        if got is None:
            got = self._abilities[key] = [
                a for a in self._private[pid].abilities if isinstance(a, kind)
            ]
        return list(got)

    def holders(self, kind: type) -> tuple[str, ...]:
        """The privates with an ability of this type (the ability model's class), in
        table order: the ones a question about that power need look at."""
        got = self._holders.get(kind)
        if got is None:
            # (lists, not generator expressions: compiled, this method is typed)
            got = self._holders[kind] = tuple(
                [p.id for p in self.privates if any([isinstance(a, kind) for a in p.abilities])]
            )
        return got

    def float_percent(self, cid: str) -> int:
        return self._corporation[cid].float_percent

    def phase_index(self, phase_id: str) -> int:
        for i, ph in enumerate(self.phases):
            if ph.id == phase_id:
                return i
        raise KeyError(phase_id)

    def private_min_price(self, pid: str) -> int:
        """Least a corporation pays a player for this private (factor x face, rounded up)."""
        rules = self.doc.rules
        low = math.ceil(self._private[pid].value * rules.private_price_min_factor)
        return max(low, rules.private_price_min)

    def private_max_price(self, pid: str) -> int:
        """Most a corporation pays a player for this private (factor x face, rounded down)."""
        return math.floor(self._private[pid].value * self.doc.rules.private_price_max_factor)

    @cached_property
    def unplayable(self) -> list[str]:
        """What in these tables no implementation of the engine plays (empty: all of it),
        found once per tables (engine.capabilities)."""
        return capabilities.unsupported(self.doc)

    @cached_property
    def cert_table(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Corporation -> its certificates ``<corp>_<i>`` with their percents, in order."""
        return {
            c.id: tuple((f"{c.id}_{i}", int(p)) for i, p in enumerate(c.shares))
            for c in self.corporations
        }

    @cached_property
    def cert_percents(self) -> dict[str, int]:
        """Certificate id -> its percent."""
        return {cert: p for certs in self.cert_table.values() for cert, p in certs}

    def ordinary_size(self, cid: str) -> int | None:
        """The percent of every ordinary certificate of the corporation when they are all
        the same size (None when they differ, or when it has none)."""
        return self._ordinary_sizes[cid]

    @cached_property
    def _ordinary_sizes(self) -> dict[str, int | None]:
        out: dict[str, int | None] = {}
        for corp, certs in self.cert_table.items():
            sizes = sorted(p for _, p in certs[1:])
            out[corp] = sizes[0] if sizes and all(s == sizes[0] for s in sizes) else None
        return out

    @cached_property
    def cert_corps(self) -> dict[str, str]:
        """Certificate id -> its corporation."""
        return {cert: corp for corp, certs in self.cert_table.items() for cert, _ in certs}

    @cached_property
    def train_order(self) -> list[str]:
        return [t.id for t in self.trains]

    @cached_property
    def train_sale(self) -> list[tuple[str, int | None]]:
        """Each train card in table order with the index of the phase its
        ``available_on`` names (None: it is sold only when the cards before it are gone):
        what :func:`~eighteen.engine.trains.on_sale_types` reads."""
        out: list[tuple[str, int | None]] = []
        for t in self.train_order:
            avail = self._train[t].available_on
            out.append((t, self.phase_index(avail) if avail else None))
        return out

    @cached_property
    def tile_counts(self) -> dict[str, int | None]:
        """Every tile's count in the manifest (None = unlimited), in table order."""
        return {tid: tile.count for tid, tile in self.doc.tiles.items()}


def find_title(title: str | Path) -> Path:
    """Where the compiled tables of ``title`` are: an explicit path, else ``<id>.json`` in
    the first folder of :func:`eighteen.locations.generated_dirs` that has it (the project,
    ./generated, the checkout, the installed package)."""
    p = Path(title)
    if p.suffix == ".json" and p.is_file():
        return p
    if p.is_dir() and (p / "title.json").is_file():
        return p / "title.json"
    name = f"{title}.json"
    dirs = generated_dirs()
    for d in dirs:
        if (d / name).is_file():
            return d / name
    known = ", ".join(known_titles()) or "none"
    raise TitleNotFound(
        f"no compiled tables for {str(title)!r}{title_hint(str(title))} (known titles: "
        f"{known}; looked in "
        f"{', '.join(str(d) for d in dirs)}); a title of your own needs `eighteen compile`"
    )


_CACHE: dict[Path, Tables] = {}


def load_title(title: str | Path) -> Tables:
    """Load the compiled tables of a title by id (``"<id>"``) or by path to its JSON."""
    path = find_title(title).resolve()
    stamp = path.stat().st_mtime_ns
    cached = _CACHE.get(path)
    if cached is not None and getattr(cached, "_stamp", None) == stamp:
        return cached
    try:
        tables = Tables(json.loads(path.read_text(encoding="utf-8")), path)
    except (OSError, ValueError) as exc:  # (not JSON, not UTF-8, CompiledFormatError)
        raise TablesUnreadable(
            f"{path}: the compiled tables cannot be read ({str(exc):.300}); "
            "`eighteen compile` writes them again"
        ) from None
    tables._stamp = stamp  # type: ignore[attr-defined]
    _CACHE[path] = tables
    return tables
