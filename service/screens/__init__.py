"""Dealers' screens: enrolling a screen for a table, a dealer signing in and out on it, and a
dealer's call for a supervisor."""
