"""18xx.games game exports, export: one of our games in the 18xx.games format.

Importing the export gives the same state (same :meth:`~eighteen.engine.game.Game.state_hash`),
for every title the engine plays: actions beyond those of the 18xx.games logs the importer
reads are written in fields of our own (docs/import-18xx.md, "our own fields").
Players get ids 1..n in seating order; the game is replayed from its log to name what our
actions leave implicit (certificates, tile copies, city ids, route connections).
"""

from __future__ import annotations

from typing import Any

from eighteen.engine import network, shares, trains, views
from eighteen.engine.actions import (
    Action,
    AnswerDeal,
    AnswerTakeover,
    Bid,
    BuyCompany,
    BuyFerry,
    BuyShares,
    BuyTrain,
    ChooseFerry,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RunRoutes,
    SellShares,
    TakeOver,
    TradePrivate,
)
from eighteen.engine.face import Path as TrackPath
from eighteen.engine.game import Game
from eighteen.engine.rounds import or_homes
from eighteen.engine.routes import Route, route_connections
from eighteen.engine.shares import cert_percent
from eighteen.engine.state import IPO, POOL, State
from eighteen.io.games18xx_log import END_REASONS
from eighteen.title.model import Import18xx


def export_game(game: Game, *, game_id: int | str = 0) -> dict[str, Any]:
    """Our game in the 18xx.games export format (players get ids 1..n in seating order).

    The game is replayed from its log to name what our actions leave implicit: the
    certificates bought or sold, tile copies, city ids and route connections.
    """
    exp = _Exporter(game)
    return exp.run(game_id)


