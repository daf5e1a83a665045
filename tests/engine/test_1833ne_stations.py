"""1833NE stations (seed 003, "会社一覧"): two per corporation (home free, one more at $80),
B&W's Worcester slot reserved for it until phase IV at $40, B&P's Boston slot from the
green tile until phase IV, and the joint StL&A / A&StL station placed by Sherbrooke's
first tile."""

from __future__ import annotations

from ne_scenario import opening

from eighteen.engine import network, phase_change
from eighteen.engine.rounds.or_token import next_token_cost


def test_two_stations_and_the_cheap_reserved_one() -> None:
    g = opening()
    assert next_token_cost(g, "RR") == 0  # home, placed when it first operates
    g.state.corporations["RR"].tokens_placed = 1
    assert next_token_cost(g, "RR") == 80
    g.state.corporations["RR"].tokens_placed = 2
    assert next_token_cost(g, "RR") is None  # no third station
    g.state.corporations["B&W"].tokens_placed = 1
    assert next_token_cost(g, "B&W", "E22") == 40 and next_token_cost(g, "B&W", "F25") == 80


def test_reservations_hold_until_phase_four() -> None:
    g = opening()
    held = network.reserved(g)
    assert held["E22"] == ["B&W"]
    assert "B&P" not in held.get("G22", [])  # only once Boston's green tile lies
    g.state.map.tiles["G22"] = ("N23", 4)
    g.invalidate_caches()
    assert "B&P" in network.reserved(g)["G22"]
    for on in ("3/5", "4/7", "6/9"):
        g.state.bought_types.append(on)
        phase_change.on_train_bought(g, on)
    g.invalidate_caches()
    held = network.reserved(g)
    assert "E22" not in held and "B&P" not in held.get("G22", [])


def test_joint_station_placed_by_the_first_tile() -> None:
    g = opening()
    assert not any(g.state.map.tokens.get("F5", []))
    network.lay_tile(g, "F5", "N11", 0)
    network.place_joint_tokens(g, "F5")  # what the track step does after a first tile
    assert sorted(g.state.map.tokens["F5"][0]) == ["A&StL", "StL&A"]
    up = next(iter(g.tables.data["upgrades"]["N11"]))  # the joint station moves as one
    rot = g.tables.data["upgrades"]["N11"][up][0]
    network.lay_tile(g, "F5", up, rot)
    assert sorted(t for c in g.state.map.tokens["F5"] for t in c) == ["A&StL", "StL&A"]


def test_boston_reservation_holds_one_slot_of_the_hex() -> None:
    g = opening()  # B&W's home station is in Boston
    g.state.bought_types.append("3/5")
    phase_change.on_train_bought(g, "3/5")
    network.lay_tile(g, "G22", "N23", 4)  # green Boston: B&W's station moves with its city
    b = network.board(g)
    bw_city = next(i for i, t in enumerate(g.state.map.tokens["G22"]) if "B&W" in t)
    other = 1 - bw_city
    g22 = {"G22"}
    # B&L's home (not placed yet) holds a slot of its city and B&P one slot of the hex:
    # nothing is left for the others
    g.invalidate_caches()
    assert list(network.token_options(g, "FRR", hexes=g22, connected=False)) == []
    g.state.map.tokens["G22"][other].append("B&L")
    g.state.corporations["B&L"].home_placed = True
    g.invalidate_caches()
    cities = b.face(g.state.map, "G22").cities
    assert sum(b.free_slots(g.state.map, "G22", k) for k in range(len(cities))) == 1
    # the last slot is B&P's
    assert list(network.token_options(g, "FRR", hexes=g22, connected=False)) == []
    assert list(network.token_options(g, "B&P", hexes=g22, connected=False)) == [("G22", other)]


def test_a_lay_pays_for_the_pass_it_completes() -> None:
    """1833NE rules, track: a lay costs at least $20, plus the bridges, tunnels and passes
    it completes.  The Framingham pass (F23 | E24, $20) is paid by the lay that joins track
    on both sides of it, once: not by a tile that only points at it, not again when the
    joined hex is upgraded."""
    from eighteen import load_title
    from eighteen.engine.map import Board
    from eighteen.engine.position import MapState

    t = load_title("1833ne")
    b, s = Board.of(t.doc), MapState()
    supply: dict[str, int | None] = dict.fromkeys(t.data["tiles"])

    def costs(hex_id: str, tile: str) -> dict[int, int]:
        opts = b.lay_options(
            s, None, {"yellow", "green"}, blocked=set(), tile_supply=supply,
            require_connection=False, hexes={hex_id}, tiles={tile},
        )  # fmt: skip
        return {o.rotation: o.cost for o in opts}

    # nothing on E24 yet: a Framingham tile toward the pass (edge 1) pays no pass
    assert costs("F23", "3")[0] == 0
    b.lay_tile(s, "E24", "8", 4)  # track from E24's edge 4 (the pass) to its edge 0
    # F23's tile 3 at rotation 0 (edges 0 and 1) completes the pass: $20
    assert costs("F23", "3") == {0: 20, 1: 20, 2: 0, 3: 0, 4: 0, 5: 0}
    b.lay_tile(s, "F23", "3", 0)
    # an upgrade of F23 keeps the pass joined: nothing more to pay for it
    assert costs("F23", "N42") == {1: 0, 2: 0}
