"""What the generic engine can run: one table shared by the engine and the compiler.

``Game`` refuses compiled tables for which :func:`unsupported` finds anything, and
``eighteen validate`` warns (W198) about the same findings, located in the title's files
(:func:`findings`). :func:`approximated` lists what the engine accepts but does not play
yet (it runs the game without it). Both read the compiled form
(docs/compiled-format.md), so a title is judged exactly as the engine will see it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Rule fields the engine implements, with the values it accepts (None: any value).
RULES: dict[str, set[Any] | None] = {
    "capitalization": {"full", "incremental"},
    "float_percent": None,
    "ipo_dividends": None,
    "pool_dividends": None,
    "holding_limit_percent": None,
    "pool_limit_percent": None,
    "sell_in_first_stock_round": None,
    "sell_buy_order": {"sell_buy_sell", "sell_buy"},
    "sell_drop": {"row_per_share", "step_if_president"},
    "dividend_move": {"right_left", "by_ratio"},
    "sold_out_rise": None,
    "sell_drop_before_float": None,
    "buy_after_sell_same_corporation": None,
    "operating_order": {"share_price", "first_ascending_then_price"},
    "tile_lays": None,
    "reorder_after_emergency_sales": None,
    "private_auction": {"waterfall"},
    "auction_min_raise": None,
    "auction_bidoff": {"seating_from_best", "lowest_bidder_drops"},
    "auction_priority": {"after_last_buyer", "next_in_turn"},
    "auction_price_drop": None,
    "auction_forced_price": None,
    "brown_multiple_buy_from_ipo": None,
    "private_price_min_factor": None,
    "private_price_max_factor": None,
    "privates_count_for_cert_limit": None,
    "private_trades_between_players": None,
    "private_trades_in_first_stock_round": None,
    "train_buy_from_corporation_min": None,
    "must_own_train": None,
    "president_may_sell_for_train": None,
    "bankruptcy": {"game_ends", "player_eliminated"},
    "bank_broken": {"end_of_or_set", "end_of_round"},
    "home_token_reserved": None,
    "upgrade_must_add_track": None,
    "private_values_count_at_end": None,
    "bankrupt_sells_shares": None,
    # extensions (incremental capitalization and its family)
    "treasury_share_price": {"par", "market", None},
    "sell_before_operated": {"anyone", "president_only", "nobody", None},
    "president_certificate_to_market": {False, None},
    "stock_round_end_market_drop": None,
    "issue_redeem": None,
    "emergency_issue": None,
    "emergency_money": None,
    "president_may_fund_dearer_variant": {False, None},
    "emergency_sales_keep_president": None,
    "emergency_buy_from_bank_only": None,
    "bankrupt_shares_unmoved": None,
    "dividend_options": None,
    "half_pay_retain_multiple": None,
    "by_ratio": None,
    "obsolete_trains_count_for_limit": None,
    "obsolete_trains_tradable": None,
    "paid_stops_include_station": None,
    "private_price_min": None,
    "private_sellers": {"any_player", "president", None},
    "auction_all_pass_revenue": None,
    "auction_first_bid_at_face": None,
    "must_own_train_always": None,
    "bank_reserve": None,
    "lay_cost_rule": {"add", None},
    "turn_any_order": None,
    "stall_ends_game": None,
}

#: Private abilities the engine plays.
ABILITIES = {
    "block_hexes",
    "tile_lay",
    "tile_lays",
    "grant_share",
    "exchange_share",
    "close_on_train",
    "no_sale_to_corporation",
    "purchase_fee",
    "ferry_multiplier",
    "bonus_multiplier",
    "restrict_corporation",
    "virtual_station",
    "exclusive_hexes",
}

#: Abilities the engine accepts but does not play yet.
APPROXIMATED_ABILITIES: dict[str, str] = {}

#: Phase and train events the engine runs.
EVENTS = {"close_privates", "close_player_privates"}

#: Bonus kinds the route side scores.
BONUS_KINDS = {"connection", "interconnection"}


def _bad_value(value: Any, ok: set[Any] | None) -> bool:
    if ok is None:
        return False
    return value not in ok


def findings(data: Mapping[str, Any]) -> list[tuple[str, tuple[str | int, ...], str]]:
    """What in these compiled tables the engine cannot run, each as (file kind, path in
    that file, message): ``("title", ("rules", "takeovers"), "rules.takeovers")``."""
    out: list[tuple[str, tuple[str | int, ...], str]] = []
    rules = data.get("rules", {})
    for key, value in rules.items():
        if key not in RULES:
            if value not in (None, False, [], {}):
                out.append(("title", ("rules", key), f"rules.{key}"))
        elif _bad_value(value, RULES[key]):
            out.append(("title", ("rules", key), f"rules.{key} = {value!r}"))
    for i, p in enumerate(data.get("privates", [])):
        for k, ab in enumerate(p.get("abilities", [])):
            if ab["type"] not in ABILITIES and ab["type"] not in APPROXIMATED_ABILITIES:
                msg = f"private {p['id']} ability {ab['type']}"
                out.append(("privates", ("privates", i, "abilities", k, "type"), msg))
    for kind in ("trains", "phases"):
        for i, row in enumerate(data.get(kind, [])):
            for k, ev in enumerate(row.get("events", []) or []):
                if ev not in EVENTS:
                    out.append((kind, (kind, i, "events", k), f"event {ev}"))
    return out


def unsupported(data: Mapping[str, Any]) -> list[str]:
    """What in these compiled tables the engine cannot run (empty: it can)."""
    return [msg for _, _, msg in findings(data)]


def approximated(data: Mapping[str, Any]) -> list[str]:
    """What the engine accepts in these tables but does not play yet."""
    out: list[str] = []
    for p in data.get("privates", []):
        for ab in p.get("abilities", []):
            if ab["type"] in APPROXIMATED_ABILITIES:
                out.append(
                    f"private {p['id']} ability {ab['type']} "
                    f"({APPROXIMATED_ABILITIES[ab['type']]}) is not played yet"
                )
    for b in data.get("bonuses", []) or []:
        if b.get("kind") not in BONUS_KINDS:
            out.append(f"bonus {b['id']} of kind {b.get('kind')} is not scored yet")
    return out
