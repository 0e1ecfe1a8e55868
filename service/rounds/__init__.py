"""Round handling without Flask: commands, their handlers, and the views a terminal reads."""
