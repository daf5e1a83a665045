"""Queries with shortcuts give the answers of their plain definitions, position after
position of random games."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from scenario import is_offer

from eighteen import Game, load_title
from eighteen.engine import network, phases, privates, route_network, shares, trains
from eighteen.engine.actions import ExchangePrivate, LayTile, Pass
from eighteen.engine.bots import pointless
from eighteen.engine.graph import GRAPH_TABLES, TrackGraph
from eighteen.engine.position import MapState
from eighteen.engine.reach import Reach
from eighteen.engine.rounds import or_track
from eighteen.engine.rounds.or_trains import BuyTrains, cheapest_bank_price, must_buy
from eighteen.engine.rounds.stock import BuySellPar, over_limits
from eighteen.engine.routefinder import optimize
from eighteen.engine.state import IPO, POOL
from eighteen.io.games18xx import import_game, read_export
from eighteen.title.model import (
    BlockHexes,
    ExchangeShare,
    ExclusiveHexes,
    FreeTileLay,
    RestrictCorporation,
    TileLays,
    VirtualStation,
)


def random_positions(
    title: str,
    seed: int,
    active_share: float,
    lays_first: bool = False,
    rng: random.Random | None = None,
) -> Iterator[Game]:
    """The positions of a random game (at most 1500 actions), its board's caches emptied
    first: each position is handed out, then an action is taken at random (a tile lay
    when there is one, with ``lays_first``; else, with chance ``active_share``, one that
    is not a pass), never a deal offered to another player (rules.deals_need_consent:
    the game does not wait on answers).  ``rng``: the generator to draw from (default:
    one seeded with ``seed``), shared with a caller that draws from it between
    positions."""
    rng = rng or random.Random(seed)
    g = Game.new(load_title(title), ["Ann", "Bob", "Cy", "Di"], seed=seed)
    network.board(g).clear_caches()
    for _ in range(1500):
        if g.is_over:
            return
        yield g
        acts = [a for a in g.legal_actions() if not pointless(g, a) and not is_offer(g, a)]
        lays = [a for a in acts if isinstance(a, LayTile)] if lays_first else []
        active = [a for a in acts if not isinstance(a, Pass)]
        g.apply(rng.choice(lays or (active if active and rng.random() < active_share else acts)))


def plain_over_limit(g: Game) -> list[str]:
    limit = phases.train_limit(g)
    return [c.id for c in g.tables.corporations if len(trains.counted(g, c.id)) > limit]


def plain_over_limits(g: Game, player: str) -> bool:
    return shares.cert_count(g, player) > shares.cert_limit(g) or any(
        shares.holding_limit_applies(g, c.id)
        and shares.percent_of(g, c.id, player) > g.rules.holding_limit_percent
        for c in g.tables.corporations
    )


def plain_on_sale_types(g: Game) -> list[str]:
    def has_copies(t: str) -> bool:
        return t in g.state.minted or any(trains.train_type(x) == t for x in g.state.depot)

    out = [next(t for t in g.tables.train_order if has_copies(t))]
    for t in g.tables.train_order:
        avail = g.tables.train(t).available_on
        if avail and t not in out and has_copies(t) and phases.reached(g, avail):
            out.append(t)
    return out


@pytest.mark.parametrize("title,seed", [("1830", 11), ("1830", 12), ("1833ne", 13)])
def test_shortcuts_agree_with_the_definitions(title: str, seed: int) -> None:
    rng = random.Random(seed)
    g = Game.new(load_title(title), ["Ann", "Bob", "Cy", "Di"], seed=seed)
    seen = set()
    for _ in range(3000):
        if g.is_over:
            break
        names = [p.name for p in g.state.players]
        for owner in [*names, IPO, POOL]:
            assert shares.holdings(g, owner) == {
                c.id: shares.percent_of(g, c.id, owner) for c in g.tables.corporations
            }
        for p in names:
            assert over_limits(g, p) == plain_over_limits(g, p)
        assert trains.over_limit(g) == plain_over_limit(g)
        if g.state.depot or g.state.minted:
            assert trains.on_sale_types(g) == plain_on_sale_types(g)
        r = g.state.round
        if r.kind == "operating" and r.index < len(r.order):
            corp = r.order[r.index]
            offers = trains.bank_offers(g, corp)
            assert cheapest_bank_price(g, corp, offers) == cheapest_bank_price(g, corp)
        rnd = g._round()
        every = rnd._steps  # type: ignore[attr-defined]  # each round's whole list
        for st in every:  # asked directly, each step's own definition
            assert st.is_active(g) == bool(st.active(g)), (st.name, r.kind)
        assert rnd.served(g) is next((st for st in every if st.active(g)), None)
        assert [st for st in rnd.steps(g) if st.active(g)] == [st for st in every if st.active(g)]
        acts = [a for a in g.legal_actions() if not pointless(g, a)]
        if r.kind == "stock":
            step = BuySellPar()
            trade = any(not isinstance(a, Pass | ExchangePrivate) for a in step.legal(g))
            assert step.can_trade(g) == trade
            seen.add(trade)
        active = [a for a in acts if not isinstance(a, Pass)]  # prefer doing something
        g.apply(rng.choice(active if active and rng.random() < 0.5 else acts))
    assert {True, False} <= seen or title == "1833ne"
    assert len(g.log) > 100


@pytest.mark.parametrize("title,seed", [("1830", 21), ("1833ne", 22)])
def test_whether_a_lay_is_possible_is_what_the_lays_made_say(title: str, seed: int) -> None:
    """``Board.any_lay`` (a turn's first question, answered without making the lays)
    against the lays made, with each kind's fee and the cash varied; and the track
    step's whole question (plain lays, then the privates') against its lays."""
    answers: set[tuple[str, bool]] = set()
    rng = random.Random(seed)
    for g in random_positions(title, seed, 0.6):
        r = g.state.round
        if r.kind != "operating" or r.index >= len(r.order):
            continue
        corp = r.order[r.index]
        b, m = network.board(g), g.state.map
        colors, supply = phases.tile_colors(g), network.tile_supply(g)
        blocked = set(rng.sample(sorted(b.hexes), len(b.hexes) // 2))  # (a private's hexes)
        made = b.lay_options(m, corp, colors, blocked=blocked, tile_supply=supply)
        free = {"new": 0, "upgrade": 0}
        assert b.any_lay(m, corp, colors, blocked, supply, [], free, 10**6) == bool(made)
        answers.add(("blocked", bool(made)))
        lays = network.lay_options(g, corp)
        cash = g.state.corporations[corp].cash
        for fees, money in (
            ({"new": 0, "upgrade": 0}, 10**6),
            ({"new": 0}, 10**6),
            ({"upgrade": 0}, 10**6),
            ({"new": 20, "upgrade": 0}, cash),
            ({"new": 0, "upgrade": 0}, 0),
        ):
            want = any(
                (fee := fees.get("upgrade" if lay.upgrade else "new")) is not None
                and lay.cost + fee <= money
                for lay in lays
            )
            assert network.any_lay(g, corp, fees, money) == want, (fees, money)
            answers.add((str(sorted(fees)), want))
        assert or_track._first_lay(g) == bool(or_track.lay_options(g))
    assert {want for _, want in answers} == {True, False}
    assert len({kinds for kinds, _ in answers}) == 4
    assert {want for kinds, want in answers if kinds == "blocked"} == {True, False}


@pytest.mark.parametrize("title,seed", [("1830", 23), ("1833ne", 24)])
def test_whether_the_train_step_is_active_is_what_its_actions_say(title: str, seed: int) -> None:
    """The train step's question (``_may_buy`` when no train must be bought) against its
    definition: a train must be bought, or an action other than the pass is legal."""
    step = BuyTrains()
    answers = set()
    for g in random_positions(title, seed, 0.7):
        r = g.state.round
        if r.kind != "operating" or r.index >= len(r.order):
            continue
        at = g.clone()  # asked as the turn comes to the step, whatever step it is at
        at.state.round.step = step.name
        at.invalidate_caches()
        if not step.is_current(at):
            continue  # (a corporation over the limit discards first)
        corp = r.order[r.index]
        want = must_buy(at, corp) or any(not isinstance(a, Pass) for a in step.legal(at))
        assert step.active(at) == want
        answers.add((must_buy(at, corp), want))
    assert answers >= {(False, True), (False, False)}


def test_over_limit_names_the_corporations_over_the_limit() -> None:
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy", "Di"])
    limit = phases.train_limit(g)
    assert trains.over_limit(g) == [] == plain_over_limit(g)
    g.state.corporations["NYC"].trains = [f"2-{i}" for i in range(limit)]
    assert trains.over_limit(g) == [] == plain_over_limit(g)
    g.state.corporations["NYC"].trains.append("3-0")
    g.state.corporations["PRR"].trains = [f"4-{i}" for i in range(limit + 2)]
    assert trains.over_limit(g) == ["PRR", "NYC"] == plain_over_limit(g)


@pytest.mark.parametrize("title", ["1830", "1833ne"])
def test_ordinary_certificate_sizes(title: str) -> None:
    t = load_title(title)
    for c in t.corporations:
        sizes = sorted(int(p) for p in c.shares[1:])
        same = all(s == sizes[0] for s in sizes)
        assert t.ordinary_size(c.id) == (sizes[0] if same else None)


@pytest.mark.parametrize("title,seed", [("1830", 11), ("1833ne", 13)])
def test_a_walk_stopping_at_the_first_joined_stop_agrees_with_the_reach(
    title: str, seed: int
) -> None:
    """``joins_other`` (a walk stopping at the first stop joined to a station) gives the
    answer read off the whole reach, position after position, with and without excluded
    hexes; so does the board's kept answer."""
    answers = set()
    for g in random_positions(title, seed, 0.5):
        b, m = network.board(g), g.state.map
        graph = b.graph(m)
        for c in g.tables.corporations:
            reach = graph.reach(c.id)
            far = sorted({s[0] for s in reach.joined} - {s[0] for s in reach.own})
            for excluded in [(), far[:1], far]:
                want = any(s not in reach.own and s[0] not in excluded for s in reach.joined)
                assert graph.joins_other(c.id, (), excluded) == want
                assert b.joins_other(m, c.id, (), excluded) == want
                answers.add(want)
    assert answers == {True, False}


