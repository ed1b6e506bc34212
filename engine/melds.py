"""Melds and the minimum-deadwood solver: one solver, variants as a :class:`MeldRules` object.

A meld is a *set* (3 or 4 cards of one rank) or a *run* (3 or more cards of one suit in
sequence). The ace is low by default (000 §1, §4); the options of 003 allow Q-K-A (ace
high) and K-A-2 (round the corner):

>>> from engine.cards import parse_cards
>>> Meld.of(parse_cards("9H 7H 8H"))
Meld('run', '7H 8H 9H')
>>> Meld.of(parse_cards("QC KC AC"))
Traceback (most recent call last):
...
engine.melds.MeldError: meld QC KC AC: ace high (Q-K-A) is not allowed by these rules
>>> Meld.of(parse_cards("QC KC AC"), MeldRules(ace_high=True))
Meld('run', 'QC KC AC')

The solver finds the minimum deadwood and one arrangement reaching it:

>>> arrange(parse_cards("AS 2S 3S 7H 7D 7C 9D 10D JD KH")).describe()
'7H 7D 7C | AS 2S 3S | 9D 10D JD + deadwood KH = 10'
>>> min_deadwood(parse_cards("AS 2S 3S 7H 7D 7C 9D 10D JD KH"))
10

How it is fast. Runs live inside one suit and sets span suits. So the solver only
enumerates the set choices (for each rank held 3 or 4 times: no set, each 3-card subset,
the 4-card set) and, for the cards left in each suit, looks the best run-only deadwood up
in a table indexed by the suit's 13-bit rank mask. The table (8192 entries) is computed
once per :class:`MeldRules`, lazily, by a small dynamic programme over the ranks in run
order; ace high, round the corner and the run-length limit all live in that programme.
:func:`arrangements` is the readable brute force (every partition into legal melds) that
the property tests and the benchmark compare against.

Extending the solver (Knock/Wiener Rummy, tile Rummy). The card values are data
(:attr:`MeldRules.rank_values`; Wiener Rummy counts the ace 11), so deadwood needs no
other change. Two decks make a suit a multiset: a per-suit key becomes the pair (ranks held
at least once, ranks held twice), too many states for a full table, so the per-suit DP is
memoised on demand instead; sets must then use distinct suits, which is exactly the
per-rank subset enumeration done here. Jokers add a count ``j`` to the per-suit DP (the
best run deadwood of a suit using at most ``j`` jokers, a joker filling a gap or an end)
and to the set choices (a set may be 2 cards + joker); the suits are then combined by a
small knapsack over how the jokers are shared. :class:`MeldSolver` is the place for that:
a subclass overrides the table and the split, the public functions stay as they are.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Iterable, Iterator, Literal, Sequence

from engine.cards import ALL_CARDS, SUITS, Card, DuplicateCardError, format_cards

GIN_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Deadwood value by rank (index rank - 1): ace 1, pictures 10 (000 §2)."""

_RANK_COUNT = 13
_FULL_SUIT = (1 << _RANK_COUNT) - 1
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}


class MeldError(ValueError):
    """Cards that do not form a legal meld, or melds that do not fit a hand."""


