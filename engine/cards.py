"""Cards, tiles and jokers: value types, notation and parsing.

One module parses everything that lies on a rummy table:

>>> parse_card("10H")
Card('10H')
>>> parse_card("th"), parse_card("♥10"), parse_card("10♥")
(Card('10H'), Card('10H'), Card('10H'))
>>> [str(c) for c in parse_cards("AS 10H QC")]
['AS', '10H', 'QC']
>>> parse_card("JK")
Joker()
>>> parse_tile("R7", RAVENSBURGER)
Tile('R7')

The canonical notation is rank ``A 2 .. 10 J Q K`` followed by suit ``S H D C``.
Parse errors name the offending token:

>>> parse_card("1X")
Traceback (most recent call last):
...
engine.cards.CardParseError: malformed card code '1X': expected a rank (A, 2-10, T, J, Q, K) and a suit (S, H, D, C or ♠♥♦♣), or JK
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Union

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
JOKER_CODE = "JK"

_SUIT_ALIASES = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
_RANK_ALIASES = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
_RANK_ALIASES.update({str(n): n for n in range(2, 11)})
_JOKER_ALIASES = {"JK", "JOKER", "🃏"}


class CardError(ValueError):
    """Base class for every error about cards or tiles a user handed us."""


class CardParseError(CardError):
    """A token is not a card, joker or tile code."""


class DuplicateCardError(CardError):
    """A card appears more often than the decks in play hold it."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card of a 52-card French deck.

    ``rank`` runs 1 (ace) to 13 (king); ``suit`` is one of ``S H D C``.
    ``index`` (0..51, suit-major) is a dense id for bitmask work.

    >>> Card(12, "C").index
    50
    >>> Card.from_index(50)
    Card('QC')
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise CardError(f"card rank must be 1..13, got {self.rank!r}")
        if self.suit not in SUITS:
            raise CardError(f"card suit must be one of S, H, D, C, got {self.suit!r}")

    @property
    def index(self) -> int:
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> "Card":
        return ALL_CARDS[index]

    @property
    def rank_code(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def gin_value(self) -> int:
        """Deadwood points in Gin Rummy: ace 1, pictures 10, others face value."""
        return min(self.rank, 10)

    def __str__(self) -> str:
        return self.rank_code + self.suit

    def __repr__(self) -> str:
        return f"Card('{self}')"


@dataclass(frozen=True, slots=True)
class Joker:
    """A joker card or joker tile. All jokers are interchangeable.

    Jokers sort after every card and tile.
    """

    def __str__(self) -> str:
        return JOKER_CODE

    def __repr__(self) -> str:
        return "Joker()"

    def __lt__(self, other: object) -> bool:
        return False

    def __gt__(self, other: object) -> bool:
        return not isinstance(other, Joker)


JOKER = Joker()

ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""The 52 cards, ordered by :attr:`Card.index`."""


@dataclass(frozen=True)
class TilePalette:
    """The four tile colours of one tile-rummy brand, as one-letter codes.

    >>> RAVENSBURGER.colour_name("G")
    'green'
    """

    name: str
    colours: tuple[str, str, str, str]
    colour_names: tuple[str, str, str, str]

    def colour_name(self, code: str) -> str:
        return self.colour_names[self.colours.index(code)]


RAVENSBURGER = TilePalette("ravensburger", ("Y", "G", "B", "R"), ("yellow", "green", "blue", "red"))
RUMMIKUB = TilePalette("rummikub", ("K", "B", "O", "R"), ("black", "blue", "orange", "red"))
PALETTES = {p.name: p for p in (RAVENSBURGER, RUMMIKUB)}


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A numbered tile of tile rummy: ``number`` 1..13 in colour ``colour``.

    The colour is a one-letter code of a :class:`TilePalette`.
    """

    colour: str
    number: int

    def __post_init__(self) -> None:
        if not (isinstance(self.number, int) and 1 <= self.number <= 13):
            raise CardError(f"tile number must be 1..13, got {self.number!r}")
        if not (isinstance(self.colour, str) and len(self.colour) == 1 and self.colour.isupper()):
            raise CardError(f"tile colour must be one upper-case letter, got {self.colour!r}")

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Tile('{self}')"


Piece = Union[Card, Tile, Joker]


def parse_card(token: str) -> Card | Joker:
    """Parse one card code in any accepted notation (see the module docstring)."""
    if not isinstance(token, str):
        raise CardParseError(f"card code must be a string, got {token!r}")
    text = token.strip().upper()
    if text in _JOKER_ALIASES:
        return JOKER
    for suit_first in (False, True):
        suit_part, rank_part = (text[:1], text[1:]) if suit_first else (text[-1:], text[:-1])
        suit = _SUIT_ALIASES.get(suit_part)
        rank = _RANK_ALIASES.get(rank_part)
        if suit and rank:
            return Card(rank, suit)
    raise CardParseError(
        f"malformed card code {token!r}: expected a rank (A, 2-10, T, J, Q, K) and a suit "
        "(S, H, D, C or ♠♥♦♣), or JK"
    )


def parse_tile(token: str, palette: TilePalette = RAVENSBURGER) -> Tile | Joker:
    """Parse a tile code such as ``R7``, ``y13`` or ``JK`` in the given palette.

    >>> parse_tile("O5", RUMMIKUB)
    Tile('O5')
    >>> parse_tile("O5", RAVENSBURGER)
    Traceback (most recent call last):
    ...
    engine.cards.CardParseError: malformed tile code 'O5': colour 'O' is not one of Y, G, B, R (ravensburger tiles)
    """
    if not isinstance(token, str):
        raise CardParseError(f"tile code must be a string, got {token!r}")
    text = token.strip().upper()
    if text in _JOKER_ALIASES:
        return JOKER
    colour, number = text[:1], text[1:]
    if colour not in palette.colours:
        raise CardParseError(
            f"malformed tile code {token!r}: colour {colour!r} is not one of "
            f"{', '.join(palette.colours)} ({palette.name} tiles)"
        )
    if not number.isdigit() or not 1 <= int(number) <= 13:
        raise CardParseError(f"malformed tile code {token!r}: number must be 1..13")
    return Tile(colour, int(number))


def _tokens(codes: str | Iterable[str]) -> list[str]:
    if isinstance(codes, str):
        return codes.replace(",", " ").split()
    return list(codes)


def parse_cards(codes: str | Iterable[str], decks: int = 1, jokers: int | None = None) -> list[Card | Joker]:
    """Parse several card codes (a string separated by spaces/commas, or a list).

    A card may appear at most ``decks`` times and a joker at most ``jokers``
    times (default: no jokers in a one-deck game, one per deck otherwise).

    >>> parse_cards("AS AS")
    Traceback (most recent call last):
    ...
    engine.cards.DuplicateCardError: duplicate card 'AS': AS appears 2 times, but a one-deck game holds it once
    """
    allowed_jokers = jokers if jokers is not None else (0 if decks == 1 else decks)
    cards = [parse_card(token) for token in _tokens(codes)]
    check_multiplicity(cards, _tokens(codes), decks, allowed_jokers)
    return cards


def tile_set_of(code: str) -> TilePalette:
    """The tile set whose colours a tile code names (Ravensburger's where both sets have the colour,
    and for the joker): to parse a code whose set is not known.

    >>> tile_set_of("O5").name, tile_set_of("b5").name, tile_set_of("JK").name
    ('rummikub', 'ravensburger', 'ravensburger')
    """
    colour = code.strip()[:1].upper() if isinstance(code, str) else ""
    return next((p for p in PALETTES.values() if colour in p.colours), RAVENSBURGER)


def parse_tiles(codes: str | Iterable[str], palette: TilePalette = RAVENSBURGER, jokers: int = 4) -> list[Tile | Joker]:
    """Parse several tile codes; each tile exists twice, jokers ``jokers`` times."""
    tokens = _tokens(codes)
    tiles = [parse_tile(token, palette) for token in tokens]
    check_multiplicity(tiles, tokens, 2, jokers)
    return tiles


def check_multiplicity(pieces: list, tokens: list[str], copies: int, jokers: int) -> None:
    """Raise :class:`DuplicateCardError` if a piece occurs more often than the set holds it."""
    seen: Counter = Counter()
    for piece, token in zip(pieces, tokens):
        seen[piece] += 1
        limit = jokers if isinstance(piece, Joker) else copies
        if seen[piece] > limit:
            if isinstance(piece, Joker) and limit == 0:
                raise DuplicateCardError(f"joker {token!r}: this game is played without jokers")
            times = {1: "once", 2: "twice"}.get(limit, f"{limit} times")
            deck = {1: "a one-deck game", 2: "a two-deck game"}.get(copies, f"a {copies}-deck game")
            raise DuplicateCardError(
                f"duplicate card {token!r}: {piece} appears {seen[piece]} times, but {deck} holds it {times}"
            )


def format_cards(pieces: Iterable[Piece]) -> str:
    """Canonical space-separated notation.

    >>> format_cards(parse_cards("th ♠a"))
    '10H AS'
    """
    return " ".join(str(p) for p in pieces)
