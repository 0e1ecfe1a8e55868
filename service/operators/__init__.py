"""Operators' and admins' work without Flask: paytable change control and API keys."""
