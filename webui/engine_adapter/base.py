"""What every game form of the adapter shares: the match setup, the scoreboard model, the errors.

A *game form* (two-player Gin, three-player Gin, chouette, partnerships, Wiener Rummy, tile
Rummy) turns the match setup and the recorded hands into a :class:`Standing`, and the cards a
table showed into a stored hand result (by asking the engine). The templates draw any
:class:`Standing` the same way: one or more score sheets of columns (players or teams).

>>> board = Standing(sheets=(Sheet("Score", (Column("Ann", 30, 2), Column("Ben", 11, 1)), 100),),
...                  finished=False, next_dealer="Ben")
>>> board.totals, board.boxes
({'Ann': 30, 'Ben': 11}, {'Ann': 2, 'Ben': 1})
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine.cards import CardError, parse_cards


class HandRejected(ValueError):
    """The engine refused what was given (wrong card count, knock over the limit, match over, ...).

    ``field`` names the input that was wrong, for the form and the API.
    """

    def __init__(self, message: str, field: str = "hands") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Setup:
    """A match as created: the game form, the players (in seat order), rule preset and options."""

    game: str
    players: tuple[str, ...]
    preset: str
    options: Mapping[str, Any]
    first_dealer: str


@dataclass(frozen=True)
class Played:
    """A counted hand (or round) as the record holds it: the stored result and who dealt."""

    result: Mapping[str, Any]
    dealer: str | None = None


@dataclass(frozen=True)
class Rebuy:
    """A Wiener Rummy player bought back in (001 "re-buy")."""

    player: str


Action = Played | Rebuy


@dataclass(frozen=True)
class Column:
    """One column of a score sheet: a player, or a team writing together."""

    name: str
    total: int
    boxes: int | None = None
    members: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    """Short words shown beside the name: "deals", "sits out", "out", "re-bought", ..."""
    out: bool = False


@dataclass(frozen=True)
class Sheet:
    """A game's columns; Hollywood keeps three at once."""

    title: str
    columns: tuple[Column, ...]
    target: int | None
    """The total that ends the game (Wiener Rummy: the limit above which a player is out)."""
    closed: bool = False
    lower_wins: bool = False
    """Penalty points (Wiener Rummy): the lowest total leads."""
    accounts: Mapping[str, Mapping[str, int]] | None = None
    """Once closed (Gin forms): per column hand points, box bonus, game bonus and total."""
    winner: str | None = None


@dataclass(frozen=True)
class Table:
    """Who plays whom in the next hand (one entry per table; partnerships have several)."""

    players: tuple[str, ...]
    dealer: str | None = None
    label: str = ""


@dataclass(frozen=True)
class Standing:
    """The match as the engine sees it after the counted hands: what the scoreboard shows."""

    sheets: tuple[Sheet, ...]
    finished: bool
    next_dealer: str | None
    winner: str | None = None
    transfers: Sequence[tuple[str, str, Any]] = ()
    """After the match: (payer, payee, amount)."""
    tables: tuple[Table, ...] = ()
    """The next hand's tables (empty when the whole table plays, or the match is over)."""
    facts: tuple[tuple[str, str], ...] = ()
    """Extra figures under the board: ("Pot", "30"), ("Round", "4 of 6"), ..."""
    money: Mapping[str, float] = field(default_factory=dict)
    """Wiener Rummy: each player's net units so far."""
    rebuy: Mapping[str, str | None] = field(default_factory=dict)
    """Wiener Rummy: per player None if a re-buy is allowed now, else why not."""
    rounds_played: int = 0

    @property
    def totals(self) -> dict[str, int]:
        return {c.name: c.total for c in self.sheets[0].columns}

    @property
    def boxes(self) -> dict[str, int]:
        return {c.name: c.boxes or 0 for c in self.sheets[0].columns}

    @property
    def accounts(self) -> Mapping[str, Mapping[str, int]]:
        return self.sheets[0].accounts or {}


@dataclass(frozen=True)
class Picker:
    """The pieces a scorer taps: rows of faces, how many copies of each exist, and jokers."""

    rows: list[list[dict]]
    copies: int = 1
    jokers: int = 0


