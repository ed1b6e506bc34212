"""Around a hand: the draw for seats, the deal, the opening turn and the end of the stock.

The draw (000 §3): each player draws a card; the higher card is forehand (non-dealer) in the
first hand, the lower card deals. King is high, ace is low (000 §1).

>>> from engine.cards import parse_card
>>> first_deal({"Anna": parse_card("QS"), "Ben": parse_card("4H")})
('Ben', 'Anna')

The deal (000 §3, 003/004): with the rulebook deal forehand gets 11 cards and opens by
discarding; with the upcard deal both get 10 and the upcard is offered first to forehand, then
to the dealer (first refusal). :class:`Opening` follows that sequence action by action:

>>> from engine.rules import GinRules
>>> opening = deal_plan(GinRules(deal="upcard"), dealer="Ben", forehand="Anna").opening()
>>> opening.expected()
Expected(player='Anna', actions=('take_upcard', 'pass'))
>>> opening = opening.apply("Anna", "pass").apply("Ben", "pass")
>>> opening.expected()
Expected(player='Anna', actions=('draw_stock',))
>>> opening.apply("Anna", "draw_stock").apply("Anna", "discard").next_player
'Ben'

The end of the stock (000 §12, 004): see :func:`stock_end`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, Mapping

from engine.cards import Card
from engine.rules import DealVariant, GinRules

DECK_SIZE = 52


class DealError(ValueError):
    """A draw, deal or opening action that the rules do not allow."""


class DrawTie(DealError):
    """Two or more players drew cards of equal rank where an order is needed: they draw again."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        super().__init__(f"{', '.join(players)} drew cards of equal rank: they draw again")


def rank_draw(draws: Mapping[str, Card]) -> tuple[str, ...]:
    """The players ordered by the card each drew, highest first (king high, ace low, 000 §1).

    Equal ranks that matter for the order raise :class:`DrawTie` naming who draws again;
    the rulebook gives suits no order.

    >>> from engine.cards import parse_card
    >>> rank_draw({"A": parse_card("AS"), "B": parse_card("KD"), "C": parse_card("7C")})
    ('B', 'C', 'A')
    >>> rank_draw({"A": parse_card("7S"), "B": parse_card("7D")})
    Traceback (most recent call last):
    ...
    engine.dealing.DrawTie: A, B drew cards of equal rank: they draw again
    """
    if len(draws) < 2:
        raise DealError(f"a draw needs at least two players, got {len(draws)}")
    for player, card in draws.items():
        if not isinstance(card, Card):
            raise DealError(f"{player} must draw a playing card, got {card!r}")
    order = sorted(draws, key=lambda player: -draws[player].rank)
    tied = tuple(p for p in order if sum(draws[q].rank == draws[p].rank for q in order) > 1)
    if tied:
        raise DrawTie(tied)
    return tuple(order)


def first_deal(draws: Mapping[str, Card]) -> tuple[str, str]:
    """``(dealer, forehand)`` of a two-player match from the draw: the lower card deals (000 §3)."""
    if len(draws) != 2:
        raise DealError(f"a two-player match needs two draws, got {len(draws)}")
    forehand, dealer = rank_draw(draws)
    return dealer, forehand


OpeningAction = Literal["take_upcard", "pass", "draw_stock", "discard", "knock"]
_ENDS_TURN: tuple[OpeningAction, ...] = ("discard", "knock")


@dataclass(frozen=True)
class Expected:
    """Who is to act next in the opening and which actions are allowed."""

    player: str
    actions: tuple[OpeningAction, ...]


