"""Read side of the console pages: the handlers' and queries' answers shaped for the pit."""
