"""18xx.games' certificates (eighteen.io.games18xx_certs): who holds which certificate as
18xx.games names them, measured on the corpus (whose files name every certificate they
move and sell only what the seller holds); the import's notes on names it would refuse;
the export's names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from corpus_18xx import action, export

from eighteen import Game, load_title
from eighteen.commands.import18xx import cmd_import
from eighteen.engine.bots import make_bots, play
from eighteen.io.games18xx import ExportError, export_game, import_game
from eighteen.io.games18xx_certs import CertNames
from eighteen.io.games18xx_import import Importer


def _held(name: str, aid: int, corp: str) -> tuple[dict[str, list[str]], str | None]:
    """After the file's action ``aid``: each holder's certificates of ``corp`` (in the
    order 18xx.games keeps them) and the corporation's president."""
    imp = Importer(export(name))
    imp.run(stop_at=aid)
    holders = ("Player 1", "Player 2", "pool")
    return {h: imp.certs.of(h, corp) for h in holders}, imp.game.state.corporations[corp].president


def test_a_purchase_that_makes_a_president_hands_him_the_presidents_certificate() -> None:
    """g2p_s2002, action 119: Player 1 buys NYNH_4 (30% against Player 2's 20%); he
    gives his first two certificates, NYNH_2 and NYNH_3, for NYNH_0 (the file has him
    sell NYNH_4, the one left besides the president's, at action 140)."""
    assert _held("g2p_s2002", 118, "NYNH") == (
        {"Player 1": ["NYNH_2", "NYNH_3"], "Player 2": ["NYNH_0"], "pool": ["NYNH_1"]},
        "Player 2",
    )
    assert _held("g2p_s2002", 119, "NYNH") == (
        {"Player 1": ["NYNH_4", "NYNH_0"], "Player 2": ["NYNH_2", "NYNH_3"], "pool": ["NYNH_1"]},
        "Player 1",
    )
    assert action(export("g2p_s2002"), 140)["shares"] == ["NYNH_4"]


def test_a_sale_that_leaves_another_the_most_swaps_the_presidency() -> None:
    """g2p_s2001, action 121: Player 2 sells four B&O certificates and keeps the
    president's (20%) against Player 1's 30%: Player 1 gives his first two, B&O_1 and
    B&O_4, for B&O_0 (the file has Player 2 sell B&O_1 at action 206)."""
    assert _held("g2p_s2001", 121, "B&O") == (
        {
            "Player 1": ["B&O_5", "B&O_0"],
            "Player 2": ["B&O_1", "B&O_4"],
            "pool": ["B&O_2", "B&O_3", "B&O_6", "B&O_7"],
        },
        "Player 1",
    )
    assert action(export("g2p_s2001"), 206)["shares"] == ["B&O_1"]


def test_a_partial_sale_of_the_presidents_certificate() -> None:
    """g2p_s2009, action 112: Player 2 holds only PRR_0 and sells 10% of it (the file:
    ``["PRR_0"]``, 10%); Player 1 (20%) takes it, his PRR_3 and PRR_5 go to the market,
    and Player 2 takes the market's first certificate back, PRR_1 (which the file has
    him sell at action 127)."""
    assert _held("g2p_s2009", 111, "PRR") == (
        {
            "Player 1": ["PRR_3", "PRR_5"],
            "Player 2": ["PRR_0"],
            "pool": ["PRR_1", "PRR_2", "PRR_4"],
        },
        "Player 2",
    )
    assert _held("g2p_s2009", 112, "PRR") == (
        {
            "Player 1": ["PRR_0"],
            "Player 2": ["PRR_1"],
            "pool": ["PRR_2", "PRR_4", "PRR_3", "PRR_5"],
        },
        "Player 1",
    )
    assert action(export("g2p_s2009"), 127)["shares"] == ["PRR_1"]


def _renamed(name: str, aid: int, shares: list[str]) -> dict[str, Any]:
    data = export(name)
    action(data, aid)["shares"] = shares
    return data


def test_the_import_notes_a_name_18xx_games_would_refuse_and_goes_on() -> None:
    """A sale of a certificate in the market, a purchase of one a player holds: each is
    noted with its action; the replay goes on by the percents to the file's result."""
    res = import_game(_renamed("g2p_s2009", 127, ["PRR_2"]))
    assert res.notes == ["action 127 (sell_shares): PRR_2 is in the market, not the seller's"]
    assert res.mismatches() == []
    res = import_game(_renamed("g2p_s2001", 262, ["B&O_5"]))  # (B&O_2 from the market)
    assert res.notes == [
        "action 262 (buy_shares): B&O_5 is Player 1's, in neither the IPO nor the market"
    ]
    assert res.mismatches() == []


