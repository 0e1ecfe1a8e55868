"""The benchmarks (`make bench`) and what they share with the tests: the processes, private Redis
servers and scratch databases a run starts and always stops, and the simulated play that feeds them."""
