"""Settlement: the outbox relay, the sweep, and the ledger writes that settle rounds."""
