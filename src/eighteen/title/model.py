"""Typed models of a title's TOML files.

One model per file kind (title, map, tiles, trains, phases, privates, corporations, market).
The JSON Schemas in schema/ are generated from these models, so every field carries a
description and every closed choice is an enum: authors get completion in their editor.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)

# ---------------------------------------------------------------------------------------
# shared vocabulary


class Strict(BaseModel):
    """Base of every model: unknown keys are errors, never silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Color(str, Enum):
    """Tile and hex colours, in upgrade order (white < yellow < green < brown < gray)."""

    white = "white"
    yellow = "yellow"
    green = "green"
    brown = "brown"
    gray = "gray"
    red = "red"
    blue = "blue"


#: Upgrade order of tile colours; red (off-board) and blue (water) never upgrade.
COLOR_ORDER = ["white", "yellow", "green", "brown", "gray"]

Edge = Annotated[int, Field(ge=0, le=5, description="Hex edge 0-5, clockwise (see docs).")]
HexId = Annotated[
    str,
    Field(
        pattern=r"^[A-Z]{1,2}[0-9]{1,3}$",
        description="Hex coordinate as printed on the board: row letters then column number.",
    ),
]
MAX_MONEY = 1_000_000_000
"""Largest amount of money anywhere in a title: far inside 64 bits, so no sum overflows."""
MAX_COUNT = 1000
"""Largest count, distance or limit in a title (trains of a type, tiles, certificates)."""
Money = Annotated[int, Field(ge=0, le=MAX_MONEY, description="An amount in dollars.")]
PositiveMoney = Annotated[
    int, Field(ge=1, le=MAX_MONEY, description="An amount in dollars, at least $1.")
]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT, description="How many (0 to 1000).")]
Limit = Annotated[int, Field(ge=1, le=MAX_COUNT, description="A limit (1 to 1000).")]
Length = Annotated[int, Field(ge=1, le=MAX_COUNT, description="A distance (1 to 1000).")]
Ratio = Annotated[float, Field(ge=0, le=MAX_COUNT)]
EntityId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=16,
        pattern=r"^[A-Za-z0-9&+/_.-]+$",
        description="Short identifier (letters, digits, & + / _ . -).",
    ),
]
Unlimited = Literal["unlimited"]


class Terrain(str, Enum):
    """Kinds of terrain that make the first tile on a hex cost extra."""

    water = "water"
    mountain = "mountain"
    hill = "hill"
    bridge = "bridge"
    tunnel = "tunnel"
    pass_ = "pass"


class BorderType(str, Enum):
    """What a hex side is: impassable sides carry no track; cosmetic ones are drawn only."""

    impassable = "impassable"
    cosmetic = "cosmetic"
    water = "water"
    bridge = "bridge"  # a river crossed on this side: its cost is paid once, by the lay
    pass_ = "pass"  # a mountain pass on this side: its cost is paid once, by the lay


class Border(Strict):
    """A special hex side."""

    edge: Edge
    type: BorderType = Field(description="impassable: no track may cross; cosmetic: drawing only.")
    cost: Money = Field(0, description="Extra cost to lay track across this side (bridges).")


class City(Strict):
    """A city: station circles where tokens go; its revenue counts for every train that stops."""

    revenue: Money = Field(description="Revenue for a train stopping here.")
    slots: int = Field(1, ge=1, le=6, description="Number of token slots (station circles).")
    exits: list[Edge] = Field(
        default_factory=list, description="Edges joined to this city by track."
    )


class Town(Strict):
    """A town (small city, dit): a stop with revenue and no token slots."""

    revenue: Money = Field(description="Revenue for a train stopping here.")
    exits: list[Edge] = Field(
        default_factory=list, description="Edges joined to this town by track."
    )


class Offboard(Strict):
    """An off-board area (red hex): revenue by phase colour; a route may only end here."""

    revenue: dict[str, Money] = Field(
        description="Revenue by phase revenue colour, e.g. {yellow = 30, brown = 50}.",
        min_length=1,
    )
    group: str | None = Field(
        None,
        description="Area name: a route may visit at most one hex of the same group.",
    )
    hidden: bool = Field(False, description="Revenue shown on a partner hex (drawing only).")
    exits: list[Edge] = Field(default_factory=list, description="Edges joined by track.")
    requires_visit: list[HexId] = Field(
        default_factory=list,
        description="If set: worth its value only on a route that also visits or passes one "
        "of these hexes, else $0 (1833NE: D&H only via Montreal).",
    )


Track = Annotated[
    list[Edge],
    Field(min_length=2, max_length=2, description="Plain track joining two edges, e.g. [0, 3]."),
]


class TileFace(Strict):
    """What is printed on a tile or hex: stops, track and label."""

    cities: list[City] = Field(default_factory=list, description="Cities, indexed C0, C1...")
    towns: list[Town] = Field(default_factory=list, description="Towns, indexed T0, T1...")
    track: list[Track] = Field(
        default_factory=list, description="Plain edge-to-edge track that passes no stop."
    )
    label: str | None = Field(
        None,
        max_length=8,
        description="Upgrade label (OO, NY, B...): only a tile with the same label replaces it.",
    )
    stubs: list[Edge] = Field(
        default_factory=list,
        description="Edges whose track ends inside the hex at no stop (a dead end): no route "
        "runs on it; an upgrade must keep track on that edge.",
    )


# ---------------------------------------------------------------------------------------
# title.toml


class Capitalization(str, Enum):
    """How a floated corporation receives money for its shares."""

    full = "full"  # bank pays 10 x par at float
    incremental = "incremental"  # each share sold from the treasury pays its price