@dataclass(frozen=True)
class MeldRules:
    """What counts as a meld and what a card is worth; one solver serves every variant.

    >>> MeldRules(round_the_corner=True).run_order([13, 1, 2])
    [13, 1, 2]
    >>> MeldRules(max_run_length=4).run_order([3, 4, 5, 6, 7]) is None
    True
    """

    ace_high: bool = False
    """Q-K-A is a run (the ace may also stay low)."""
    round_the_corner: bool = False
    """Runs wrap around: K-A-2 and Q-K-A are runs. Implies ace high."""
    max_run_length: int | None = None
    """Longest allowed run; None: up to 13."""
    rank_values: tuple[int, ...] = GIN_VALUES
    """Deadwood value of each rank, ace first."""
    decks: int = 1
    """How often each card exists (Wiener Rummy, tile Rummy: 2); above 1 :mod:`engine.wildmelds` solves."""
    jokers: int = 0
    """Jokers in the game; with any, :mod:`engine.wildmelds` solves."""
    joker_value: int = 0
    """Deadwood value of a joker left unmelded."""

    def __post_init__(self) -> None:
        if self.max_run_length is not None and self.max_run_length < 3:
            raise MeldError(f"max_run_length must be >= 3 or None, got {self.max_run_length}")
        if len(self.rank_values) != _RANK_COUNT or any(v < 0 for v in self.rank_values):
            raise MeldError(f"rank_values must be 13 non-negative values, ace first, got {self.rank_values!r}")

    @property
    def longest_run(self) -> int:
        return min(self.max_run_length or _RANK_COUNT, _RANK_COUNT)

    def value(self, card: Card) -> int:
        """Deadwood value of a card."""
        return self.rank_values[card.rank - 1]

    def run_order(self, ranks: Iterable[int]) -> list[int] | None:
        """The ranks from the low end of the run they form, or None if they form no run."""
        ranks = list(ranks)
        if not 3 <= len(ranks) <= self.longest_run or len(set(ranks)) != len(ranks):
            return None
        shape, order = _run_shape(ranks)
        return order if shape is not None and self._allows(shape) else None

    def _allows(self, shape: str) -> bool:
        return shape == "low" or (shape == "high" and (self.ace_high or self.round_the_corner)) or (
            shape == "corner" and self.round_the_corner
        )

    def _run_problem(self, cards: Sequence[Card]) -> str:
        """Why cards of one suit are not a run (they are not, under these rules)."""
        if len(cards) > self.longest_run:
            return f"a run of {len(cards)} cards; these rules allow at most {self.longest_run}"
        shape, _ = _run_shape([c.rank for c in cards])
        if shape == "high":
            return "ace high (Q-K-A) is not allowed by these rules"
        if shape == "corner":
            return "round the corner (K-A-2) is not allowed by these rules"
        held = {c.rank for c in cards}
        low = min(held)
        missing = next(r for r in range(low, low + len(cards)) if r not in held)
        return f"{Card(missing, cards[0].suit)} is missing: the ranks are not consecutive"


def _run_shape(ranks: list[int]) -> tuple[str | None, list[int]]:
    """Classify distinct ranks: 'low' (A-2-3 style), 'high' (ace after the king), 'corner' (wrapping)."""
    ordered = sorted(ranks)
    n = len(ordered)
    if ordered[-1] - ordered[0] == n - 1:
        return "low", ordered
    if ordered[0] == 1 and 14 - ordered[1] == n - 1:
        return "high", ordered[1:] + [1]
    held = set(ordered)
    starts = [r for r in ordered if (r - 2) % _RANK_COUNT + 1 not in held]
    if len(starts) == 1:
        return "corner", [(starts[0] - 1 + i) % _RANK_COUNT + 1 for i in range(n)]
    return None, ordered


GIN_MELDS = MeldRules()
"""The official Gin Rummy melds: ace low, runs of any length."""

MeldKind = Literal["set", "run"]


