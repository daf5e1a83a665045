"""Read-only views of a game: plain dictionaries for bots, the CLI and renderers.

Nothing here changes the game.  Values follow seed 002 ("winner"): a player's value is
cash + certificates at the market price + open privates at face value
(rules.private_values_count_at_end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eighteen.engine import ferries, market, phases, privates, shares, trains
from eighteen.engine.rounds import deals
from eighteen.engine.state import IPO, POOL

if TYPE_CHECKING:
    from eighteen.engine.game import Game


def round_name(g: Game) -> str:
    r = g.state.round
    if r.kind == "auction":
        return "private auction"
    if r.kind == "stock":
        return f"stock round {r.number}"
    if r.kind == "takeover":
        return f"takeover round (after stock round {g.state.stock_rounds})"
    return f"operating round {r.number}/{r.set_size} (after stock round {g.state.stock_rounds})"


def phase_name(g: Game) -> str:
    return phases.current_id(g)


def player_value(g: Game, name: str) -> int:
    """Cash + certificates at market price + open privates at face value."""
    value = g.state.player(name).cash
    for c in g.tables.corporations:
        pct = shares.percent_of(g, c.id, name)
        if pct:
            value += market.price(g, c.id) * pct // 10
    if g.rules.private_values_count_at_end:
        for pid in privates.owned_by(g, name):
            value += int(g.tables.private(pid).value)
    return value


def ranking(g: Game) -> list[tuple[str, int]]:
    """Players by value, highest first (ties keep seating order)."""
    values = [(p.name, player_value(g, p.name)) for p in g.state.players]
    return sorted(values, key=lambda x: -x[1])


def players(g: Game) -> list[dict[str, Any]]:
    s = g.state
    out = []
    for i, p in enumerate(s.players):
        out.append(
            {
                "name": p.name,
                "cash": p.cash,
                "priority": i == s.priority,
                "shares": {
                    c.id: shares.percent_of(g, c.id, p.name)
                    for c in g.tables.corporations
                    if shares.percent_of(g, c.id, p.name)
                },
                "president_of": [
                    cid for cid, cs in s.corporations.items() if cs.president == p.name
                ],
                "privates": privates.owned_by(g, p.name),
                "certificates": shares.cert_count(g, p.name),
                "certificate_limit": shares.cert_limit(g),
                "value": player_value(g, p.name),
                "eliminated": p.name in s.eliminated,
            }
        )
    return out


def corporations(g: Game) -> list[dict[str, Any]]:
    out = []
    for c in g.tables.corporations:
        cid = c.id
        cs = g.state.corporations[cid]
        cell = market.cell(g, cid)
        out.append(
            {
                "id": cid,
                "name": c.name,
                "president": cs.president,
                "par": cs.par,
                "price": cell.price if cell else None,
                "cell": list(cs.cell) if cs.cell else None,  # (a copy: not the state's)
                "floated": cs.floated,
                "operated": cs.operated,
                "treasury": cs.cash,
                "trains": list(cs.trains),
                "tokens_placed": cs.tokens_placed,
                "tokens_left": len(c.tokens) - cs.tokens_placed,
                "ipo_percent": shares.percent_of(g, cid, IPO),
                "pool_percent": shares.percent_of(g, cid, POOL),
                "privates": privates.owned_by(g, cid),
                "ferries": ferries.owned(g, cid),
                "closed": cs.closed,
            }
        )
    return out


def bank(g: Game) -> dict[str, Any]:
    s = g.state
    return {
        "cash": s.bank,
        "broken": s.bank_broken,
        "trains_for_sale": [t for t in trains.on_sale_types(g)],
        "depot": list(s.depot),
        "discarded_trains": list(s.train_pool),
    }


def market_view(g: Game) -> dict[str, Any]:
    """Every started corporation's cell and price, top row first."""
    started = [c.id for c in g.tables.corporations if g.state.corporations[c.id].cell]
    return {
        cid: {"cell": list(g.state.corporations[cid].cell or ()), "price": market.price(g, cid)}
        for cid in market.operating_order(g, started)
    }


def map_view(g: Game) -> dict[str, Any]:
    return g.state.map.to_json()


def privates_view(g: Game) -> list[dict[str, Any]]:
    out = []
    for p in g.tables.privates:
        ps = g.state.privates[p.id]
        out.append(
            {
                "id": p.id,
                "name": p.name,
                "value": p.value,
                "revenue": p.revenue,
                "owner": ps.owner,
                "closed": ps.closed,
                "flipped": not ps.closed and privates.flipped(g, p.id),
            }
        )
    return out


def deal(g: Game) -> dict[str, Any] | None:
    """The deal waiting for its answer (rules.deals_need_consent): the player to answer and
    the offered action's JSON form; None when none waits."""
    offer = deals.offer_of(g)
    if offer is None:
        return None
    return {"answerer": offer[0], "offer": offer[1]}


def summary(g: Game) -> dict[str, Any]:
    """Everything at once."""
    return {
        "title": g.tables.id,
        "round": round_name(g),
        "phase": phase_name(g),
        "acting": g.acting(),
        "deal": deal(g),
        "game_over": g.state.game_over,
        "end_reason": g.state.end_reason,
        "players": players(g),
        "corporations": corporations(g),
        "privates": privates_view(g),
        "bank": bank(g),
        "market": market_view(g),
        "map": map_view(g),
        "ranking": ranking(g) if g.state.game_over else None,
    }
