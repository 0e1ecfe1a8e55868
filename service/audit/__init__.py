"""The tamper-evident audit log: exporting it and verifying its chains (the store appends to it)."""
