"""The 1830 readings of 18xx.games that the importer switches on (titles/1830)."""

#: The options titles/1830 switches on for every 18xx.games import (18xx.games' readings
#: of the rules where they differ from the seed), in the title's order.
READINGS_18XX = [
    "auction_18xx_games",
    "brown_pool_only_18xx_games",
    "new_trains_18xx_games",
    "emergency_18xx_games",
    "private_trades_18xx_games",
    "deals_18xx_games",
    "offboard_groups_18xx_games",
    "bankrupt_sells_shares",
]
