"""Settling a Gin Rummy hand: knock limit, layoffs and the result (000 §7-§11, 003, 004).

>>> from engine.cards import parse_cards
>>> result = settle_hand(
...     knocker_hand=parse_cards("AS 2S 3S 7H 7D 7C 9D 10D JD 5C"),
...     opponent_hand=parse_cards("4S 5S QH QD QC 2C 3C 8H KD KS"),
...     names=("A", "B"))
>>> result.winner, result.points
('knocker', 28)
>>> result.explanation
'A knocks with 5 (5C). B lays off 4S 5S: 42 -> 33. B 33 > A 5: A wins 33 - 5 = 28.'

The knocker's melds are the ones laid on the table, which need not be optimal; without
them the knocker's best arrangement is used (among the minimum-deadwood arrangements, the
one whose result is best for the knocker, as OpenSpiel's golden cases do). The opponent's own melds and layoffs are
chosen jointly to minimise the opponent's deadwood.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from typing import Iterable, Literal, Sequence

from engine.cards import SUITS, Card, format_cards
from engine.melds import (
    Arrangement, Meld, MeldError, MeldRules, arrangement_of, arrangements, check_hand, optimal_arrangements,
    reference_min_deadwood, solver,
)
from engine.rules import GinRules

Winner = Literal["knocker", "opponent", "none"]


class GinError(ValueError):
    """A hand that cannot be settled as given: wrong card counts, shared cards, bad upcard."""


class IllegalKnockError(GinError):
    """The knocker's deadwood is above the knock limit (000 §14.6-8 say what happens next)."""


@cache
def meld_rules(rules: GinRules) -> MeldRules:
    """The meld options of a Gin rules object (card values are the Gin values)."""
    return MeldRules(ace_high=rules.ace_high, round_the_corner=rules.round_the_corner, max_run_length=rules.max_run_length)


def knock_limit(rules: GinRules, upcard: Card | None = None) -> int:
    """Highest deadwood a knock may have; 0 means gin only.

    Oklahoma Gin (004): the first upcard's value is the limit, an ace means gin only.

    >>> from engine.rules import preset
    >>> knock_limit(preset("oklahoma"), Card(7, "H")), knock_limit(preset("oklahoma"), Card(1, "S"))
    (7, 0)
    """
    if not rules.oklahoma:
        return rules.knock_limit
    if upcard is None:
        raise GinError("Oklahoma Gin: the knock limit is set by the first upcard, and none was given")
    if upcard.rank == 1 and rules.oklahoma_ace_gin_only:
        return 0
    return upcard.gin_value


def is_doubled(rules: GinRules, upcard: Card | None) -> bool:
    """Oklahoma option: a spade as first upcard doubles the hand's score."""
    return rules.oklahoma and rules.oklahoma_spade_doubles and upcard is not None and upcard.suit == "S"


# --- layoffs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layoff:
    """Cards laid onto one of the knocker's melds, in an order that is legal card by card."""

    onto: Meld
    cards: tuple[Card, ...]
    result: Meld

    @classmethod
    def of(cls, onto: Meld, cards: Iterable[Card], rules: MeldRules) -> "Layoff":
        """Check that ``onto`` plus ``cards`` is a legal meld of the same kind.

        >>> from engine.cards import parse_cards
        >>> run = Meld.of(parse_cards("5H 6H 7H"))
        >>> str(Layoff.of(run, parse_cards("9H 8H 4H"), MeldRules()))
        '4H 8H 9H onto 5H 6H 7H'
        >>> Layoff.of(run, parse_cards("9H"), MeldRules())
        Traceback (most recent call last):
        ...
        engine.melds.MeldError: cannot lay 9H onto 5H 6H 7H: meld 5H 6H 7H 9H: 8H is missing: the ranks are not consecutive
        """
        cards = tuple(cards)
        try:
            result = Meld.of(onto.cards + cards, rules)
        except MeldError as error:
            raise MeldError(f"cannot lay {format_cards(cards)} onto {onto}: {error}") from None
        if result.kind != onto.kind:
            raise MeldError(f"cannot lay {format_cards(cards)} onto {onto}: that makes a {result.kind} of a {onto.kind}")
        # Card by card: nearest to the original meld first (8H before 9H onto 5H-6H-7H).
        start = result.cards.index(onto.cards[0])
        end = start + len(onto.cards) - 1
        position = {card: i for i, card in enumerate(result.cards)}
        ordered = tuple(sorted(cards, key=lambda c: (max(start - position[c], position[c] - end), position[c])))
        return cls(onto, ordered, result)

    def __str__(self) -> str:
        return f"{format_cards(self.cards)} onto {self.onto}"