@dataclass(frozen=True)
class Meld:
    """A legal meld; build one with :meth:`Meld.of`, which checks it and orders its cards.

    Sets list their cards in suit order S H D C, runs from their low end.

    >>> from engine.cards import parse_cards
    >>> m = Meld.of(parse_cards("7C 7S 7D"))
    >>> m.kind, str(m)
    ('set', '7S 7D 7C')
    """

    kind: MeldKind
    cards: tuple[Card, ...]

    @classmethod
    def of(cls, cards: Iterable[Card], rules: MeldRules = GIN_MELDS) -> "Meld":
        """Check that ``cards`` form a legal meld under ``rules``; the error names the problem.

        >>> from engine.cards import parse_cards
        >>> Meld.of(parse_cards("7H 8H 10H"))
        Traceback (most recent call last):
        ...
        engine.melds.MeldError: meld 7H 8H 10H: 9H is missing: the ranks are not consecutive
        >>> Meld.of(parse_cards("7H 7D 8H"))
        Traceback (most recent call last):
        ...
        engine.melds.MeldError: meld 7H 7D 8H is neither a set (8H differs in rank from 7H) nor a run (7D differs in suit from 7H)
        """
        cards = tuple(cards)
        label = format_cards(cards) or "(no cards)"
        for card in cards:
            if not isinstance(card, Card):
                raise MeldError(f"meld {label}: {card} is not a playing card; jokers are not played in this game")
        repeated = [card for card, n in Counter(cards).items() if n > 1]
        if repeated:
            raise MeldError(f"meld {label} contains {repeated[0]} more than once")
        if len(cards) < 3:
            raise MeldError(f"meld {label} has {len(cards)} card(s); a meld needs at least 3")
        first = cards[0]
        if all(c.rank == first.rank for c in cards):
            return cls("set", tuple(sorted(cards, key=lambda c: _SUIT_INDEX[c.suit])))
        if all(c.suit == first.suit for c in cards):
            order = rules.run_order(c.rank for c in cards)
            if order is None:
                raise MeldError(f"meld {label}: {rules._run_problem(cards)}")
            return cls("run", tuple(Card(rank, first.suit) for rank in order))
        odd_rank = next(c for c in cards if c.rank != first.rank)
        odd_suit = next(c for c in cards if c.suit != first.suit)
        raise MeldError(
            f"meld {label} is neither a set ({odd_rank} differs in rank from {first}) "
            f"nor a run ({odd_suit} differs in suit from {first})"
        )

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Meld({self.kind!r}, '{self}')"

    def codes(self) -> list[str]:
        return [str(c) for c in self.cards]


@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood of a hand; ``deadwood`` is the sum of the deadwood cards' values."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def describe(self) -> str:
        melds = " | ".join(str(m) for m in self.melds) or "no melds"
        loose = format_cards(self.deadwood_cards) or "none"
        return f"{melds} + deadwood {loose} = {self.deadwood}"

    def melded_cards(self) -> list[Card]:
        return [card for meld in self.melds for card in meld.cards]


def arrangement_of(cards: Sequence[Card], melds: Iterable[Meld], rules: MeldRules = GIN_MELDS) -> Arrangement:
    """The arrangement a player chose: ``melds`` must be disjoint and taken from ``cards``.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H 8H 9S 9D 9C 2C 3D KS")
    >>> arrangement_of(hand, [Meld.of(parse_cards("5H 6H 7H"))]).deadwood
    50
    >>> arrangement_of(hand, [Meld.of(parse_cards("AS 2S 3S"))])
    Traceback (most recent call last):
    ...
    engine.melds.MeldError: meld AS 2S 3S uses AS, which is not in the hand
    """
    in_hand = set(check_hand(cards))
    used: set[Card] = set()
    melds = tuple(melds)
    for meld in melds:
        for card in meld.cards:
            if card not in in_hand:
                raise MeldError(f"meld {meld} uses {card}, which is not in the hand")
            if card in used:
                raise MeldError(f"meld {meld} uses {card}, which is already in another meld")
            used.add(card)
    loose = tuple(sorted((c for c in cards if c not in used), key=lambda c: c.index))
    return Arrangement(melds, loose, sum(rules.value(c) for c in loose))


def check_hand(cards: Sequence[Card]) -> Sequence[Card]:
    """Reject jokers and repeated cards (one deck) with an error naming the card."""
    seen: set[Card] = set()
    for card in cards:
        if not isinstance(card, Card):
            raise MeldError(f"{card} is not a playing card; jokers are not played in this game")
        if card in seen:
            raise DuplicateCardError(f"duplicate card {card}: a one-deck hand holds it once")
        seen.add(card)
    return cards


# --- the fast solver -------------------------------------------------------------------


