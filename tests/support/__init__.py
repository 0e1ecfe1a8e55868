"""What several test folders share: scratch databases, waiting helpers, the in-process app."""
