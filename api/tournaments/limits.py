"""A tournament's size limits, on their own so that the command line reads them without loading
the tournament's tables and bodies (``tafelrunde seating`` plans within the same bounds)."""

MAX_ROUNDS = 50
MAX_TABLE_SIZE = 64
MAX_BACKUP_ITEMS = 10_000
"""The most players, tables or round entries a tournament's backup holds, so the most players a
tournament can have."""
