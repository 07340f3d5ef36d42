"""Persistence: the engine per dialect, the tables, and the per-request session."""
