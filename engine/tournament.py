"""Gin Rummy tournaments (000 §17): round robin and the Swiss system.

Every match of a tournament ends in a settlement; the winner counts the amount he is paid as plus
points and the loser as minus points (:meth:`Result.of_match`). Standings add them up.

Round robin: every player meets every other once (:func:`round_robin`).

>>> [[(p.first, p.second) for p in rnd] for rnd in round_robin(["A", "B", "C", "D"])]
[[('A', 'D'), ('B', 'C')], [('A', 'C'), ('D', 'B')], [('A', 'B'), ('C', 'D')]]

Swiss system, as written in §17: the first round is drawn by lot; after every round the leader
meets the best-placed player he has not yet met, the leader of the remaining players the
best-placed remaining player he has not yet met, and so on. Players with equal points are put in
order by drawing cards. The number of rounds: 5-8 players 3, 9-16 4, 17-32 5, and so on.

Where §17 is silent we rule as follows (and say so to the players):

- the seed stands in for the shuffled deck: the lot and every card draw follow from it, so a
  tournament is reproducible and its draws can be shown;
- in a card draw, king is high and ace low; equal ranks draw again among themselves;
- with an odd number of players, the lowest-placed player who has not yet had a bye sits the
  round out (in the first round: the last one drawn); a bye counts 0 points;
- if following the order strictly would leave two players at the end who have already met,
  the earliest choice is revised: we take the first pairing in the written order of preference
  that gives everybody a new opponent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.cards import ALL_CARDS, Card


class TournamentError(ValueError):
    """A tournament request that does not fit (unknown player, a player twice in a round, ...)."""


@dataclass(frozen=True)
class Pairing:
    """Two players who meet in a round; ``second`` is None for a bye."""

    first: str
    second: str | None


@dataclass(frozen=True)
class Result:
    """A finished match of a round: ``first_points`` for ``first``, the negative for ``second``.

    A bye is a result with ``second`` None and 0 points.
    """

    first: str
    second: str | None
    first_points: int = 0

    def __post_init__(self) -> None:
        if self.second is None and self.first_points:
            raise TournamentError(f"a bye scores 0 points, got {self.first_points} for {self.first}")
        if self.first == self.second:
            raise TournamentError(f"{self.first} cannot play himself")

    @classmethod
    def of_match(cls, winner: str, loser: str, amount: int) -> "Result":
        """The result of a match the winner won by ``amount`` (its settlement).

        >>> Result.of_match("A", "B", 202)
        Result(first='A', second='B', first_points=202)
        """
        if amount < 0:
            raise TournamentError(f"the amount won must be >= 0, got {amount}")
        return cls(winner, loser, amount)

    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class Standing:
    """A player's place: ``rank`` is shared by players with equal points."""

    rank: int
    player: str
    points: int
    matches: int


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    players = tuple(players)
    if len(players) < 2 or len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise TournamentError(f"a tournament needs at least two different player names, got {players!r}")
    return players


def _check_round(players: tuple[str, ...], results: Iterable[Result], number: int) -> None:
    seen: set[str] = set()
    for result in results:
        for player in result.players():
            if player not in players:
                raise TournamentError(f"round {number}: unknown player {player!r}")
            if player in seen:
                raise TournamentError(f"round {number}: {player} appears in two results")
            seen.add(player)


def round_robin(players: Sequence[str]) -> tuple[tuple[Pairing, ...], ...]:
    """Every pair exactly once, in rounds (circle method); with an odd number one bye per round."""
    players = _check_players(players)
    circle: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    rounds = []
    for _ in range(len(circle) - 1):
        half = len(circle) // 2
        pairs = []
        for first, second in zip(circle[:half], reversed(circle[half:])):
            if first is None:
                first, second = second, None
            pairs.append(Pairing(first, second))  # type: ignore[arg-type]
        rounds.append(tuple(pairs))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def points(players: Sequence[str], history: Iterable[Iterable[Result]]) -> dict[str, int]:
    """Plus and minus points per player over all rounds so far."""
    players = _check_players(players)
    totals = dict.fromkeys(players, 0)
    for number, results in enumerate(history, start=1):
        results = tuple(results)
        _check_round(players, results, number)
        for result in results:
            totals[result.first] += result.first_points
            if result.second is not None:
                totals[result.second] -= result.first_points
    return totals


def standings(players: Sequence[str], history: Iterable[Iterable[Result]]) -> tuple[Standing, ...]:
    """Players by points, most first; equal points share a rank (000 §17: most points wins).

    >>> standings("ABC", [[Result("A", "B", 30)], [Result("C", "A", 30)]])
    (Standing(rank=1, player='C', points=30, matches=1), Standing(rank=2, player='A', points=0, matches=2), Standing(rank=3, player='B', points=-30, matches=1))
    """
    history = [tuple(results) for results in history]
    totals = points(players, history)
    played = {p: sum(1 for results in history for r in results if p in r.players() and r.second is not None) for p in totals}
    ordered = sorted(totals, key=lambda p: -totals[p])
    return tuple(
        Standing(1 + sum(totals[q] > totals[p] for q in totals), p, totals[p], played[p]) for p in ordered
    )


