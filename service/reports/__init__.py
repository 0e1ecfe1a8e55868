"""Reports from the ledger: handle, paid out, game win and its percentage of handle per table and
gaming day; the table games statement from a table's books: drop, win and hold."""