@pytest.mark.parametrize("title,seed", [("1830", 35), ("1833ne", 32)])
def test_a_reach_walked_on_from_the_last_one_is_the_reach_walked_afresh(
    title: str, seed: int
) -> None:
    """``Board.reach`` walks a corporation's network on from its last reach where the board
    changed (``TrackGraph.extend``); asked at random moments, so that some lays and tokens
    and some none lie between two questions, it finds what a walk from its stations finds;
    its sorted hexes too, which it takes from the last reach when it reaches the same
    hexes."""
    rng = random.Random(seed)
    last: dict[str, Reach] = {}
    shared = 0  # (reaches walked on that took the last one's sorted hexes)
    for g in random_positions(title, seed, 0.7, rng=rng):
        b, m = network.board(g), g.state.map
        for c in g.tables.corporations:
            if rng.random() < 0.3:
                got, fresh = b.reach(m, c.id), b.graph(m).reach(c.id)
                assert (got.edges, got.cities, got.stops, got.joined, got.own) == (
                    fresh.edges,
                    fresh.cities,
                    fresh.stops,
                    fresh.joined,
                    fresh.own,
                ), c.id
                order = got.hex_order()
                assert order == sorted(fresh.edges), c.id
                before = last.get(c.id)
                shared += before is not None and before is not got and order is before._order
                last[c.id] = got
    assert b.walks["on"] > 100 and b.walks["over"] > 0
    assert shared > 0


