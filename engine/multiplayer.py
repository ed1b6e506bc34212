"""Gin Rummy for three, four and six: who plays, who sits out, who deals, and the scores.

Three players (000 §15.1): the lowest card sits out first, the second-highest deals, the highest
is forehand. The loser of a hand sits out and the winner plays the one who sat out, who deals.
Everybody keeps his own account; the game ends when one reaches the target. The example of
§15.1 (A wins three hands and reaches 102, B wins one of 17, C nothing) can only have been
played with A sitting out first (a winner never leaves the table, and C never wins):

>>> m = score_three_player(("B", "C", "A"), [HandScore("B", 17), HandScore("A", 30),
...                                          HandScore("A", 35), HandScore("A", 37)])
>>> [(a.party, a.total) for a in m.settlement().accounts]
[('B', 37), ('C', 0), ('A', 262)]
>>> [(p.payer, p.payee, p.amount) for p in m.settlement().payments]
[('B', 'A', 225), ('C', 'A', 362), ('C', 'B', 37)]

Chouette (000 §15.2, 004): the highest card plays alone (declarer) against the other two, who
write in one column; see :class:`Chouette`.

Partnerships (000 §16): two teams of two (or three), each player at his own table against one
opponent, the tables' results added per round; see :class:`PartnershipMatch`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from engine.cards import Card
from engine.dealing import DealError, rank_draw
from engine.match import GameSheet, HandScore, MatchError, Payment, Settlement, replay
from engine.rules import GinRules


def _distinct_names(names: Sequence[str], count: int, what: str) -> tuple[str, ...]:
    names = tuple(names)
    if len(names) != count or len(set(names)) != count or not all(isinstance(n, str) and n for n in names):
        raise MatchError(f"{what} needs {count} different player names, got {names!r}")
    return names


def _ranked(draws: Mapping[str, Card], counts: tuple[int, ...], what: str) -> tuple[str, ...]:
    if len(draws) not in counts:
        raise DealError(f"{what} is for {' or '.join(map(str, counts))} players, got {len(draws)}")
    return rank_draw(draws)


def _check_outcome(outcome: HandScore, at_table: tuple[str, str]) -> str | None:
    """The actual dealer of a hand played by ``at_table``, after checking the result's names."""
    if not isinstance(outcome, HandScore):
        raise MatchError(f"a hand result must be a HandScore, got {outcome!r}")
    for role, name in (("winner", outcome.winner), ("dealer", outcome.dealer)):
        if name is not None and name not in at_table:
            raise MatchError(f"{role} {name!r} is not at play: the hand is between {at_table[0]} and {at_table[1]}")
    return outcome.dealer


@dataclass(frozen=True)
class ThreePlayerMatch:
    """Three players, two at play, one sitting out (000 §15.1).

    ``forehand``, ``dealer`` and ``sitter`` describe the next hand.
    """

    rules: GinRules
    forehand: str
    dealer: str
    sitter: str
    sheet: GameSheet
    outcomes: tuple[HandScore, ...] = ()
    start_seats: tuple[str, str, str] = ("", "", "")

    @classmethod
    def start(cls, forehand: str, dealer: str, sitter: str, rules: GinRules | None = None) -> "ThreePlayerMatch":
        """A match before its first hand, from the seats of the first hand."""
        seats = _distinct_names((forehand, dealer, sitter), 3, "a three-player match")
        rules = rules or GinRules()
        return cls(rules, forehand, dealer, sitter, GameSheet(seats, rules.match_target), (), seats)

    @classmethod
    def from_draw(cls, draws: Mapping[str, Card], rules: GinRules | None = None) -> "ThreePlayerMatch":
        """Highest card is forehand, second deals, lowest sits out (000 §15.1).

        >>> from engine.cards import parse_card
        >>> m = ThreePlayerMatch.from_draw({"A": parse_card("2S"), "B": parse_card("KH"), "C": parse_card("9D")})
        >>> m.forehand, m.dealer, m.sitter
        ('B', 'C', 'A')
        """
        highest, second, lowest = _ranked(draws, (3,), "a three-player match")
        return cls.start(highest, second, lowest, rules)

    @property
    def finished(self) -> bool:
        return self.sheet.closed

    def record(self, outcome: HandScore) -> "ThreePlayerMatch":
        """The match after one more hand: the loser sits out, the winner meets the sitter, who deals."""
        if self.finished:
            raise MatchError("the match is over: undo the last hand or start a new match")
        at_table = (self.forehand, self.dealer)
        dealer = _check_outcome(outcome, at_table) or self.dealer
        if outcome.winner is None:  # 000 §12: no game, the same dealer deals again
            forehand = at_table[0] if dealer == at_table[1] else at_table[1]
            return ThreePlayerMatch(self.rules, forehand, dealer, self.sitter, self.sheet,
                                    self.outcomes + (outcome,), self.start_seats)
        loser = at_table[0] if outcome.winner == at_table[1] else at_table[1]
        return ThreePlayerMatch(
            self.rules, outcome.winner, self.sitter, loser,
            self.sheet.credit(outcome.winner, outcome.points), self.outcomes + (outcome,), self.start_seats,
        )

    def undo(self) -> "ThreePlayerMatch":
        if not self.outcomes:
            raise MatchError("nothing to undo: no hand has been scored")
        return score_three_player(self.start_seats, self.outcomes[:-1], self.rules)

    def settlement(self) -> Settlement:
        """Accounts and payments (000 §15.1); the shutout bonus goes only to the first to the target."""
        return self.sheet.settle(self.rules)


