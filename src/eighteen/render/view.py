"""What a page shows of a game in progress: plain rows, independent of the engine's classes.

:class:`GameSnapshot` is filled from a running engine game by :func:`snapshot_of`; the page
and the map read only these rows, so the drawing code never depends on the engine's API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from eighteen.compiled import CompiledCorporation, CompiledTitle
from eighteen.render.svg import MapView


@dataclass
class PlayerRow:
    """One player: cash, certificates (percent per corporation) and privates."""

    name: str
    cash: int
    shares: dict[str, int] = field(default_factory=dict)
    privates: list[str] = field(default_factory=list)
    priority: bool = False


@dataclass
class CorpRow:
    """One corporation's state."""

    id: str
    name: str
    color: str
    text_color: str
    president: str | None = None
    cash: int = 0
    trains: list[str] = field(default_factory=list)
    par: int | None = None
    price: int | None = None
    cell: tuple[int, int] | None = None
    floated: bool = False
    tokens_placed: int = 0
    tokens_total: int = 0
    ipo: int = 0  # percent in the initial offering
    pool: int = 0  # percent in the bank pool
    privates: list[str] = field(default_factory=list)
    absorbed_by: str | None = None  # the corporation that took it over
    home: str | None = None  # the home its founder chose (a variable home)
    closed: bool = False


@dataclass
class GameSnapshot:
    """A game at one moment: the map view plus the tables beside it."""

    map: MapView
    players: list[PlayerRow]
    corporations: list[CorpRow]
    bank: int
    phase: str
    round: str
    actions: int  # actions applied
    total_actions: int  # actions in the save
    trains_left: dict[str, int | None] = field(default_factory=dict)  # None = unlimited
    #: tiles left in the supply: the manifest's count less the tiles on the map (None =
    #: unlimited; a tile upgraded away is back)
    tiles_left: dict[str, int | None] = field(default_factory=dict)
    private_owners: dict[str, str] = field(default_factory=dict)  # id -> owner or "closed"
    game_over: bool = False
    end_reason: str | None = None

    @property
    def market_tokens(self) -> dict[tuple[int, int], list[CorpRow]]:
        """Corporations by market cell, in the order listed."""
        out: dict[tuple[int, int], list[CorpRow]] = {}
        for c in self.corporations:
            if c.cell is not None:
                out.setdefault(tuple(c.cell), []).append(c)  # type: ignore[arg-type]
        return out


