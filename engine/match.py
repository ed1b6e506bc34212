"""A two-player Gin match: running totals, bonuses, settlement and who deals, from hand results.

The match is a pure function of its hand results: :func:`score_match` replays them, and
undo is "drop the last result". Hand results come in as :class:`HandScore` values, so this
module does not depend on how a hand was settled.

The worked example of 000 §13: A wins hands of 23, 27, 35 and 19, B of 32 and 10.

>>> hands = [HandScore("A", 23), HandScore("A", 27), HandScore("B", 32),
...          HandScore("A", 35), HandScore("B", 10), HandScore("A", 19)]
>>> match = score_match(("A", "B"), first_dealer="B", outcomes=hands)
>>> match.finished, match.score("A"), match.score("B")
(True, 104, 42)
>>> settlement = match.settlements()[0]
>>> [(x.party, x.hand_points, x.box_bonus, x.game_bonus, x.total) for x in settlement.accounts]
[('A', 104, 80, 100, 284), ('B', 42, 40, 0, 82)]
>>> match.transfers()
(Transfer(payer='B', payee='A', amount=202),)

Bonuses (000 §13): the first to reach the target gets the game bonus, every hand won is a box,
an opponent who wrote nothing pays the shutout bonus (or, with ``shutout_doubles``, the
winner's total once more). The winner is whoever has more after the bonuses, not necessarily
the first to reach the target.

Hollywood scoring (``rules.hollywood``): three games are kept at once. A player's first win is
written in game 1, his second in games 1 and 2, his third and later ones in all three; a game
that is over takes no more scores, and a player who has not yet written in a game still open
starts writing there with his next win (so a player shut out of game 1 starts in game 2). Each
game settles on its own with its own bonuses; the match ends when all three are over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Literal, Mapping, Protocol, Sequence, TypeVar

from engine.cards import Card
from engine.dealing import first_deal
from engine.rules import GinRules

HandKind = Literal["knock", "gin", "big_gin", "undercut", "no_game"]
HAND_KINDS: tuple[str, ...] = ("knock", "gin", "big_gin", "undercut", "no_game")
HOLLYWOOD_GAMES = 3


class MatchError(ValueError):
    """A hand result or request that does not fit the match (unknown player, match over, ...)."""


@dataclass(frozen=True)
class HandScore:
    """The result of one hand as the match sees it.

    ``winner`` is the player who scores (the knocker, or the opponent on an undercut), or None
    for no game; ``points`` what he writes for the hand, bonuses of the hand included.
    ``dealer`` records who actually dealt when it was not the player due to deal: the deal
    stands (000 §14.2) and the rotation goes on from it. None means the player due to deal.

    >>> HandScore("A", 12)
    HandScore(winner='A', points=12, kind='knock', dealer=None)
    >>> HandScore.no_game()
    HandScore(winner=None, points=0, kind='no_game', dealer=None)
    >>> HandScore("A", 12, "no_game")
    Traceback (most recent call last):
    ...
    engine.match.MatchError: a no-game hand has no winner and no points, got winner 'A' and 12 points
    """

    winner: str | None
    points: int = 0
    kind: HandKind = "knock"
    dealer: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in HAND_KINDS:
            raise MatchError(f"hand kind must be one of {', '.join(HAND_KINDS)}, got {self.kind!r}")
        if not isinstance(self.points, int) or isinstance(self.points, bool) or self.points < 0:
            raise MatchError(f"hand points must be a whole number >= 0, got {self.points!r}")
        if self.kind == "no_game" and (self.winner is not None or self.points):
            raise MatchError(
                f"a no-game hand has no winner and no points, got winner {self.winner!r} and {self.points} points"
            )
        if self.kind != "no_game" and not (isinstance(self.winner, str) and self.winner):
            raise MatchError(f"a {self.kind} hand needs the winner's name, got {self.winner!r}")

    @classmethod
    def no_game(cls, dealer: str | None = None) -> "HandScore":
        """A void hand (000 §12, §14.13): nobody scores, the same dealer deals again."""
        return cls(None, 0, "no_game", dealer)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping, the form the event log stores."""
        data: dict[str, Any] = {"winner": self.winner, "points": self.points, "kind": self.kind}
        if self.dealer is not None:
            data["dealer"] = self.dealer
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "HandScore":
        """Read :meth:`to_dict`'s form back, naming any unknown field.

        >>> HandScore.from_dict({"winner": "A", "points": 31, "kind": "gin"})
        HandScore(winner='A', points=31, kind='gin', dealer=None)
        >>> HandScore.from_dict({"winner": "A", "score": 31})
        Traceback (most recent call last):
        ...
        engine.match.MatchError: unknown hand result field 'score': expected winner, points, kind, dealer
        """
        known = ("winner", "points", "kind", "dealer")
        for name in data:
            if name not in known:
                raise MatchError(f"unknown hand result field {name!r}: expected {', '.join(known)}")
        return cls(data.get("winner"), data.get("points", 0), data.get("kind", "knock"), data.get("dealer"))


