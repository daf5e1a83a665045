"""18xx.games game exports, import: one handler per logged action type.

Each handler reads one logged action of an export, maps it onto our actions
(:mod:`eighteen.engine.actions`) and applies it through the :class:`Importer`
(:mod:`eighteen.io.games18xx_import`), which passes optional steps until it fits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from eighteen.engine import network, phases, trains
from eighteen.engine.actions import (
    AnswerDeal,
    AnswerTakeover,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyFerry,
    BuyShares,
    BuyTrain,
    ChooseFerry,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    IllegalAction,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RouteSpec,
    RunRoutes,
    SellShares,
    TakeOver,
    TradePrivate,
)
from eighteen.engine.face import MapError
from eighteen.engine.rounds import or_homes, or_step
from eighteen.engine.rounds.operating import STEP_INDEX
from eighteen.engine.route_reading import first_reading, route_from_connections
from eighteen.engine.routes import RouteError
from eighteen.engine.state import IPO, POOL
from eighteen.io.games18xx_log import MAX_PASSES, Divergence, ExportError, int_field

if TYPE_CHECKING:
    from eighteen.io.games18xx_import import Importer


def _bid(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    _, player = _player(imp, aid, a)
    private = imp.company(aid, a)
    price = imp.number(aid, a, "price")
    imp.apply(aid, a, lambda: Bid(player, private, price))


def _player(imp: Importer, aid: int | str, a: dict[str, Any]) -> tuple[str, str]:
    kind, who = imp.entity(aid, a)
    if kind != "player":
        raise ExportError(f"action {aid} ({a['type']}): the entity must be a player, not {who}")
    return kind, who


def _corp_entity(imp: Importer, aid: int | str, a: dict[str, Any]) -> str:
    kind, who = imp.entity(aid, a)
    if kind != "corporation":
        raise ExportError(
            f"action {aid} ({a['type']}): the entity must be a corporation, not {who}"
        )
    return who


def _par(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    _, player = _player(imp, aid, a)
    corp = imp.corporation(aid, a)
    cell = str(imp.field(aid, a, "share_price")).split(",")
    try:
        price = int(cell[0])
    except ValueError:
        raise ExportError(f"action {aid} (par): bad share_price {a['share_price']!r}") from None
    imp.out_of_ipo.add(f"{corp}_0")
    imp.apply(aid, a, lambda: Par(player, corp, price))


def _buy_shares(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    shares = imp.field(aid, a, "shares")
    if not isinstance(shares, list) or not shares:
        raise ExportError(f"action {aid} (buy_shares): 'shares' is not a list of certificates")
    certs = [imp.certificate(aid, a, c) for c in shares]
    for corp, cert in certs:
        # a certificate that has left the IPO can only be bought from the pool (§4)
        source = "pool" if cert in imp.out_of_ipo else "ipo"
        imp.out_of_ipo.add(cert)
        imp.check_buyable(aid, a, cert)
        president = imp.game.state.corporations[corp].president
        if kind == "company":
            buyer = imp.owner(aid, a, who)
            imp.apply(aid, a, partial(ExchangePrivate, buyer, who, source))
        elif kind == "player":
            buyer = who
            imp.apply(aid, a, partial(BuyShares, who, corp, source))
        else:
            raise ExportError(f"action {aid} (buy_shares): a corporation cannot buy shares")
        imp.certs.bought(imp.game, buyer, corp, [cert], president)


def _sell_shares(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    _, player = _player(imp, aid, a)
    shares = imp.field(aid, a, "shares")
    if not isinstance(shares, list) or not shares:
        raise ExportError(f"action {aid} (sell_shares): 'shares' is not a list of certificates")
    certs = [imp.certificate(aid, a, c) for c in shares]
    corps = {c for c, _ in certs}
    if len(corps) != 1:
        raise ExportError(f"action {aid} (sell_shares): certificates of several corporations")
    corp = corps.pop()
    percent = imp.number(aid, a, "percent")
    names = [c for _, c in certs]
    imp.out_of_ipo.update(names)
    for c in names:
        holder = imp.certs.owner[c]
        if holder != player:
            imp.note(aid, a, f"{c} is {imp.certs.where(c)}, not the seller's")
    president = imp.game.state.corporations[corp].president
    imp.apply(aid, a, lambda: SellShares(player, corp, percent))
    imp.certs.sold(
        imp.game, player, corp, [c for c in names if imp.certs.owner[c] == player], president
    )


def _pass(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    g = imp.game
    if kind == "corporation":
        if g.state.round.kind != "operating" and g.acting() == who:
            imp.answer(aid, a, who)
            return
        if "step" in a and _pass_at_step(imp, aid, a, who):
            return
        imp.trailing_passes.append((aid, a))
        return
    if kind != "player":
        _company_pass(imp, aid, a, who)
        return
    logged = imp.trailing_passes  # (the corporations' passes logged first)
    limit = MAX_PASSES + len(logged)
    imp.trailing_passes = []
    for _ in range(limit):
        acting = g.acting()
        if acting == who:
            try:
                g.apply(Pass(who))
            except IllegalAction as exc:
                raise Divergence(aid, a, str(exc)) from None
            return
        if acting is None or g.state.is_player(acting):
            return  # our engine has already passed this player (nothing to do)
        if not imp.pass_step() and not imp.pass_offer(who, logged):
            raise Divergence(aid, a, f"{acting} must act first in our engine")
    raise Divergence(aid, a, f"{g.acting()} must act first in our engine")


def _company_pass(imp: Importer, aid: int | str, a: dict[str, Any], private: str) -> None:
    """A company declines its ability.  Declining the free station its tile lay left
    due (a tile_lay power's ``token``) is the operating corporation's pass of our
    ``free_station`` step; any other ability's pass changes nothing."""
    g = imp.game
    if g.state.round.kind != "operating" or or_homes.free_station_due(g) != private:
        return
    try:
        g.apply(Pass(or_step.operating(g)))
    except IllegalAction as exc:
        raise Divergence(aid, a, str(exc)) from None


def _pass_at_step(imp: Importer, aid: int | str, a: dict[str, Any], corp: str) -> bool:
    """A corporation's pass that names the step it ends (our exports write ``step``) is
    made at once when the corporation is at that step with no pass held back before it
    (True); else it waits as the logged passes of 18xx.games do."""
    step = a["step"]
    if not isinstance(step, str):
        raise ExportError(f"action {aid} (pass): 'step' is not a step name")
    return not imp.trailing_passes and _at_step(imp, corp, step) and imp.pass_step()


def _lay_tile(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    tile, copy = imp.tile_copy(aid, a)
    hex_id = str(imp.field(aid, a, "hex"))
    if hex_id not in imp.hexes:
        raise ExportError(f"action {aid} (lay_tile): unknown hex {hex_id!r}")
    rotation = imp.number(aid, a, "rotation")
    count = imp.tables.tile_counts.get(tile)
    if count is not None and int(copy.rpartition("-")[2]) >= count:
        raise Divergence(aid, a, f"tile {tile} has {count} copies: there is no {copy}")
    laid_on = imp.copies.get(copy)
    if laid_on not in (None, hex_id) and imp.game.state.map.tiles.get(laid_on, ("",))[0] == tile:
        raise Divergence(aid, a, f"{copy} lies on {laid_on}")
    if kind == "company":
        owner = imp.owner(aid, a, who)
        imp.apply(aid, a, lambda: LayTile(owner, hex_id, tile, rotation, who))
    elif kind == "corporation":
        imp.apply(aid, a, lambda: LayTile(who, hex_id, tile, rotation))
    else:
        raise ExportError(f"action {aid} (lay_tile): a player cannot lay tiles")
    imp.copies[copy] = hex_id


def _place_token(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, who = imp.entity(aid, a)
    tokener = imp.corporation(aid, a, "tokener") if a.get("tokener") else None
    if kind == "company":
        corp = tokener or str(imp.owner(aid, a, who))
        if not imp.tables.is_corporation(corp):
            raise Divergence(aid, a, f"{who} is not owned by a corporation")
    elif kind == "corporation":
        corp = tokener or who
    else:
        raise ExportError(f"action {aid} (place_token): a player cannot place tokens")
    hex_id, city = imp.city(aid, a)
    g = imp.game
    held = [i for i, c in enumerate(g.state.map.tokens.get(hex_id, [])) if corp in c]
    home = imp.tables.corporation(corp).home
    if hex_id == home and held and city in held:
        return  # the home token our engine placed itself when the corporation first operated
    try:
        imp.apply(aid, a, lambda: PlaceToken(corp, hex_id, city))
    except Divergence as d:
        if hex_id == home and held:
            d.reason += f" (our engine put {corp}'s home token in city {held[0]})"
        raise


def _run_routes(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    routes = imp.field(aid, a, "routes")
    if not isinstance(routes, list):
        raise ExportError(f"action {aid} (run_routes): 'routes' is not a list")
    for i, rt in enumerate(routes):
        if not isinstance(rt, dict):
            raise ExportError(f"action {aid} (run_routes): route {i + 1} is not an object")
    # reach the corporation's route step (passing earlier optional steps); our engine
    # skips that step when the corporation has nothing to run
    g = imp.game
    _reach_step(imp, corp, "routes")
    earns = any(rt.get("revenue", 1) for rt in routes)
    if earns and not _at_step(imp, corp, "routes") and imp.passes_logged(corp):
        _next_turn_at(imp, corp, "routes")  # (its passes logged before the run ended a turn)
    if not _at_step(imp, corp, "routes"):
        imp.last_revenue[corp] = 0
        if not earns:
            return  # our engine had nothing to run either
        raise Divergence(aid, a, f"{corp} has no route to run in our engine")
    if not imp.optimal_routes and _run_as_logged(imp, corp, routes):
        return
    specs = [_route_spec(imp, aid, a, corp, i, rt) for i, rt in enumerate(routes)]
    imp.last_revenue[corp] = sum(s.revenue for s in specs)
    if imp.optimal_routes:
        best = network.optimal_revenue(g, corp)
        imp.route_report.append((aid, corp, imp.last_revenue[corp], best.total, bool(best.optimal)))
    imp.apply(aid, a, lambda: RunRoutes(corp, tuple(specs)))


def _reach_step(imp: Importer, corp: str, step: str) -> None:
    """Pass the optional steps of the operating round until ``corp`` acts at ``step`` of
    its turn or a later one (or no pass is possible)."""
    g = imp.game
    at = STEP_INDEX[step]
    while True:
        r = g.state.round
        mine = r.kind == "operating" and g.acting() == corp
        if mine and STEP_INDEX[r.step] >= at:
            return
        if not imp.pass_step():
            return


def _at_step(imp: Importer, corp: str, step: str) -> bool:
    """Does ``corp`` act at ``step`` of its operating turn?"""
    g = imp.game
    r = g.state.round
    return r.kind == "operating" and g.acting() == corp and r.step == step


def _next_turn_at(imp: Importer, corp: str, step: str) -> None:
    """``corp`` acts past ``step`` of its turn (our engine skipped it, or the logged
    passes that ended the turn are still to come, :meth:`Importer.pass_step`): when its
    next turn comes with nothing logged in between (the rest of the round automatic),
    pass the steps of this turn and of that one up to ``step``; else leave everything as
    it was."""
    g = imp.game
    r = g.state.round
    if r.kind != "operating" or g.acting() != corp:
        return
    turn = (g.state.stock_rounds, r.number, r.index)
    start = len(g.log)
    while len(g.log) - start < MAX_PASSES and imp.pass_step():
        r = g.state.round
        acting = g.acting()
        if r.kind != "operating" or acting != corp:
            break  # another entity acts first
        if (g.state.stock_rounds, r.number, r.index) == turn:
            continue  # (this turn's steps)
        if STEP_INDEX[r.step] <= STEP_INDEX[step]:
            _reach_step(imp, corp, step)
            if _at_step(imp, corp, step):
                return
        break  # the next turn holds no such step
    while len(g.log) > start:  # (the passes of _reach_step included)
        g.undo()


def _run_as_logged(imp: Importer, corp: str, routes: list[dict[str, Any]]) -> bool:
    """Run the logged routes, each read as the first reading of its connections
    (:func:`first_reading`) with its logged revenue, and leave their check to the engine
    (which checks every route of a run): True when the engine took them.  False, nothing
    changed, when a route is not in the usual form (plain hex ids, a logged revenue) or the
    engine refuses the run: :func:`_route_spec` then reads each route in turn, trying every
    reading, and says where one diverges (the first reading is nearly always the route:
    the one taken for every route of the corpus).  The engine's check is the only one a
    route gets here, not the importer's then the engine's."""
    g = imp.game
    specs = []
    for rt in routes:
        train, conns, revenue = rt.get("train"), rt.get("connections"), rt.get("revenue")
        if not isinstance(train, str) or not isinstance(conns, list) or type(revenue) is not int:
            return False
        if not all(isinstance(c, list) and _plain(imp, c) for c in conns):
            return False
        nodes = rt.get("nodes")
        if nodes is not None and not (
            isinstance(nodes, list) and all(isinstance(n, str) for n in nodes)
        ):
            return False
        extension = rt.get("extension", [])
        if not isinstance(extension, list) or not all(isinstance(p, str) for p in extension):
            return False
        got = first_reading(imp.board, g.state.map, conns, nodes or None)
        if got is None:
            return False
        specs.append(RouteSpec(train, got[0], revenue, got[1], tuple(extension)))
    try:
        g.apply(RunRoutes(corp, tuple(specs)))
    except (IllegalAction, MapError, RouteError):
        return False
    imp.routes_checked += len(specs)
    imp.last_revenue[corp] = sum(s.revenue for s in specs)
    return True


def _plain(imp: Importer, conn: list[Any]) -> bool:
    """Is a logged connection made of hex ids only, as the logs have them (one subset
    test; an unhashable entry makes it not plain: :func:`_route_spec` tells it)?"""
    try:
        return imp.hex_ids.issuperset(conn)
    except TypeError:
        return False


def _route_spec(
    imp: Importer, aid: int | str, a: dict[str, Any], corp: str, i: int, rt: dict[str, Any]
) -> RouteSpec:
    g = imp.game
    train = imp.train(aid, rt | {"type": a["type"]}, "train")
    conns = rt.get("connections")
    if not isinstance(conns, list) or not all(isinstance(c, list) for c in conns):
        raise ExportError(f"action {aid} (run_routes): route {i + 1} has no connections")
    hexes: list[list[str]] = []
    known = imp.hexes
    for conn in conns:
        if _plain(imp, conn):
            hexes.append(conn)
            continue
        hexes.append([])
        for h in conn:
            hex_id = str(h).split(" ")[0]
            if hex_id not in known:
                raise ExportError(f"action {aid} (run_routes): unknown hex {h!r}")
            hexes[-1].append(hex_id)
    if train not in g.state.corporations[corp].trains:
        raise Divergence(aid, a, f"{corp} does not own train {train} in our engine")
    nodes = rt.get("nodes") if isinstance(rt.get("nodes"), list) else None
    try:
        route = route_from_connections(
            imp.board,
            g.state.map,
            corp,
            train,
            trains.distance(g, train),
            hexes,
            phases.revenue_key(g),
            nodes=[str(n) for n in nodes] if nodes else None,
        )
    except RouteError as exc:
        raise Divergence(aid, a, f"train {train}: {exc.reason}") from None
    imp.routes_checked += 1
    extension = rt.get("extension")
    if extension:  # (the bonus it earns is the engine's to check, with the whole run)
        if not isinstance(extension, list) or not all(isinstance(p, str) for p in extension):
            raise ExportError(f"action {aid} (run_routes): route {i + 1}: bad extension")
        return replace(network.spec(route), extension=tuple(extension))
    if "revenue" in rt:
        logged = int_field(rt["revenue"], a, "revenue")
        if route.revenue != logged:
            raise Divergence(
                aid,
                a,
                f"train {train} ({'-'.join(route.hexes)}) earns ${route.revenue} in our "
                f"engine, the log says ${logged}",
            )
    return network.spec(route)


def _dividend(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    kind = str(imp.field(aid, a, "kind"))
    if kind not in ("payout", "half", "withhold"):
        raise ExportError(f"action {aid} (dividend): unknown kind {kind!r}")
    if imp.last_revenue.get(corp, 0) == 0:
        return  # no revenue: our engine withholds (price left) by itself, as 18xx.games does
    imp.apply(aid, a, lambda: Dividend(corp, kind))


def _buy_train(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    train = imp.train(aid, a)
    price = imp.number(aid, a, "price")
    exchange = imp.train(aid, a, "exchange") if a.get("exchange") is not None else None
    variant = a.get("variant")
    if variant is not None and str(variant) != trains.train_type(train):
        raise ExportError(f"action {aid} (buy_train): unknown variant {variant!r} of {train}")
    imp.apply(aid, a, lambda: BuyTrain(corp, train, price, exchange))


def _discard_train(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    train = imp.train(aid, a)
    imp.apply(aid, a, lambda: DiscardTrain(corp, train))


def _buy_company(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    kind, _ = imp.entity(aid, a)
    if kind == "player":  # a player buys a private from another player (a stock round, or
        # from a president raising money for a forced train: our own use of the action)
        _, buyer = _player(imp, aid, a)
        private = imp.company(aid, a)
        price = imp.number(aid, a, "price")
        offered_by = None
        if "offered_by" in a:  # (our own: the buyer offered a president's sale)
            if a["offered_by"] != a["entity"]:
                raise ExportError(
                    f"action {aid} (buy_company): 'offered_by' names the buyer who offered "
                    f"(its entity {a['entity']!r}), not {a['offered_by']!r}"
                )
            offered_by = buyer

        def trade() -> TradePrivate:  # built when applied: the acting player may change
            seller = imp.game.state.privates[private].owner or ""
            acting = imp.game.acting()
            if acting is None or not imp.game.state.is_player(acting):
                # (an operating round: the president selling for a forced train offers
                # it, as the engine lists it, so the buyer answers: rounds/deals.py;
                # unless the export says the buyer offered it)
                acting = offered_by or seller
            return TradePrivate(acting, private, seller if acting == buyer else buyer, price)

        imp.apply(aid, a, trade)
        return
    corp = _corp_entity(imp, aid, a)
    private = imp.company(aid, a)
    price = imp.number(aid, a, "price")
    imp.apply(aid, a, lambda: BuyCompany(corp, private, price))


def _bankrupt(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    imp.apply(aid, a, lambda: Bankrupt(corp))


def _treasury_shares(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    """``issue_shares`` and ``redeem_shares`` (our own reading of them: the export
    writes the certificates moved, all of the acting corporation)."""
    corp = _corp_entity(imp, aid, a)
    certs = imp.field(aid, a, "shares")
    if not isinstance(certs, list) or not certs:
        raise ExportError(f"action {aid} ({a['type']}): 'shares' is not a list of certificates")
    for cert in certs:
        if imp.certificate(aid, a, cert)[0] != corp:
            raise ExportError(f"action {aid} ({a['type']}): {cert!r} is not a share of {corp}")
    ids = [str(c) for c in certs]
    if a["type"] == "issue_shares":
        if a.get("emergency") is True:  # (taken at the train step, not at the turn's start)
            _reach_step(imp, corp, "trains")
        imp.apply(aid, a, lambda: IssueShares(corp, len(ids)))
        imp.out_of_ipo.update(ids)  # (in the market now: bought from there)
        src, dst = IPO, POOL
    else:
        imp.apply(aid, a, lambda: RedeemShares(corp, len(ids)))
        imp.out_of_ipo.difference_update(ids)  # (back in the treasury)
        src, dst = POOL, IPO
    for c in ids:  # (the named ones, where the view holds them)
        if imp.certs.owner[c] == src:
            imp.certs.move(c, dst)
        else:
            where = "IPO" if src == IPO else "market"
            imp.note(aid, a, f"{c} is {imp.certs.where(c)}, not in the {where}")


def _buy_ferry(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    port = str(imp.field(aid, a, "port"))
    imp.apply(aid, a, lambda: BuyFerry(corp, port))


def _choose_ferry(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    private = imp.company(aid, a)
    port = str(imp.field(aid, a, "port"))
    imp.apply(aid, a, lambda: ChooseFerry(corp, private, port))


def _take_over(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    target = imp.corporation(aid, a)
    shares = imp.number(aid, a, "shares")
    imp.apply(aid, a, lambda: TakeOver(corp, target, shares))


def _answer_takeover(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    corp = _corp_entity(imp, aid, a)
    accept = imp.field(aid, a, "accept")
    if type(accept) is not bool:
        raise ExportError(f"action {aid} (answer_takeover): 'accept' is not true or false")
    imp.apply(aid, a, lambda: AnswerTakeover(corp, accept))


def _answer_deal(imp: Importer, aid: int | str, a: dict[str, Any]) -> None:
    """``answer_deal`` (our own: the other player's answer to a deal offered to him,
    rules.deals_need_consent)."""
    _, player = _player(imp, aid, a)
    accept = imp.field(aid, a, "accept")
    if type(accept) is not bool:
        raise ExportError(f"action {aid} (answer_deal): 'accept' is not true or false")
    imp.apply(aid, a, lambda: AnswerDeal(player, accept))


#: The handler of each logged action type.
HANDLERS: dict[str, Callable[[Importer, int | str, dict[str, Any]], None]] = {
    "bid": _bid,
    "par": _par,
    "buy_shares": _buy_shares,
    "sell_shares": _sell_shares,
    "pass": _pass,
    "lay_tile": _lay_tile,
    "place_token": _place_token,
    "run_routes": _run_routes,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "discard_train": _discard_train,
    "buy_company": _buy_company,
    "bankrupt": _bankrupt,
    "issue_shares": _treasury_shares,
    "redeem_shares": _treasury_shares,
    "buy_ferry": _buy_ferry,
    "choose_ferry": _choose_ferry,
    "take_over": _take_over,
    "answer_takeover": _answer_takeover,
    "answer_deal": _answer_deal,
}
