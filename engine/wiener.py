"""Knock Rummy / Wiener Rummy (rules text 001): deal, turns, knocking, round result, the game.

Two 52-card decks and two jokers (106 cards); joker 20, ace 11, pictures 10. Aces are low
(A-2-3) or high (Q-K-A), never round the corner. The melds are solved by the one meld solver
(:func:`engine.melds.solver` with :data:`WIENER_MELDS`, which delegates to
:mod:`engine.wildmelds`); the joker rule is stated there (any number of jokers per meld).

>>> from engine.cards import parse_cards
>>> hand = parse_cards("AS 2S 3S 7H 7D JK 9C 9S 9D 4H 2C", decks=2)
>>> choice = best_discard(hand)
>>> choice.deadwood, [str(c) for c in choice.discards], knock_legal(hand), is_rummy(hand)
(2, ['4H'], True, False)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Literal, Sequence

from engine.cards import ALL_CARDS, JOKER, Card, Joker, format_cards
from engine.melds import DiscardChoice, MeldRules, solver
from engine.wildmelds import WildArrangement, WildMeld, WildMeldError

WIENER_VALUES = (11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Card values by rank, ace first (001 "Kartenwerte"); a joker is 20."""
WIENER_MELDS = MeldRules(ace_high=True, rank_values=WIENER_VALUES, decks=2, jokers=2, joker_value=20)

LayoffWay = Literal["none", "knocker", "right"]


class WienerError(ValueError):
    """An illegal move or a state the rules do not allow (the message says which rule)."""


@dataclass(frozen=True)
class WienerRules:
    """The options of 001; defaults are the main text, the variations are switches.

    >>> WienerRules().knock_limit, WienerRules(knock_limit=10).knock_limit
    (5, 10)
    """

    knock_limit: int = 5
    """Deadwood allowed when knocking (variation: 10)."""
    rummy_penalty: int = 10
    """Extra penalty points for every other player when the round ends with Rummy."""
    undercut: bool = False
    """Variation: a player with less deadwood than the knocker wins the round."""
    layoffs: LayoffWay = "none"
    """Variation: "knocker" (way 1: onto the knocker's melds, one card per run end) or "right"
    (way 2: onto the melds of the player to one's right, without limit; not the knocker)."""
    rummy_kitty: bool = False
    """Variation: a kitty fed 1 unit per player per round, taken by Rummy; no extra penalty then."""
    buy_in: int = 5
    round_prize: int = 1
    rummy_prize: int = 2
    out_above: int = 100
    rebuy_from: int = 81

    def __post_init__(self) -> None:
        if self.knock_limit < 0:
            raise WienerError(f"knock_limit must be >= 0, got {self.knock_limit}")
        if self.layoffs not in ("none", "knocker", "right"):
            raise WienerError(f"layoffs must be 'none', 'knocker' or 'right', got {self.layoffs!r}")

    @property
    def extra_rummy_penalty(self) -> int:
        return 0 if self.rummy_kitty else self.rummy_penalty


def deck() -> list[Card | Joker]:
    """The 106 cards: every card twice and two jokers."""
    return list(ALL_CARDS) * 2 + [JOKER, JOKER]


def value(card: Card | Joker) -> int:
    """A card's penalty value.

    >>> value(JOKER), value(Card(1, "S")), value(Card(12, "H")), value(Card(7, "D"))
    (20, 11, 10, 7)
    """
    return WIENER_MELDS.joker_value if isinstance(card, Joker) else WIENER_VALUES[card.rank - 1]


# --- hands ---------------------------------------------------------------------------------


def arrange(hand: Sequence) -> WildArrangement:
    """The hand's minimum-deadwood arrangement, jokers placed the best way."""
    return solver(WIENER_MELDS).arrange(list(hand))


def min_deadwood(hand: Sequence) -> int:
    return solver(WIENER_MELDS).min_deadwood(list(hand))


def best_discard(hand: Sequence) -> DiscardChoice:
    """For 11 cards (after drawing): the discards leaving the least deadwood."""
    if len(hand) != 11:
        raise WienerError(f"a hand after drawing has 11 cards, got {len(hand)}")
    return solver(WIENER_MELDS).discards(list(hand))


