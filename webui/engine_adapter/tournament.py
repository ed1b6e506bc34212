"""Tournaments (000 §17) through ``engine.tournament``: round robin and the Swiss system.

The record holds the players, the system, the seed of the lot and card draws, and one result
per pairing (the winner and the amount his match settled for). Everything else -- the
pairings of every round, the standings, the next Swiss round -- is asked of the engine.

>>> view = tournament_view(["A", "B", "C", "D"], "round_robin", "s", {(1, frozenset("AD")): ("A", 40)})
>>> [(s.player, s.points) for s in view.standings][:2], view.current
([('A', 40), ('B', 0)], 1)
>>> [(p.first, p.second, p.result) for p in view.rounds[0].pairings]
[('A', 'D', ('A', 40)), ('B', 'C', None)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from engine import tournament as engine_tournament
from webui.engine_adapter.base import HandRejected

SYSTEMS = {"round_robin": "Round robin: everybody meets everybody once",
           "swiss": "Swiss system: the leaders meet each other (5 players or more)"}

ResultKey = tuple[int, frozenset]
"""(round number, the two players) of a pairing."""


@dataclass(frozen=True)
class PairingView:
    first: str
    second: str | None
    """None: a bye."""
    result: tuple[str, int] | None
    """(winner, amount) once entered."""


@dataclass(frozen=True)
class RoundView:
    number: int
    pairings: tuple[PairingView, ...]
    draws: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Swiss: the cards drawn to order players with equal points."""

    @property
    def complete(self) -> bool:
        return all(p.second is None or p.result for p in self.pairings)


@dataclass(frozen=True)
class TournamentView:
    standings: tuple[engine_tournament.Standing, ...]
    rounds: tuple[RoundView, ...]
    """Every round paired so far (Swiss: up to the one being played)."""
    current: int | None
    """The first round still waiting for results; None when the tournament is over."""
    rounds_total: int

    @property
    def finished(self) -> bool:
        return self.current is None


def check_setup(players: Sequence[str], system: str) -> None:
    if system not in SYSTEMS:
        raise HandRejected(f"unknown tournament system {system!r}: one of {', '.join(SYSTEMS)}", "system")
    if not 2 <= len(players) <= 64:
        raise HandRejected(f"a tournament needs 2 to 64 players, got {len(players)}", "players")
    if system == "swiss":
        try:
            engine_tournament.swiss_round_count(len(players))
        except engine_tournament.TournamentError as exc:
            raise HandRejected(str(exc), "players") from None


def _round(number: int, pairings, results: Mapping[ResultKey, tuple[str, int]], draws=()) -> RoundView:
    views = tuple(PairingView(p.first, p.second, results.get((number, frozenset((p.first, p.second)))))
                  for p in pairings)
    return RoundView(number, views, tuple((player, tuple(map(str, cards))) for player, cards in draws))


def _results(view: RoundView) -> list[engine_tournament.Result]:
    out = []
    for p in view.pairings:
        if p.second is None:
            out.append(engine_tournament.Result(p.first, None))
        elif p.result:
            winner, amount = p.result
            out.append(engine_tournament.Result.of_match(winner, p.second if winner == p.first else p.first, amount))
    return out


def tournament_view(players: Sequence[str], system: str, seed: str,
                    results: Mapping[ResultKey, tuple[str, int]]) -> TournamentView:
    """Pairings, standings and the round being played, from the results entered so far."""
    check_setup(players, system)
    if system == "round_robin":
        rounds = tuple(_round(i + 1, pairings, results) for i, pairings in enumerate(engine_tournament.round_robin(players)))
        history = [_results(r) for r in rounds]
        current = next((r.number for r in rounds if not r.complete), None)
        return TournamentView(engine_tournament.standings(players, history), rounds, current, len(rounds))
    swiss = engine_tournament.Swiss(tuple(players), seed)
    rounds: list[RoundView] = []
    while not swiss.finished:
        paired = swiss.next_round()
        view = _round(paired.number, paired.pairings, results, paired.draws)
        rounds.append(view)
        if not view.complete:
            history = [*swiss.history, _results(view)]
            return TournamentView(engine_tournament.standings(players, history), tuple(rounds), view.number,
                                  swiss.rounds_total)
        swiss = swiss.record(_results(view))
    return TournamentView(swiss.standings(), tuple(rounds), None, swiss.rounds_total)


def check_result(view: TournamentView, system: str, number: int, first: str, second: str, winner: str) -> None:
    """A result may be entered for a pairing of a round that is paired (Swiss: the current round)."""
    if not 1 <= number <= len(view.rounds):
        raise HandRejected(f"round {number} is not paired yet (rounds 1..{len(view.rounds)} are)", "round")
    if system == "swiss" and number != view.current:
        raise HandRejected(f"Swiss round {number} is closed: its results decided the later pairings", "round")
    pair = frozenset((first, second))
    if not any(frozenset((p.first, p.second)) == pair for p in view.rounds[number - 1].pairings if p.second):
        raise HandRejected(f"{first} and {second} are not paired in round {number}", "second")
    if winner not in pair:
        raise HandRejected(f"the winner must be {first} or {second}, got {winner!r}", "winner")
