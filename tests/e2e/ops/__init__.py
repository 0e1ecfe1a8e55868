"""End-to-end tests of the operations pieces: metrics, logs, the terminal simulator, scale-out, the stack."""
