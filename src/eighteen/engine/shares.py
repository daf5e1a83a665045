"""Certificates: who holds what, presidency, floating, buying and selling.

Each corporation's certificates are ``<corp>_<i>``, ``i`` indexing its ``shares`` list
(``_0`` is the president's).  A certificate is owned by the IPO, the bank pool or a player.
The president is the player holding the president's certificate; when another player
holds strictly more, the two swap it for ordinary certificates of the same total
(seed 000, "presidency").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from eighteen.engine import market
from eighteen.engine.actions import IllegalAction, SellShares
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.state import IPO, POOL

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def cert_ids(g: Context, corp: str) -> list[str]:
    return [c for c, _ in g.tables.cert_table[corp]]


def cert_percent(g: Context, cert: str) -> int:
    pct = g.tables.cert_percents.get(cert)
    if pct is not None:
        return pct
    corp, i = cert.rsplit("_", 1)
    return int(g.tables.corporation(corp).shares[int(i)])


def cert_corp(cert: str) -> str:
    return cert.rsplit("_", 1)[0]


def president_cert(corp: str) -> str:
    return f"{corp}_0"


def certs_of(g: Context, corp: str, owner: str) -> list[str]:
    """The owner's certificates of ``corp``, president's first, then by index."""
    certs = g.state.certs
    return [c for c, _ in g.tables.cert_table[corp] if certs[c] == owner]


def percent_of(g: Context, corp: str, owner: str) -> int:
    certs = g.state.certs
    n = 0
    for c, p in g.tables.cert_table[corp]:
        if certs[c] == owner:
            n += p
    return n


def percents(g: Context, corp: str) -> dict[str, int]:
    """Owner -> percent of ``corp`` held (:func:`percent_of` of every owner holding some,
    in one pass over its certificates)."""
    certs = g.state.certs
    out: dict[str, int] = {}
    for c, p in g.tables.cert_table[corp]:
        o = certs[c]
        out[o] = out.get(o, 0) + p
    return out


def holdings(g: Context, owner: str) -> dict[str, int]:
    """Corporation -> percent the owner holds (:func:`percent_of` of every corporation,
    in table order)."""
    out = dict.fromkeys(g.tables.cert_table, 0)
    corp_of, percent = g.tables.cert_corps, g.tables.cert_percents
    for c in [c for c, o in g.state.certs.items() if o == owner]:  # one pass over them
        out[corp_of[c]] += percent[c]
    return out


def ordinary_certs_of(g: Context, corp: str, owner: str) -> list[str]:
    return [c for c in certs_of(g, corp, owner) if c != president_cert(corp)]


def player_corps(g: Context, player: str) -> list[str]:
    """Corporations of which the player holds a certificate, in table order."""
    return [corp for corp, pct in holdings(g, player).items() if pct > 0]


def counts_for_limit(g: Context, corp: str) -> bool:
    """Do this corporation's certificates count toward the certificate limit now?"""
    c = market.cell(g, corp)
    return c is None or not c.cert_limit_exempt


def cert_count(g: Context, player: str) -> int:
    """Certificates the player holds that count toward the limit (privates included
    when rules.privates_count_for_cert_limit)."""
    n = 0
    counts: dict[str, bool] = {}  # corporation -> counts_for_limit, asked once each
    corp_of = g.tables.cert_corps
    for cert in [c for c, o in g.state.certs.items() if o == player]:
        corp = corp_of.get(cert) or cert_corp(cert)
        ok = counts.get(corp)
        if ok is None:
            ok = counts[corp] = counts_for_limit(g, corp)
        if ok:
            n += 1
    if g.rules.privates_count_for_cert_limit:
        n += sum(1 for p in g.state.privates.values() if p.owner == player and not p.closed)
    return n


def cert_limit(g: Context) -> int:
    """The certificate limit for the player count; with certificate_limit_by_corporations
    it follows the corporations still in play (it falls when one closes, seed 003)."""
    n = len(g.state.players)
    table = (g.tables.doc.certificate_limit_by_corporations or {}).get(str(n))
    if table:
        in_play = sum(1 for c in g.state.corporations.values() if not c.closed)
        if str(in_play) in table:
            return int(table[str(in_play)])
        known = sorted(int(k) for k in table)
        below = [k for k in known if k <= in_play]
        return int(table[str(below[-1] if below else known[0])])
    return g.tables.certificate_limit(n)


def holding_limit_applies(g: Context, corp: str) -> bool:
    c = market.cell(g, corp)
    return c is None or not c.holding_limit_exempt