@pytest.mark.parametrize("title,seed", [("1830", 35), ("1833ne", 36)])
def test_a_last_reach_kept_joins_what_it_joined_on_the_position_now(title: str, seed: int) -> None:
    """``TrackGraph.keeps``: where a corporation's last reach is said to be kept (no token
    moved, its track and its cities still there), the reach walked afresh joins every stop
    it joined; the run question answers from it then (``Board.joins_other``), and its
    answer is the plain one."""
    said: list[bool] = []
    for g in random_positions(title, seed, 0.7):
        b, m = network.board(g), g.state.map
        graph = b.graph(m)
        for c in g.tables.corporations:
            last = b._last_reach.get((c.id, frozenset()))
            if last is None or last.walk is None:
                continue
            kept = graph.keeps(last, c.id, frozenset(), m._kept_tokens())
            said.append(kept)
            fresh = graph.reach(c.id)
            if kept:
                assert last.joined <= fresh.joined, c.id
                assert last.own == fresh.own, c.id
            want = any(s not in fresh.own for s in fresh.joined)
            assert b.joins_other(m, c.id) == want, c.id
    assert said.count(True) > 50 and said.count(False) > 50


@pytest.mark.parametrize("title,seed", [("1830", 37), ("1833ne", 38)])
def test_whether_a_corporation_has_a_route_is_the_networks_answer(title: str, seed: int) -> None:
    """``has_route`` asks only the segments leaving the corporation's stations; its answer
    is the one of the whole network (:class:`Network`: a station with a segment, which
    the network cuts from every stop it reaches), with and without hexes excluded, every
    corporation at every position of a random game."""
    answers: dict[bool, int] = {True: 0, False: 0}
    for g in random_positions(title, seed, 0.7):
        b, m = network.board(g), g.state.map
        for c in g.tables.corporations:
            homes = [h for h, _ in m.token_cities(c.id)]
            for excluded in ((), tuple(homes[:1])):
                net = route_network.network(b, m, c.id, excluded=excluded)
                want = any(net.adj[t] for t in net.tokens)
                assert route_network.has_route(b, m, c.id, excluded=excluded) == want, c.id
                answers[want] += 1
    assert answers[True] > 100 and answers[False] > 100