class ShareDividends(str, Enum):
    """Who receives the dividend of a share that no player holds."""

    none = "none"
    corporation = "corporation"
    bank = "bank"


class SellBuyOrder(str, Enum):
    """Order of selling and buying within one stock-round turn."""

    sell_buy_sell = "sell_buy_sell"
    sell_buy = "sell_buy"


class SellDrop(str, Enum):
    """How a sale in a stock round moves the share price."""

    row_per_share = "row_per_share"  # 2-D market: one row down per certificate sold
    step_if_president = "step_if_president"  # linear: one step left if the president sells


class OperatingOrder(str, Enum):
    """Order in which corporations operate."""

    share_price = "share_price"  # highest price first; ties right, higher row, arrival
    first_ascending_then_price = "first_ascending_then_price"


class Bankruptcy(str, Enum):
    """What a player's bankruptcy does."""

    game_ends = "game_ends"
    player_eliminated = "player_eliminated"


class BankBroken(str, Enum):
    """When the game ends after the bank runs out of money."""

    end_of_or_set = "end_of_or_set"
    end_of_round = "end_of_round"


class Auction(str, Enum):
    """How the private companies are sold at the start."""

    waterfall = "waterfall"  # buy cheapest at face, or bid on a later one


class AuctionBidoff(str, Enum):
    """How several bidders settle a private that comes up for sale with their bids on it."""

    # round the table from the left of the best bidder; a pass does not drop out
    seating_from_best = "seating_from_best"
    # the lowest bidder acts: raise over the best bid or pass and drop out
    lowest_bidder_drops = "lowest_bidder_drops"


class AuctionPriority(str, Enum):
    """Who holds the priority deal when the private auction ends."""

    after_last_buyer = "after_last_buyer"  # the player to the left of the last buyer
    next_in_turn = "next_in_turn"  # whose normal auction turn would come next


class TileLay(Strict):
    """One tile lay a corporation may make in its operating turn."""

    kinds: list[Literal["new", "upgrade"]] = Field(
        description="new: a yellow tile on an empty hex; upgrade: replace a tile."
    )
    cost: Money = Field(0, description="Fee for this lay, on top of terrain costs.")


class SharePrice(str, Enum):
    """What a share bought from the corporation's treasury (IPO) costs."""

    par = "par"  # the par price chosen at the start
    market = "market"  # the current market price (no fixed par after the start)


class SellBeforeOperated(str, Enum):
    """Who may sell a corporation's shares before it has operated once."""

    anyone = "anyone"
    president_only = "president_only"
    nobody = "nobody"


class IssueLimit(str, Enum):
    """How many treasury shares a corporation may issue in one action."""

    # shares held by players (president's certificate counts as its share count) minus the
    # shares already in the market
    player_shares_minus_market = "player_shares_minus_market"


class IssueRedeem(Strict):
    """A corporation issues treasury shares to the market or redeems shares from it."""

    issue_offset: int = Field(
        -1, ge=-5, le=5, description="Market cells from the price at which an issued share sells."
    )
    redeem_offset: int = Field(
        1, ge=-5, le=5, description="Market cells from the price at which a share is redeemed."
    )
    moves_price: bool = Field(False, description="Does a normal issue or redemption move it?")
    limit: IssueLimit = Field(
        IssueLimit.player_shares_minus_market, description="Most shares one issue may sell."
    )
    once_per_turn: bool = Field(
        True, description="true: one issue or one redemption per operating turn, not both."
    )


class EmergencyPricing(str, Enum):
    """How the shares of one emergency issue are priced."""

    bundle = "bundle"  # every share at the price reached after the whole drop
    per_share = "per_share"  # each share at the price reached after its own drop


class EmergencyIssue(Strict):
    """Shares a corporation must issue before its president pays for a compulsory train."""

    drop_per_share: int = Field(1, ge=0, le=5, description="Cells the price falls per share.")
    sale_offset: int = Field(
        -1, ge=-5, le=5, description="Cells from the lowered price at which the shares sell."
    )
    pricing: EmergencyPricing = Field(EmergencyPricing.bundle, description="Bundle or per share.")
    min_price: Money = Field(0, description="No emergency issue at a share price below this.")
    only_as_needed: bool = Field(
        True, description="Issue only as many shares as the cheapest train in the bank needs."
    )


class EmergencySource(str, Enum):
    """A source of money for a compulsory train purchase, in the order the rules use them."""

    treasury = "treasury"
    issue_shares = "issue_shares"
    president_cash = "president_cash"
    president_sells_shares = "president_sells_shares"


class DividendOption(str, Enum):
    """What a corporation may do with its revenue."""

    full = "full"
    half = "half"
    withhold = "withhold"


class RatioStep(Strict):
    """One row of a by_ratio price table (rules.dividend_move, kind by_ratio)."""

    at_least: Ratio = Field(description="Paid to shares / share price, at or above.")
    steps: int = Field(ge=-5, le=5, description="Cells moved: positive right, negative left.")
    min_price: Money = Field(0, description="Applies only at or above this share price.")


class RightLeft(Strict):
    """Paying out moves the price one cell right (up at the row's end); withholding one
    cell left (2-D market, as in 1830)."""

    kind: Literal["right_left"]


class ByRatio(Strict):
    """A linear market moved by the ratio of the amount paid to shares to the share price:
    the row with the highest ``at_least`` not above the ratio whose ``min_price`` is met."""

    kind: Literal["by_ratio"]
    steps: list[RatioStep] = Field(min_length=1, max_length=20, description="The rows.")