def sold_percent(g: Context, corp: str) -> int:
    """Percent no longer in the IPO (bought by players, granted, or since sold to the
    pool)."""
    return 100 - percent_of(g, corp, IPO)


def seat_order_from(g: Context, player: str) -> list[str]:
    """Players in seating order starting after ``player``."""
    names = [p.name for p in g.state.players]
    i = names.index(player)
    return names[i + 1 :] + names[: i + 1]


def update_president(g: Context, corp: str) -> None:
    """Hand the presidency to a player holding strictly more than the president; ties
    go to the first such player in seating order after the president."""
    cs = g.state.corporations[corp]
    pres = cs.president
    if pres is None:
        return
    best, best_pct = pres, percent_of(g, corp, pres)
    for name in seat_order_from(g, pres):
        pct = percent_of(g, corp, name)
        if pct > best_pct:
            best, best_pct = name, pct
    if best != pres:
        swap_presidency(g, corp, pres, best)


def swap_presidency(g: Context, corp: str, old: str, new: str) -> None:
    """``new`` gives ``old`` ordinary certificates worth the president's certificate and
    takes the president's certificate."""
    pc = president_cert(corp)
    need = cert_percent(g, pc)
    give: list[str] = []
    for c in ordinary_certs_of(g, corp, new):
        if sum(cert_percent(g, x) for x in give) >= need:
            break
        give.append(c)
    if sum(cert_percent(g, x) for x in give) != need:
        raise IllegalAction(f"{new} cannot take the presidency of {corp}: too few certificates")
    for c in give:
        g.state.certs[c] = old
    g.state.certs[pc] = new
    g.state.corporations[corp].president = new
    g.note(f"{new} becomes president of {corp}")


