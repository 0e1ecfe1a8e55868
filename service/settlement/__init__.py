"""Settlement: the outbox relay, the sweep, and settling a completed round into the ledger, once."""
