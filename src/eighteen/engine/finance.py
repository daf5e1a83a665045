"""Corporate finance of incremental capitalization (seed 003, "capitalization" and "unique
mechanisms"; facts §1-§2): treasury share prices, dividend-driven price moves, half
pay-outs, issuing and redeeming shares, emergency issues, and closing a corporation whose
price reaches a closing cell.

Each function is selected by a rules field, so titles without these fields keep the
classic behaviour of seed 000/002:

- ``rules.treasury_share_price``: ``market`` - a share from the treasury (the IPO) costs the
  current price and the money goes to the corporation; absent or ``par`` - the par price.
- ``rules.dividend_move`` of kind ``by_ratio`` with its ``steps``: the amount paid to the
  shares divided by the share price picks the row with the highest ``at_least`` whose
  ``min_price`` is met; its ``steps`` move the price (negative: left).
- ``rules.half_pay_retain_multiple``: a half pay-out keeps half the revenue, rounded down to
  this multiple, and pays the rest.
- ``rules.issue_redeem``: once per operating turn a corporation issues treasury shares to
  the market one cell below its price, or redeems market shares one cell above; the price
  does not move; at most the shares players hold (the president's certificate counts for
  its size) minus those already in the market.
- ``rules.emergency_issue`` (the ``issue_shares`` source of ``rules.emergency_money``, with
  its terms): shares a corporation must issue before its president pays for a
  compulsory train; every share drops the price ``drop_per_share`` cells and, with bundle
  pricing, every share sells ``sale_offset`` cells from the price after the whole drop
  (per-share pricing: from the price after its own drop, each a cell lower than the last);
  no share is issued at a price below ``min_price`` or for nothing.
- A market cell with ``closes`` closes the corporation: its cash goes to the bank, its
  trains, stations, privates and ferries leave the game, its certificates are worthless
  (they return to the IPO, and it never starts again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine import market, network, privates, shares
from eighteen.engine.actions import IllegalAction
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.state import IPO, POOL
from eighteen.title.model import ByRatio

if TYPE_CHECKING:
    from eighteen.engine.context import Context
    from eighteen.engine.tables import MarketCell


# -- market cells ------------------------------------------------------------------------


def cell_at(g: Context, corp: str, steps: int) -> MarketCell | None:
    """The cell ``steps`` cells right (negative: left) of the corporation's price, along
    the market's up/down moves (None before it is started)."""
    c = market.cell(g, corp)
    if c is None:
        return None
    kind = "up" if steps > 0 else "down"
    for _ in range(abs(steps)):
        c = g.tables.cell(getattr(c, kind))
    return c


def price_at(g: Context, corp: str, steps: int) -> int:
    c = cell_at(g, corp, steps)
    return 0 if c is None else c.price


def move_steps(g: Context, corp: str, steps: int, close: bool = True) -> None:
    """Move the price ``steps`` cells (right if positive) and close the corporation if it
    lands on a closing cell (unless ``close`` is False: emergency money)."""
    if steps > 0:
        market.move(g, corp, "up", steps)
    elif steps < 0:
        market.move(g, corp, "down", -steps)
    if close:
        check_closing(g, corp)


# -- buying from the treasury -------------------------------------------------------------


# -- dividends ---------------------------------------------------------------------------


def ratio_steps(g: Context, corp: str, paid: int) -> int:
    """Cells the price moves for ``paid`` dollars distributed (the by_ratio table)."""
    rule = g.rules.dividend_move
    assert isinstance(rule, ByRatio)
    price = market.price(g, corp)
    ratio = paid / price if price else 0.0
    steps = 0
    best = -1.0
    for row in rule.steps:
        if ratio >= row.at_least and price >= row.min_price and row.at_least >= best:
            best, steps = row.at_least, row.steps
    return steps


def cell_after_dividend(g: Context, corp: str, paid: int, withheld: bool) -> MarketCell | None:
    """The cell :func:`dividend_move` would move the price to, the state untouched (for
    players weighing a dividend); None before the corporation is started."""
    if g.rules.dividend_move.kind == "by_ratio":
        return cell_at(g, corp, ratio_steps(g, corp, paid))
    c = market.cell(g, corp)
    return None if c is None else g.tables.cell(c.withhold if withheld else c.pay)


