"""Repositories: the SQL for each aggregate, returning typed rows (psycopg class_row)."""
