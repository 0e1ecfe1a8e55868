"""Staff accounts: people who sign in to the console as themselves, their passwords, second
factor and sessions."""
