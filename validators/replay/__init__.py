"""Replaying a game record into board states, step by step."""
