"""The dealer-terminal simulator: HTTP terminals that open shoes and play rounds through the API."""
