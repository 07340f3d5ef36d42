"""One module per game; each defines ``GAME``. The registry discovers them by themselves."""