@dataclass(frozen=True)
class Account:
    """What a party writes at the end of a game: hand points plus box and game bonuses."""

    party: str
    hand_points: int
    hands_won: int
    box_bonus: int
    game_bonus: int

    @property
    def total(self) -> int:
        return self.hand_points + self.box_bonus + self.game_bonus


@dataclass(frozen=True)
class Payment:
    """One settlement between two parties: the difference of their totals plus any shutout bonus."""

    payer: str
    payee: str
    difference: int
    shutout: int = 0

    @property
    def amount(self) -> int:
        return self.difference + self.shutout


@dataclass(frozen=True)
class Transfer:
    """Net amount one player pays another, all games of a match together."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class Settlement:
    """The end of one game: every party's account and the payments between them.

    Between every two parties with different totals, the lower pays the higher the difference
    (000 §13; with three players §15.1: the highest collects from both, the second from the
    lowest). A party that wrote nothing also pays the shutout bonus, but only to the party that
    reached the target first (§15.1). Equal totals pay nothing.
    """

    accounts: tuple[Account, ...]
    payments: tuple[Payment, ...]

    def account(self, party: str) -> Account:
        for account in self.accounts:
            if account.party == party:
                return account
        raise MatchError(f"unknown party {party!r}: the game was between {', '.join(a.party for a in self.accounts)}")

    @property
    def winner(self) -> str | None:
        """The party with the highest total, or None when the top is shared."""
        best = max(a.total for a in self.accounts)
        top = [a.party for a in self.accounts if a.total == best]
        return top[0] if len(top) == 1 else None

    def balance(self, party: str) -> int:
        """What ``party`` receives minus what it pays in this game."""
        self.account(party)
        return sum(p.amount for p in self.payments if p.payee == party) - sum(
            p.amount for p in self.payments if p.payer == party
        )


@dataclass(frozen=True)
class GameSheet:
    """One game's score column per party: hands credited in order, closed at the target.

    Parties are players, or a team writing in one column (chouette, partnerships).

    >>> sheet = GameSheet(("A", "B"), 100).credit("A", 60).credit("A", 45)
    >>> sheet.points("A"), sheet.first_to_target, sheet.closed
    (105, 'A', True)
    >>> sheet.credit("B", 10)
    Traceback (most recent call last):
    ...
    engine.match.MatchError: the game is over (A reached 100): no more hands can be scored in it
    """

    parties: tuple[str, ...]
    target: int
    entries: tuple[tuple[str, int], ...] = ()
    first_to_target: str | None = None

    def _check_party(self, party: str) -> None:
        if party not in self.parties:
            raise MatchError(f"unknown player {party!r}: this game is between {', '.join(self.parties)}")

    def points(self, party: str) -> int:
        self._check_party(party)
        return sum(points for who, points in self.entries if who == party)

    def wins(self, party: str) -> int:
        self._check_party(party)
        return sum(1 for who, _ in self.entries if who == party)

    @property
    def closed(self) -> bool:
        return self.first_to_target is not None

    def credit(self, party: str, points: int) -> "GameSheet":
        """The sheet with one more hand won by ``party``."""
        self._check_party(party)
        if self.closed:
            raise MatchError(
                f"the game is over ({self.first_to_target} reached {self.target}): no more hands can be scored in it"
            )
        sheet = GameSheet(self.parties, self.target, self.entries + ((party, points),))
        first = party if sheet.points(party) >= self.target else None
        return GameSheet(self.parties, self.target, sheet.entries, first)

    def settle(self, rules: GinRules) -> Settlement:
        """Accounts and payments once the game is over (000 §13, §15.1)."""
        if not self.closed:
            raise MatchError(f"the game is not over: nobody has reached {self.target} yet")
        accounts = tuple(
            Account(
                party,
                self.points(party),
                self.wins(party),
                rules.box_bonus * self.wins(party),
                rules.game_bonus if party == self.first_to_target else 0,
            )
            for party in self.parties
        )
        ranked = sorted(accounts, key=lambda a: -a.total)
        payments = []
        for i, payee in enumerate(ranked):
            for payer in ranked[i + 1:]:
                if payer.total == payee.total:
                    continue
                shut_out = payer.hands_won == 0 and payee.party == self.first_to_target
                bonus = (payee.total if rules.shutout_doubles else rules.shutout_bonus) if shut_out else 0
                payments.append(Payment(payer.party, payee.party, payee.total - payer.total, bonus))
        return Settlement(accounts, tuple(payments))


def net_transfers(settlements: Iterable[Settlement]) -> tuple[Transfer, ...]:
    """Payments of several games netted per pair of parties, largest first.

    >>> s = Settlement((), (Payment("B", "A", 50), Payment("A", "B", 20, 100)))
    >>> net_transfers([s])
    (Transfer(payer='A', payee='B', amount=70),)
    """
    owed: dict[tuple[str, str], int] = {}
    for settlement in settlements:
        for payment in settlement.payments:
            pair = tuple(sorted((payment.payer, payment.payee)))
            sign = 1 if (payment.payer, payment.payee) == pair else -1
            owed[pair] = owed.get(pair, 0) + sign * payment.amount
    transfers = [
        Transfer(first, second, amount) if amount > 0 else Transfer(second, first, -amount)
        for (first, second), amount in owed.items()
        if amount
    ]
    return tuple(sorted(transfers, key=lambda t: -t.amount))


@dataclass(frozen=True)
class HandLine:
    """One hand as the score sheet shows it."""

    number: int
    dealer: str
    outcome: HandScore
    games: tuple[int, ...]
    """Indexes of the games (0-based) the hand was written in; empty for no game."""


def hollywood_games(sheets: Sequence[GameSheet], player: str) -> tuple[int, ...]:
    """The games a hand won by ``player`` is written in, under Hollywood scoring.

    Every open game the player already writes in, plus the first open game he has not yet
    written in (see the module docstring).

    >>> s = tuple(GameSheet(("A", "B"), 100) for _ in range(3))
    >>> hollywood_games(s, "A")
    (0,)
    >>> s = (s[0].credit("A", 10), s[1], s[2])
    >>> hollywood_games(s, "A"), hollywood_games(s, "B")
    ((0, 1), (0,))
    """
    open_games = [i for i, sheet in enumerate(sheets) if not sheet.closed]
    writing = [i for i in open_games if sheets[i].wins(player)]
    starting = [i for i in open_games if not sheets[i].wins(player)][:1]
    return tuple(sorted(writing + starting))


@dataclass(frozen=True)
class MatchState:
    """A two-player match after some hands. Build it with :func:`new_match` or :func:`score_match`.

    Everything here follows from ``players``, ``rules``, ``first_dealer`` and ``outcomes``.
    """

    players: tuple[str, str]
    rules: GinRules
    first_dealer: str
    outcomes: tuple[HandScore, ...] = ()
    games: tuple[GameSheet, ...] = ()
    lines: tuple[HandLine, ...] = ()
    next_dealer: str = ""
    """Who deals the next hand; once the match is over, the first hand of the next match (004:
    the loser of the last hand deals)."""

    @property
    def finished(self) -> bool:
        return all(game.closed for game in self.games)

    @property
    def next_forehand(self) -> str:
        return self.opponent(self.next_dealer)

    def opponent(self, player: str) -> str:
        self._check_player(player)
        return self.players[1] if player == self.players[0] else self.players[0]

    def _check_player(self, player: str | None) -> None:
        if player not in self.players:
            raise MatchError(f"unknown player {player!r}: the match is between {self.players[0]} and {self.players[1]}")

    def score(self, player: str, game: int = 0) -> int:
        """``player``'s running hand points in ``game`` (0-based; only Hollywood has more than one)."""
        self._check_player(player)
        if not 0 <= game < len(self.games):
            raise MatchError(f"game must be 0..{len(self.games) - 1}, got {game!r}")
        return self.games[game].points(player)

    def record(self, outcome: HandScore) -> "MatchState":
        """The match after one more hand."""
        if not isinstance(outcome, HandScore):
            raise MatchError(f"a hand result must be a HandScore, got {outcome!r}")
        if self.finished:
            raise MatchError("the match is over: undo the last hand or start a new match")
        dealer = self.next_dealer if outcome.dealer is None else outcome.dealer
        self._check_player(dealer)
        games = self.games
        written: tuple[int, ...] = ()
        if outcome.winner is None:
            next_dealer = dealer  # 000 §12: after no game the same player deals
        else:
            self._check_player(outcome.winner)
            written = hollywood_games(games, outcome.winner) if self.rules.hollywood else (0,)
            games = tuple(g.credit(outcome.winner, outcome.points) if i in written else g for i, g in enumerate(games))
            next_dealer = self.opponent(outcome.winner)  # 000 §3: the loser deals
        line = HandLine(len(self.outcomes) + 1, dealer, outcome, written)
        return MatchState(
            self.players, self.rules, self.first_dealer, self.outcomes + (outcome,), games, self.lines + (line,), next_dealer
        )

    def undo(self) -> "MatchState":
        """The match without its last hand."""
        if not self.outcomes:
            raise MatchError("nothing to undo: no hand has been scored")
        return score_match(self.players, self.first_dealer, self.outcomes[:-1], self.rules)

    def settlements(self) -> tuple[Settlement, ...]:
        """One settlement per game (three with Hollywood scoring); the match must be over."""
        if not self.finished:
            raise MatchError(f"the match is not over: nobody has reached {self.rules.match_target} in every game yet")
        return tuple(game.settle(self.rules) for game in self.games)

    def transfers(self) -> tuple[Transfer, ...]:
        """Who pays whom how much for the whole match (empty on a tie)."""
        return net_transfers(self.settlements())


