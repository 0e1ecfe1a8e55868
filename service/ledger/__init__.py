"""What a round's money is made of: its ledger rows, the player-banked game's transfers, and the stored
transcript whose replay they must agree with."""