def knock_legal(hand: Sequence, rules: WienerRules = WienerRules()) -> bool:
    """May the player knock with these 11 cards (discarding the best card face down)?"""
    return best_discard(hand).deadwood <= rules.knock_limit


def is_rummy(hand: Sequence) -> bool:
    """Rummy: after the discard, no deadwood at all."""
    return best_discard(hand).deadwood == 0


# --- the round: deal and turns --------------------------------------------------------------


@dataclass
class Round:
    """One round's cards and turns (001 "Kartenverteilung", "Spielablauf").

    Players sit in play order: after player ``i`` comes ``(i + 1) % players`` (to the left).

    >>> r = Round.deal(3, dealer=0, seed=1)
    >>> [len(h) for h in r.hands], len(r.stock), r.phase
    ([11, 10, 10], 75, 'discard')
    >>> r.discard(r.hands[0][0]); r.current, r.phase
    (1, 'draw')
    """

    hands: list[list]
    stock: list
    discard_pile: list
    current: int
    phase: Literal["draw", "discard", "over"] = "discard"
    taken_from_discard: Card | Joker | None = None
    knocker: int | None = None
    face_down: Card | Joker | None = None
    reshuffles: int = 0
    rng: random.Random = field(default_factory=random.Random, repr=False)
    rules: WienerRules = WienerRules()

    @classmethod
    def deal(cls, players: int, dealer: int = 0, seed: int | None = None) -> "Round":
        """10 cards each, 11 to the dealer, who opens by discarding."""
        if not 2 <= players <= 6:
            raise WienerError(f"Wiener Rummy is for 2-6 players, got {players}")
        rng = random.Random(seed)
        cards = deck()
        rng.shuffle(cards)
        hands = []
        for seat in range(players):
            size = 11 if seat == dealer else 10
            hands.append(cards[:size])
            cards = cards[size:]
        return cls(hands, cards, [], dealer, rng=rng)

    def _expect(self, phase: str, player: int | None) -> None:
        if self.phase != phase:
            raise WienerError(f"it is not time to {phase}: the round is in the {self.phase} phase")
        if player is not None and player != self.current:
            raise WienerError(f"it is player {self.current}'s turn, not player {player}'s")

    def draw_stock(self, player: int | None = None) -> Card | Joker:
        """Take the top card of the stock; an empty stock is first rebuilt from the discard
        pile except its top card, shuffled (001)."""
        self._expect("draw", player)
        if not self.stock:
            if len(self.discard_pile) < 2:
                raise WienerError("stock and discard pile are exhausted")
            top = self.discard_pile.pop()
            self.stock = self.discard_pile
            self.rng.shuffle(self.stock)
            self.discard_pile = [top]
            self.reshuffles += 1
        card = self.stock.pop()
        self.hands[self.current].append(card)
        self.phase, self.taken_from_discard = "discard", None
        return card

    def draw_discard(self, player: int | None = None) -> Card | Joker:
        """Take the top card of the discard pile; it may not be discarded this turn."""
        self._expect("draw", player)
        if not self.discard_pile:
            raise WienerError("the discard pile is empty")
        card = self.discard_pile.pop()
        self.hands[self.current].append(card)
        self.phase, self.taken_from_discard = "discard", card
        return card

    def _remove(self, card) -> None:
        hand = self.hands[self.current]
        if card not in hand:
            raise WienerError(f"player {self.current} does not hold {card}")
        if card == self.taken_from_discard and hand.count(card) == 1:
            raise WienerError(f"{card} was just taken from the discard pile and may not be discarded in the same turn")
        hand.remove(card)

    def discard(self, card, player: int | None = None) -> None:
        """End the turn by discarding face up; the player to the left is next."""
        self._expect("discard", player)
        self._remove(card)
        self.discard_pile.append(card)
        self.current = (self.current + 1) % len(self.hands)
        self.phase, self.taken_from_discard = "draw", None

    def knock(self, card, player: int | None = None) -> None:
        """End the round: discard ``card`` face down with deadwood <= the knock limit after it."""
        self._expect("discard", player)
        if len(self.hands[self.current]) != 11:
            raise WienerError("a player knocks after drawing, holding 11 cards")
        kept = list(self.hands[self.current])
        if card not in kept:
            raise WienerError(f"player {self.current} does not hold {card}")
        kept.remove(card)
        deadwood = min_deadwood(kept)
        limit = self.rules.knock_limit
        if deadwood > limit:
            raise WienerError(f"cannot knock: deadwood {deadwood} after discarding {card} is above the knock limit {limit}")
        self._remove(card)
        self.face_down, self.knocker, self.phase = card, self.current, "over"


