"""Supervisors' and compliance's work without Flask: voiding a round, recalling a table's rounds."""