#: The real game 29133 (18xx.games), whose position after action 114 the next test edits.
GAME_29133 = Path(__file__).resolve().parents[1] / "fixtures/18xx-games/1830/29133.json"
#: What B&O's network joins there (and after a tile laid where it does not reach).
BO_JOINED = {
    ("H12", "city", 0),
    ("H16", "city", 0),
    ("I15", "city", 0),
    ("J14", "city", 0),
    ("K13", "offboard", 0),
}


def _lay_c13(m: MapState) -> None:
    m.tiles["C13"] = ("7", 0)


def _take_up_i17(m: MapState) -> None:
    del m.tiles["I17"]


def _nyc_in_j14(m: MapState) -> None:
    m.tokens["J14"] = [["NYC"]]


def _nyc_in_g19(m: MapState) -> None:
    m.tokens["G19"][1].append("NYC")


@pytest.mark.parametrize(
    "edit,keeps,walks_on,joined",
    [
        pytest.param(None, True, True, BO_JOINED, id="nothing"),
        pytest.param(_lay_c13, True, True, BO_JOINED, id="a tile where B&O does not reach"),
        pytest.param(
            _take_up_i17, False, False, BO_JOINED - {("H16", "city", 0)}, id="its track gone"
        ),
        pytest.param(
            _nyc_in_j14, False, False, BO_JOINED - {("K13", "offboard", 0)}, id="its city full"
        ),
        pytest.param(_nyc_in_g19, False, True, BO_JOINED, id="a token where it does not reach"),
    ],
)
def test_a_last_reach_is_kept_only_where_no_token_moved_and_its_walk_carries_over(
    edit: Callable[[MapState], None] | None,
    keeps: bool,
    walks_on: bool,
    joined: set[tuple[str, str, int]],
) -> None:
    """B&O's reach after action 114 of 29133, then one edit of the position: the reach is
    kept (``TrackGraph.keeps``) where no token moved and the track it followed is there,
    and then the run question is answered off it, without a walk (``Board.joins_other``);
    elsewhere it walks, as before.  Any token moved says no, even where it changes
    nothing B&O found; track it followed gone, or a city it went through full, stops its
    walk on too (``TrackGraph.extend``, which shares those checks)."""
    game = import_game(read_export(GAME_29133), stop_at=114).game
    b, m = network.board(game), game.state.map
    b.clear_caches()
    b.reach(m, "B&O")  # B&O's last reach: this position's
    last = b._last_reach[("B&O", frozenset())]
    if edit is not None:
        edit(m)
    graph = b.graph(m)
    assert graph.keeps(last, "B&O", frozenset(), m._kept_tokens()) is keeps
    assert graph.reach("B&O").joined == joined
    assert b.joins_other(m, "B&O") is True
    assert b.walks["stopped"] == (0 if keeps else 1)
    assert (graph.extend(last, "B&O", frozenset()) is not None) is walks_on