@implements("capitalization", "full", "incremental")
def check_float(g: Context, corp: str) -> None:
    """Float the corporation once float_percent has left the IPO; with full
    capitalization the bank pays it 10 x par (all shares at par)."""
    cs = g.state.corporations[corp]
    if cs.floated or cs.par is None:
        return
    if sold_percent(g, corp) < g.tables.float_percent(corp):
        return
    cs.floated = True
    if g.rules.capitalization == "full":
        total = sum(g.tables.corporation(corp).shares)
        pay(g, BANK, corp, cs.par * total // 10, f"{corp} capitalization")
    g.note(f"{corp} floats with ${cs.cash}")


@implements("treasury_share_price", "par", "market")
def treasury_unit(g: Context, corp: str) -> int:
    """What one 10% share from the treasury (IPO) costs now: the par price, or the market
    price with rules.treasury_share_price = "market"."""
    if g.rules.treasury_share_price == "market":
        return market.price(g, corp)
    return int(g.state.corporations[corp].par or 0)


def transfer_cert(g: Context, cert: str, owner: str) -> None:
    g.state.certs[cert] = owner


def buy_cert(g: Context, player: str, corp: str, source: str, price: int | None = None) -> str:
    """The player buys one ordinary certificate from the IPO (at par) or the pool (at the
    market).  Returns the certificate id.  Validation of limits is the caller's job."""
    certs = ordinary_certs_of(g, corp, IPO if source == "ipo" else POOL)
    if not certs:
        raise IllegalAction(f"no {corp} certificate in the {source}")
    cert = certs[0]
    pct = cert_percent(g, cert)
    if price is None:
        unit = treasury_unit(g, corp) if source == "ipo" else market.price(g, corp)
        assert unit is not None
        price = unit * pct // 10
    to = corp if (source == "ipo" and g.rules.capitalization == "incremental") else BANK
    pay(g, player, to, price, f"{player} buys a {corp} share")
    transfer_cert(g, cert, player)
    g.note(f"{player} buys {pct}% of {corp} from the {source} for ${price}")
    update_president(g, corp)
    check_float(g, corp)
    return cert


@implements("sell_before_operated", "anyone", "president_only", "nobody")
def sale_problem(
    g: Context, player: str, corp: str, percent: int, protect: bool = False
) -> str | None:
    """Why the player may not sell ``percent`` of ``corp`` now (None if he may).

    ``protect``: the sale must not change the presidency of ``corp`` (emergency sale for
    the corporation's own train, and a bankruptcy's sale that keeps its presidency,
    ``GameEnds.keeps_presidency``)."""
    cs = g.state.corporations[corp]
    if cs.par is None or cs.closed:
        return f"{corp} has no share price: its shares cannot be sold"
    rule = g.rules.sell_before_operated
    if rule != "anyone" and not cs.operated and (rule == "nobody" or player != cs.president):
        return f"{corp} has not operated yet: only its president may sell its shares"
    if percent <= 0 or percent % 10 and percent % 5:
        return f"cannot sell {percent}%"
    owned = percents(g, corp)  # (each owner's percent_of, found at once)
    held = owned.get(player, 0)
    if percent > held:
        return f"{player} holds only {held}% of {corp}"
    pool = owned.get(POOL, 0)
    if pool + percent > g.rules.pool_limit_percent:
        return f"the bank pool may hold at most {g.rules.pool_limit_percent}% of {corp}"
    left = held - percent
    if cs.president == player:
        pres_pct = cert_percent(g, president_cert(corp))
        others = [(owned.get(n, 0), n) for n in seat_order_from(g, player)[:-1]]
        top = max((p for p, _ in others), default=0)
        if top > left:
            if protect:
                return f"the sale would give away the presidency of {corp}"
            if top < pres_pct:
                return f"no other player can take the presidency of {corp}"
        else:
            ordinary = sum(cert_percent(g, c) for c in ordinary_certs_of(g, corp, player))
            if percent > ordinary:
                return f"the president's certificate of {corp} cannot go to the pool"
    if not _sellable_split(g, corp, player, percent):
        return f"{percent}% of {corp} does not match {player}'s certificates"
    return None


def _sellable_split(g: Context, corp: str, player: str, percent: int) -> bool:
    # with only 10% ordinary certificates (and the swap) any multiple of 10 works;
    # otherwise require an exact subset of ordinary certificates (or after a swap)
    size = g.tables.ordinary_size(corp)
    return size is None or percent % size == 0


def certs_sold(g: Context, certs: list[str], percent: int) -> list[str] | None:
    """The certificates of ``certs`` a sale of ``percent`` hands over: ordinary ones,
    largest first, as many as make the percent; None when they cannot make it."""
    sold: list[str] = []
    remaining = percent
    for c in sorted(certs, key=lambda c: -cert_percent(g, c)):
        pct = cert_percent(g, c)
        if pct <= remaining:
            sold.append(c)
            remaining -= pct
        if remaining == 0:
            break
    return None if remaining else sold


@implements("sell_drop", "row_per_share", "step_if_president")
def sell(g: Context, player: str, corp: str, percent: int) -> None:
    """Sell to the pool: swap the presidency first if needed, pay the market price for
    each certificate, then drop the price (seed 000: one row per share sold; no move
    for a corporation that has not floated). A price that reaches a closing cell is the
    caller's to act on (finance.check_closing)."""
    cs = g.state.corporations[corp]
    unit = market.price(g, corp)
    held = percent_of(g, corp, player)
    left = held - percent
    was_president = cs.president == player
    if was_president:
        best, best_pct = None, left
        for name in seat_order_from(g, player)[:-1]:
            pct = percent_of(g, corp, name)
            if pct > best_pct:
                best, best_pct = name, pct
        if best is not None:
            swap_presidency(g, corp, player, best)
    sold = certs_sold(g, ordinary_certs_of(g, corp, player), percent)
    if sold is None:
        raise IllegalAction(f"{percent}% of {corp} does not match {player}'s certificates")
    amount = unit * percent // 10
    for c in sold:
        transfer_cert(g, c, POOL)
    pay(g, BANK, player, amount, f"{player} sells {corp}")
    g.note(f"{player} sells {percent}% of {corp} for ${amount}")
    if g.rules.sell_drop == "row_per_share":
        if cs.floated or g.rules.sell_drop_before_float:
            market.move(g, corp, "down", len(sold))
    elif g.rules.sell_drop == "step_if_president" and was_president:
        # one step however many shares the president sells in his turn ("one column
        # only, however many are sold")
        dropped = getattr(g.state.round, "sale_dropped", None)
        if dropped is None or corp not in dropped:
            market.move(g, corp, "down", 1)
            if dropped is not None:
                dropped.append(corp)
    update_president(g, corp)


def sale_options(
    g: Context, player: str, problem: Callable[[Context, str, str, int], str | None]
) -> list[SellShares]:
    """Every sale (corporation, 10% steps up to the holding) that ``problem`` allows."""
    out = []
    for corp in player_corps(g, player):
        held = percent_of(g, corp, player)
        for pct in range(10, held + 1, 10):
            if problem(g, player, corp, pct) is None:
                out.append(SellShares(player, corp, pct))
    return out