DividendMove = Annotated[RightLeft | ByRatio, Field(discriminator="kind")]
"""How paying out or withholding moves the share price: a tagged value."""


class PrivateSeller(str, Enum):
    """Which players may sell a private company to a corporation."""

    any_player = "any_player"
    president = "president"


class MustOwnTrain(str, Enum):
    """When a corporation without a train must buy one at the end of its run."""

    never = "never"
    with_route = "with_route"  # only when it has a route to run
    always = "always"  # whatever its route


class TurnStep(str, Enum):
    """A step of a corporation's operating turn, in the engine's turn order."""

    home = "home"
    issue = "issue"
    track = "track"
    token = "token"
    ferry = "ferry"
    routes = "routes"
    dividend = "dividend"
    trains = "trains"
    companies = "companies"


class TakeoverPrice(str, Enum):
    """What an acquirer pays for each issued share of the corporation it takes over."""

    # the target's market price, in cash or in the acquirer's treasury shares, each worth
    # the acquirer's market price
    market = "market"


class TakeoverConsent(str, Enum):
    """Who may refuse a takeover."""

    # the target's president, unless the target has no train or only obsolete ones (or
    # he is also the acquirer's president: he accepts)
    refuse_unless_no_live_trains = "refuse_unless_no_live_trains"


class Takeovers(Strict):
    """A takeover round after the last operating round of each set: a corporation with a
    train that is not obsolete, connected by track to another corporation's station, buys
    back every issued share of that corporation and absorbs it."""

    from_phase: EntityId = Field(description="Phase from whose start the rounds are held.")
    price: TakeoverPrice = Field(TakeoverPrice.market, description="How the shares are paid.")
    consent: TakeoverConsent = Field(
        TakeoverConsent.refuse_unless_no_live_trains, description="Who may refuse."
    )
    train_limit_bonus: int = Field(
        1, ge=0, le=5, description="Trains added to the acquirer's limit per takeover."
    )
    leaving_train: EntityId | None = Field(
        None, description="A train type one unsold copy of which leaves at the first takeover."
    )


