"""Reports from the ledger: drop, paid out, win and hold per table and gaming day."""