# --- the round result ---------------------------------------------------------------------


@dataclass(frozen=True)
class Layoff:
    """Cards a player laid onto another player's meld."""

    player: int
    onto_player: int
    onto: WildMeld
    cards: tuple

    def __str__(self) -> str:
        return f"player {self.player} lays {format_cards(self.cards)} onto {self.onto}"


@dataclass(frozen=True)
class RoundResult:
    """Penalty points and money of one round (001 "Spielende", "Abrechnung", variations)."""

    knocker: int
    winner: int | None
    """The round winner; None when several players tie below the knocker (undercut variation)."""
    rummy: bool
    undercut: bool
    arrangements: tuple[WildArrangement, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[int, ...]
    """Each player's deadwood after layoffs."""
    penalties: tuple[int, ...]
    """Points each player writes: deadwood, plus the Rummy penalty for the others."""
    payments: tuple[int, ...]
    """Units each player gains (+) or pays (-) this round, between players."""
    to_pot: int
    """Units paid into the pot (undercut tie: each loser pays one into the pot)."""
    explanation: str


def settle_round(hands: Sequence[Sequence], knocker: int, rules: WienerRules = WienerRules(),
                 knocker_melds: Iterable[Sequence] | None = None) -> RoundResult:
    """Score a knocked round. ``hands`` are the cards after the knocker's face-down discard
    (10 each). ``knocker_melds``: the melds the knocker laid out (default: the best).

    >>> from engine.cards import parse_cards
    >>> hands = [parse_cards(h, decks=2) for h in ("AS 2S 3S 7H 7D 7C 9C 9S 9D 2C",
    ...                                           "KH KD KS 5C 6C 7C 8D 9H 4S 3D",
    ...                                           "QH JH 10H 2D 2H 2S AH AD JK 6S")]
    >>> result = settle_round(hands, knocker=0)
    >>> result.penalties, result.winner, result.payments
    ((2, 24, 6), 0, (2, -1, -1))
    """
    players = len(hands)
    if not 2 <= players <= 6:
        raise WienerError(f"Wiener Rummy is for 2-6 players, got {players} hands")
    _check_cards(hands)
    arrangements = [arrange(hand) for hand in hands]
    if knocker_melds is not None:
        arrangements[knocker] = _chosen(hands[knocker], knocker_melds)
    if arrangements[knocker].deadwood > rules.knock_limit:
        raise WienerError(f"illegal knock: deadwood {arrangements[knocker].deadwood} is above the knock limit {rules.knock_limit}")
    rummy = arrangements[knocker].deadwood == 0
    layoffs: list[Layoff] = []
    if rules.layoffs == "knocker":
        arrangements, layoffs = _layoffs_onto_knocker(hands, arrangements, knocker)
    elif rules.layoffs == "right":
        arrangements, layoffs = _layoffs_to_the_right(arrangements, knocker)
    deadwood = tuple(a.deadwood for a in arrangements)
    penalties = tuple(d + (rules.extra_rummy_penalty if rummy and p != knocker else 0) for p, d in enumerate(deadwood))
    winner, undercut = knocker, False
    lowest = min(d for p, d in enumerate(deadwood) if p != knocker)
    if rules.undercut and lowest < deadwood[knocker]:
        undercut = True
        lows = [p for p, d in enumerate(deadwood) if d == lowest]
        winner = lows[0] if len(lows) == 1 else None
    prize = rules.rummy_prize if rummy and winner == knocker else rules.round_prize
    payments, to_pot = [0] * players, 0
    if winner is None:
        lows = {p for p, d in enumerate(deadwood) if d == lowest}
        for p in range(players):
            if p not in lows:
                payments[p] -= rules.round_prize
                to_pot += rules.round_prize
    else:
        for p in range(players):
            if p != winner:
                payments[p] -= prize
                payments[winner] += prize
    words = [f"player {knocker} {'goes Rummy' if rummy else f'knocks with {deadwood[knocker]}'}."]
    words += [str(layoff) + "." for layoff in layoffs]
    words.append("Penalties: " + ", ".join(f"player {p} {n}" for p, n in enumerate(penalties)) + ".")
    if undercut:
        words.append(f"Undercut: {'player ' + str(winner) + ' wins' if winner is not None else 'a tie below the knocker; the losers pay into the pot'}.")
    return RoundResult(knocker, winner, rummy, undercut, tuple(arrangements), tuple(layoffs), deadwood,
                       penalties, tuple(payments), to_pot, " ".join(words))


def _check_cards(hands: Sequence[Sequence]) -> None:
    seen = Counter(card for hand in hands for card in hand)
    for card, n in seen.items():
        limit = 2
        if n > limit:
            raise WienerError(f"{card} appears {n} times in the hands; the two decks hold it {limit} times")
    for p, hand in enumerate(hands):
        if len(hand) != 10:
            raise WienerError(f"player {p} has {len(hand)} cards; a round is settled with 10 each (after the knocker's discard)")


def _chosen(hand: Sequence, melds: Iterable[Sequence]) -> WildArrangement:
    left = Counter(hand)
    made = []
    for meld in melds:
        try:
            wild = WildMeld.of(meld, ace_high=True)
        except WildMeldError as error:
            raise WienerError(f"knocker meld: {error}") from None
        for card in meld:
            if not left[card]:
                raise WienerError(f"knocker meld {format_cards(meld)} uses {card}, which is not in the hand (or is used twice)")
            left[card] -= 1
        made.append(wild)
    loose = tuple(left.elements())
    return WildArrangement(tuple(made), loose, sum(value(c) for c in loose))


def _run_places(meld: WildMeld) -> list[int]:
    """Places 1..14 of a run's pieces (an ace after a king is 14)."""
    ranks = [c.rank for c in meld.stands_for]
    if len(ranks) > 1 and ranks[-1] == 1:
        ranks[-1] = 14
    return ranks


def layoff_options(meld: WildMeld, hand: Sequence, per_end: int | None) -> list[tuple[tuple, WildMeld]]:
    """Cards from ``hand`` that may be laid onto ``meld`` and the meld they make (nothing first).

    Runs grow at their ends, at most ``per_end`` cards at each end (None: no limit); the
    existing pieces, jokers included, keep their places. Sets grow to at most 4 suits.

    >>> from engine.cards import parse_cards
    >>> run = WildMeld.of(parse_cards("5H 6H 7H"), ace_high=True)
    >>> [" ".join(map(str, cards)) for cards, _ in layoff_options(run, parse_cards("4H 8H 9H JK", jokers=1), 1)]
    ['', '8H', 'JK', '4H', '4H 8H', '4H JK', 'JK', 'JK 8H']
    """
    held = Counter(hand)
    results: list[tuple[tuple, WildMeld]] = [((), meld)]
    if meld.kind == "set":
        room = 4 - len(meld.pieces)
        suits = {c.suit for c in meld.stands_for if c is not None}
        rank = next(c.rank for c in meld.stands_for if c is not None)
        fits = [c for c in held if isinstance(c, Card) and c.rank == rank and c.suit not in suits] + [JOKER] * min(held[JOKER], 2)
        for size in range(1, room + 1):
            for cards in sorted(set(itertools.combinations(fits, size)), key=str):
                if len({c.suit for c in cards if isinstance(c, Card)}) == sum(isinstance(c, Card) for c in cards):
                    results.append((cards, WildMeld.of(list(meld.pieces) + list(cards), ace_high=True)))
        return results
    places = _run_places(meld)
    suit = next(c.suit for c in meld.stands_for if c is not None)

    def chains(start: int, step: int) -> list[tuple]:
        """Card sequences continuing the run from ``start`` outwards."""
        out: list[tuple] = [()]
        frontier: list[tuple] = [()]
        depth = 0
        while frontier and (per_end is None or depth < per_end):
            depth += 1
            place = start + step * depth
            if not 1 <= place <= 14:
                break
            card = Card(1 if place == 14 else place, suit)
            grown = []
            for chain in frontier:
                used = Counter(chain)
                for piece in (card, JOKER):
                    if held[piece] > used[piece]:
                        grown.append(chain + (piece,))
            out += grown
            frontier = grown
        return out

    for low in chains(places[0], -1):
        for high in chains(places[-1], +1):
            cards = low + high
            if not cards or Counter(cards) - held:
                continue
            if len(places) + len(cards) > 13:
                continue
            ordered = list(reversed(low)) + list(meld.pieces) + list(high)
            try:
                results.append((cards, WildMeld.of(ordered, ace_high=True, ordered=True)))
            except WildMeldError:
                continue
    return results


def _layoffs_onto_knocker(hands, arrangements, knocker):
    """Way 1: in turn, each opponent lays cards onto the knocker's melds before laying out (one
    card per run end in all, none onto a card laid off); own melds and layoffs are chosen together."""
    arrangements = list(arrangements)
    melds = list(arrangements[knocker].melds)
    ends_used = [[False, False] for _ in melds]
    layoffs: list[Layoff] = []
    players = len(hands)
    fast = solver(WIENER_MELDS)
    for step in range(1, players):
        p = (knocker + step) % players
        hand = list(hands[p])
        per_meld = []
        for meld, used in zip(melds, ends_used):
            options = layoff_options(meld, hand, 1)
            if meld.kind == "run":
                options = [o for o in options if _ends_free(meld, o[1], used)]
            per_meld.append(options)
        best = None
        for combo in itertools.product(*per_meld):
            laid = Counter(card for cards, _ in combo for card in cards)
            if laid - Counter(hand):
                continue
            rest = list((Counter(hand) - laid).elements())
            key = (fast.min_deadwood(rest), sum(laid.values()))
            if best is None or key < best[0]:
                best = (key, combo, rest)
        _, combo, rest = best
        for i, (cards, grown) in enumerate(combo):
            if cards:
                layoffs.append(Layoff(p, knocker, melds[i], tuple(cards)))
                if grown.kind == "run":
                    ends_used[i][0] |= grown.stands_for[0] != melds[i].stands_for[0]
                    ends_used[i][1] |= grown.stands_for[-1] != melds[i].stands_for[-1]
                melds[i] = grown
        arrangements[p] = fast.arrange(rest)
    return arrangements, layoffs


def _ends_free(meld: WildMeld, grown: WildMeld, used: list[bool]) -> bool:
    low = grown.stands_for[0] != meld.stands_for[0]
    high = grown.stands_for[-1] != meld.stands_for[-1]
    return not (low and used[0]) and not (high and used[1])


def _layoffs_to_the_right(arrangements, knocker):
    """Way 2: the opponents lay out, then each lays own deadwood onto the melds of the player to
    the right (the one who played before), without limit; the knocker lays off nothing."""
    arrangements = list(arrangements)
    players = len(arrangements)
    layoffs: list[Layoff] = []
    for p in range(players):
        if p == knocker:
            continue
        right = (p - 1) % players
        loose = list(arrangements[p].deadwood_cards)
        targets = arrangements[right].melds
        per_meld = [[cards for cards, _ in layoff_options(meld, loose, None)] for meld in targets]
        best_combo, best_key = (), None
        for combo in itertools.product(*per_meld):
            laid = Counter(card for cards in combo for card in cards)
            if laid - Counter(loose):
                continue
            key = (sum(value(c) for c in laid.elements()), -sum(laid.values()))
            if best_key is None or key > best_key:
                best_combo, best_key = combo, key
        for meld, cards in zip(targets, best_combo):
            if cards:
                layoffs.append(Layoff(p, right, meld, tuple(cards)))
                for card in cards:
                    loose.remove(card)
        kept = arrangements[p]
        arrangements[p] = WildArrangement(kept.melds, tuple(loose), sum(value(c) for c in loose))
    return arrangements, layoffs


# --- the game -----------------------------------------------------------------------------


@dataclass
class Game:
    """Scores, elimination, re-buys and money over the rounds of one game (001 "Abrechnung").

    >>> g = Game(["A", "B", "C", "D"])
    >>> g.scores = {"A": 89, "B": 84, "C": 74, "D": 56}
    >>> g.rebuy("A"); g.rebuy("B"); g.scores
    {'A': 74, 'B': 74, 'C': 74, 'D': 56}
    """

    players: list[str]
    rules: WienerRules = WienerRules()
    scores: dict[str, int] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    """Eliminated players, in the order they went out."""
    rebought: set[str] = field(default_factory=set)
    money: dict[str, float] = field(default_factory=dict)
    """Each player's net units (buy-ins, round prizes, pot shares)."""
    pot: int = 0
    kitty: int = 0
    decider: list[str] | None = None
    """Players of a deciding round (all remaining went over the limit together)."""
    winner: str | None = None

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 6:
            raise WienerError(f"Wiener Rummy is for 2-6 players, got {len(self.players)}")
        if len(set(self.players)) != len(self.players):
            raise WienerError("player names must be distinct")
        self.scores = self.scores or {p: 0 for p in self.players}
        self.money = self.money or {p: -self.rules.buy_in for p in self.players}
        self.pot = self.pot or self.rules.buy_in * len(self.players)

    @property
    def remaining(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    def start_round(self) -> list[str]:
        """The players of the next round; with the kitty each pays 1 unit into it."""
        if self.winner is not None:
            raise WienerError(f"the game is over: {self.winner} won")
        seated = self.decider or self.remaining
        if self.rules.rummy_kitty:
            for p in seated:
                self.money[p] -= 1
                self.kitty += 1
        return seated

    def record(self, seated: Sequence[str], result: RoundResult) -> None:
        """Book a round played by ``seated`` (in seat order, as the result's player numbers)."""
        if len(seated) != len(result.penalties):
            raise WienerError(f"{len(seated)} players seated but the result has {len(result.penalties)}")
        for p, name in enumerate(seated):
            self.scores[name] += result.penalties[p]
            self.money[name] += result.payments[p]
        self.pot += result.to_pot
        if result.rummy and self.rules.rummy_kitty and result.winner is not None:
            self.money[seated[result.winner]] += self.kitty
            self.kitty = 0
        if self.decider is not None:
            if result.winner is not None:
                self._finish(seated[result.winner])
            return
        over = [p for p in seated if self.scores[p] > self.rules.out_above]
        if len(over) == len(seated):
            self.decider = list(seated)  # all over together: one more round decides
            return
        self.out.extend(sorted(over, key=lambda p: -self.scores[p]))
        if len(self.remaining) == 1:
            self._finish(self.remaining[0])

    def may_rebuy(self, player: str) -> str | None:
        """Why ``player`` may not re-buy now, or None if they may."""
        if player in self.rebought:
            return f"{player} has already re-bought once"
        if player in self.out:
            return f"{player} is out"
        if not self.rules.rebuy_from <= self.scores[player] <= self.rules.out_above:
            return f"{player} has {self.scores[player]} points; a re-buy needs {self.rules.rebuy_from}-{self.rules.out_above}"
        if len(self.remaining) <= 2:
            return "with two players left there is no re-buy"
        if self._rebuy_score() is None:
            return f"no player is below {self.rules.rebuy_from} points"
        return None

    def _rebuy_score(self) -> int | None:
        below = [self.scores[p] for p in self.remaining if self.scores[p] < self.rules.rebuy_from]
        return max(below) if below else None

    def rebuy(self, player: str) -> None:
        """Pay the buy-in again and take the score of the player closest below 81."""
        problem = self.may_rebuy(player)
        if problem:
            raise WienerError(f"no re-buy: {problem}")
        self.scores[player] = self._rebuy_score()
        self.money[player] -= self.rules.buy_in
        self.pot += self.rules.buy_in
        self.rebought.add(player)

    def _finish(self, winner: str) -> None:
        self.winner = winner
        if len(self.players) >= 5:
            second = self.out[-1] if self.decider is None else min(
                (p for p in self.decider if p != winner), key=lambda p: self.scores[p])
            self.money[winner] += self.pot * 0.7
            self.money[second] += self.pot * 0.3
        else:
            self.money[winner] += self.pot
        self.money[winner] += self.kitty
        self.pot = self.kitty = 0