class Rules(Strict):
    """Every rule choice that differs between titles: a named mechanic or a parameter.

    The compiled tables write every field, defaults included; the engine reads this same
    model (frozen), never a dictionary."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True, use_enum_values=True
    )

    capitalization: Capitalization = Field(description="full or incremental capitalization.")
    float_percent: int = Field(
        60, ge=10, le=100, description="Percent sold from the IPO that floats a corporation."
    )
    ipo_dividends: ShareDividends = Field(
        ShareDividends.none, description="Who receives dividends on unsold (IPO) shares."
    )
    pool_dividends: ShareDividends = Field(
        ShareDividends.corporation, description="Who receives dividends on bank-pool shares."
    )
    holding_limit_percent: int = Field(
        60, ge=10, le=100, description="Most a player may hold of one corporation."
    )
    pool_limit_percent: int = Field(
        50, ge=0, le=100, description="Most the bank pool may hold of one corporation."
    )
    sell_in_first_stock_round: bool = Field(
        False, description="May players sell shares in the first stock round?"
    )
    sell_buy_order: SellBuyOrder = Field(
        SellBuyOrder.sell_buy_sell, description="Order of sales and the buy within a turn."
    )
    sell_drop: SellDrop = Field(SellDrop.row_per_share, description="Price move on sales.")
    sell_drop_before_float: bool = Field(
        False,
        description="With row_per_share: do sales of a corporation that has not floated yet "
        "move its price down too? (false: the price stays until it floats)",
    )
    dividend_move: DividendMove = Field(
        default_factory=lambda: RightLeft(kind="right_left"),
        description='Price move on pay-out or withhold: {kind = "right_left"} or '
        '{kind = "by_ratio", steps = [...]}.',
    )
    sold_out_rise: bool = Field(
        True, description="A corporation wholly held by players rises at stock-round end."
    )
    buy_after_sell_same_corporation: bool = Field(
        False, description="May a player buy a corporation they sold earlier in the round?"
    )
    operating_order: OperatingOrder = Field(
        OperatingOrder.share_price, description="Order in which corporations operate."
    )
    reorder_after_emergency_sales: bool = Field(
        False,
        description="After a president's emergency sales in an operating round, the "
        "corporations still to operate are sorted again by their new prices.",
    )
    tile_lays: list[TileLay] = Field(
        description="Tile lays allowed per operating turn, in order.", min_length=1
    )
    private_auction: Auction = Field(Auction.waterfall, description="Initial private sale.")
    auction_min_raise: Money = Field(5, description="Smallest raise over a bid or face value.")
    auction_bidoff: AuctionBidoff = Field(
        AuctionBidoff.seating_from_best,
        description="How several bidders on one private settle it when it comes up.",
    )
    auction_priority: AuctionPriority = Field(
        AuctionPriority.after_last_buyer,
        description="Who holds the priority deal when the private auction ends.",
    )
    auction_price_drop: Money = Field(
        5, description="Price drop of the first private when every player passes."
    )
    auction_forced_price: Money = Field(
        0, description="At this price the next player must take the first private."
    )
    brown_multiple_buy_from_ipo: bool = Field(
        False, description="In a multiple-buy zone, may several shares come from the IPO?"
    )
    private_price_min_factor: Ratio = Field(
        0.5, description="Corporation buys a private for at least this x face value."
    )
    private_price_max_factor: Ratio = Field(
        2.0, description="Corporation buys a private for at most this x face value."
    )
    private_trades_between_players: bool = Field(
        False,
        description="In a stock round the acting player may sell a private to, or buy one "
        "from, another player at an agreed price.",
    )
    private_trades_in_first_stock_round: bool = Field(
        False, description="May players trade privates in the first stock round?"
    )
    privates_count_for_cert_limit: bool = Field(
        True, description="Do private companies count toward the certificate limit?"
    )
    train_buy_from_corporation_min: Money = Field(
        1, description="Least price when a corporation buys a train from another."
    )
    must_own_train: MustOwnTrain = Field(
        MustOwnTrain.with_route,
        description="When a corporation must own a train after its turn: never, when it "
        "has a route, or always.",
    )
    president_may_sell_for_train: bool = Field(
        True, description="President sells shares to raise money for a forced train purchase."
    )
    bankruptcy: Bankruptcy = Field(Bankruptcy.game_ends, description="Effect of bankruptcy.")
    bankrupt_sells_shares: bool = Field(
        False,
        description="Before the game ends on a bankruptcy, the bankrupt president's shares are "
        "sold to the market as far as the selling rules allow (false: kept for the score).",
    )
    bank_broken: BankBroken = Field(
        BankBroken.end_of_or_set, description="When a broken bank ends the game."
    )
    home_token_reserved: bool = Field(
        True, description="Home cities are reserved for their corporation from the start."
    )
    private_values_count_at_end: bool = Field(
        True, description="Open privates count at face value in final scores."
    )
    # --- the incremental-capitalization family (1833NE); each default is the classic rule ---
    treasury_share_price: SharePrice = Field(
        SharePrice.par,
        description="Price of a share bought from the treasury (IPO): par or current market.",
    )
    sell_before_operated: SellBeforeOperated = Field(
        SellBeforeOperated.anyone,
        description="Who may sell a corporation's shares before it first operates.",
    )
    stock_round_end_market_drop: bool = Field(
        False, description="A corporation with shares in the market falls one step at SR end."
    )
    issue_redeem: IssueRedeem | None = Field(
        None, description="Corporations may issue and redeem their own shares (absent: never)."
    )
    takeovers: Takeovers | None = Field(
        None, description="Corporations may take each other over (absent: never)."
    )
    emergency_issue: EmergencyIssue | None = Field(
        None,
        description="Terms of the forced share issue (needed when emergency_money names "
        "issue_shares).",
    )
    emergency_money: list[EmergencySource] = Field(
        default_factory=lambda: [
            EmergencySource.treasury,
            EmergencySource.president_cash,
            EmergencySource.president_sells_shares,
        ],
        min_length=1,
        description="Money sources for a compulsory train, in order of use.",
    )
    emergency_sales_keep_president: bool = Field(
        False,
        description="Forced sales never change a presidency nor close the corporation saved.",
    )
    emergency_buy_from_bank_only: bool = Field(
        False, description="A forced train purchase comes from the bank only."
    )
    bankrupt_shares_unmoved: bool = Field(
        False,
        description="A bankrupt player's shares go to the market without moving prices, "
        "even past the pool limit or with a president's certificate.",
    )
    dividend_options: list[DividendOption] = Field(
        default_factory=lambda: [DividendOption.full, DividendOption.withhold],
        min_length=1,
        description="Choices for revenue.",
    )
    half_pay_retain_multiple: PositiveMoney = Field(
        1, description="On a half pay-out the corporation keeps half rounded down to this."
    )
    obsolete_trains_count_for_limit: bool = Field(
        True, description="Do obsolete (phased-out) trains count toward the train limit?"
    )
    obsolete_trains_tradable: bool = Field(
        True, description="May an obsolete train be sold to another corporation?"
    )
    paid_stops_include_station: bool = Field(
        False,
        description="An N/M train's counted stops must include one with the corporation's "
        "own station.",
    )
    private_price_min: Money = Field(
        0, description="Least a corporation pays for a private, in dollars (with the factor)."
    )
    private_sellers: PrivateSeller = Field(
        PrivateSeller.any_player,
        description="Which players may sell a private company to a corporation.",
    )
    auction_all_pass_revenue: int = Field(
        0,
        ge=0,
        le=5,
        description="When every player passes in the private auction, sold privates pay "
        "their revenue this many times and bidding resumes (0: a price drop instead).",
    )
    auction_first_bid_at_face: bool = Field(
        False,
        description="May the first bid on a private that is not on offer equal its face "
        "value (later bids still raise by auction_min_raise)?",
    )
    bankruptcy_only_when_spent: bool = Field(
        False,
        description="A president may declare bankruptcy only once every emergency_money "
        "source is spent (false: as soon as they cannot suffice).",
    )
    stall_ends_game: bool = Field(
        True,
        description="When no one can act for twenty whole sets of rounds, the game ends "
        '("no one can act any more"); false: the title has no such end and the game is '
        "stuck instead (not over, no action possible).",
    )
    turn_any_order: list[list[TurnStep]] = Field(
        default_factory=list,
        description="Groups of operating-turn steps taken in any order: while one step of "
        "a group is being served, the steps after it in the group take their actions too; "
        "a pass ends only the step served (empty: every step in turn order).",
    )


class PlayerCount(Strict):
    """Players allowed."""

    min: int = Field(ge=1, le=12, description="Fewest players.")
    max: int = Field(ge=1, le=12, description="Most players.")


class TitleOption(Strict):
    """An optional rule a game may switch on: it overrides rules and train counts."""

    id: str = Field(pattern=r"^[a-z0-9_]{1,40}$", description="Option id (lower case, digits, _).")
    description: str = Field(description="What the option changes.")
    rules: dict[
        str,
        bool
        | Annotated[int, Field(ge=-MAX_MONEY, le=MAX_MONEY)]
        | Annotated[str, Field(max_length=200)],
    ] = Field(default_factory=dict, description="Rules fields this option overrides.")
    train_counts: dict[str, Count] = Field(
        default_factory=dict, description="Train id -> number of copies with this option."
    )


class DatedImportOptions(Strict):
    """Options for exports made before a date: readings 18xx.games has changed since."""

    before: str = Field(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        description="Exports created before this day (YYYY-MM-DD, UTC) get these options.",
    )
    options: list[str] = Field(min_length=1, description="Ids of this title's options.")


class Import18xx(Strict):
    """How 18xx.games names this title's things (``eighteen import-18xx`` / ``export-18xx``).

    Corporations, privates, trains, tiles, hexes and options keep the same ids there; only
    what differs is written here."""

    options: list[str] = Field(
        default_factory=list,
        description="Options switched on for every imported game: rule choices 18xx.games "
        "makes that are not among its optional rules (ids of this title's options).",
    )
    dated_options: list[DatedImportOptions] = Field(
        default_factory=list,
        description="More options for older exports, by the export's created_at.",
    )
    preprinted: dict[HexId, str] = Field(
        default_factory=dict,
        description="Hex -> 18xx.games id of its printed tile, '<name>-<index>' (e.g. "
        "'city-0'). An unlisted hex is '<hex>-0'.",
    )


class TitleFile(Strict):
    """title.toml: identity, players, bank, money and rule choices."""

    extends: EntityId | None = Field(
        None,
        description=(
            "Id of the title this one is an overlay of: files and entries not written here "
            "are taken from titles/<extends>/ (docs/variants.md)."
        ),
    )
    id: EntityId = Field(description="Title id; also the folder name under titles/.")
    name: str = Field(description="Full name of the game.", min_length=1)
    designers: list[str] = Field(description="Designers.", min_length=1)
    version: str = Field(
        pattern=r"^\d+\.\d+\.\d+$", description="Version of this title data, semver."
    )
    players: PlayerCount
    bank: PositiveMoney = Field(description="Cash in the bank at the start.")
    starting_cash: dict[str, PositiveMoney] = Field(
        description='Starting cash per player, by player count: {"4" = 600}.'
    )
    certificate_limit: dict[str, Limit] = Field(
        description='Certificate limit per player, by player count: {"4" = 16}.'
    )
    options: list[TitleOption] = Field(default_factory=list, description="Optional rules.")
    rules: Rules
    certificate_limit_by_corporations: dict[str, dict[str, Limit]] | None = Field(
        None,
        description="Certificate limit by player count, then by corporations still in play "
        '(it falls when one closes): {"4" = {"9" = 18, "8" = 16}}.',
    )
    import_18xx: Import18xx | None = Field(
        None, description="18xx.games ids that differ from this title's (import and export)."
    )


# ---------------------------------------------------------------------------------------
# map.toml


class Layout(str, Enum):
    """Hex orientation: pointy (rows of letters) or flat (columns of letters)."""

    pointy = "pointy"
    flat = "flat"


class Hex(TileFace):
    """One or more board hexes with the same printed content."""

    at: HexId | list[HexId] = Field(description="Coordinate, or list of coordinates sharing it.")
    name: str | None = Field(None, description="Location name printed on the board.")
    color: Color = Field(
        Color.white, description="white: empty; yellow: preprinted; gray: fixed; red: off-board."
    )
    terrain: Terrain | None = Field(None, description="Terrain that makes the first tile cost.")
    cost: Money = Field(0, description="Terrain cost, paid by the first tile laid here.")
    offboard: Offboard | None = Field(None, description="Off-board revenue (red hexes).")
    borders: list[Border] = Field(default_factory=list, description="Special hex sides.")


class CellParity(str, Enum):
    """Which half of the doubled-coordinate grid holds cells."""

    even = "even"  # x + y even: 1830's A19, and (flat) column A on odd numbers
    odd = "odd"  # x + y odd: (flat) column A on even numbers, as 1833NE's A6


class BonusKind(str, Enum):
    """How a route earns a connection bonus."""

    connection = "connection"  # the route itself visits both ends
    # the route visits one end and is extended past its train's reach, over track no other
    # route of the corporation uses (even through blocked cities), to the other end
    interconnection = "interconnection"


class BonusEnd(Strict):
    """One end of a connection bonus: a named group of hexes, any of which counts."""

    name: str = Field(min_length=1, description="Name shown to players, e.g. Boston.")
    hexes: list[HexId] = Field(min_length=1, description="Hexes that count as this end.")


class Bonus(Strict):
    """Extra revenue for a route joining two places; its value depends on the phase."""

    id: EntityId = Field(description="Bonus id, referred to by private powers.")
    kind: BonusKind = Field(description="connection or interconnection.")
    between: list[BonusEnd] = Field(
        min_length=2, max_length=2, description="The two ends the route must join."
    )
    values: dict[str, Money] = Field(
        min_length=1,
        description="Phase id -> amount; in a phase not listed the bonus does not exist.",
    )


class FerryPort(Strict):
    """A port with one ferry a corporation may buy."""

    hex: HexId = Field(description="The port city or town.")
    values: dict[str, Money] = Field(
        min_length=1, description="Phase id -> value added to the owner's route through it."
    )
    sea_link: list[HexId] = Field(
        default_factory=list,
        description="Hexes the ferry joins to the port by sea, for interconnection bonuses.",
    )


class Ferries(Strict):
    """Ferries: bought by corporations, they add value to routes through their ports."""

    cost: Money = Field(description="Price of one ferry, paid to the bank.")
    ports: list[FerryPort] = Field(min_length=1, description="One ferry per port.")
    new_bonus: dict[str, Money] = Field(
        default_factory=dict,
        description="Phase id -> extra value of the most recently bought ferry (it moves "
        "to each new purchase).",
    )
    last_bonus: dict[str, Money] = Field(
        default_factory=dict,
        description="Phase id -> extra value the last ferry sold keeps for good, once every "
        "ferry is sold.",
    )
    leave_on: EntityId | None = Field(
        None, description="Phase on whose start every ferry leaves the game."
    )


class MapFile(Strict):
    """map.toml: the board."""

    layout: Layout = Field(description="pointy (1830) or flat hexes.")
    rows: list[str] = Field(
        description="Row letters in use, top to bottom (pointy) or columns (flat).",
        min_length=1,
    )
    columns: list[Annotated[int, Field(ge=0, le=999)]] = Field(
        description="Lowest and highest coordinate number: [first, last].",
        min_length=2,
        max_length=2,
    )
    hexes: list[Hex] = Field(description="Every hex on the board.", min_length=1)
    cell_parity: CellParity = Field(
        CellParity.even, description="Which grid cells exist (see docs/title-format.md)."
    )
    bonuses: list[Bonus] = Field(
        default_factory=list, description="Connection and interconnection bonuses."
    )
    ferries: Ferries | None = Field(None, description="Ferries and their ports.")


# ---------------------------------------------------------------------------------------
# tiles.toml


class Tile(TileFace):
    """A track tile definition (rotation 0)."""

    id: EntityId = Field(description="Tile number as printed, e.g. 57.")
    color: Color = Field(description="Tile colour: yellow, green, brown or gray.")


class TilesFile(Strict):
    """tiles.toml: the manifest (tile id -> count) plus title-specific tile definitions."""

    library: list[str] = Field(
        default_factory=list,
        description='Shared tile libraries to draw definitions from, e.g. ["common"].',
    )
    manifest: dict[str, Count | Unlimited] = Field(
        default_factory=dict, description='Tile id -> count, or "unlimited".'
    )
    tiles: list[Tile] = Field(default_factory=list, description="Tile definitions.")


# ---------------------------------------------------------------------------------------
# trains.toml


class Distance(Strict):
    """A train's reach when it is more than a plain stop count."""

    cities: int | None = Field(
        None, ge=1, le=MAX_COUNT, description="Cities/off-boards counted (N of N+s)."
    )
    towns: int | None = Field(
        None, ge=0, le=MAX_COUNT, description="Towns allowed in addition (s of N+s)."
    )
    visit: int | None = Field(
        None, ge=1, le=MAX_COUNT, description="Stops it may visit (M of N/M)."
    )
    pay: int | None = Field(None, ge=1, le=MAX_COUNT, description="Best stops that pay (N of N/M).")


