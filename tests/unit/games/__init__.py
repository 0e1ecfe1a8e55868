"""The game families (service/games/)."""