def _get(obj: Any, name: str, default: Any = None) -> Any:
    """Attribute or key ``name`` of ``obj``."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def snapshot_of(
    compiled: CompiledTitle, state: Any, *, actions: int, total_actions: int
) -> GameSnapshot:
    """Read an engine state (``eighteen.engine.state.State``) into a :class:`GameSnapshot`.

    Only plain fields are read (players, corporations, certs, privates, map tiles and tokens,
    phase index, round), with defaults for any the engine does not have.
    """
    corps_meta = {c.id: c for c in compiled.corporations}
    cells = compiled.market.cells
    phases = compiled.phases
    phase_index = int(_get(state, "phase", 0) or 0)
    phase = phases[phase_index].id if 0 <= phase_index < len(phases) else "?"

    # certificates: id -> owner; percentages per owner per corporation
    shares_pct: dict[str, dict[str, int]] = {}
    ipo: dict[str, int] = {}
    pool: dict[str, int] = {}
    certs: Mapping[str, str] = _get(state, "certs", {}) or {}
    for cert_id, owner in certs.items():
        corp, percent = _cert_percent(str(cert_id), corps_meta)
        if corp is None:
            continue
        if owner == "ipo":
            ipo[corp] = ipo.get(corp, 0) + percent
        elif owner == "pool":
            pool[corp] = pool.get(corp, 0) + percent
        else:
            shares_pct.setdefault(str(owner), {})
            shares_pct[str(owner)][corp] = shares_pct[str(owner)].get(corp, 0) + percent

    private_owners: dict[str, str] = {}
    privates_by_owner: dict[str, list[str]] = {}
    for pid, ps in (_get(state, "privates", {}) or {}).items():
        owner = _get(ps, "owner")
        if _get(ps, "closed", False):
            private_owners[pid] = "closed"
        elif owner is None:
            private_owners[pid] = "unsold"
        else:
            private_owners[pid] = str(owner)
            privates_by_owner.setdefault(str(owner), []).append(pid)

    priority = int(_get(state, "priority", 0) or 0)
    players = [
        PlayerRow(
            name=str(_get(p, "name")),
            cash=int(_get(p, "cash", 0) or 0),
            shares=dict(sorted(shares_pct.get(str(_get(p, "name")), {}).items())),
            privates=privates_by_owner.get(str(_get(p, "name")), []),
            priority=i == priority,
        )
        for i, p in enumerate(_get(state, "players", []) or [])
    ]

    corp_states: Mapping[str, Any] = _get(state, "corporations", {}) or {}
    absorbed: Mapping[str, str] = _get(state, "absorbed", {}) or {}
    chosen: Mapping[str, str] = _get(state, "chosen_homes", {}) or {}
    corporations = []
    homes_placed: set[str] = set()
    for cid, meta in corps_meta.items():
        cs = corp_states.get(cid)
        cell = _get(cs, "cell") if cs is not None else None
        price = None
        if cell is not None:
            r, c = int(cell[0]), int(cell[1])
            here = cells[r][c] if 0 <= r < len(cells) and 0 <= c < len(cells[r]) else None
            if here is not None:
                price = here.price
            cell = (r, c)
        if cs is not None and _get(cs, "home_placed", False):
            homes_placed.add(cid)
        corporations.append(
            CorpRow(
                id=cid,
                name=meta.name,
                color=meta.color,
                text_color=meta.text_color,
                president=_get(cs, "president") if cs is not None else None,
                cash=int(_get(cs, "cash", 0) or 0) if cs is not None else 0,
                # (the types: a train's copy id, "3-4", reads like a type of its own)
                trains=[_train_type(t) for t in _get(cs, "trains", []) or []]
                if cs is not None
                else [],
                par=_get(cs, "par") if cs is not None else None,
                price=price,
                cell=cell,
                floated=bool(_get(cs, "floated", False)) if cs is not None else False,
                tokens_placed=int(_get(cs, "tokens_placed", 0) or 0) if cs is not None else 0,
                tokens_total=len(meta.tokens),
                ipo=ipo.get(cid, 0),
                pool=pool.get(cid, 0),
                privates=privates_by_owner.get(cid, []),
                absorbed_by=absorbed.get(cid),
                home=chosen.get(cid),
                closed=bool(_get(cs, "closed", False)) if cs is not None else False,
            )
        )

    # trains left in the bank: limited types from the depot, unlimited ones None
    depot = list(_get(state, "depot", []) or [])
    trains_left: dict[str, int | None] = {}
    for t in compiled.trains:
        if t.count is None:
            trains_left[t.id] = None
        else:
            trains_left[t.id] = sum(1 for d in depot if _train_type(d) == t.id)

    m = _get(state, "map")
    tiles = {h: (str(v[0]), int(v[1])) for h, v in (_get(m, "tiles", {}) or {}).items()}
    laid: dict[str, int] = {}
    for tile_id, _ in tiles.values():
        laid[tile_id] = laid.get(tile_id, 0) + 1
    tiles_left = {
        tid: None if t.count is None else t.count - laid.get(tid, 0)
        for tid, t in compiled.tiles.items()
    }
    tokens = {h: [list(c) for c in v] for h, v in (_get(m, "tokens", {}) or {}).items()}
    for cities in tokens.values():
        for city in cities:
            homes_placed.update(c for c in city if c in corps_meta and corps_meta[c].home)
    active_blocks = {
        pid
        for pid, owner in private_owners.items()
        if owner not in ("closed", "unsold") and owner not in corps_meta
    }
    active_blocks |= {pid for pid, owner in private_owners.items() if owner == "unsold"}

    # a chosen (variable) home, and where a corporation taken over had its home
    notes: dict[str, list[str]] = {}
    for cid, h in chosen.items():
        notes.setdefault(h, []).append(f"home chosen by {cid}")
    for target, acquirer in absorbed.items():
        absorbed_meta = corps_meta.get(target)
        home = chosen.get(target) or (absorbed_meta.home if absorbed_meta is not None else None)
        if home:
            notes.setdefault(home, []).append(f"{target}'s home: {acquirer} took {target} over")

    rnd = _get(state, "round")
    round_text = _round_text(rnd)
    return GameSnapshot(
        map=MapView(
            tiles=tiles,
            tokens=tokens,
            homes_placed=homes_placed,
            active_blocks=active_blocks,
            phase=phase,
            notes=notes,
        ),
        players=players,
        corporations=corporations,
        bank=int(_get(state, "bank", 0) or 0),
        phase=phase,
        round=round_text,
        actions=actions,
        total_actions=total_actions,
        trains_left=trains_left,
        tiles_left=tiles_left,
        private_owners=private_owners,
        game_over=bool(_get(state, "game_over", False)),
        end_reason=_get(state, "end_reason"),
    )


def _train_type(train: Any) -> str:
    """Type of a depot entry: "3" from "3" or "3-1"."""
    text = str(_get(train, "type", train) if not isinstance(train, str) else train)
    return text.split("-")[0]


def _cert_percent(cert_id: str, corps: Mapping[str, CompiledCorporation]) -> tuple[str | None, int]:
    """(corporation, percent) of a certificate id such as "PRR.0" or "PRR-3"."""
    for sep in (".", "-", "_", ":", "#"):
        if sep in cert_id:
            corp, _, idx = cert_id.rpartition(sep)
            if corp in corps and idx.isdigit():
                shares = corps[corp].shares
                i = int(idx)
                return corp, int(shares[i]) if i < len(shares) else 10
    return None, 0


def _round_text(rnd: Any) -> str:
    """A round in words: "stock round 3", "operating round 2 of 3", "private auction"."""
    kind = _get(rnd, "kind", None)
    if kind == "stock":
        return f"stock round {_get(rnd, 'number', '')}".strip()
    if kind == "operating":
        return f"operating round {_get(rnd, 'number', 1)} of {_get(rnd, 'set_size', 1)}"
    if kind == "auction":
        return "private auction"
    return str(kind or "—")