class TradeIn(Strict):
    """A discount for handing in an owned train when buying this one."""

    trains: list[EntityId] = Field(description="Train ids that may be handed in.", min_length=1)
    discount: Money = Field(description="Price reduction for the handed-in train.")


class TrainVariant(Strict):
    """One side of a double-sided train card."""

    id: EntityId
    distance: Length | Unlimited | Distance
    price: Money


class TrainEvent(str, Enum):
    """Events on the first purchase of a train type."""

    close_privates = "close_privates"
    close_player_privates = "close_player_privates"  # privates owned by players close


class Train(Strict):
    """A train type."""

    id: EntityId = Field(description="Train name, e.g. 2, 3, D.")
    distance: Length | Unlimited | Distance = Field(
        description='Stops it may visit: a number, "unlimited", or a table.'
    )
    price: Money = Field(description="Price from the bank.")
    count: Count | Unlimited = Field(description='Copies in the game, or "unlimited".')
    rusts_on: EntityId | None = Field(
        None, description="Train id whose first purchase removes all trains of this type."
    )
    obsolete_on: EntityId | None = Field(
        None, description="Train id whose first purchase makes this type run once more."
    )
    available_on: EntityId | None = Field(
        None,
        description="Phase id from which this train may be bought even if earlier types remain.",
    )
    trade_in: TradeIn | None = Field(None, description="Discount for handing in a train.")
    variants: list[TrainVariant] = Field(
        default_factory=list, description="Other side(s) of a double-sided card."
    )
    events: list[TrainEvent] = Field(
        default_factory=list, description="Events on the first purchase of this type."
    )


