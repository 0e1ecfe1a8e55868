"""Marshmallow schemas for request bodies (unknown fields refused) and responses."""
