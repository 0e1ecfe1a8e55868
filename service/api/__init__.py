"""The dealer terminals' REST API: its resources, schemas, errors and auth (service/app.py serves it)."""