def _linear_runs(mask: int, order: Sequence[int], values: Sequence[int], longest: int) -> tuple[int, tuple[int, ...]]:
    """Best run-only deadwood of one suit's ``mask`` when runs may only follow ``order``.

    Dynamic programme from the end: a held card is deadwood or starts a run of 3..longest
    held cards; on equal deadwood the longer run wins (one long run, not two short ones).
    """
    n = len(order)
    held = [mask >> (rank - 1) & 1 for rank in order]
    best = [0] * (n + 1)
    run_length = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        if not held[i]:
            best[i] = best[i + 1]
            continue
        best[i] = values[order[i] - 1] + best[i + 1]
        end = i
        while end < n and held[end] and end - i < longest:
            end += 1
            if end - i >= 3 and best[end] <= best[i]:
                best[i], run_length[i] = best[end], end - i
    runs = []
    i = 0
    while i < n:
        if held[i] and run_length[i]:
            runs.append(sum(1 << (rank - 1) for rank in order[i:i + run_length[i]]))
            i += run_length[i]
        else:
            i += 1
    return best[0], tuple(runs)


def _run_orders(mask: int, rules: MeldRules) -> list[Sequence[int]]:
    """Rank orders whose linear runs together cover every run the rules allow in ``mask``."""
    if rules.round_the_corner:
        # No run crosses a rank the suit lacks, so cutting the circle there loses nothing.
        # A full suit has no gap: try every cut.
        gaps = [r for r in range(1, 14) if not mask >> (r - 1) & 1]
        cuts = gaps[:1] if gaps else range(1, 14)
        return [[(cut + i) % _RANK_COUNT + 1 for i in range(_RANK_COUNT)] for cut in cuts]
    low = list(range(1, 14))
    return [low, low[1:] + [1]] if rules.ace_high else [low]


class MeldSolver:
    """Minimum deadwood under one :class:`MeldRules`; get one with :func:`solver`.

    Hands are handled as four 13-bit rank masks, one per suit (bit ``rank - 1``).
    """

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        self.suit_deadwood: list[int] = [0] * (1 << _RANK_COUNT)
        """Best run-only deadwood of each suit mask."""
        self.suit_runs: list[tuple[int, ...]] = [()] * (1 << _RANK_COUNT)
        """The runs (as rank masks) reaching it."""
        for mask in range(1 << _RANK_COUNT):
            self.suit_deadwood[mask], self.suit_runs[mask] = min(
                _linear_runs(mask, order, rules.rank_values, rules.longest_run) for order in _run_orders(mask, rules)
            )

    # masks ------------------------------------------------------------------------------

    @staticmethod
    def masks(cards: Sequence[Card]) -> list[int]:
        """Four suit masks of a one-deck hand; jokers and repeated cards are errors."""
        masks = [0, 0, 0, 0]
        try:
            for card in cards:
                masks[_SUIT_INDEX[card.suit]] |= 1 << (card.rank - 1)
        except AttributeError:
            check_hand(cards)  # raises, naming the joker
            raise
        if sum(m.bit_count() for m in masks) != len(cards):
            check_hand(cards)  # raises, naming the repeated card
        return masks

    def best_split(self, a: int, b: int, c: int, d: int) -> tuple[int, tuple[int, int, int, int]]:
        """Minimum deadwood of the suit masks and the set cards removed to reach it (per suit)."""
        table = self.suit_deadwood
        triples = (a & b & (c | d)) | (c & d & (a | b))
        if not triples:
            return table[a] + table[b] + table[c] + table[d], (0, 0, 0, 0)
        choices = []
        while triples:
            bit = triples & -triples
            triples ^= bit
            choices.append(_set_choices(bit, (a & bit and 1) | (b & bit and 2) | (c & bit and 4) | (d & bit and 8)))
        best, removed = 1 << 30, (0, 0, 0, 0)
        for combo in itertools.product(*choices):
            ra = rb = rc = rd = 0
            for sa, sb, sc, sd in combo:
                ra |= sa
                rb |= sb
                rc |= sc
                rd |= sd
            deadwood = table[a ^ ra] + table[b ^ rb] + table[c ^ rc] + table[d ^ rd]
            if deadwood < best:
                best, removed = deadwood, (ra, rb, rc, rd)
        return best, removed

    # cards ------------------------------------------------------------------------------

    def min_deadwood(self, cards: Sequence[Card]) -> int:
        return self.best_split(*self.masks(cards))[0]

    def arrange(self, cards: Sequence[Card]) -> Arrangement:
        """One optimal arrangement (sets first, then runs by suit)."""
        masks = self.masks(cards)
        deadwood, removed = self.best_split(*masks)
        melds = [Meld("set", ranks_set) for ranks_set in _sets_from_removed(removed)]
        loose = []
        for suit_index, suit in enumerate(SUITS):
            left = masks[suit_index] ^ removed[suit_index]
            for run in self.suit_runs[left]:
                order = self.rules.run_order(r for r in range(1, 14) if run >> (r - 1) & 1)
                melds.append(Meld("run", tuple(Card(rank, suit) for rank in order)))
                left ^= run
            loose.extend(ALL_CARDS[suit_index * 13 + r] for r in range(13) if left >> r & 1)
        return Arrangement(tuple(melds), tuple(loose), deadwood)

    def discards(self, cards: Sequence[Card]) -> "DiscardChoice":
        """For 11 cards: the deadwood left by each discard and the best of them."""
        masks = self.masks(cards)
        after = []
        for card in cards:
            kept = list(masks)
            kept[_SUIT_INDEX[card.suit]] ^= 1 << (card.rank - 1)
            after.append((card, self.best_split(*kept)[0]))
        best = min(deadwood for _, deadwood in after)
        best_discards = tuple(card for card, deadwood in after if deadwood == best)
        kept_cards = [c for c in cards if c != best_discards[0]]
        return DiscardChoice(best, best_discards, self.arrange(kept_cards), tuple(after))


