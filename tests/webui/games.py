"""Hands of every game form, as the engine settles them (shared by the page, API and browser tests)."""

from __future__ import annotations

GIN_KNOCKER = "AS 2S 3S 7H 7D 7C 9D 10D JD 5C"
"""Knocks with 5 (5C); against :data:`GIN_OPPONENT` wins 28 after the layoff of 4S 5S."""
GIN_OPPONENT = "4S 5S QH QD QC 2C 3C 8H KD KS"
GIN_KNOCK_POINTS = 28

WIENER_KNOCKER = "AS 2S 3S 7H 7D 7C 9C 9S 9D 2C"
"""Knocks with 2 (2C)."""
WIENER_LOW = "QH JH 10H 2D 2H 2S AH AD JK 6S"
"""Deadwood 6 (6S)."""
WIENER_BIG = "KH QD JS 10C 9H 8D AS AC KD QS"
"""No meld at all: 99 penalty points, so two rounds put a player out (above 100)."""

TILES_BEN = "R5 JK"
TILES_CY = "B13 Y1"
"""Ann lays out everything: +44, Ben -30 (joker 25), Cy -14 (002)."""


def wiener_round(knocker: str = "Ann", big: str = "Ben", low: str = "Cy") -> dict:
    return {"knocker": knocker, "hands": {knocker: WIENER_KNOCKER, big: WIENER_BIG, low: WIENER_LOW}}