def card_draw_order(players: Sequence[str], rng: random.Random) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    """Put ``players`` in order by drawing cards: highest first, equal ranks draw again.

    Returns each player with the cards he drew, the first draw first.

    >>> card_draw_order(["A", "B", "C"], random.Random(7))
    (('C', (Card('6D'),)), ('A', (Card('5H'),)), ('B', (Card('AC'),)))
    """
    decks = -(-len(players) // len(ALL_CARDS))
    deck = list(ALL_CARDS) * decks
    rng.shuffle(deck)
    drawn = dict(zip(players, deck))
    order: list[tuple[str, tuple[Card, ...]]] = []
    for rank in sorted({card.rank for card in drawn.values()}, reverse=True):
        group = [p for p in players if drawn[p].rank == rank]
        again = card_draw_order(group, rng) if len(group) > 1 else [(group[0], ())]
        order.extend((player, (drawn[player], *later)) for player, later in again)
    return tuple(order)


def swiss_round_count(players: int) -> int:
    """Rounds of a Swiss tournament (000 §17): 5-8 players 3, 9-16 4, 17-32 5, and so on.

    >>> [swiss_round_count(n) for n in (5, 8, 9, 16, 17, 32, 33, 64, 65)]
    [3, 3, 4, 4, 5, 5, 6, 6, 7]
    """
    if players < 5:
        raise TournamentError(f"§17 gives Swiss rounds from 5 players on, got {players}: play a round robin")
    return (players - 1).bit_length()


@dataclass(frozen=True)
class SwissRound:
    """The pairings of one round, with the placing order and the card draws that decided ties."""

    number: int
    pairings: tuple[Pairing, ...]
    order: tuple[str, ...]
    """Players as placed for pairing: by lot in round 1, then by points and card draws."""
    draws: tuple[tuple[str, tuple[Card, ...]], ...]
    """The cards drawn to order players with equal points, redraws included (none in round 1)."""


def pair_by_order(order: list[str], met: dict[str, set[str]]) -> list[Pairing] | None:
    """The first pairing in §17's order of preference in which nobody meets an old opponent."""
    if not order:
        return []
    leader, rest = order[0], order[1:]
    for opponent in rest:
        if opponent in met[leader]:
            continue
        tail = pair_by_order([p for p in rest if p != opponent], met)
        if tail is not None:
            return [Pairing(leader, opponent), *tail]
    return None


@dataclass(frozen=True)
class Swiss:
    """A Swiss tournament: players, the seed of its lot and card draws, and the rounds played.

    >>> t = Swiss(("A", "B", "C", "D", "E", "F"), seed=1)
    >>> t.rounds_total
    3
    >>> first = t.next_round()
    >>> first.order
    ('A', 'D', 'E', 'C', 'B', 'F')
    >>> [(p.first, p.second) for p in first.pairings]
    [('A', 'D'), ('E', 'C'), ('B', 'F')]
    """

    players: tuple[str, ...]
    seed: int | str
    history: tuple[tuple[Result, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _check_players(self.players))
        swiss_round_count(len(self.players))
        points(self.players, self.history)

    @property
    def rounds_total(self) -> int:
        return swiss_round_count(len(self.players))

    @property
    def finished(self) -> bool:
        return len(self.history) >= self.rounds_total

    def _rng(self, round_number: int) -> random.Random:
        return random.Random(f"{self.seed}:round {round_number}")

    def met(self) -> dict[str, set[str]]:
        """Who has already played whom."""
        met: dict[str, set[str]] = {p: set() for p in self.players}
        for results in self.history:
            for result in results:
                if result.second is not None:
                    met[result.first].add(result.second)
                    met[result.second].add(result.first)
        return met

    def placing(self) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[Card, ...]], ...]]:
        """The order for the next pairing and the card draws behind it."""
        number = len(self.history) + 1
        rng = self._rng(number)
        if number == 1:
            order = list(self.players)
            rng.shuffle(order)
            return tuple(order), ()
        totals = points(self.players, self.history)
        order, draws = [], []
        for score in sorted(set(totals.values()), reverse=True):
            group = [p for p in self.players if totals[p] == score]
            if len(group) == 1:
                order.extend(group)
                continue
            drawn = card_draw_order(group, rng)
            order.extend(p for p, _ in drawn)
            draws.extend(drawn)
        return tuple(order), tuple(draws)

    def next_round(self) -> SwissRound:
        """Pairings for the next round (see the module docstring for the rules)."""
        if self.finished:
            raise TournamentError(f"the tournament is over: all {self.rounds_total} rounds have been played")
        order, draws = self.placing()
        met = self.met()
        had_bye = {r.first for results in self.history for r in results if r.second is None}
        bye_candidates: list[str | None] = [None]
        if len(order) % 2:
            bye_candidates = [p for p in reversed(order) if p not in had_bye] or list(reversed(order))
        for bye in bye_candidates:
            pairings = pair_by_order([p for p in order if p != bye], met)
            if pairings is not None:
                if bye is not None:
                    pairings.append(Pairing(bye, None))
                return SwissRound(len(self.history) + 1, tuple(pairings), order, draws)
        raise TournamentError(f"round {len(self.history) + 1}: no pairing gives every player a new opponent")

    def record(self, results: Iterable[Result]) -> "Swiss":
        """The tournament after a round; the results must be the pairings of :meth:`next_round`."""
        results = tuple(results)
        expected = {frozenset((p.first, p.second)) for p in self.next_round().pairings}
        got = {frozenset((r.first, r.second)) for r in results}
        if got != expected:
            missing = [" v ".join(sorted(x for x in pair if x)) for pair in expected - got]
            extra = [" v ".join(sorted(x for x in pair if x)) for pair in got - expected]
            raise TournamentError(
                f"round {len(self.history) + 1}: results do not match the pairings"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; not paired {', '.join(extra)}" if extra else "")
            )
        return Swiss(self.players, self.seed, self.history + (results,))

    def standings(self) -> tuple[Standing, ...]:
        return standings(self.players, self.history)
