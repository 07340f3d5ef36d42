"""Tafelrunde's scoring engine: every rule, validation, score, tiebreak and seating plan.

Pure Python, standard library only. The API and the app hand it plain JSON values and get
back frozen value types; nothing here knows about HTTP, databases or the browser.
"""