def new_match(players: Sequence[str], first_dealer: str, rules: GinRules | None = None) -> MatchState:
    """A match before its first hand.

    >>> new_match(("A", "A"), "A")
    Traceback (most recent call last):
    ...
    engine.match.MatchError: a match needs two different player names, got ('A', 'A')
    """
    players = tuple(players)
    if len(players) != 2 or players[0] == players[1] or not all(isinstance(p, str) and p for p in players):
        raise MatchError(f"a match needs two different player names, got {players!r}")
    rules = rules or GinRules()
    count = HOLLYWOOD_GAMES if rules.hollywood else 1
    state = MatchState(
        (players[0], players[1]), rules, first_dealer,
        games=tuple(GameSheet(players, rules.match_target) for _ in range(count)),
        next_dealer=first_dealer,
    )
    state._check_player(first_dealer)
    return state


def match_from_draw(draws: Mapping[str, Card], rules: GinRules | None = None) -> MatchState:
    """A match whose first dealer is the lower card of the draw (000 §3).

    >>> from engine.cards import parse_card
    >>> m = match_from_draw({"A": parse_card("9C"), "B": parse_card("JD")})
    >>> m.next_dealer, m.next_forehand
    ('A', 'B')
    """
    dealer, forehand = first_deal(draws)
    return new_match(tuple(draws), dealer, rules)


def score_match(
    players: Sequence[str], first_dealer: str, outcomes: Iterable[HandScore], rules: GinRules | None = None
) -> MatchState:
    """Replay a match from its hand results (the event log), in order."""
    return replay(new_match(players, first_dealer, rules), outcomes)


Recorder = TypeVar("Recorder", bound="_Records")


class _Records(Protocol):
    def record(self, outcome: Any, /) -> Any: ...


def replay(start: Recorder, outcomes: Iterable[Any], unit: str = "hand") -> Recorder:
    """Feed ``outcomes`` to ``start.record`` in order; an error names the hand (or round) it came from.

    >>> replay(new_match("AB", "A"), [HandScore("A", 10), HandScore("C", 5)])
    Traceback (most recent call last):
    ...
    engine.match.MatchError: hand 2: unknown player 'C': the match is between A and B
    """
    state = start
    for number, outcome in enumerate(outcomes, start=1):
        try:
            state = state.record(outcome)
        except MatchError as error:
            raise MatchError(f"{unit} {number}: {error}") from None
    return state