@pytest.mark.parametrize("title,seed", [("1830", 37), ("1833ne", 34)])
def test_the_hexes_changed_between_two_layouts_are_read_off_the_patches(
    title: str, seed: int
) -> None:
    """``TrackGraph.changed_since``: the hexes whose tiles differ between two graphs of a
    game, read off the chain of patches that led from one to the other when it is short
    (``lineage``), compared otherwise; both are the plain difference of the layouts."""
    graphs: list[tuple[TrackGraph, dict[str, tuple[str, int]]]] = []
    for g in random_positions(title, seed, 0.7, lays_first=True):
        b, m = network.board(g), g.state.map
        if not graphs or graphs[-1][1] != m.tiles:
            graphs.append((b.graph(m), dict(m.tiles)))
    by_patches = compared = 0
    for j, (new, tiles) in enumerate(graphs):
        for old, before in graphs[max(0, j - 20) : j + 1]:
            plain = sorted({h for h, _ in tiles.items() ^ before.items()})
            assert new.changed_since(old) == plain
            # the lineage itself: the hexes its patches changed, up to old's layout
            upto = [layout is old.layout for layout, _ in new.lineage]
            if True in upto:
                hexes = {h for _, ch in new.lineage[: upto.index(True) + 1] for h in ch}
                assert sorted(hexes) == plain
                by_patches += 1
            elif new is not old:
                compared += 1  # further back than the lineage keeps: compared
    assert len(graphs) > 15 and by_patches > 5 * len(graphs) and compared > 0


@pytest.mark.parametrize("title,seed", [("1830", 12), ("1833ne", 13)])
def test_a_patched_graph_has_the_tables_of_a_graph_built_afresh(title: str, seed: int) -> None:
    """``TrackGraph.patched``: the graph of each new layout of a random game, made from
    the last one by replacing the changed hexes' paths, has the very tables a graph built
    from every hex has (path ids and their texts included); most are one lay on from the
    last graph, the hex known from the state's track key (``MapState.track_step``)."""
    patched = stepped = 0
    seen: dict[str, tuple[str, int]] | None = None
    for g in random_positions(title, seed, 0.7, lays_first=True):
        b, m = network.board(g), g.state.map
        if m.tiles != seen:
            seen = dict(m.tiles)
            step = m.track_step()
            got, fresh = b.graph(m), TrackGraph(b, m)
            patched += bool(got.lineage)
            stepped += step is not None and bool(got.lineage) and got.lineage[0][1] == (step[1],)
            for name in GRAPH_TABLES:
                assert getattr(got, name) == getattr(fresh, name), name
            # every path is found by its text, and only the paths of the graph are
            assert {got.paths[pid].text: pid for pid in got.text_id.values()} == got.text_id
            assert sorted(got.text_id.values()) == [i for i, p in enumerate(got.paths) if p.hex]
    assert patched > 15
    assert stepped == patched  # (each layout here is one lay on from the last)


def _same_tables(got: TrackGraph, fresh: TrackGraph) -> list[str]:
    """The tables in which two graphs differ."""
    return [name for name in GRAPH_TABLES if getattr(got, name) != getattr(fresh, name)]