@dataclass(frozen=True)
class Opening:
    """The opening of a hand up to the first regular turn, replayed from the actions so far.

    ``'eleven'`` (000 §3, §5): forehand holds 11 cards and discards (or knocks); then the dealer
    plays the first regular turn.

    ``'upcard'`` (003, 004): forehand may take the upcard or pass; if he passes, the dealer may
    take it or pass; if both pass, forehand draws from the stock. Whoever picked up a card
    discards (or knocks), and then the other player has the first regular turn.

    >>> Opening("eleven", dealer="D", forehand="F").apply("F", "discard").next_player
    'D'
    >>> Opening("upcard", dealer="D", forehand="F").apply("F", "pass").apply("D", "take_upcard").expected()
    Expected(player='D', actions=('discard', 'knock'))
    >>> Opening("upcard", dealer="D", forehand="F").apply("D", "pass")
    Traceback (most recent call last):
    ...
    engine.dealing.DealError: F is to act in the opening (take_upcard or pass), not D
    """

    variant: DealVariant
    dealer: str
    forehand: str
    actions: tuple[tuple[str, OpeningAction], ...] = ()

    def __post_init__(self) -> None:
        if self.dealer == self.forehand:
            raise DealError(f"dealer and forehand must be two players, got {self.dealer!r} twice")
        if self.variant not in ("eleven", "upcard"):
            raise DealError(f"deal variant must be 'eleven' or 'upcard', got {self.variant!r}")

    def _step(self) -> tuple[Expected | None, str | None]:
        """The next expected action, and who has the first regular turn once it is over."""
        done = [action for _, action in self.actions]
        who = [player for player, _ in self.actions]
        if done and done[-1] == "knock":
            return None, None
        if self.variant == "eleven":
            return (Expected(self.forehand, _ENDS_TURN), None) if not done else (None, self.dealer)
        if done and done[-1] == "discard":
            return None, self.dealer if who[-1] == self.forehand else self.forehand
        if not done:
            return Expected(self.forehand, ("take_upcard", "pass")), None
        if done[-1] in ("take_upcard", "draw_stock"):
            return Expected(who[-1], _ENDS_TURN), None
        if done == ["pass"]:
            return Expected(self.dealer, ("take_upcard", "pass")), None
        return Expected(self.forehand, ("draw_stock",)), None  # both passed

    def expected(self) -> Expected | None:
        """The next action expected, or None once the opening is over."""
        return self._step()[0]

    @property
    def done(self) -> bool:
        return self.expected() is None

    @property
    def knocked(self) -> bool:
        """The hand ended in the opening: a knock (or gin) on the first turn."""
        return bool(self.actions) and self.actions[-1][1] == "knock"

    @property
    def next_player(self) -> str | None:
        """Who plays the first regular turn; None while the opening goes on or after a knock."""
        return self._step()[1]

    def apply(self, player: str, action: OpeningAction) -> "Opening":
        """The opening after ``player`` did ``action``; an out-of-turn or wrong action is an error."""
        expected = self.expected()
        if expected is None:
            raise DealError("the opening is over: play goes on with regular turns")
        if player != expected.player:
            raise DealError(
                f"{expected.player} is to act in the opening ({' or '.join(expected.actions)}), not {player}"
            )
        if action not in expected.actions:
            raise DealError(f"{player} may now {' or '.join(expected.actions)}, not {action!r}")
        return Opening(self.variant, self.dealer, self.forehand, self.actions + ((player, action),))


@dataclass(frozen=True)
class DealPlan:
    """How a hand is dealt: cards per player, whether an upcard is turned, the stock size."""

    dealer: str
    forehand: str
    forehand_cards: int
    dealer_cards: int
    upcard: bool
    stock: int
    variant: DealVariant

    def opening(self) -> Opening:
        return Opening(self.variant, self.dealer, self.forehand)


def deal_plan(rules: GinRules, dealer: str, forehand: str) -> DealPlan:
    """The deal for one hand under ``rules.deal``; the cards go out one by one from forehand.

    >>> deal_plan(GinRules(), "D", "F")
    DealPlan(dealer='D', forehand='F', forehand_cards=11, dealer_cards=10, upcard=False, stock=31, variant='eleven')
    >>> deal_plan(GinRules(deal="upcard"), "D", "F").stock
    31
    """
    if dealer == forehand:
        raise DealError(f"dealer and forehand must be two players, got {dealer!r} twice")
    if rules.deal == "eleven":
        return DealPlan(dealer, forehand, 11, 10, False, DECK_SIZE - 21, "eleven")
    return DealPlan(dealer, forehand, 10, 10, True, DECK_SIZE - 21, "upcard")