_SET_CHOICES: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}


def _set_choices(bit: int, suits_held: int) -> list[tuple[int, int, int, int]]:
    """Per-suit removal masks for one rank: no set, each 3-card set, the 4-card set."""
    key = (bit, suits_held)
    if key not in _SET_CHOICES:
        held = [s for s in range(4) if suits_held >> s & 1]
        options = [(0, 0, 0, 0)]
        for size in range(3, len(held) + 1):
            for combo in itertools.combinations(held, size):
                options.append(tuple(bit if s in combo else 0 for s in range(4)))  # type: ignore[misc]
        _SET_CHOICES[key] = options
    return _SET_CHOICES[key]


def _sets_from_removed(removed: tuple[int, int, int, int]) -> Iterator[tuple[Card, ...]]:
    ranks = removed[0] | removed[1] | removed[2] | removed[3]
    for r in range(13):
        if ranks >> r & 1:
            yield tuple(ALL_CARDS[s * 13 + r] for s in range(4) if removed[s] >> r & 1)


@cache
def solver(rules: MeldRules = GIN_MELDS) -> MeldSolver:
    """The solver for ``rules``, built on first use (a few hundred milliseconds) and kept.

    Two decks or jokers: the multiset solver of :mod:`engine.wildmelds` (same methods).
    """
    if rules.decks > 1 or rules.jokers:
        from engine.wildmelds import WildSolver  # imports this module

        return WildSolver(rules)  # type: ignore[return-value]
    return MeldSolver(rules)


@dataclass(frozen=True)
class DiscardChoice:
    """What each discard from an 11-card hand leaves, and the best discard(s)."""

    deadwood: int
    """Minimum deadwood of the 10 cards kept."""
    discards: tuple[Card, ...]
    """Every discard reaching it, in hand order."""
    arrangement: Arrangement
    """An optimal arrangement of the 10 cards kept after ``discards[0]``."""
    deadwood_after: tuple[tuple[Card, int], ...]
    """Each card of the hand with the minimum deadwood left after discarding it."""

    def knock_discards(self, limit: int) -> tuple[Card, ...]:
        """Discards after which a knock with ``limit`` is legal."""
        return tuple(card for card, deadwood in self.deadwood_after if deadwood <= limit)

    def can_knock(self, limit: int) -> bool:
        return self.deadwood <= limit

    @property
    def gin(self) -> bool:
        return self.deadwood == 0