class _Exporter:
    def __init__(self, game: Game) -> None:
        self.src = game
        self.tables = game.tables
        self.ids = {p: i for i, p in enumerate(game.players, 1)}
        mapping = self.tables.doc.import_18xx or Import18xx()
        self.implicit = set(mapping.options) | {
            o for dated in mapping.dated_options for o in dated.options
        }
        self.preprinted: dict[str, str] = dict(mapping.preprinted)
        self.on_map: dict[str, str] = {}  # hex -> laid tile copy id

    def run(self, game_id: int | str) -> dict[str, Any]:
        src = self.src
        g = Game(self.tables, list(src.players), seed=src.seed, options=list(src.options))
        self.g = g
        self.board = network.board(g)
        actions = []
        for n, action in enumerate(src.log, 1):
            out = self.action(action)
            out["id"] = n
            actions.append(out)
        values = dict(views.ranking(g))
        reason = {v: k for k, v in END_REASONS.items()}.get(g.state.end_reason or "")
        doc: dict[str, Any] = {
            "id": game_id,
            "title": self.tables.id,
            "description": "",
            "user": {"id": 0, "name": "You"},
            "players": [{"id": self.ids[p], "name": p} for p in src.players],
            "min_players": self.tables.players_min,
            "max_players": self.tables.players_max,
            "settings": {
                "seed": src.seed,
                "optional_rules": [o for o in src.options if o not in self.implicit],
                # our own key: the exact options, so that a re-import plays the same game
                "eighteen_options": list(src.options),
            },
            "user_settings": None,
            "status": "finished" if g.is_over else "active",
            "turn": g.state.stock_rounds,
            "round": views.round_name(g),
            "acting": [self.ids[x] for x in [g.acting()] if x in self.ids],
            "result": {
                str(self.ids[p]): v
                for p, v in sorted(values.items(), key=lambda kv: -kv[1])  # highest first
            },
            "loaded": True,
            "actions": actions,
        }
        if g.is_over:
            doc["game_end_reason"] = reason or g.state.end_reason
        return doc

    # -- one action -------------------------------------------------------------------

    def entity(self, who: str) -> dict[str, Any]:
        if who in self.ids:
            return {"entity": self.ids[who], "entity_type": "player"}
        if self.tables.is_corporation(who):
            return {"entity": who, "entity_type": "corporation"}
        return {"entity": who, "entity_type": "company"}

    def action(self, action: Action) -> dict[str, Any]:
        g = self.g
        before = g.state.copy()  # apply changes the state in place
        # a power's free station placed or declined: the company's action in 18xx.games
        free = (
            or_homes.free_station_due(g)
            if isinstance(action, Pass | PlaceToken)
            and before.round.kind == "operating"
            and g.acting() == action.actor
            else None
        )
        extra: dict[str, Any] = {}
        if isinstance(action, RunRoutes):
            extra["routes"] = [self.route(r) for r in network.check(g, action.actor, action.routes)]
        elif isinstance(action, BuyTrain):
            owned = any(action.train in c.trains for c in before.corporations.values())
            if not owned:
                extra["variant"] = trains.train_type(action.train)
        g.apply(action)
        after = g.state
        a: dict[str, Any] = {"type": action.type if action.type != "exchange" else "buy_shares"}
        who = action.actor
        if isinstance(action, Bid):
            a |= {"company": action.private, "price": action.price}
        elif isinstance(action, Par):
            cell = after.corporations[action.corporation].cell or [0, 0]
            price = self.tables.cell(cell).price
            a |= {"corporation": action.corporation, "share_price": f"{price},{cell[0]},{cell[1]}"}
        elif isinstance(action, BuyShares | ExchangePrivate):
            if isinstance(action, ExchangePrivate):
                who = action.private
            # the certificate that left the IPO or the pool (a presidency swap may then
            # hand it on to the former president)
            moved = [
                c
                for c, o in after.certs.items()
                if before.certs[c] in (IPO, POOL) and o not in (IPO, POOL)
            ]
            a |= {"shares": moved, "percent": sum(cert_percent(g, c) for c in moved)}
        elif isinstance(action, SellShares):
            moved = [c for c, o in after.certs.items() if o == POOL and before.certs[c] != POOL]
            if not moved:  # the sale closed the corporation: its certificates went home
                moved = self.sold_home(before, after, action)
            a |= {"shares": moved, "percent": action.percent}
        elif isinstance(action, LayTile):
            if action.private is not None:
                who = action.private
            copy = self.lay(action.hex, action.tile)
            a |= {"hex": action.hex, "tile": copy, "rotation": action.rotation % 6}
        elif isinstance(action, PlaceToken):
            tile_id = self.on_map.get(action.hex) or self.preprinted.get(
                action.hex, f"{action.hex}-0"
            )
            now = after.map.city_tokens(action.hex, action.city)
            # (a token is put after the city's others; gone already when the turn it was
            # placed in closed the corporation)
            slot = (
                now.index(action.actor)
                if action.actor in now
                else len(before.map.city_tokens(action.hex, action.city))
            )
            a |= {"city": f"{tile_id}-{action.city}", "slot": slot}
            if free is not None:
                who = free
                a["tokener"] = action.actor
        elif isinstance(action, RunRoutes):
            a |= extra
        elif isinstance(action, Dividend):
            a["kind"] = action.kind
        elif isinstance(action, BuyTrain):
            a |= {"train": action.train, "price": action.price} | extra
            if action.exchange:
                a["exchange"] = action.exchange
        elif isinstance(action, DiscardTrain):
            a["train"] = action.train
        elif isinstance(action, BuyCompany):
            a |= {"company": action.private, "price": action.price}
        elif isinstance(action, IssueShares | RedeemShares):
            if isinstance(action, IssueShares) and before.round.step == "trains":
                a["emergency"] = True  # (the issue before a president pays for a train)
            # the certificates moved: from the treasury to the market, or back
            src, dst = (IPO, POOL) if isinstance(action, IssueShares) else (POOL, IPO)
            # (the first ones: the turn may close the corporation, all its certificates
            # going home with them)
            moved = [c for c, o in after.certs.items() if o == dst and before.certs[c] == src]
            moved = moved[: action.count]
            a |= {"shares": moved, "percent": sum(cert_percent(g, c) for c in moved)}
        elif isinstance(action, BuyFerry):
            a["port"] = action.port
        elif isinstance(action, ChooseFerry):
            a |= {"company": action.private, "port": action.port}
        elif isinstance(action, TakeOver):
            a |= {"corporation": action.target, "shares": action.shares}
        elif isinstance(action, AnswerTakeover | AnswerDeal):
            a["accept"] = action.accept
        elif isinstance(action, Pass) and free is not None:
            who = free  # the company declines its free station
        elif (
            isinstance(action, Pass)
            and before.round.kind == "operating"
            and self.tables.is_corporation(who)
        ):
            a["step"] = before.round.step  # (the step it ends: the import makes it there)
        elif isinstance(action, TradePrivate):
            # a player buying a private from another player: buy_company by the buyer
            a = {"type": "buy_company", "company": action.private, "price": action.price}
            seller = before.privates[action.private].owner
            who = action.counterparty if seller == action.actor else action.actor
            if before.round.kind == "operating" and who == action.actor:
                a["offered_by"] = self.ids[who]  # (the import takes the seller's else)
        return {**a, **self.entity(who)}

    def sold_home(self, before: State, after: State, action: SellShares) -> list[str]:
        """The certificates a sale that closed its corporation handed over (none reached
        the market): of the corporation's ordinary ones that went home, the seller's
        first (a presidency swap may have given him others), as the sale takes them."""
        corp, who = action.corporation, action.actor
        home = [
            c
            for c in shares.cert_ids(self.g, corp)
            if c != shares.president_cert(corp) and after.certs[c] != before.certs[c]
        ]
        for pool in ([c for c in home if before.certs[c] == who], home):
            sold = shares.certs_sold(self.g, pool, action.percent)
            if sold:
                return sold
        return home

    def lay(self, hex_id: str, tile: str) -> str:
        """The copy id of a laid tile: the lowest copy not on the map (upgraded-away
        copies come back to the supply)."""
        self.on_map.pop(hex_id, None)
        used = set(self.on_map.values())
        n = 0
        while f"{tile}-{n}" in used:
            n += 1
        self.on_map[hex_id] = f"{tile}-{n}"
        return f"{tile}-{n}"

    def route(self, route: Route) -> dict[str, Any]:
        hexes = route.hexes
        nodes = []
        for s in route.stops:
            face = self.board.face(self.g.state.map, s.hex)
            part = s.index + (len(face.cities) if s.kind == "town" else 0)
            nodes.append(f"{s.hex}-{part if s.kind != 'offboard' else 0}")
        out = {
            "train": route.train,
            "connections": route_connections(
                [p if isinstance(p, TrackPath) else TrackPath.parse(p) for p in route.paths]
            ),
            "hexes": hexes,
            "revenue": route.revenue,
            "revenue_str": "-".join(hexes),
            "nodes": nodes,
        }
        if route.extension:  # (our own field: the track to an interconnection bonus)
            out["extension"] = [p.text for p in route.extension]
        return out
