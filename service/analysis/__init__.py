"""House edge and player strategy for any house-banked rule set and paytable (analysis, no I/O)."""