class StockEnd(Enum):
    """What the state of the stock means after a completed turn."""

    PLAY_ON = "play_on"
    """The next player takes his turn as usual."""
    HAND_OVER = "hand_over"
    """The turn ended with a knock or gin: the hand is scored as usual."""
    FINAL_CHANCE = "final_chance"
    """004 variant: the next player may only take the last discard, and must then knock or go gin."""
    NO_GAME = "no_game"
    """The hand is void (000 §12): nobody scores and the same dealer deals again."""


def reserved_cards(rules: GinRules) -> int:
    """How many stock cards are never drawn: 2 by the rulebook (000 §12), 0 if the stock may run out."""
    return 2 if rules.last_two_cards_reserved else 0


def may_draw_from_stock(rules: GinRules, stock_left: int) -> bool:
    """Whether a player may still draw from a stock of ``stock_left`` cards.

    >>> may_draw_from_stock(GinRules(), 3), may_draw_from_stock(GinRules(), 2)
    (True, False)
    """
    _check_stock(rules, stock_left)
    return stock_left > reserved_cards(rules)


TurnEnd = Literal["discard", "knock"]


def stock_end(rules: GinRules, stock_left: int, turn_ended_with: TurnEnd, final_chance: bool = False) -> StockEnd:
    """Is the hand over as no game? Ask after every completed turn.

    ``stock_left`` is the stock after the turn, ``turn_ended_with`` how the turn ended
    (a plain ``'discard'`` or a ``'knock'``, gin included), ``final_chance`` whether this was the
    extra turn of the 004 variant (``rules.last_discard_may_be_taken``).

    000 §12: when a player has drawn the third-to-last card and only discards, the hand is no game;
    the last discard and the two last stock cards may not be taken.

    >>> rules = GinRules()
    >>> stock_end(rules, 3, "discard"), stock_end(rules, 2, "discard"), stock_end(rules, 2, "knock")
    (<StockEnd.PLAY_ON: 'play_on'>, <StockEnd.NO_GAME: 'no_game'>, <StockEnd.HAND_OVER: 'hand_over'>)

    004 variant: the next player may still take that last discard, discard and knock or go gin;
    if he does not, the hand is no game.

    >>> variant = GinRules(last_discard_may_be_taken=True)
    >>> stock_end(variant, 2, "discard"), stock_end(variant, 2, "discard", final_chance=True)
    (<StockEnd.FINAL_CHANCE: 'final_chance'>, <StockEnd.NO_GAME: 'no_game'>)
    """
    _check_stock(rules, stock_left)
    if turn_ended_with not in ("discard", "knock"):
        raise DealError(f"a turn ends with 'discard' or 'knock', got {turn_ended_with!r}")
    floor = reserved_cards(rules)
    if final_chance:
        if not rules.last_discard_may_be_taken:
            raise DealError("no final chance: these rules do not let the last discard be taken (004 variant off)")
        if stock_left != floor:
            raise DealError(f"a final chance is only taken with {floor} stock cards left, got {stock_left}")
    if turn_ended_with == "knock":
        return StockEnd.HAND_OVER
    if stock_left > floor:
        return StockEnd.PLAY_ON
    if rules.last_discard_may_be_taken and not final_chance:
        return StockEnd.FINAL_CHANCE
    return StockEnd.NO_GAME


def _check_stock(rules: GinRules, stock_left: int) -> None:
    floor, full = reserved_cards(rules), DECK_SIZE - 21
    if not isinstance(stock_left, int) or not floor <= stock_left <= full:
        why = " (the last two cards are never drawn, 000 §12)" if floor else ""
        raise DealError(f"stock count must be {floor}..{full} under these rules{why}, got {stock_left!r}")
