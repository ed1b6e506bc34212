"""How pieces look on the page: rank, suit symbol and tone for a card, joker or tile code.

>>> card_face("10H")
{'code': '10H', 'rank': '10', 'symbol': '♥', 'red': True, 'tone': 'red'}
>>> card_face("JK")["tone"], card_face("R7")["tone"]
('joker', 'tile tile-r')
>>> [len(row) for row in picker_rows()]
[13, 13, 13, 13]
"""

from __future__ import annotations

from engine.cards import (ALL_CARDS, RAVENSBURGER, SUITS, Card, CardError, Joker, TilePalette, parse_card, parse_tile,
                          tile_set_of)
from engine.tile_tracker import AS_READ, NO_TILE, NOT_AS_READ
from engine.tracker import BACK, NOTHING

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(code: str) -> dict:
    """The face of a card code, a joker (``JK``) or a tile code (``R7``, ``K5``: either set's colours)."""
    try:
        piece = parse_card(code)
    except CardError:
        return tile_face(code)
    if isinstance(piece, Joker):
        return {"code": str(piece), "rank": "JK", "symbol": "★", "red": False, "tone": "joker"}
    red = piece.suit in "HD"
    return {"code": str(piece), "rank": piece.rank_code, "symbol": SYMBOLS[piece.suit], "red": red,
            "tone": "red" if red else "black"}


def tile_face(code: str, palette: TilePalette | None = None) -> dict:
    """A tile's face in ``palette``'s colours (None: the set whose colours the code names).

    >>> tile_face("K5")["tone"], tile_face("r7", RAVENSBURGER)["code"]
    ('tile tile-k', 'R7')
    """
    tile = parse_tile(code, palette or tile_set_of(code))
    if isinstance(tile, Joker):
        return card_face(str(tile))
    return {"code": str(tile), "rank": str(tile.number), "symbol": "", "red": tile.colour == "R",
            "tone": f"tile tile-{tile.colour.lower()}"}


ANSWER_WORDS = {BACK: "face down", NOTHING: "no card here", NO_TILE: "no tile here", AS_READ: "the table is as read",
                NOT_AS_READ: "none of these"}
"""How the tracker's answers that are not a card read on a button."""


def answer_words(text: str) -> str:
    """The words on a button for an answer that is not a card.

    >>> answer_words("NONE"), answer_words("Ann took 7H")
    ('no card here', 'Ann took 7H')
    """
    return ANSWER_WORDS.get(text, text)


def is_card(text: str) -> bool:
    """Whether an answer is a card code (then it is drawn as a card).

    >>> is_card("6H"), is_card("yes"), is_card("JK")
    (True, False, False)
    """
    try:
        return isinstance(parse_card(text), Card)
    except CardError:
        return False


def is_tile(text: str) -> bool:
    """Whether an answer is a tile code of either set or the joker (then it is drawn as a tile).

    >>> is_tile("R7"), is_tile("K13"), is_tile("JK"), is_tile("NO_TILE")
    (True, True, True, False)
    """
    try:
        parse_tile(text, tile_set_of(text))
    except CardError:
        return False
    return True


def picker_rows(jokers: bool = False) -> list[list[dict]]:
    """The 52 cards as four suit rows, ace to king, for the card picker; with ``jokers`` a row with the joker.

    >>> [len(row) for row in picker_rows(jokers=True)]
    [13, 13, 13, 13, 1]
    """
    rows = [[card_face(str(c)) for c in ALL_CARDS if c.suit == suit] for suit in SUITS]
    return rows + [[card_face("JK")]] if jokers else rows


def tile_rows(palette: TilePalette = RAVENSBURGER) -> list[list[dict]]:
    """The tiles as one row per colour, 1 to 13, and a row with the joker.

    >>> [len(row) for row in tile_rows()]
    [13, 13, 13, 13, 1]
    """
    rows = [[tile_face(f"{colour}{n}", palette) for n in range(1, 14)] for colour in palette.colours]
    return rows + [[card_face("JK")]]
