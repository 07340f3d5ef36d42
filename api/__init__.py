"""Tafelrunde's HTTP service: a Litestar app over SQLite or PostgreSQL that keeps every round.

The service never computes a score itself: every number comes from folding a match's round
entries with :func:`scoring.match.fold_match`.
"""
