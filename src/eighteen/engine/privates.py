"""Private companies and their typed abilities, each implemented once.

Abilities (title model ``Ability``): ``block_hexes`` (no tile lays there while a player
owns it), ``tile_lay`` (the owning corporation's special lay; ``extra`` false makes it one
of the turn's lays, ``waives_lay_cost`` drops the lay fee, ``only_round_bought`` limits it
to the operating round of the purchase), ``tile_lays`` (several planned free tiles in one
turn, toward given neighbours and joined when ``linked``), ``grant_share`` (its buyer
receives a share, or the president's certificate and must set the par),
``exchange_share`` (the owning player swaps it for a share; it closes),
``close_on_train`` (closes when a corporation buys its first train),
``no_sale_to_corporation``, ``purchase_fee`` (a buying corporation pays the bank more),
``restrict_corporation`` (while no corporation owns it, a corporation lays no track in
some phases and runs no route until a hex is upgraded), ``bonus_multiplier`` and
``ferry_multiplier`` (engine.ferries), ``virtual_station`` and ``exclusive_hexes``
(read here by :func:`virtual_stations` and :func:`excluded_hexes`; the track step and the
route side use them).

A private's ``closes_on`` phase closes it; from its ``flips_on`` phase it pays no revenue
and keeps its powers; the ``close_player_privates`` event closes those players own
(seed 003, "private companies").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eighteen.engine import phases, shares
from eighteen.engine.actions import IllegalAction
from eighteen.engine.bank import BANK, pay
from eighteen.engine.capabilities import implements
from eighteen.engine.state import IPO, POOL
from eighteen.title.model import (
    BlockHexes,
    CloseOnTrain,
    ExchangeShare,
    ExclusiveHexes,
    FreeTileLay,
    GrantShare,
    NoSaleToCorporation,
    PurchaseFee,
    RestrictCorporation,
    TileLays,
    VirtualStation,
)

if TYPE_CHECKING:
    from eighteen.engine.context import Context


def is_open(g: Context, pid: str) -> bool:
    p = g.state.privates[pid]
    return not p.closed and p.owner is not None


def open_privates(g: Context) -> list[str]:
    """Owned, not closed privates, in table order."""
    states = g.state.privates
    out = []
    for pid in g.tables.private_ids:
        ps = states[pid]
        if not ps.closed and ps.owner is not None:  # is_open
            out.append(pid)
    return out


def owned_by(g: Context, owner: str, kind: type | None = None) -> list[str]:
    """The owner's open privates, in table order; with ``kind``, only those with an
    ability of that type (the ability model's class: :meth:`Tables.holders`)."""
    states = g.state.privates
    pids = g.tables.holders(kind) if kind is not None else g.tables.private_ids
    return [pid for pid in pids if not states[pid].closed and states[pid].owner == owner]


def outside_corporations(g: Context, kind: type) -> list[str]:
    """The open privates holding an ability of type ``kind`` that no corporation owns
    (a player owns them, or nobody has bought them yet), in table order: those whose
    block_hexes and restrict_corporation powers hold."""
    states, corps = g.state.privates, g.state.corporations
    return [
        pid
        for pid in g.tables.holders(kind)
        if not states[pid].closed and states[pid].owner not in corps
    ]


def blocked_hexes(g: Context) -> set[str]:
    """Hexes blocked by privates a player owns (or nobody has bought yet)."""
    out: set[str] = set()
    for pid in outside_corporations(g, BlockHexes):
        for ab in g.tables.abilities(pid, BlockHexes):
            out.update(ab.hexes)
    return out


implements("ability", "block_hexes")(blocked_hexes)  # (typed: see capabilities.implements)


def flipped(g: Context, pid: str) -> bool:
    """Has the private flipped (``flips_on`` phase begun): no more revenue, powers kept."""
    return phases.reached(g, g.tables.private(pid).flips_on)


def pay_revenue(g: Context) -> None:
    """Every open private pays its revenue from the bank to its owner (flipped ones pay
    nothing)."""
    for pid in open_privates(g):
        ps = g.state.privates[pid]
        if flipped(g, pid):
            continue
        rev = int(g.tables.private(pid).revenue)
        if rev and ps.owner is not None:
            pay(g, BANK, ps.owner, rev, f"{pid} revenue")
            g.note(f"{pid} pays ${rev} to {ps.owner}")


def close(g: Context, pid: str, why: str) -> None:
    ps = g.state.privates[pid]
    if ps.closed:
        return
    ps.closed = True
    g.note(f"{pid} closes ({why})")


def close_player_owned(g: Context) -> None:
    """Event close_player_privates: privates owned by players close (seed 003, phase
    III)."""
    for pid in open_privates(g):
        owner = g.state.privates[pid].owner
        if owner is not None and owner not in g.state.corporations:
            close(g, pid, "privates owned by players close")


@implements("ability", "purchase_fee")
def purchase_fee(g: Context, pid: str) -> int:
    """What a corporation buying the private pays the bank on top (purchase_fee)."""
    return sum(int(ab.amount) for ab in g.tables.abilities(pid, PurchaseFee))


def close_all(g: Context) -> None:
    for p in g.tables.privates:
        ps = g.state.privates[p.id]
        if not ps.closed:
            close(g, p.id, "all privates close")


@implements("ability", "grant_share")
def on_purchase(g: Context, pid: str, buyer: str) -> list[str]:
    """Apply grant_share abilities when a player buys the private from the bank.

    Returns the corporations whose par the buyer must now set (president's certificate
    granted)."""
    must_par: list[str] = []
    for ab in g.tables.abilities(pid, GrantShare):
        corp = ab.corporation
        if ab.president:
            cert = shares.president_cert(corp)
            if g.state.certs[cert] != IPO:
                continue
            g.state.certs[cert] = buyer
            g.state.corporations[corp].president = buyer
            g.note(f"{buyer} receives the president's certificate of {corp}")
            must_par.append(corp)
        else:
            certs = shares.ordinary_certs_of(g, corp, IPO)
            if certs:
                g.state.certs[certs[0]] = buyer
                g.note(f"{buyer} receives {shares.cert_percent(g, certs[0])}% of {corp}")
    return must_par


@implements("ability", "close_on_train")
def on_train_bought(g: Context, corp: str) -> None:
    """Close privates whose close_on_train names this corporation."""
    for pid in open_privates(g):
        for ab in g.tables.abilities(pid, CloseOnTrain):
            if ab.corporation == corp:
                close(g, pid, f"{corp} bought a train")


@implements("ability", "no_sale_to_corporation")
def sellable_to_corporation(g: Context, pid: str) -> bool:
    return not g.tables.abilities(pid, NoSaleToCorporation)


# -- exchange_share ---------------------------------------------------------------------


def exchange_options(g: Context, player: str) -> list[tuple[str, str]]:
    """(private, source) exchanges the player may make now."""
    out: list[tuple[str, str]] = []
    for pid in owned_by(g, player):
        for ab in g.tables.abilities(pid, ExchangeShare):
            for src in ab.from_:
                if exchange_problem(g, player, pid, src) is None:
                    out.append((pid, src))
    return out


def exchange_problem(g: Context, player: str, pid: str, source: str) -> str | None:
    """Why the player may not exchange ``pid`` for a share from ``source`` now."""
    ps = g.state.privates.get(pid)
    if ps is None or ps.closed or ps.owner != player:
        return f"{player} does not own an open {pid}"
    abilities = g.tables.abilities(pid, ExchangeShare)
    if not abilities:
        return f"{pid} has no exchange ability"
    if not g.state.is_player(player):
        return f"only a player who owns {pid} may exchange it, not {player}"
    ab = abilities[0]
    if source not in ab.from_:
        return f"{pid} cannot be exchanged for a share from the {source}"
    corp = ab.corporation
    certs = shares.ordinary_certs_of(g, corp, IPO if source == "ipo" else POOL)
    if not certs:
        return f"no {corp} share in the {source}"
    pct = shares.cert_percent(g, certs[0])
    if (
        shares.holding_limit_applies(g, corp)
        and shares.percent_of(g, corp, player) + pct > g.rules.holding_limit_percent
    ):
        return f"holding limit: {player} may not hold over {g.rules.holding_limit_percent}%"
    return None


@implements("ability", "exchange_share")
def exchange(g: Context, player: str, pid: str, source: str) -> None:
    why = exchange_problem(g, player, pid, source)
    if why:
        raise IllegalAction(why)
    corp = g.tables.abilities(pid, ExchangeShare)[0].corporation
    cert = shares.ordinary_certs_of(g, corp, IPO if source == "ipo" else POOL)[0]
    g.state.certs[cert] = player
    g.note(f"{player} exchanges {pid} for {shares.cert_percent(g, cert)}% of {corp}")
    close(g, pid, "exchanged")
    shares.update_president(g, corp)
    shares.check_float(g, corp)


# -- tile_lay ---------------------------------------------------------------------------


@implements("ability", "tile_lay")
def tile_lay_abilities(g: Context, corp: str) -> list[tuple[str, int, FreeTileLay]]:
    """(private, ability index, ability) tile_lay abilities the corporation may use."""
    out = []
    for pid in owned_by(g, corp, FreeTileLay):
        ps = g.state.privates[pid]
        for i, ab in enumerate(g.tables.private(pid).abilities):
            if isinstance(ab, FreeTileLay) and i not in ps.used:
                out.append((pid, i, ab))
    return out


# -- tile_lays and restrict_corporation -------------------------------------------------------


@implements("ability", "tile_lays")
def planned_lay_abilities(
    g: Context, corp: str, this_turn: list[str]
) -> list[tuple[str, int, TileLays]]:
    """(private, ability index, ability) tile_lays powers the corporation may use now:
    never used, or first used this turn (its tiles are laid in one turn)."""
    out = []
    for pid in owned_by(g, corp, TileLays):
        ps = g.state.privates[pid]
        for i, ab in enumerate(g.tables.private(pid).abilities):
            if isinstance(ab, TileLays) and (i not in ps.used or pid in this_turn):
                out.append((pid, i, ab))
    return out


@implements("ability", "restrict_corporation")
def _restrictions(g: Context, corp: str) -> list[RestrictCorporation]:
    """restrict_corporation powers holding ``corp`` back: their private is open and no
    corporation owns it yet."""
    out: list[RestrictCorporation] = []
    for pid in outside_corporations(g, RestrictCorporation):
        out.extend(
            ab for ab in g.tables.abilities(pid, RestrictCorporation) if ab.corporation == corp
        )
    return out


def track_restricted(g: Context, corp: str) -> bool:
    """May the corporation lay no track now (a no_track_phases restriction)?"""
    ph = phases.current_id(g)
    # (a list, not a generator expression: compiled, this function is typed)
    return any([ph in ab.no_track_phases for ab in _restrictions(g, corp)])


def routes_restricted(g: Context, corp: str) -> bool:
    """May the corporation run no route now (its no_routes_until_upgraded hex still shows
    its printed face)?"""
    for ab in _restrictions(g, corp):
        hex_id = ab.no_routes_until_upgraded
        if hex_id and hex_id not in g.state.map.tiles:
            return True
    return False


# -- virtual_station and exclusive_hexes (for the route side) --------------------------------


def virtual_stations(g: Context, corp: str) -> list[VirtualStation]:
    """The virtual_station powers of the corporation's open privates: it acts as if it
    had a station on ``hex`` for laying track (``lay_track``) and running (``run``)."""
    return [
        ab
        for pid in owned_by(g, corp, VirtualStation)
        for ab in g.tables.abilities(pid, VirtualStation)
    ]


implements("ability", "virtual_station")(virtual_stations)  # (typed)


def excluded_hexes(g: Context, corp: str) -> set[str]:
    """Hexes the corporation may not run to: the exclusive_hexes of privates it does not
    own.  The power is permanent ("only that company may run there"): flipped or closed,
    a private keeps its hexes for the corporation that owned it, and from everyone
    else."""
    out: set[str] = set()
    for pid in g.tables.holders(ExclusiveHexes):
        if g.state.privates[pid].owner == corp:
            continue
        for ab in g.tables.abilities(pid, ExclusiveHexes):
            out.update(ab.hexes)
    return out


implements("ability", "exclusive_hexes")(excluded_hexes)  # (typed)
