"""The player-banked game's table: the bank, the Shoot kitty and the pack carried from round to round."""

GAME = "traditional"   # tables.game and the rules' `game` of the player-banked game
