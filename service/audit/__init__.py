"""The tamper-evident audit log: hash-chained records, appended in the caller's transaction."""
