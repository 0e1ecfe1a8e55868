"""Settlement: the Celery app, the outbox relay, and the ledger writes that settle rounds."""
