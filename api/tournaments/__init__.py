"""Tournaments: players, seated rounds of matches, confirmation at the tables, standings."""
