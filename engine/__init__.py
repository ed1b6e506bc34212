"""rummyref's rules engine: cards, melds, rules, scoring and the table-state tracker.

Pure Python; imports nothing else of the project.
"""