class TrainsFile(Strict):
    """trains.toml: the train roster, in the order the bank sells them."""

    trains: list[Train] = Field(min_length=1, description="Train types in sale order.")


# ---------------------------------------------------------------------------------------
# phases.toml


class Phase(Strict):
    """A game phase."""

    id: EntityId = Field(description="Phase name, e.g. 2, 3, D.")
    on: EntityId | None = Field(
        None, description="Train whose first purchase starts it; absent for the first phase."
    )
    tiles: list[Color] = Field(description="Tile colours that may be laid.", min_length=1)
    operating_rounds: int = Field(ge=1, le=5, description="Operating rounds per set.")
    train_limit: int = Field(ge=1, le=9, description="Most trains a corporation may own.")
    offboard_revenue: str = Field(
        description="Which off-board value applies (a key of every offboard revenue table)."
    )
    privates_buyable: bool = Field(
        False, description="May corporations buy private companies from players?"
    )
    events: list[TrainEvent] = Field(default_factory=list, description="Events on entry.")


class PhasesFile(Strict):
    """phases.toml: phases in order."""

    phases: list[Phase] = Field(min_length=1, description="Phases in order.")


# ---------------------------------------------------------------------------------------
# privates.toml


class BlockHexes(Strict):
    """No corporation may lay track on these hexes while a player owns the private."""

    type: Literal["block_hexes"]
    hexes: list[HexId] = Field(min_length=1, description="Blocked hexes.")