@dataclass(frozen=True)
class LayoffOutcome:
    """The opponent's best joint choice of own melds and layoffs."""

    layoffs: tuple[Layoff, ...]
    opponent: Arrangement
    """The opponent's own melds and the deadwood left after laying off."""
    deadwood_without_layoffs: int

    @property
    def laid_off(self) -> tuple[Card, ...]:
        return tuple(card for layoff in self.layoffs for card in layoff.cards)


def _extensions(meld: Meld, hand: set[Card], rules: MeldRules) -> list[tuple[Card, ...]]:
    """Every legal set of opponent cards that can be laid onto one knocker meld, () included."""
    if meld.kind == "set":
        rank = meld.cards[0].rank
        fourth = [c for c in hand if c.rank == rank] if len(meld.cards) < 4 else []
        return [()] + [(c,) for c in fourth]
    suit = meld.cards[0].suit
    ranks = [c.rank for c in meld.cards]

    def walk(rank: int, step: int) -> list[Card]:
        """Held cards continuing the run from ``rank`` one by one while the run stays legal."""
        chain: list[Card] = []
        while True:
            rank = (rank - 1 + step) % 13 + 1
            card = Card(rank, suit)
            if card not in hand or rules.run_order(ranks + [c.rank for c in chain] + [rank]) is None:
                return chain
            chain.append(card)

    down, up = walk(ranks[0], -1), walk(ranks[-1], +1)
    options: list[tuple[Card, ...]] = []
    for d in range(len(down) + 1):
        for u in range(len(up) + 1):
            cards = tuple(down[:d]) + tuple(up[:u])
            # Both ends together must still be one legal run (length limit, the ace used once).
            if not cards or (len(set(cards)) == len(cards) and rules.run_order(ranks + [c.rank for c in cards])):
                options.append(cards)
    return options


def best_layoffs(knocker_melds: Sequence[Meld], opponent_hand: Sequence[Card], rules: MeldRules) -> LayoffOutcome:
    """The opponent's optimal joint choice of own melds and layoffs onto ``knocker_melds``.

    Every combination of legal extensions of the knocker's melds is tried (few: one meld
    rarely takes more than a handful); the cards left are arranged by the fast solver. On
    equal deadwood the fewest laid-off cards win.

    >>> from engine.cards import parse_cards
    >>> knocker = [Meld.of(parse_cards("5H 6H 7H")), Meld.of(parse_cards("QS QD QC"))]
    >>> outcome = best_layoffs(knocker, parse_cards("4H 8H 9H QH AS 2D 3C KC 10S 10D"), MeldRules())
    >>> [str(layoff) for layoff in outcome.layoffs], outcome.opponent.deadwood
    (['4H 8H 9H onto 5H 6H 7H', 'QH onto QS QD QC'], 36)
    """
    fast = solver(rules)
    masks = fast.masks(opponent_hand)
    hand = set(opponent_hand)
    best_key, best_combo = None, ()
    for combo in itertools.product(*(_extensions(meld, hand, rules) for meld in knocker_melds)):
        laid = [card for cards in combo for card in cards]
        if len(set(laid)) != len(laid):
            continue
        rest = list(masks)
        for card in laid:
            rest[SUITS.index(card.suit)] ^= 1 << (card.rank - 1)
        key = (fast.best_split(*rest)[0], len(laid))
        if best_key is None or key < best_key:
            best_key, best_combo = key, combo
    return _outcome(knocker_melds, best_combo, rules, fast.arrange(_kept(opponent_hand, best_combo)),
                    fast.min_deadwood(opponent_hand))


def _kept(opponent_hand: Sequence[Card], combo: tuple[tuple[Card, ...], ...]) -> list[Card]:
    laid = {card for cards in combo for card in cards}
    return [card for card in opponent_hand if card not in laid]


def _outcome(knocker_melds, combo, rules, kept: Arrangement, without_layoffs: int) -> LayoffOutcome:
    layoffs = tuple(Layoff.of(meld, cards, rules) for meld, cards in zip(knocker_melds, combo) if cards)
    return LayoffOutcome(layoffs, kept, without_layoffs)


