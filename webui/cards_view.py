"""How cards look on the page: rank, suit symbol and colour for a card code.

>>> card_face("10H")
{'code': '10H', 'rank': '10', 'symbol': '♥', 'red': True}
>>> [len(row) for row in picker_rows()]
[13, 13, 13, 13]
"""

from __future__ import annotations

from engine.cards import ALL_CARDS, SUITS, Card, CardError, parse_card

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_face(code: str) -> dict:
    card = parse_card(code)
    return {"code": str(card), "rank": card.rank_code, "symbol": SYMBOLS[card.suit], "red": card.suit in "HD"}


def is_card(text: str) -> bool:
    """Whether an answer is a card code (then it is drawn as a card).

    >>> is_card("6H"), is_card("yes"), is_card("JK")
    (True, False, False)
    """
    try:
        return isinstance(parse_card(text), Card)
    except CardError:
        return False


def picker_rows() -> list[list[dict]]:
    """The 52 cards as four suit rows, ace to king, for the card picker."""
    return [[card_face(str(c)) for c in ALL_CARDS if c.suit == suit] for suit in SUITS]