@pytest.mark.parametrize("title,seed", [("1830", 16), ("1833ne", 16)])
def test_the_graphs_patched_from_one_another_get_their_own_tables_back(
    title: str, seed: int
) -> None:
    """The graphs patched from one another share their tables, changed in place
    (``TrackGraph.patched``): a graph asked for again, in any order and after any other,
    holds its own layout's tables (those of a graph built afresh), and so does a graph
    kept while others were asked for, once made current.  One table's objects serve
    every graph of the game here (no layout differs by more than a lay from the last;
    the board keeps them all, fewer than its ``CACHE_SIZE``)."""
    positions: list[MapState] = []
    for g in random_positions(title, seed, 0.7, lays_first=True):
        m = g.state.map
        if not positions or positions[-1].tiles != m.tiles:
            positions.append(m.copy())
    b = network.board_of(load_title(title))
    positions = positions[: b.CACHE_SIZE]
    assert len(positions) >= 20
    b.clear_caches()
    graphs = [b.graph(m) for m in positions]  # each patched from the last
    assert len({id(g.paths) for g in graphs}) == 1
    order = random.Random(seed).sample(range(len(positions)), len(positions))
    for i in order + order[::-1]:  # (the way back: every edge turned round again)
        got = b.graph(positions[i])
        assert got is graphs[i]
        assert _same_tables(got, TrackGraph(b, positions[i])) == [], i
    kept = graphs[3]
    b.graph(positions[-1])
    assert kept.current() is kept
    assert _same_tables(kept, TrackGraph(b, positions[3])) == []
    b.clear_caches()


def test_a_kept_route_network_reads_its_own_graph_after_another_layout() -> None:
    """The board keeps a corporation's route network (``route_network.network``), which
    holds its position's graph: a network asked for again after the graph of a later
    layout was made (the two sharing their tables) searches its own track.  Each search
    here (3-trains, after 4-trains found the network) is the one made on an emptied
    board."""

    title = load_title("1830")
    b = network.board_of(title)
    positions: list[MapState] = []
    for g in random_positions("1830", 17, 0.7, lays_first=True):
        m = g.state.map
        if not positions or positions[-1].tiles != m.tiles:
            positions.append(m.copy())
    searched = 0
    for before, after in zip(positions[:-1], positions[1:], strict=True):
        for corp in sorted({c for cities in before.tokens.values() for t in cities for c in t}):
            b.clear_caches()
            alone = optimize(b, before, corp, [("3", 3)], "green").routes
            b.clear_caches()
            optimize(b, before, corp, [("4", 4)], "green")
            b.graph(after)  # patched from the network's graph: the tables now after's
            assert optimize(b, before, corp, [("3", 3)], "green").routes == alone
            searched += 1
    assert searched > 40
    b.clear_caches()


def test_a_patch_of_two_neighbours_is_undone_whole() -> None:
    """Two neighbouring hexes changed by one patch share a side, whose table entry each
    hex's change rewrote: the graph patched from gets the entry as it was before both."""
    b = network.board_of(load_title("1830"))
    b.clear_caches()
    m = MapState()
    m.tiles["C11"] = ("9", 0)  # a straight toward B12 (edge 3): blank hexes of 1830
    first = b.graph(m)
    n = m.copy()
    n.tiles["C11"] = ("8", 1)
    n.tiles["B12"] = ("9", 0)  # a straight toward C11 (edge 0)
    both = first.patched(n, ["C11", "B12"])
    assert both is not None
    assert _same_tables(both, TrackGraph(b, n)) == []
    assert first.current() is first
    assert _same_tables(first, TrackGraph(b, m)) == []
    assert both.current() is both
    assert _same_tables(both, TrackGraph(b, n)) == []
    b.clear_caches()


def test_a_hex_showing_other_stops_is_numbered_afresh_and_its_reach_walked_afresh() -> None:
    """A tile showing other stops than the hex did (a town on a blank hex: a test setup)
    cannot be patched in (the stop ids would move): the graph is built afresh, with its
    own numbering, and a reach is not walked on across the two numberings."""
    b = network.board_of(load_title("1830"))
    b.clear_caches()
    m = MapState()
    b.place_token(m, "PRR", "H12", 0)  # its home city, track toward H10 and H14
    b.reach(m, "PRR")
    first = b.graph(m)
    assert b.walks == {"on": 0, "over": 0, "fresh": 1, "stopped": 0}
    m.tiles["H14"] = ("3", 0)  # tile 3, a town, toward H12 (edge 1) and I13 (edge 0)
    got = b.reach(m, "PRR")
    g = b.graph(m)
    assert g.numbering is not first.numbering and g.lineage == ()
    assert b.walks == {"on": 0, "over": 1, "fresh": 1, "stopped": 0}  # (extend said None)
    fresh = g.reach("PRR")
    assert (got.edges, got.cities, got.stops, got.joined) == (
        fresh.edges,
        fresh.cities,
        fresh.stops,
        fresh.joined,
    )
    assert got.joined == {("H12", "city", 0), ("H14", "town", 0)}