def score_three_player(
    seats: Sequence[str], outcomes: Iterable[HandScore], rules: GinRules | None = None
) -> ThreePlayerMatch:
    """Replay a three-player match; ``seats`` is (forehand, dealer, sitter) of the first hand."""
    forehand, dealer, sitter = _distinct_names(seats, 3, "a three-player match")
    return replay(ThreePlayerMatch.start(forehand, dealer, sitter, rules), outcomes)


@dataclass(frozen=True)
class Chouette:
    """Chouette (000 §15.2): a declarer alone against two partners writing in one column.

    The partner who drew the higher card deals the first hand and plays until he loses a hand;
    then the other partner takes over. The declarer collects his winnings from both partners,
    or pays both. Who deals within the match is not spelt out in §15.2; we follow §3, the side
    that lost a hand deals the next, on the team side the partner now at play, and after no game
    the same player deals again (§12).

    >>> c = Chouette.start("D", ("P", "Q"))
    >>> c.active, c.dealer
    ('P', 'P')
    >>> c = c.record(HandScore("D", 40))
    >>> c.active, c.dealer, c.sheet.points("D")
    ('Q', 'Q', 40)
    """

    declarer: str
    partners: tuple[str, str]
    """In the order they play: the first one deals the first hand."""
    rules: GinRules
    sheet: GameSheet
    active: str
    dealer: str
    outcomes: tuple[HandScore, ...] = ()

    @classmethod
    def start(cls, declarer: str, partners: Sequence[str], rules: GinRules | None = None) -> "Chouette":
        """A match before its first hand; ``partners[0]`` plays and deals first."""
        declarer, first, second = _distinct_names((declarer, *partners), 3, "chouette")
        rules = rules or GinRules()
        sheet = GameSheet((declarer, team_name((first, second))), rules.match_target)
        return cls(declarer, (first, second), rules, sheet, first, first)

    @classmethod
    def from_draw(cls, draws: Mapping[str, Card], rules: GinRules | None = None) -> "Chouette":
        """Highest card is declarer; of the two partners the higher card plays and deals first.

        >>> from engine.cards import parse_card
        >>> c = Chouette.from_draw({"A": parse_card("5S"), "B": parse_card("QH"), "C": parse_card("8D")})
        >>> c.declarer, c.partners
        ('B', ('C', 'A'))
        """
        declarer, first, second = _ranked(draws, (3,), "chouette")
        return cls.start(declarer, (first, second), rules)

    @property
    def team(self) -> str:
        """The partners' column name on the sheet."""
        return self.sheet.parties[1]

    @property
    def waiting(self) -> str:
        """The partner not at play (who may advise, but the one at play decides)."""
        return self.partners[1] if self.active == self.partners[0] else self.partners[0]

    @property
    def finished(self) -> bool:
        return self.sheet.closed

    def record(self, outcome: HandScore) -> "Chouette":
        if self.finished:
            raise MatchError("the match is over: undo the last hand or start the next match")
        dealer = _check_outcome(outcome, (self.declarer, self.active)) or self.dealer
        active, sheet = self.active, self.sheet
        if outcome.winner == self.declarer:
            active = self.waiting  # the partner lost: the other one takes over, and deals
            dealer = active
            sheet = sheet.credit(self.declarer, outcome.points)
        elif outcome.winner is not None:
            dealer = self.declarer
            sheet = sheet.credit(self.team, outcome.points)
        return Chouette(self.declarer, self.partners, self.rules, sheet, active, dealer, self.outcomes + (outcome,))

    def undo(self) -> "Chouette":
        if not self.outcomes:
            raise MatchError("nothing to undo: no hand has been scored")
        return replay(Chouette.start(self.declarer, self.partners, self.rules), self.outcomes[:-1])

    def settlement(self) -> Settlement:
        """The declarer's and the team's accounts, with the one payment between the columns."""
        return self.sheet.settle(self.rules)

    def payments(self) -> tuple[Payment, ...]:
        """Per player: the declarer pays each partner the team's winnings, or collects his from each.

        >>> c = Chouette.start("D", ("P", "Q"), GinRules(match_target=50)).record(HandScore("D", 55))
        >>> [(p.payer, p.payee, p.amount) for p in c.payments()]
        [('P', 'D', 275), ('Q', 'D', 275)]
        """
        expanded = []
        for payment in self.settlement().payments:
            for partner in self.partners:
                payer, payee = (partner, self.declarer) if payment.payer == self.team else (self.declarer, partner)
                expanded.append(Payment(payer, payee, payment.difference, payment.shutout))
        return tuple(expanded)

    def next_match(self) -> "Chouette":
        """The first hand of the next match (000 §15.2).

        If the declarer won the last hand he stays declarer and meets the partner who sat out
        last, who deals. If he lost it, the winner becomes declarer and meets his former
        partner, who deals, while the former declarer sits out.

        >>> c = Chouette.start("D", ("P", "Q"), GinRules(match_target=50)).record(HandScore("P", 60))
        >>> n = c.next_match()
        >>> n.declarer, n.active, n.dealer, n.waiting
        ('P', 'Q', 'Q', 'D')
        """
        if not self.finished:
            raise MatchError("the match is not over yet: the next match starts when it is")
        last_winner = self.outcomes[-1].winner
        if last_winner == self.declarer:
            return Chouette.start(self.declarer, (self.waiting, self.active), self.rules)
        return Chouette.start(self.active, (self.waiting, self.declarer), self.rules)


