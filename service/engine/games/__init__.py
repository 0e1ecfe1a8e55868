"""Game families: each module holds only what its game does differently from the shared core."""
