"""The pure game engine: no I/O, no clock, no global random. Money is integer cents."""