def reference_layoffs(knocker_melds: Sequence[Meld], opponent_hand: Sequence[Card], rules: MeldRules) -> LayoffOutcome:
    """Brute force for :func:`best_layoffs`: every subset of same-rank / same-suit cards per meld.

    Slow and independent of the run walking above; used by the tests and as benchmark baseline.
    """
    per_meld = []
    for meld in knocker_melds:
        first = meld.cards[0]
        fits = [c for c in opponent_hand if (c.rank == first.rank if meld.kind == "set" else c.suit == first.suit)]
        options = [()]
        for size in range(1, len(fits) + 1):
            for cards in itertools.combinations(fits, size):
                try:
                    Layoff.of(meld, cards, rules)
                except MeldError:
                    continue
                options.append(cards)
        per_meld.append(options)
    best_key, best_combo = None, ()
    for combo in itertools.product(*per_meld):
        laid = [card for cards in combo for card in cards]
        if len(set(laid)) != len(laid):
            continue
        kept = [c for c in opponent_hand if c not in laid]
        key = (min(a.deadwood for a in arrangements(kept, rules)), len(laid))
        if best_key is None or key < best_key:
            best_key, best_combo = key, combo
    kept = min(arrangements(_kept(opponent_hand, best_combo), rules), key=lambda a: a.deadwood)
    return _outcome(knocker_melds, best_combo, rules, kept, reference_min_deadwood(opponent_hand, rules))


def check_layoffs(knocker_melds: Sequence[Meld], layoffs: Sequence[Layoff], rules: MeldRules) -> None:
    """Raise :class:`MeldError` unless every layoff extends a distinct-card knocker meld legally."""
    seen: set[Card] = set()
    for layoff in layoffs:
        if layoff.onto not in knocker_melds:
            raise MeldError(f"layoff {layoff}: {layoff.onto} is not one of the knocker's melds")
        Layoff.of(layoff.onto, layoff.cards, rules)
        for card in layoff.cards:
            if card in seen:
                raise MeldError(f"layoff {layoff}: {card} is laid off twice")
            seen.add(card)
    if len({layoff.onto for layoff in layoffs}) != len(layoffs):
        raise MeldError("two layoff entries extend the same meld; list its cards in one entry")


# --- the hand result -----------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """Who scores what for one hand, with the arithmetic in words for the dashboard."""

    winner: Winner
    points: int
    gin: bool
    big_gin: bool
    undercut: bool
    knocker: Arrangement
    """The knocker's melds as laid and deadwood."""
    opponent: Arrangement
    """The opponent's own melds and the deadwood left after layoffs."""
    layoffs: tuple[Layoff, ...]
    opponent_deadwood_without_layoffs: int
    knock_limit: int
    doubled: bool
    explanation: str

    @property
    def knocker_deadwood(self) -> int:
        return self.knocker.deadwood

    @property
    def opponent_deadwood(self) -> int:
        return self.opponent.deadwood

    @property
    def laid_off(self) -> tuple[Card, ...]:
        return tuple(card for layoff in self.layoffs for card in layoff.cards)

    @property
    def knocker_points(self) -> int:
        """Points from the knocker's side: positive if the knocker scores."""
        return {"knocker": self.points, "opponent": -self.points, "none": 0}[self.winner]


def settle_hand(
    knocker_hand: Sequence[Card],
    opponent_hand: Sequence[Card],
    rules: GinRules = GinRules(),
    knocker_melds: Iterable[Meld | Iterable[Card]] | None = None,
    upcard: Card | None = None,
    names: tuple[str, str] = ("knocker", "opponent"),
) -> HandResult:
    """Settle a knocked hand: 10 knocker cards after the discard (11 for big gin), 10 opponent cards.

    ``knocker_melds`` are the melds the knocker laid out; None: the knocker's best choice.

    >>> from engine.cards import parse_cards
    >>> settle_hand(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), parse_cards("KH KD 2H"))
    Traceback (most recent call last):
    ...
    engine.gin.GinError: opponent hand has 3 cards; a hand is settled with 10
    """
    mrules = meld_rules(rules)
    _check_hands(knocker_hand, opponent_hand, rules)
    limit = knock_limit(rules, upcard)
    if knocker_melds is not None:
        melds = [Meld.of(meld.cards if isinstance(meld, Meld) else meld, mrules) for meld in knocker_melds]
        candidates = [arrangement_of(knocker_hand, melds, mrules)]
    else:
        candidates = optimal_arrangements(knocker_hand, mrules)
    results = [_settle(arrangement, opponent_hand, rules, mrules, limit, upcard, names) for arrangement in candidates]
    return max(results, key=lambda r: r.knocker_points)