class GameForm(ABC):
    """The adapter for one game form; subclasses fill in the engine calls."""

    game = ""
    title = ""
    sizes: tuple[int, ...] = (2,)
    """How many players the form is for."""
    raw_results = False
    """Whether a finished result (not cards) may be posted, as the camera pipeline does for Gin."""
    hand_word = "hand"
    decides = "knocker"
    """What the scorer says besides the cards: "knocker", "knockers" (one per table) or "winner"."""
    timed = False
    """Whether turns have a time limit (tile Rummy): then the form has ``timer(setup)``."""
    stock_max = 52
    """The most pieces the stock can hold: one deck, two decks and jokers, or 106 tiles."""
    pieces_hint = "10 cards each after the knocker's discard (11 for big gin)"

    @abstractmethod
    def normalize(self, players: Sequence[str], preset: str, options: Mapping[str, Any],
                  first_dealer: str | None) -> tuple[str, dict[str, Any], str]:
        """Check the rule options; return (preset, options, first dealer) as stored."""

    @abstractmethod
    def standing(self, setup: Setup, actions: Sequence[Action]) -> Standing:
        """The match as it stands after ``actions``, replayed through the engine."""

    @abstractmethod
    def settle(self, setup: Setup, before: Standing, form: Mapping[str, Any]) -> dict[str, Any]:
        """A hand result from the cards (``form["hands"]``: player -> codes), settled by the engine."""

    def scorers(self, setup: Setup, before: Standing) -> tuple[Table, ...]:
        """The tables whose cards the scoring form asks for."""
        if before.finished:
            raise HandRejected(f"the match is over: no more {self.hand_word}s can be scored", "hand")
        return before.tables or (Table(tuple(setup.players)),)

    def parse_pieces(self, setup: Setup, codes: Any) -> list:
        """Card (or tile) codes as the engine's pieces; raises ``CardError`` naming the bad code."""
        return parse_cards(codes)

    def check_hands(self, setup: Setup, tables: Sequence[Table], given: Mapping[str, Any]) -> dict[str, list[str]]:
        """Each seated player's codes, normalised; a piece may not be held more often than the
        table's deck has it (each table of a partnership plays its own deck)."""
        hands: dict[str, list[str]] = {}
        for table in tables:
            for player in table.players:
                codes = given.get(player, "")
                if not isinstance(codes, (str, list)):
                    raise HandRejected("must be a list of codes or a space-separated string", f"hands.{player}")
                try:
                    hands[player] = [str(piece) for piece in self.parse_pieces(setup, codes)]
                except CardError as exc:
                    raise HandRejected(str(exc), f"hands.{player}") from None
            try:
                self.parse_pieces(setup, [code for player in table.players for code in hands[player]])
            except CardError as exc:
                raise HandRejected(str(exc), "hands") from None
        return hands

    @abstractmethod
    def picker(self, setup: Setup) -> Picker:
        """The pieces the scoring form offers to tap."""

    def summary(self, setup: Setup) -> str:
        """One line of rules under the scoreboard."""
        return ""


def seat_words(form: GameForm) -> str:
    """How many play a form, in words.

    >>> from webui.engine_adapter import FORMS
    >>> [seat_words(FORMS[g]) for g in ("gin", "partnership", "wiener")]
    ['two', '4 or 6', '2 to 6']
    """
    sizes = form.sizes
    if len(sizes) == 1:
        return {2: "two", 3: "three"}.get(sizes[0], str(sizes[0]))
    return " or ".join(map(str, sizes)) if len(sizes) == 2 else f"{sizes[0]} to {sizes[-1]}"


def check_seat_count(form: GameForm, players: Sequence[str]) -> None:
    if len(players) not in form.sizes:
        raise HandRejected(f"{form.title} is played by {seat_words(form)} players, got {len(players)}", "players")


def whole_number(options: Mapping[str, Any], name: str, low: int, high: int, default: int) -> int:
    """An integer option within bounds, with a clear error.

    >>> whole_number({"rounds": "7"}, "rounds", 1, 20, 4)
    Traceback (most recent call last):
    ...
    webui.engine_adapter.base.HandRejected: rounds must be a whole number 1..20, got '7'
    """
    value = options.get(name, default)
    if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
        raise HandRejected(f"{name} must be a whole number {low}..{high}, got {value!r}", f"options.{name}")
    return value


def next_in_circle(players: Sequence[str], after: str, among: Sequence[str]) -> str:
    """The first of ``among`` to the left of ``after`` in seat order ``players``.

    >>> next_in_circle(["A", "B", "C", "D"], "C", ["A", "B"])
    'A'
    """
    start = players.index(after)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in among:
            return candidate
    raise HandRejected(f"nobody of {', '.join(among)} is seated", "players")