def team_name(players: Sequence[str]) -> str:
    """The column name of a team: its players joined by '+'."""
    return "+".join(players)


@dataclass(frozen=True)
class Table:
    """One table of a partnership round: who deals and who is forehand."""

    dealer: str
    forehand: str


@dataclass(frozen=True)
class PartnershipSeating:
    """Two teams around one table (000 §16), each in draw order.

    The highest card picks his seat, his partner sits opposite, the third-highest to his left,
    the lowest to his right: seats clockwise are high[0], low[0], high[1], low[1]. With six the
    same scheme alternates the teams: high[0], low[0], high[1], low[1], high[2], low[2].
    """

    high: tuple[str, ...]
    low: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.high) != len(self.low) or len(self.high) not in (2, 3):
            raise MatchError(f"partnerships are two teams of 2 or 3, got {self.high!r} and {self.low!r}")
        _distinct_names(self.high + self.low, 2 * len(self.high), "a partnership match")

    @classmethod
    def from_draw(cls, draws: Mapping[str, Card]) -> "PartnershipSeating":
        """The higher half of the cards against the lower half.

        >>> from engine.cards import parse_card
        >>> s = PartnershipSeating.from_draw({n: parse_card(c) for n, c in zip("ABCD", ["3S", "KH", "9D", "JC"])})
        >>> s.seats
        ('B', 'C', 'D', 'A')
        """
        order = _ranked(draws, (4, 6), "a partnership match")
        half = len(order) // 2
        return cls(order[:half], order[half:])

    @property
    def seats(self) -> tuple[str, ...]:
        """Players clockwise from the highest card."""
        return tuple(player for pair in zip(self.high, self.low) for player in pair)

    def opponents(self, round_index: int) -> tuple[tuple[str, str], ...]:
        """(low player, high player) per table in round ``round_index`` (0-based).

        In the first round each low player meets the opponent to his right; after every round
        the partners change opponents, so each meets his opponents in turn (000 §16).

        >>> PartnershipSeating(("H0", "H1"), ("L0", "L1")).opponents(1)
        (('L0', 'H1'), ('L1', 'H0'))
        """
        size = len(self.high)
        return tuple((low, self.high[(j + round_index) % size]) for j, low in enumerate(self.low))


