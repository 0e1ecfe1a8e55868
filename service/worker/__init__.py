"""The Celery worker: settles rounds and runs the console's verifications of the audit log."""
