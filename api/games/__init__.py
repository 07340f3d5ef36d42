"""The games this server knows, described by the scoring registry."""