@dataclass(frozen=True)
class PartnershipMatch:
    """Four or six players in two teams, one column per team (000 §16).

    A round is one hand at every table. Its score is the sum of the tables' results: the team
    ahead writes the net points, and one box for the round. The losing team deals the next
    round at every table. The lowest card's team deals the first round. A round whose results
    cancel out is scored like no game (nothing written, the same team deals again); §16 does
    not say, this is our reading of §12.

    The example of §16: A loses 18 points and his partner B wins 25, so the team writes 7 points
    and a box, and C and D deal the next round.

    >>> m = PartnershipMatch.start(PartnershipSeating(high=("C", "D"), low=("A", "B")))
    >>> m.tables()
    (Table(dealer='A', forehand='C'), Table(dealer='B', forehand='D'))
    >>> m = m.record([HandScore("C", 18), HandScore("B", 25)])
    >>> m.sheet.entries, m.dealing_team
    ((('A+B', 7),), ('C', 'D'))
    """

    seating: PartnershipSeating
    rules: GinRules
    sheet: GameSheet
    dealing_team: tuple[str, ...]
    rounds: tuple[tuple[HandScore, ...], ...] = ()

    @classmethod
    def start(cls, seating: PartnershipSeating, rules: GinRules | None = None) -> "PartnershipMatch":
        """A match before its first round; the target is 125 with four players, 150 with six."""
        rules = rules or GinRules()
        target = rules.four_player_target if len(seating.high) == 2 else rules.six_player_target
        sheet = GameSheet((team_name(seating.high), team_name(seating.low)), target)
        return cls(seating, rules, sheet, seating.low)

    @property
    def finished(self) -> bool:
        return self.sheet.closed

    def tables(self) -> tuple[Table, ...]:
        """Dealer and forehand at each table for the next round, in the seating's table order."""
        tables = []
        for low, high in self.seating.opponents(len(self.rounds)):
            dealer = low if low in self.dealing_team else high
            tables.append(Table(dealer, high if dealer == low else low))
        return tuple(tables)

    def record(self, results: Sequence[HandScore]) -> "PartnershipMatch":
        """The match after one round: one result per table, in the order of :meth:`tables`."""
        if self.finished:
            raise MatchError("the match is over: undo the last round or start a new match")
        tables = self.seating.opponents(len(self.rounds))
        results = tuple(results)
        if len(results) != len(tables):
            raise MatchError(f"a round has {len(tables)} table results, got {len(results)}")
        net = 0
        for (low, high), result in zip(tables, results):
            _check_outcome(result, (low, high))
            if result.winner is not None:
                net += result.points if result.winner in self.seating.high else -result.points
        sheet, dealing = self.sheet, self.dealing_team
        if net:
            ahead, behind = (self.seating.high, self.seating.low) if net > 0 else (self.seating.low, self.seating.high)
            sheet, dealing = sheet.credit(team_name(ahead), abs(net)), behind
        return PartnershipMatch(self.seating, self.rules, sheet, dealing, self.rounds + (results,))

    def undo(self) -> "PartnershipMatch":
        if not self.rounds:
            raise MatchError("nothing to undo: no round has been scored")
        return replay(PartnershipMatch.start(self.seating, self.rules), self.rounds[:-1], "round")

    def settlement(self) -> Settlement:
        """The two team columns settled like a two-player game (000 §13)."""
        return self.sheet.settle(self.rules)