def test_a_hex_changed_and_changed_back_is_not_a_change() -> None:
    """A tile laid and taken away again (test setups) leaves the layout as it was: the
    patches changed the hex twice, ``changed_since`` finds no change.  (The board hands
    out the first graph again for that layout; the patch is made here.)"""
    g = Game.new(load_title("1830"), ["Ann", "Bob", "Cy", "Di"], seed=1)
    b = network.board(g)
    b.clear_caches()
    m = g.state.map
    first = b.graph(m)
    m.tiles["C11"] = ("9", 0)
    laid = b.graph(m)
    del m.tiles["C11"]
    back = laid.patched(m, ["C11"])
    assert back is not None and b.graph(m) is first
    assert [len(x.lineage) for x in (first, laid, back)] == [0, 1, 2]
    assert laid.changed_since(first) == ["C11"]
    assert back.changed_since(laid) == ["C11"]
    assert back.changed_since(first) == []


def test_the_privates_holding_each_power() -> None:
    """``Tables.holders``: the privates a question about one power looks at (seed 000's
    1830 privates; the 1833NE overview's six)."""
    t1830, t1833 = load_title("1830"), load_title("1833ne")
    assert t1830.holders(BlockHexes) == ("SV", "CS", "DH", "MH", "CA", "BO")
    assert t1830.holders(FreeTileLay) == ("CS", "DH")
    assert t1830.holders(ExchangeShare) == ("MH",)
    assert t1830.holders(VirtualStation) == ()
    assert t1833.holders(VirtualStation) == ("P4", "P6")
    assert t1833.holders(ExclusiveHexes) == ("P6",)
    assert t1833.holders(RestrictCorporation) == ("P2",)
    assert t1833.holders(TileLays) == ("P3",)


@pytest.mark.parametrize("title,seed", [("1830", 41), ("1833ne", 42)])
def test_private_powers_read_through_their_holders_are_those_of_every_private(
    title: str, seed: int
) -> None:
    """The questions that look only at a power's holders answer as a look at every
    private does, position after position of a random game."""
    rng = random.Random(seed)
    g = Game.new(load_title(title), ["Ann", "Bob", "Cy", "Di"], seed=seed)
    t = g.tables
    kinds = {type(a) for p in t.privates for a in p.abilities}
    corps = {c.id for c in t.corporations}
    for _ in range(800):
        if g.is_over:
            break
        s = g.state.privates
        with_player = [
            p.id for p in t.privates if not s[p.id].closed and s[p.id].owner not in corps
        ]
        assert privates.blocked_hexes(g) == {
            h for pid in with_player for ab in t.abilities(pid, BlockHexes) for h in ab.hexes
        }
        for c in t.corporations:
            owned = [p.id for p in t.privates if s[p.id].owner == c.id and not s[p.id].closed]
            assert privates.owned_by(g, c.id) == owned
            for kind in kinds:
                assert privates.owned_by(g, c.id, kind) == [
                    pid for pid in owned if t.abilities(pid, kind)
                ]
            assert privates._restrictions(g, c.id) == [
                ab
                for pid in with_player
                for ab in t.abilities(pid, RestrictCorporation)
                if ab.corporation == c.id
            ]
            assert privates.virtual_stations(g, c.id) == [
                ab for pid in owned for ab in t.abilities(pid, VirtualStation)
            ]
            assert privates.excluded_hexes(g, c.id) == {
                h
                for p in t.privates
                if s[p.id].owner != c.id
                for ab in t.abilities(p.id, ExclusiveHexes)
                for h in ab.hexes
            }
        acts = [a for a in g.legal_actions() if not pointless(g, a)]
        g.apply(rng.choice(acts))