def test_the_reports_list_the_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(_renamed("g2p_s2009", 127, ["PRR_2"])))
    assert cmd_import(str(path)) == 0
    out = capsys.readouterr().out
    assert (
        "notes: 1 certificate names 18xx.games would not take\n"
        "  action 127 (sell_shares): PRR_2 is in the market, not the seller's\n"
    ) in out
    other = tmp_path / "g2p_s2009.json"
    other.write_text(json.dumps(export("g2p_s2009")))
    assert cmd_import([str(path), str(other)]) == 0  # (a batch: the count on its line)
    assert capsys.readouterr().out == (
        f"ok   {path} (1 certificate note)\nok   {other}\n2/2 matched\n"
    )
    assert cmd_import(str(path), fmt="json") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["files"][0]["notes"] == [
        "action 127 (sell_shares): PRR_2 is in the market, not the seller's"
    ]


def test_a_sale_that_hands_the_presidency_on_names_the_sellers_certificate() -> None:
    """1833NE, random 3-player seed 1, action 131: Player 2 sells the 20% of his
    president's certificate, all he holds of A&StL, and the sale closes it.  The export
    names that certificate (it named two of others' before: Player 1's A&StL_1 and the
    market's A&StL_2), and its import notes nothing."""
    names = ["Player1", "Player2", "Player3"]
    g = Game.new(load_title("1833ne"), players=names, seed=1)
    for _ in play(g, make_bots("random", names, 1)):
        pass
    exported = json.loads(json.dumps(export_game(g)))
    assert exported["actions"][130] == {
        "type": "sell_shares",
        "shares": ["A&StL_0"],
        "percent": 20,
        "entity": 2,
        "entity_type": "player",
        "id": 131,
    }
    res = import_game(exported)
    assert res.notes == [] and res.game.state_hash() == g.state_hash()


def test_the_view_follows_several_moves_of_one_action() -> None:
    """One action moving A's certificate to D, B's to X and X's to C (10% each): X's
    count is unchanged, yet the view must move B's to C, as the counts ask."""
    g = Game.new(load_title("1830"), players=["A", "B", "C"], seed=1)
    view = CertNames(g)
    first = dict(view.seen) | {"PRR_0": "A", "PRR_1": "A", "PRR_2": "B", "PRR_3": "X"}
    assert view.sync(first) == [
        ("PRR_0", "ipo", "A"),
        ("PRR_1", "ipo", "A"),
        ("PRR_2", "ipo", "B"),
        ("PRR_3", "ipo", "X"),
    ]
    view.sync(first | {"PRR_1": "D", "PRR_2": "X", "PRR_3": "C"})
    assert {h: view.of(h, "PRR") for h in "ABCDX"} == {
        "A": ["PRR_0"],
        "B": [],
        "C": ["PRR_2"],
        "D": ["PRR_1"],
        "X": ["PRR_3"],
    }


@pytest.mark.parametrize("cert", ["PRR_01", "PRR_9", "PRR", 7])
def test_a_certificate_id_not_of_the_title_is_bad_input(cert: Any) -> None:
    """Only the title's own ids (``PRR_0`` to ``PRR_8`` in 1830), not another spelling
    of one (``PRR_01``): one line naming the action."""
    with pytest.raises(ExportError) as err:
        import_game(_renamed("g2p_s2009", 127, [cert]))
    assert str(err.value) == f"action 127 (sell_shares): unknown certificate {cert!r}"


def test_an_export_written_before_names_were_18xx_games_still_imports() -> None:
    """tests/fixtures/exports: our export of a random 3-player 1833NE game as written
    before (its sales named our engine's certificates): it imports to its own result,
    and the four names 18xx.games would refuse are noted."""
    path = Path(__file__).resolve().parents[1] / "fixtures/exports"
    data = json.loads((path / "1833ne-random-3p-seed1-2026-12-07.json").read_text())
    res = import_game(data)
    assert res.divergence is None and res.mismatches() == []
    assert res.notes == [
        "action 131 (sell_shares): A&StL_1 is Player1's, not the seller's",
        "action 131 (sell_shares): A&StL_2 is in the market, not the seller's",
        "action 187 (sell_shares): HR_1 is Player2's, not the seller's",
        "action 187 (sell_shares): HR_2 is in the market, not the seller's",
    ]
