"""Tests of the traditional (British, player-banked) game."""
