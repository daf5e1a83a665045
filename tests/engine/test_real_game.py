"""A real 18xx.games game (fixture 29133, 4 players, ends in bankruptcy) replayed through
the engine: every money movement agrees, and so does the final result.

The mapping here is a minimal stand-in for the real importer (src/eighteen/io, a later
issue): undo/redo filtering, certificate sources, the home token 18xx.games places after
the first lay on a trackless multi-city home hex, and the passes one engine needs and the
other does not.  Route revenues are compared with the engine's best routes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eighteen import Game, IllegalAction, load_title
from eighteen.engine import bank, views
from eighteen.engine.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    ExchangePrivate,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)

FIXTURE = Path(__file__).resolve().parents[3] / "shared/fixtures/18xx-games/1830/29133.json"


def effective_actions(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Undo/redo filtering (18xx-games-format §3.2), then auto_actions after parents."""
    slots: list[dict[str, Any] | None] = []
    stack: list[list[tuple[int, dict[str, Any]]]] = []
    for a in raw:
        if a["type"] == "undo":
            kept = [i for i, x in enumerate(slots) if x and x["type"] != "message"]
            if "action_id" in a:
                start = next((i for i in kept if slots[i]["id"] > a["action_id"]), len(slots))  # type: ignore[index]
            else:
                start = kept[-1] if kept else len(slots)
            group = [(i, slots[i]) for i in kept if i >= start]
            for i, _ in group:
                slots[i] = None
            stack.append(group)  # type: ignore[arg-type]
        elif a["type"] == "redo":
            for i, x in stack.pop():
                slots[i] = x
        else:
            slots.append(a)
            if a["type"] != "message":
                stack = []
    out = []
    for a in slots:
        if a:
            out.append(a)
            out.extend(a.get("auto_actions", []))
    return out


class Replayer:
    def __init__(self, data: dict[str, Any]) -> None:
        self.names = {p["id"]: f"P{p['id']}" for p in data["players"]}
        # 18xx.games sells a bankrupt president's shares: the title's option says so
        self.g = Game.new(
            load_title("1830"), list(self.names.values()), options=["bankrupt_sells_shares"]
        )
        self.pooled: set[str] = set()
        self.copies: dict[str, str] = {}  # laid tile copy -> hex
        self.route_mismatches: list[int] = []

    def apply(self, action: Action) -> None:
        """Apply, first passing optional operating steps 18xx.games ended by itself."""
        g = self.g
        for _ in range(6):
            try:
                g.apply(action)
                return
            except IllegalAction:
                acting = g.acting()
                if g.state.round.kind != "operating" or Pass(acting) not in g.legal_actions():  # type: ignore[arg-type]
                    raise
                g.apply(Pass(acting))  # type: ignore[arg-type]
        g.apply(action)

    def entity(self, a: dict[str, Any]) -> str:
        e = a["entity"]
        return self.names.get(e, e) if isinstance(e, int) else str(e)

    def step(self, a: dict[str, Any]) -> None:
        g, t, e = self.g, a["type"], self.entity(a)
        if t.startswith("program_") or t == "message":
            return
        if t == "bid":
            self.apply(Bid(e, a["company"], a["price"]))
        elif t == "par":
            self.apply(Par(e, a["corporation"], int(a["share_price"].split(",")[0])))
        elif t == "buy_shares":
            cert = a["shares"][0]
            source = "pool" if cert in self.pooled else "ipo"
            self.pooled.discard(cert)
            if g.tables.is_private(e):
                owner = g.state.privates[e].owner
                self.apply(ExchangePrivate(owner, e, source))  # type: ignore[arg-type]
            else:
                self.apply(BuyShares(e, cert.rsplit("_", 1)[0], source))
        elif t == "sell_shares":
            self.pooled.update(c for c in a["shares"] if not c.endswith("_0"))
            self.apply(SellShares(e, a["shares"][0].rsplit("_", 1)[0], a["percent"]))
        elif t == "pass":
            if Pass(e) in g.legal_actions():
                g.apply(Pass(e))
        elif t == "lay_tile":
            self.copies[a["tile"]] = a["hex"]
            tile = a["tile"].rsplit("-", 1)[0]
            if g.tables.is_private(e):
                owner = g.state.privates[e].owner
                self.apply(LayTile(owner, a["hex"], tile, a["rotation"], e))  # type: ignore[arg-type]
            else:
                self.apply(LayTile(e, a["hex"], tile, a["rotation"]))
        elif t == "place_token":
            copy, city = a["city"].rsplit("-", 1)
            hex_id = self.copies[copy]
            if g.tables.corporation(e)["home"] == hex_id and any(
                e in c for c in g.state.map.tokens.get(hex_id, [])
            ):
                return  # the engine placed the home token when the corporation first operated
            self.apply(PlaceToken(e, hex_id, int(city)))
        elif t == "run_routes":
            while not any(isinstance(x, RunRoutes) for x in g.legal_actions()):
                g.apply(Pass(g.acting()))  # type: ignore[arg-type]
            best = next(x for x in g.legal_actions() if isinstance(x, RunRoutes))
            if sum(r.revenue for r in best.routes) != sum(r["revenue"] for r in a["routes"]):
                self.route_mismatches.append(a["id"])
            g.apply(best)
        elif t == "dividend":
            if Dividend(e, a["kind"]) in g.legal_actions():
                g.apply(Dividend(e, a["kind"]))
        elif t == "buy_train":
            self.apply(BuyTrain(e, a["train"], a["price"], a.get("exchange")))
        elif t == "discard_train":
            self.apply(DiscardTrain(e, a["train"]))
        elif t == "buy_company":
            self.apply(BuyCompany(e, a["company"], a["price"]))
        elif t == "bankrupt":
            self.apply(Bankrupt(e))
        else:
            raise AssertionError(f"unexpected action type {t}")


@pytest.mark.skipif(not FIXTURE.exists(), reason="18xx.games fixture not available")
def test_fixture_29133_replays_to_the_recorded_result() -> None:
    data = json.loads(FIXTURE.read_text())
    r = Replayer(data)
    for a in effective_actions(data["actions"]):
        r.step(a)
    g = r.g
    assert g.is_over and g.state.end_reason == "bankruptcy"
    assert {name[1:]: value for name, value in views.ranking(g)} == data["result"]
    assert bank.total_money(g) == 12000
    assert r.route_mismatches == []  # the engine's best routes earn what was recorded