def min_deadwood(cards: Sequence[Card], rules: MeldRules = GIN_MELDS) -> int:
    """Minimum deadwood of any number of cards (one deck, no jokers)."""
    return solver(rules).min_deadwood(cards)


def arrange(cards: Sequence[Card], rules: MeldRules = GIN_MELDS) -> Arrangement:
    """One arrangement with minimum deadwood."""
    return solver(rules).arrange(cards)


def best_discards(cards: Sequence[Card], rules: MeldRules = GIN_MELDS) -> DiscardChoice:
    """For an 11-card hand: the best discard(s) and whether a knock or gin is possible.

    >>> from engine.cards import parse_cards
    >>> choice = best_discards(parse_cards("2S 4S 5S 6S 3H 4H 5H 6H 3C 5C 6C"))
    >>> choice.deadwood, format_cards(choice.discards), choice.can_knock(10), choice.gin
    (10, '6C', True, False)
    """
    if len(cards) != 11:
        raise MeldError(f"best_discards needs 11 cards, got {len(cards)}")
    return solver(rules).discards(cards)


# --- the readable brute force -----------------------------------------------------------


def legal_melds(cards: Sequence[Card], rules: MeldRules = GIN_MELDS) -> list[Meld]:
    """Every legal meld among ``cards``: each subset of 3 or more cards of one rank or of one suit is tried."""
    groups = [[c for c in cards if c.rank == rank] for rank in range(1, 14)]
    groups += [[c for c in cards if c.suit == suit] for suit in SUITS]
    melds = []
    for group in groups:
        for size in range(3, len(group) + 1):
            for subset in itertools.combinations(group, size):
                try:
                    melds.append(Meld.of(subset, rules))
                except MeldError:
                    pass
    return melds


def arrangements(cards: Sequence[Card], rules: MeldRules = GIN_MELDS, max_deadwood: int | None = None) -> Iterator[Arrangement]:
    """Every partition of ``cards`` into legal melds and deadwood (deadwood <= ``max_deadwood``).

    Exhaustive and slow on purpose: it is the reference the fast solver is tested against.

    >>> from engine.cards import parse_cards
    >>> hand = parse_cards("7S 7H 7D 7C 5S 6S")
    >>> sorted(a.deadwood for a in arrangements(hand, max_deadwood=11))
    [0, 11]
    """
    cards = sorted(check_hand(cards), key=lambda c: c.index)
    melds_by_first: dict[Card, list[Meld]] = {c: [] for c in cards}
    for meld in legal_melds(cards, rules):
        melds_by_first[min(meld.cards, key=lambda c: c.index)].append(meld)
    limit = float("inf") if max_deadwood is None else max_deadwood

    def extend(i: int, used: frozenset[Card], melds: tuple[Meld, ...], loose: tuple[Card, ...], deadwood: int) -> Iterator[Arrangement]:
        while i < len(cards) and cards[i] in used:
            i += 1
        if i == len(cards):
            yield Arrangement(melds, loose, deadwood)
            return
        card = cards[i]
        if deadwood + rules.value(card) <= limit:
            yield from extend(i + 1, used, melds, loose + (card,), deadwood + rules.value(card))
        for meld in melds_by_first[card]:
            if used.isdisjoint(meld.cards):
                yield from extend(i + 1, used | set(meld.cards), melds + (meld,), loose, deadwood)

    yield from extend(0, frozenset(), (), (), 0)


def reference_min_deadwood(cards: Sequence[Card], rules: MeldRules = GIN_MELDS) -> int:
    """Minimum deadwood by brute force over :func:`arrangements`."""
    return min(a.deadwood for a in arrangements(cards, rules))


def optimal_arrangements(cards: Sequence[Card], rules: MeldRules = GIN_MELDS) -> list[Arrangement]:
    """Every arrangement reaching the minimum deadwood (the fast solver gives the bound)."""
    return list(arrangements(cards, rules, max_deadwood=min_deadwood(cards, rules)))
