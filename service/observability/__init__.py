"""Observability: JSON-lines logs with request and round ids, for the API, gunicorn and the workers."""
