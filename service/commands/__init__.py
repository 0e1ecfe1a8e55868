"""The `pontoon` command's subcommands, one module each, imported only when called."""