class FreeTileLay(Strict):
    """The owning corporation may lay one of these tiles on a hex, once."""

    type: Literal["tile_lay"]
    hexes: list[HexId] = Field(min_length=1, description="Where the tile may go.")
    tiles: list[EntityId] = Field(min_length=1, description="Tiles it may lay.")
    extra: bool = Field(
        True, description="true: in addition to the normal lay; false: it is the normal lay."
    )
    connected: bool = Field(False, description="Must the hex be connected to the network?")
    free: bool = Field(False, description="true: no terrain cost.")
    token: bool = Field(False, description="May then place a free token there, unconnected.")
    waives_lay_cost: bool = Field(
        False, description="true: no tile-lay fee either (rules.tile_lays cost)."
    )
    only_round_bought: bool = Field(
        False, description="Usable only in the operating round the corporation bought it."
    )
    anytime: bool = Field(
        False,
        description="With extra: usable at any point of the owning corporation's operating "
        "turn, not only in its track step.",
    )


class GrantShare(Strict):
    """Whoever buys the private receives a share of a corporation for free."""

    type: Literal["grant_share"]
    corporation: EntityId
    president: bool = Field(
        False, description="The president's certificate (the buyer then sets the par price)."
    )


class ExchangeShare(Strict):
    """The owning player may exchange the private for a share; the private then closes."""

    type: Literal["exchange_share"]
    corporation: EntityId
    from_: list[Literal["ipo", "pool"]] = Field(
        alias="from", description="Where the share may come from."
    )


class CloseOnTrain(Strict):
    """The private closes when this corporation buys its first train."""

    type: Literal["close_on_train"]
    corporation: EntityId


class NoSaleToCorporation(Strict):
    """The private may never be sold to a corporation."""

    type: Literal["no_sale_to_corporation"]


class PlannedLay(Strict):
    """One tile of a tile_lays power."""

    hex: HexId = Field(description="Where this tile goes.")
    tiles: list[EntityId] = Field(min_length=1, description="Tiles it may be.")
    toward: list[HexId] = Field(
        default_factory=list, description="Neighbours the tile must have track toward."
    )


class TileLays(Strict):
    """The owning corporation may lay up to these tiles, once, in one operating turn."""

    type: Literal["tile_lays"]
    lays: list[PlannedLay] = Field(min_length=1, description="The tiles, one per hex.")
    linked: bool = Field(True, description="If more than one is laid, they must join.")
    extra: bool = Field(True, description="In addition to the normal lays.")
    connected: bool = Field(False, description="Must the hexes connect to the network?")
    free: bool = Field(True, description="No terrain cost.")
    waives_lay_cost: bool = Field(True, description="No tile-lay fee.")


class VirtualStation(Strict):
    """The owning corporation acts as if it had a station in this (off-board) hex."""

    type: Literal["virtual_station"]
    hex: HexId = Field(description="Where the virtual station is.")
    lay_track: bool = Field(True, description="Track may be laid from it.")
    run: bool = Field(True, description="Routes may start from it.")


class ExclusiveHexes(Strict):
    """Only the owning corporation may run routes to these hexes."""

    type: Literal["exclusive_hexes"]
    hexes: list[HexId] = Field(min_length=1, description="The reserved hexes.")


class BonusMultiplier(Strict):
    """The owning corporation earns these connection bonuses multiplied."""

    type: Literal["bonus_multiplier"]
    bonuses: list[EntityId] = Field(min_length=1, description="Bonus ids (map.toml).")
    factor: int = Field(2, ge=2, le=5, description="Multiplier.")
    phases: list[EntityId] = Field(
        default_factory=list, description="Phases in which it applies; empty: always."
    )


class FerryMultiplier(Strict):
    """Multiplies the value of some of the owning corporation's ferries."""

    type: Literal["ferry_multiplier"]
    factor: int = Field(2, ge=2, le=5, description="Multiplier.")
    ferries: int = Field(
        1, ge=1, le=MAX_COUNT, description="How many of its ferries it applies to."
    )
    with_bonuses: bool = Field(True, description="Also multiplies a new/last ferry bonus.")
    movable: bool = Field(False, description="May it move to another ferry once assigned?")


class PurchaseFee(Strict):
    """A corporation buying this private also pays this to the bank."""

    type: Literal["purchase_fee"]
    amount: Money = Field(description="Paid to the bank on top of the price.")


class RestrictCorporation(Strict):
    """While a player owns the private, a corporation is held back."""

    type: Literal["restrict_corporation"]
    corporation: EntityId = Field(description="The corporation held back.")
    no_track_phases: list[EntityId] = Field(
        default_factory=list, description="Phases in which it may lay no track."
    )
    no_routes_until_upgraded: HexId | None = Field(
        None, description="It runs no route while this hex still shows its printed face."
    )


Ability = Annotated[
    BlockHexes
    | FreeTileLay
    | GrantShare
    | ExchangeShare
    | CloseOnTrain
    | NoSaleToCorporation
    | TileLays
    | VirtualStation
    | ExclusiveHexes
    | BonusMultiplier
    | FerryMultiplier
    | PurchaseFee
    | RestrictCorporation,
    Field(discriminator="type"),
]


