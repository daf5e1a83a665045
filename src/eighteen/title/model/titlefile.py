"""Typed models of title.toml: the title, its options and its rules (each rule a typed,
bounded value; a rule with variants a tagged union)."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    ConfigDict,
    Field,
)
from typing_extensions import TypeAliasType

from eighteen.title.model.common import (
    MAX_MONEY,
    Count,
    EntityId,
    HexId,
    Limit,
    Money,
    PositiveMoney,
    Ratio,
    Strict,
)


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


class GameEnds(Strict):
    """A player's bankruptcy ends the game at once (1830)."""

    kind: Literal["game_ends"]
    sells_shares: bool = Field(
        False,
        description="Before the game ends, the bankrupt president's shares are sold to the "
        "market as far as the selling rules allow (false: kept for the score).",
    )
    keeps_presidency: bool = Field(
        False,
        description="With sells_shares: the bankrupt corporation's own shares are sold only "
        "as far as its president stays, as in the emergency sale that came before.",
    )


class PlayerEliminated(Strict):
    """The bankrupt player leaves the game, which goes on (1833NE): his shares go to the
    market, his privates close."""

    kind: Literal["player_eliminated"]
    shares_unmoved: bool = Field(
        False,
        description="His shares go to the market without moving prices, even past the pool "
        "limit or with a president's certificate.",
    )


Bankruptcy = Annotated[GameEnds | PlayerEliminated, Field(discriminator="kind")]
"""What a player's bankruptcy does: a tagged value."""


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
    """A source of emergency money that needs its terms: the corporation must issue shares
    before the next source pays for a compulsory train (written in ``emergency_money`` as
    ``{ kind = "issue_shares", drop_per_share = 1, sale_offset = -1, pricing = "bundle" }``)."""

    kind: Literal["issue_shares"]
    drop_per_share: int = Field(ge=0, le=5, description="Cells the price falls per share.")
    sale_offset: int = Field(
        ge=-5, le=5, description="Cells from the lowered price at which the shares sell."
    )
    pricing: EmergencyPricing = Field(description="Bundle or per share.")
    min_price: Money = Field(0, description="No emergency issue at a share price below this.")
    only_as_needed: bool = Field(
        True, description="Issue only as many shares as the cheapest train in the bank needs."
    )


class EmergencySource(str, Enum):
    """A source of emergency money that needs no terms (the share issue is a table,
    :class:`EmergencyIssue`)."""

    treasury = "treasury"
    president_cash = "president_cash"
    president_sells_shares = "president_sells_shares"


