"""The classifier's classes and card codes as the recognizer reports them.

Class ``i`` < 52 is the card with :attr:`engine.cards.Card.index` ``i``; then
the joker, then ``NONE`` for a patch that is not a readable corner index.

>>> CLASS_CODES[0], CLASS_CODES[9], CLASS_CODES[51], CLASS_CODES[JOKER_CLASS], CLASS_CODES[NONE_CLASS]
('AS', '10S', 'KC', 'JK', 'NONE')
>>> class_of("10H"), rank_of("10H"), rank_of("JK"), rank_of("Q?")
(22, '10', 'JK', 'Q')
"""

from __future__ import annotations

from engine.cards import ALL_CARDS, JOKER_CODE, parse_card

BACK_CODE = "BACK"
NONE_CODE = "NONE"
CLASS_CODES: tuple[str, ...] = tuple(str(card) for card in ALL_CARDS) + (JOKER_CODE, NONE_CODE)
JOKER_CLASS = CLASS_CODES.index(JOKER_CODE)
NONE_CLASS = CLASS_CODES.index(NONE_CODE)
NUM_CLASSES = len(CLASS_CODES)


def class_of(code: str) -> int:
    """The class number of a card code in any notation :func:`engine.cards.parse_card` reads."""
    return CLASS_CODES.index(str(parse_card(code)))


def rank_of(code: str) -> str:
    """The rank part of a code (``JK`` and ``BACK`` stay whole); ``?`` suits are allowed."""
    if code in (JOKER_CODE, BACK_CODE):
        return code
    return code[:-1]