def fall_room(g: Context, c: MarketCell, most: int = 8) -> int:
    """How many cells down from ``c`` the first closing cell lies (``most`` when none is
    that near): how many more drops a corporation at ``c`` survives, plus one."""
    for n in range(most):
        if c.closes:
            return n
        below = g.tables.cell(c.down)
        if below is c:
            return most  # the bottom of the market, and it does not close
        c = below
    return most


@implements("dividend_move.kind", "right_left", "by_ratio")
def dividend_move(g: Context, corp: str, paid: int, withheld: bool) -> None:
    """Move the price after the dividend step: ``paid`` is the amount distributed to the
    shares (0 when everything is withheld)."""
    if g.rules.dividend_move.kind == "by_ratio":
        move_steps(g, corp, ratio_steps(g, corp, paid))
    else:
        market.move(g, corp, "withhold" if withheld else "pay")
        check_closing(g, corp)


def half_split(g: Context, revenue: int) -> tuple[int, int]:
    """(kept by the corporation, paid to the shares) of a half pay-out."""
    multiple = g.rules.half_pay_retain_multiple
    kept = (revenue // 2) // multiple * multiple
    return kept, revenue - kept


def dividend_split(g: Context, kind: str, revenue: int) -> tuple[int, int]:
    """(kept by the corporation, paid to the shares) of a dividend of ``kind`` (payout,
    half or withhold)."""
    if kind == "payout":
        return 0, revenue
    if kind == "half":
        return half_split(g, revenue)
    return revenue, 0


# -- issuing and redeeming -------------------------------------------------------------------


def _shares(g: Context, corp: str, owner: str) -> int:
    return shares.percent_of(g, corp, owner) // 10


def player_shares(g: Context, corp: str) -> int:
    """Shares (10% units) of the corporation held by players."""
    return sum(_shares(g, corp, p.name) for p in g.state.players)


@implements("issue_redeem.limit", "player_shares_minus_market")
def issue_limit(g: Context, corp: str) -> int:
    """Most shares the corporation may issue now: players' shares minus market shares,
    within its treasury and the market limit."""
    if g.rules.issue_redeem is None:
        return 0
    n = player_shares(g, corp) - _shares(g, corp, POOL)
    n = min(n, len(shares.ordinary_certs_of(g, corp, IPO)))
    room = (g.rules.pool_limit_percent - shares.percent_of(g, corp, POOL)) // 10
    return max(0, min(n, room))


def issue_price(g: Context, corp: str) -> int:
    rule = g.rules.issue_redeem
    return price_at(g, corp, rule.issue_offset) if rule else 0


def redeem_price(g: Context, corp: str) -> int:
    rule = g.rules.issue_redeem
    return price_at(g, corp, rule.redeem_offset) if rule else 0


def issue_options(g: Context, corp: str) -> list[int]:
    """Numbers of shares the corporation may issue now (normal issue)."""
    if issue_price(g, corp) <= 0:
        return []
    return list(range(1, issue_limit(g, corp) + 1))


def redeem_options(g: Context, corp: str) -> list[int]:
    """Numbers of shares the corporation may redeem from the market now."""
    if g.rules.issue_redeem is None:
        return []
    unit = redeem_price(g, corp)
    n = min(_shares(g, corp, POOL), g.state.corporations[corp].cash // unit if unit else 0)
    return list(range(1, n + 1))


def _move_certs(g: Context, corp: str, src: str, dst: str, n: int) -> None:
    certs = shares.ordinary_certs_of(g, corp, src)
    if len(certs) < n:
        raise IllegalAction(f"{corp} has only {len(certs)} shares in the {src}")
    for c in certs[:n]:
        g.state.certs[c] = dst


def issue(g: Context, corp: str, n: int) -> None:
    """Issue ``n`` treasury shares to the market at the issue price (price unmoved)."""
    if n not in issue_options(g, corp):
        raise IllegalAction(f"{corp} may issue {issue_options(g, corp) or 'no'} shares, not {n}")
    unit = issue_price(g, corp)
    _move_certs(g, corp, IPO, POOL, n)
    pay(g, BANK, corp, unit * n, f"{corp} issues shares")
    g.note(f"{corp} issues {n} shares at ${unit} (${unit * n})")


def redeem(g: Context, corp: str, n: int) -> None:
    """Buy ``n`` shares back from the market at the redemption price (price unmoved)."""
    if n not in redeem_options(g, corp):
        raise IllegalAction(f"{corp} may redeem {redeem_options(g, corp) or 'no'} shares, not {n}")
    unit = redeem_price(g, corp)
    pay(g, corp, BANK, unit * n, f"{corp} redeems shares")
    _move_certs(g, corp, POOL, IPO, n)
    g.note(f"{corp} redeems {n} shares at ${unit} (${unit * n})")


# -- emergency issue -------------------------------------------------------------------------


@implements("emergency_money[].pricing", "bundle", "per_share")
def emergency_yield(g: Context, corp: str, n: int) -> int | None:
    """Money an emergency issue of ``n`` shares raises, or None if it is not allowed."""
    ei = g.rules.emergency_issue
    if ei is None or n <= 0 or n > issue_limit(g, corp):
        return None
    drop = ei.drop_per_share
    offset = ei.sale_offset
    if price_at(g, corp, -drop * (n - 1)) < ei.min_price:
        return None  # the last share would be issued below the minimum price
    if ei.pricing == "bundle":
        unit = price_at(g, corp, -drop * n + offset)
        total = unit * n if unit > 0 else 0
    else:  # per share: the k-th share sells from the price after its own drop
        units = [price_at(g, corp, -drop * (k + 1) + offset) for k in range(n)]
        total = sum(units) if min(units) > 0 else 0
    return total or None


def emergency_options(g: Context, corp: str, need: int, enough: int) -> list[int]:
    """Share counts the corporation may issue in an emergency: ``need`` is the shortfall
    for the cheapest train, ``enough`` for the dearest side it may then choose. With
    ``only_as_needed``: the counts reaching ``need`` up to the first reaching ``enough``
    (or, if none reaches ``need``, the largest possible issue)."""
    counts = [n for n in range(1, issue_limit(g, corp) + 1) if emergency_yield(g, corp, n)]
    if not counts:
        return []
    ei = g.rules.emergency_issue
    if ei is None or not ei.only_as_needed:
        return counts
    out = []
    for n in counts:
        got = emergency_yield(g, corp, n) or 0
        if got >= need:
            out.append(n)
            if got >= enough:
                break
    return out or [counts[-1]]


def emergency_issue(g: Context, corp: str, n: int) -> None:
    """Issue ``n`` shares in an emergency: the price falls, the corporation is paid."""
    got = emergency_yield(g, corp, n)
    if got is None:
        raise IllegalAction(f"{corp} cannot issue {n} shares in an emergency")
    drop = ei.drop_per_share if (ei := g.rules.emergency_issue) else 0
    _move_certs(g, corp, IPO, POOL, n)
    pay(g, BANK, corp, got, f"{corp} issues shares")
    g.note(f"{corp} issues {n} shares in an emergency for ${got}")
    move_steps(g, corp, -drop * n, close=False)


# -- closing -------------------------------------------------------------------------------------


def check_closing(g: Context, corp: str) -> None:
    """Close the corporation if its price is on a closing cell."""
    c = market.cell(g, corp)
    if c is not None and c.closes and not g.state.corporations[corp].closed:
        close(g, corp)


def close(g: Context, corp: str) -> None:
    """The corporation leaves the game (its price reached a closing cell)."""
    s = g.state
    cs = s.corporations[corp]
    cs.closed = True
    cs.floated = False
    cs.president = None
    if cs.cash:
        pay(g, corp, BANK, cs.cash, f"{corp} closes")
    cs.trains = []
    cs.cell = None
    for cert in shares.cert_ids(g, corp):
        s.certs[cert] = IPO
    network.remove_tokens(g, corp)
    for pid in privates.owned_by(g, corp):
        privates.close(g, pid, f"{corp} closed")
    for port, owner in list(s.ferries.items()):
        if owner == corp:
            s.ferries[port] = ""
    g.note(f"{corp} closes")  # the operating round skips it from now on
    if g.rules.no_corporation_left_ends_game and all(c.closed for c in s.corporations.values()):
        g.end_game("every corporation closed")
