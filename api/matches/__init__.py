"""Matches and their rounds: create, read, record, correct, undo, guide, export, history, live."""