class Private(Strict):
    """A private company."""

    id: EntityId = Field(description="Short name, e.g. SV.")
    name: str = Field(min_length=1)
    value: PositiveMoney = Field(description="Face value (price in the auction).")
    revenue: Money = Field(description="Paid to the owner every operating round.")
    abilities: list[Ability] = Field(default_factory=list, description="Typed powers.")
    closes_on: EntityId | None = Field(
        None, description="Phase on whose start it closes, whoever owns it."
    )
    flips_on: EntityId | None = Field(
        None,
        description="Phase from whose start it pays no revenue but keeps its powers "
        "(a corporation owns it; player-owned ones close by the phase event).",
    )


class PrivatesFile(Strict):
    """privates.toml: private companies, in auction order."""

    privates: list[Private] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------
# corporations.toml


class Reservation(Strict):
    """A station slot kept free for a corporation outside its home."""

    hex: HexId = Field(description="Reserved hex.")
    city: int | None = Field(
        None, ge=0, le=MAX_COUNT, description="City index; absent: any city there."
    )
    from_color: Color | None = Field(
        None, description="Reserved only once a tile of this colour lies there."
    )
    ends_on: EntityId | None = Field(None, description="Phase on whose start it ends.")


class JointTokenTrigger(str, Enum):
    """When a joint station is placed."""

    first_tile = "first_tile"  # as soon as anyone lays the first tile on the hex


class JointToken(Strict):
    """A station shared with another corporation, placed free in a set hex."""

    partner: EntityId = Field(description="The other corporation it belongs to.")
    hex: HexId = Field(description="Where it is placed.")
    when: JointTokenTrigger = Field(description="What places it.")


class VariableHome(Strict):
    """The corporation has no fixed home: when it is started its founder picks any city
    with no station that is not reserved and is no home of another corporation still in
    the game; the treasury pays for the home station."""

    cost_untracked: Money = Field(
        80, description="Home station price in a gray hex or a hex without track."
    )
    cost: Money = Field(120, description="Home station price anywhere else.")


class Corporation(Strict):
    """A public corporation (railroad)."""

    id: EntityId = Field(description="Short name, e.g. PRR.")
    name: str = Field(min_length=1)
    home: HexId | None = Field(None, description="Home hex (absent only with variable_home).")
    variable_home: VariableHome | None = Field(
        None, description="No fixed home: the founder picks one (instead of home)."
    )
    city: int | None = Field(
        None,
        ge=0,
        le=MAX_COUNT,
        description="Index of the home city on a multi-city hex; absent: chosen when placed.",
    )
    tokens: list[Money] = Field(
        min_length=1, description="Station tokens, by their cost in order; the first is home."
    )
    shares: list[Annotated[int, Field(ge=1, le=100)]] = Field(
        default_factory=lambda: [20, 10, 10, 10, 10, 10, 10, 10, 10],
        description="Certificate sizes in percent; the first is the president's.",
    )
    float_percent: int | None = Field(
        None, ge=10, le=100, description="Overrides rules.float_percent."
    )
    color: str = Field(pattern=r"^#[0-9A-Fa-f]{6}$", description="Charter colour.")
    text_color: str = Field("#ffffff", pattern=r"^#[0-9A-Fa-f]{6}$")
    reservations: list[Reservation] = Field(
        default_factory=list, description="Station slots kept for it outside its home."
    )
    station_costs: dict[str, Money] = Field(
        default_factory=dict,
        description="Hex id -> price of its station there, instead of its next token's.",
    )
    joint_token: JointToken | None = Field(
        None, description="A station shared with another corporation."
    )
    available_from: EntityId | None = Field(
        None, description="Phase from whose start it may be started (absent: from the start)."
    )
    min_par: Money | None = Field(
        None, description="Lowest price it may start at (absent: any par price)."
    )


class CorporationsFile(Strict):
    """corporations.toml."""

    corporations: list[Corporation] = Field(min_length=1)


# ---------------------------------------------------------------------------------------
# market.toml


class Zone(Strict):
    """What a market cell's colour means."""

    name: str = Field(description="Colour name shown to players.")
    par: bool = Field(False, description="A corporation may start at this price.")
    cert_limit_exempt: bool = Field(False, description="Not counted toward the cert limit.")
    holding_limit_exempt: bool = Field(False, description="Players may hold over the limit.")
    multiple_buy: bool = Field(False, description="More than one certificate per turn.")
    closes: bool = Field(False, description="A corporation reaching it closes.")
    ends_game: bool = Field(False, description="Reaching it ends the game.")


MarketCell = Annotated[
    str,
    Field(
        pattern=r"^$|^[0-9]+[a-z]*$",
        description='Price then zone letters, e.g. "100p"; "" where the grid has no cell.',
    ),
]


class MarketType(str, Enum):
    """Shape of the stock market."""

    two_d = "2d"
    linear = "linear"


class MarketFile(Strict):
    """market.toml: the stock market grid."""

    type: MarketType = Field(description="2d grid or linear track.")
    zones: dict[str, Zone] = Field(
        default_factory=dict,
        description="Zone letter -> meaning; a cell '60y' is price 60 in zone y.",
    )
    rows: list[list[MarketCell]] = Field(
        min_length=1,
        description='Rows top to bottom; cells like "100p", "60y", or "" for no cell.',
    )


FILE_MODELS: dict[str, type[Strict]] = {
    "title": TitleFile,
    "map": MapFile,
    "tiles": TilesFile,
    "trains": TrainsFile,
    "phases": PhasesFile,
    "privates": PrivatesFile,
    "corporations": CorporationsFile,
    "market": MarketFile,
}
"""File kind -> model; the file is titles/<id>/<kind>.toml."""
