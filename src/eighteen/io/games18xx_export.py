"""18xx.games game exports, export: one of our games in the 18xx.games format.

Importing the export gives the same state (same :meth:`~eighteen.engine.game.Game.state_hash`),
for every title the engine plays: actions beyond those of the 18xx.games logs the importer
reads are written in fields of our own (docs/import-18xx.md, "our own fields").
Players get ids 1..n in seating order; the game is replayed from its log to name what our
actions leave implicit (certificates, tile copies, city ids, route connections).
"""

from __future__ import annotations

from typing import Any

from eighteen.engine import network, trains, views
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
from eighteen.engine.routes import Route, Stop, route_connections
from eighteen.engine.shares import cert_percent
from eighteen.engine.state import IPO, POOL
from eighteen.io.games18xx_certs import CertNames
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
        # each tile's copies in the supply, in the order 18xx.games takes them: the
        # manifest's first, a copy upgraded away put back last (None: unlimited)
        self.counts = self.tables.tile_counts
        self.supply: dict[str, list[int]] = {}
        self.made: dict[str, int] = {}  # copies made so far of each tile without limit

    def run(self, game_id: int | str) -> dict[str, Any]:
        src = self.src
        g = Game(self.tables, list(src.players), seed=src.seed, options=list(src.options))
        self.g = g
        self.board = network.board(g)
        self.certs = CertNames(g)
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
            stations = {
                (h, i)
                for h, cities in g.state.map.tokens.items()
                for i, toks in enumerate(cities)
                if action.actor in toks
            }
            extra["routes"] = [
                self.route(r, stations) for r in network.check(g, action.actor, action.routes)
            ]
        elif isinstance(action, BuyTrain):
            owned = any(action.train in c.trains for c in before.corporations.values())
            if not owned:
                extra["variant"] = trains.train_type(action.train)
        elif isinstance(action, PlaceToken):
            extra["held"] = self.held_slots(action)
        elif isinstance(action, SellShares):
            extra["bundle"] = self.certs.bundle(action.actor, action.corporation, action.percent)
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
            # the certificates that left the IPO or the pool (a presidency swap may then
            # hand them on to the former president), as 18xx.games names them
            moved = [
                c
                for c, o in after.certs.items()
                if before.certs[c] in (IPO, POOL) and o not in (IPO, POOL)
            ]
            names: list[str] = []
            for corp in dict.fromkeys(self.certs.corp_of[c] for c in moved):
                got: list[str] = []
                for src in (IPO, POOL):
                    ours = [
                        c for c in moved if before.certs[c] == src and self.certs.corp_of[c] == corp
                    ]
                    got += self.certs.matching(src, corp, ours)
                president = before.corporations[corp].president
                self.certs.bought(g, action.actor, corp, got, president)
                names += got
            a |= {"shares": names, "percent": sum(cert_percent(g, c) for c in names)}
        elif isinstance(action, SellShares):
            bundle = extra["bundle"]
            president = before.corporations[action.corporation].president
            self.certs.sold(g, who, action.corporation, bundle, president)
            a |= {"shares": bundle, "percent": action.percent}
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
            # (slots held for homes not placed yet come first, as 18xx.games keeps them)
            slot = extra["held"] + (
                now.index(action.actor)
                if action.actor in now
                else len(before.map.city_tokens(action.hex, action.city))
            )
            a |= {"city": f"{tile_id}-{action.city}", "slot": slot, "tokener": action.actor}
            if free is not None:
                who = free
        elif isinstance(action, RunRoutes):
            a |= extra | {"extra_revenue": 0, "subsidy": 0}
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
            moved = self.certs.matching(src, action.actor, moved[: action.count])
            for c in moved:
                self.certs.move(c, dst)
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
        self.certs.sync(after.certs)
        return {**a, **self.entity(who)}

    def held_slots(self, action: PlaceToken) -> int:
        """The slots of the city a station goes to that are held for other corporations
        (homes not placed yet, reservations): 18xx.games keeps a held slot first, so a
        station put beside it takes the next."""
        g = self.g
        held = 0
        for holder in network.reserved(g).get(action.hex, ()):
            if holder == action.actor:
                continue
            # (a reservation of the whole hex holds no slot of its own)
            cities = self.board.reserved_cities(g.state.map, holder, action.hex)
            if cities is not None and action.city in cities:
                held += 1
        return held

    def lay(self, hex_id: str, tile: str) -> str:
        """The copy id of a laid tile: the supply's first copy, as 18xx.games takes it
        (the manifest's copies in order; a copy upgraded away goes back last; of a tile
        without limit a new copy, numbered next, joins whenever the last is laid)."""
        old = self.on_map.pop(hex_id, None)
        if old is not None:
            name, _, copy = old.rpartition("-")
            self.copies(name).append(int(copy))
        copies = self.copies(tile)
        n = copies.pop(0)
        if self.counts.get(tile) is None and not copies:
            self.made[tile] = self.made.get(tile, 1) + 1
            copies.append(self.made[tile] - 1)
        self.on_map[hex_id] = f"{tile}-{n}"
        return f"{tile}-{n}"

    def copies(self, tile: str) -> list[int]:
        if tile not in self.supply:
            count = self.counts.get(tile)
            self.supply[tile] = list(range(count if count is not None else 1))
        return self.supply[tile]

    def route(self, route: Route, stations: set[tuple[str, int]]) -> dict[str, Any]:
        """A route as 18xx.games' route finder writes it: from the end that comes first
        by its order of stops (the corporation's stations first, then off-boards, then
        the most revenue; a tie keeps our direction)."""

        def rank(s: Stop) -> tuple[int, int, int]:
            own = s.kind == "city" and (s.hex, s.index) in stations
            return (0 if own else 1, 0 if s.kind == "offboard" else 1, -s.revenue)

        stops, paths = route.stops, route.paths
        if rank(stops[-1]) < rank(stops[0]):
            stops, paths = stops[::-1], paths[::-1]
        hexes = [s.hex for s in stops]
        nodes = []
        for s in stops:
            face = self.board.face(self.g.state.map, s.hex)
            part = s.index + (len(face.cities) if s.kind == "town" else 0)
            nodes.append(f"{s.hex}-{part if s.kind != 'offboard' else 0}")
        out = {
            "train": route.train,
            "connections": route_connections(
                [p if isinstance(p, TrackPath) else TrackPath.parse(p) for p in paths]
            ),
            "hexes": hexes,
            "revenue": route.revenue,
            "revenue_str": "-".join(hexes),
            "nodes": nodes,
        }
        if route.extension:  # (our own field: the track to an interconnection bonus)
            out["extension"] = [p.text for p in route.extension]
        return out