def _check_hands(knocker_hand: Sequence[Card], opponent_hand: Sequence[Card], rules: GinRules) -> None:
    check_hand(knocker_hand)
    check_hand(opponent_hand)
    if len(opponent_hand) != 10:
        raise GinError(f"opponent hand has {len(opponent_hand)} cards; a hand is settled with 10")
    if len(knocker_hand) == 11 and rules.big_gin_bonus is None:
        raise GinError("knocker hand has 11 cards: discard first (big gin, 11 melded cards, is not played under these rules)")
    if len(knocker_hand) not in (10, 11):
        raise GinError(f"knocker hand has {len(knocker_hand)} cards; a knock is settled with 10 (11 for big gin)")
    shared = set(knocker_hand) & set(opponent_hand)
    if shared:
        raise GinError(f"{min(shared, key=lambda c: c.index)} is in both hands")


def _settle(knocker: Arrangement, opponent_hand, rules: GinRules, mrules: MeldRules, limit: int, upcard, names) -> HandResult:
    k_name, o_name = names
    big_gin = len(knocker.melded_cards()) + len(knocker.deadwood_cards) == 11
    if big_gin and knocker.deadwood:
        raise GinError(
            f"knocker hand has 11 cards but only big gin is settled with 11, and these melds leave deadwood "
            f"{knocker.deadwood} ({format_cards(knocker.deadwood_cards)})"
        )
    if knocker.deadwood > limit:
        gin_only = " (gin only)" if limit == 0 else ""
        raise IllegalKnockError(f"illegal knock: {k_name} deadwood {knocker.deadwood} is above the knock limit {limit}{gin_only}")
    gin = knocker.deadwood == 0
    if gin and not rules.layoffs_on_gin:
        arrangement = solver(mrules).arrange(list(opponent_hand))
        outcome = LayoffOutcome((), arrangement, arrangement.deadwood)
    else:
        outcome = best_layoffs(knocker.melds, opponent_hand, mrules)
    return score(knocker, outcome, rules, limit, upcard, names, big_gin=big_gin)


def score(
    knocker: Arrangement, outcome: LayoffOutcome, rules: GinRules, limit: int, upcard: Card | None = None,
    names: tuple[str, str] = ("knocker", "opponent"), big_gin: bool = False,
) -> HandResult:
    """The result of a knock, given the knocker's arrangement and the opponent's layoffs (000 §9-§11)."""
    k_name, o_name = names
    k, o = knocker.deadwood, outcome.opponent.deadwood
    gin = k == 0
    parts = [f"{k_name} " + ("big gin (11 cards melded)." if big_gin else "gin." if gin else
                             f"knocks with {k} ({format_cards(knocker.deadwood_cards)}).")]
    if outcome.layoffs:
        parts.append(f"{o_name} lays off {format_cards(outcome.laid_off)}: {outcome.deadwood_without_layoffs} -> {o}.")
    undercut = False
    if gin:
        bonus = rules.big_gin_bonus if big_gin else rules.gin_bonus
        winner: Winner = "knocker"
        points = bonus + o
        parts.append(f"{k_name} wins {bonus} {'big gin' if big_gin else 'gin'} bonus + {o_name} {o} = {points}.")
    elif o < k or (o == k and rules.tie_is_undercut):
        winner, undercut = "opponent", True
        points = k - o + rules.undercut_bonus
        parts.append(f"{o_name} {o} {'<' if o < k else '<='} {k_name} {k}: undercut, {o_name} wins "
                     f"{k} - {o} = {k - o} + {rules.undercut_bonus} bonus = {points}.")
    elif o == k:
        winner, points = "none", 0
        parts.append(f"{o_name} {o} = {k_name} {k}: equal deadwood scores nothing under these rules.")
    else:
        winner, points = "knocker", o - k
        parts.append(f"{o_name} {o} > {k_name} {k}: {k_name} wins {o} - {k} = {points}.")
    doubled = is_doubled(rules, upcard)
    if doubled and points:
        points *= 2
        parts.append(f"Spade upcard doubles: {points}.")
    return HandResult(winner, points, gin, big_gin, undercut, knocker, outcome.opponent, outcome.layoffs,
                      outcome.deadwood_without_layoffs, limit, doubled, " ".join(parts))