EmergencyMoney = EmergencySource | EmergencyIssue
"""One source of money for a compulsory train: a name, or the share issue with its terms."""


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
    offboard_groups: dict[HexId, Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        default_factory=dict,
        description="Off-board hexes grouped into areas beyond the map's own groups (hex -> "
        "area name): a route visits at most one off-board of an area.",
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
        False,
        description=(
            "In a multiple-buy zone, may the purchases after a turn's first (a share or a"
            " private) come from the IPO? If not, they come from the pool only, and none"
            " follows an IPO share."
        ),
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
    private_sales_in_sellers_turn: bool = Field(
        True,
        description="May a player sell a private to another player in his own stock-round "
        "turn (not only buy one in his)?",
    )
    private_trades_include_share_grants: bool = Field(
        True,
        description="May a private whose first buyer received a share with it (a "
        "grant_share ability) be traded between players?",
    )
    deals_need_consent: bool = Field(
        True,
        description="Does a deal between two players wait for the other player's answer? A "
        "train bought from a corporation another player presides, a private bought by a "
        "corporation from a player who is not its president, and a private traded between "
        "players are offered by the acting side and made only if the other accepts (a "
        "refused deal is offered again in the round only at a price better for the other "
        "player). If not, the acting side's action is the deal.",
    )
    privates_count_for_cert_limit: bool = Field(
        True, description="Do private companies count toward the certificate limit?"
    )
    train_buy_from_corporation_min: Money = Field(
        1, description="Least price when a corporation buys a train from another."
    )
    one_new_train_per_turn: bool = Field(
        False,
        description="A corporation buys at most one bank train of the types that came on "
        "sale during its turn (the type before sold out, or the phase making it available "
        "began); trains already on sale when its turn began, any number.",
    )
    must_own_train: MustOwnTrain = Field(
        MustOwnTrain.with_route,
        description="When a corporation must own a train after its turn: never, when it "
        "has a route, or always.",
    )
    president_may_sell_for_train: bool = Field(
        True, description="President sells shares to raise money for a forced train purchase."
    )
    president_may_sell_privates_for_train: bool = Field(
        False,
        description="In a forced train purchase the president may also sell a private he "
        "owns to another player, at a price they agree (he is not bound to: bankruptcy does "
        "not wait for it).",
    )
    privates_bought_in_forced_purchase: bool = Field(
        False,
        description="A corporation that must buy a train its treasury cannot pay for may "
        "still buy privates from players in its turn (its president then pays more of the "
        "train). Without it, its treasury goes to the forced train.",
    )
    bankruptcy: Bankruptcy = Field(
        default_factory=lambda: GameEnds(kind="game_ends", sells_shares=False),
        description='Effect of bankruptcy: {kind = "game_ends", sells_shares = false} or '
        '{kind = "player_eliminated", shares_unmoved = false}.',
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
    emergency_money: list[EmergencyMoney] = Field(
        default_factory=lambda: list[EmergencyMoney](
            [
                EmergencySource.treasury,
                EmergencySource.president_cash,
                EmergencySource.president_sells_shares,
            ]
        ),
        min_length=1,
        description="Money sources for a compulsory train, in order of use: treasury, "
        'president_cash, president_sells_shares or {kind = "issue_shares", ...its terms}.',
    )
    emergency_sales_keep_president: bool = Field(
        False,
        description="Forced sales never change a presidency nor close the corporation saved.",
    )
    emergency_buy_from_bank_only: bool = Field(
        False, description="A forced train purchase comes from the bank only."
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
    no_corporation_left_ends_game: bool = Field(
        False,
        description="The game ends when no corporation is left to run: at once when the "
        'last one closes ("every corporation closed"), and at the end of a stock round in '
        "which no corporation is running, and no private is left and no player could start "
        "one, or every corporation left waits for a phase (nothing can change any more: "
        '"no corporation can be started any more").',
    )
    stall_ends_game: bool = Field(
        False,
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

    @property
    def emergency_issue(self) -> EmergencyIssue | None:
        """The terms of the emergency share issue, when emergency_money names one."""
        for source in self.emergency_money:
            if isinstance(source, EmergencyIssue):
                return source
        return None


class PlayerCount(Strict):
    """Players allowed."""

    min: int = Field(ge=1, le=12, description="Fewest players.")
    max: int = Field(ge=1, le=12, description="Most players.")


#: One value an option gives a rule: what TOML writes (a boolean, a bounded number, text),
#: or a list or table of them, nested as the rule's own value is (``tile_lays``, a
#: ``by_ratio`` table and its steps); E156 checks it against the rule itself.
if TYPE_CHECKING:  # (mypy does not follow the recursive alias; pydantic does)
    OptionValue = bool | int | float | str | list[Any] | dict[str, Any]
else:
    OptionValue = TypeAliasType(
        "OptionValue",
        bool
        | Annotated[int, Field(ge=-MAX_MONEY, le=MAX_MONEY)]
        | Annotated[float, Field(ge=-MAX_MONEY, le=MAX_MONEY, allow_inf_nan=False)]
        | Annotated[str, Field(max_length=200)]
        | Annotated[list["OptionValue"], Field(max_length=100)]
        | dict[str, "OptionValue"],
    )


class TitleOption(Strict):
    """An optional rule a game may switch on: it overrides rules and train counts."""

    id: str = Field(pattern=r"^[a-z0-9_]{1,40}$", description="Option id (lower case, digits, _).")
    description: str = Field(description="What the option changes.")
    rules: dict[str, OptionValue] = Field(
        default_factory=dict,
        description="Rules fields this option overrides, each with any value the rule takes "
        "(E156 checks it against the rule): a number, text, a list such as tile_lays, or a "
        'tagged rule as a whole table, e.g. bankruptcy = {kind = "game_ends", '
        "sells_shares = true}.",
    )
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
        "makes that are not among its optional rules (ids of this title's options). They come "
        "first, the export's optional rules after them, so an optional rule overrides them.",
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
