"""The player-banked game's table: the bank, the Shoot kitty and the pack carried from round to round."""
