"""Match state derived from the event log: nothing here is stored, all is replayed.

>>> from webui.store import Event
>>> log = [
...     Event(1, "m", "match_created", {"players": ["Ann", "Ben"], "game": "gin",
...           "preset": "rulebook", "options": {}, "first_dealer": "Ben"}, "host", "t"),
...     Event(2, "m", "discard", {"player": "Ann", "card": "KS"}, "camera", "t"),
...     Event(3, "m", "hand_recorded", {"dealer": "Ben", "input": {},
...           "result": {"kind": "knock", "winner": "Ann", "points": 12}}, "camera", "t"),
...     Event(4, "m", "hand_voided", {"hand": 3, "reason": "misread"}, "pin@10.0.0.2", "t"),
... ]
>>> state = replay(log)
>>> state.players, [h.status for h in state.hands], state.discards
(['Ann', 'Ben'], ['voided'], [])
>>> [r.kind for r in state.hands[0].revisions]
['hand_recorded', 'hand_voided']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from webui.store import Event


class UnknownMatch(LookupError):
    """No ``match_created`` event for this match id."""


@dataclass
class Revision:
    """One event in the life of a recorded hand (the original, corrections, undo, restore)."""

    event_id: int
    kind: str
    actor: str
    at: str
    reason: str
    result: dict[str, Any] | None


@dataclass
class HandRecord:
    """A recorded hand with its current version and the full audit trail."""

    hand_id: int
    number: int
    dealer: str | None
    input: dict[str, Any]
    result: dict[str, Any]
    evidence: str | None
    status: str = "counted"
    revisions: list[Revision] = field(default_factory=list)

    @property
    def counted(self) -> bool:
        return self.status != "voided"

    @property
    def edited(self) -> bool:
        return any(r.kind == "hand_corrected" for r in self.revisions)


@dataclass
class Reading:
    """Something the camera is unsure about, waiting for a player's tap."""

    reading_id: str
    prompt: str
    choices: list[str]
    evidence: str | None
    answer: str | None = None
    answered_by: str | None = None
    picker: str | None = None
    """``tiles``: any tile of the set answers it too (:data:`webui.events.PICKERS`)."""


@dataclass
class RebuyRecord:
    """A Wiener Rummy player who bought back in (001), with its audit trail (the re-buy, its undo)."""

    event_id: int
    player: str
    actor: str
    at: str
    revisions: list[Revision] = field(default_factory=list)

    @property
    def counted(self) -> bool:
        return not any(r.kind == "rebuy_voided" for r in self.revisions)


@dataclass
class MatchState:
    match_id: str
    players: list[str]
    game: str
    preset: str
    options: dict[str, Any]
    first_dealer: str
    created_at: str
    hands: list[HandRecord] = field(default_factory=list)
    discards: list[dict[str, str]] = field(default_factory=list)
    stock_count: int | None = None
    turn: str | None = None
    turn_since: str | None = None
    """When the current turn began (server time of the event): the tile Rummy turn timer."""
    rebuys: list[RebuyRecord] = field(default_factory=list)
    readings: dict[str, Reading] = field(default_factory=dict)
    camera: dict[str, Any] | None = None
    """The camera pipeline's last status (``state``, ``camera``, ``reason``, ``at``), None without a camera."""
    plays: list[dict[str, Any]] = field(default_factory=list)
    """What the camera saw happen in the hand being played (knocks, layouts, layoffs, flagged events)."""
    last_event_id: int = 0

    @property
    def counted_hands(self) -> list[HandRecord]:
        return [hand for hand in self.hands if hand.counted]

    @property
    def counted_rebuys(self) -> list[RebuyRecord]:
        return [rebuy for rebuy in self.rebuys if rebuy.counted]

    def rebuy(self, event_id: int) -> RebuyRecord:
        for rebuy in self.rebuys:
            if rebuy.event_id == event_id:
                return rebuy
        raise LookupError(f"match {self.match_id} has no re-buy {event_id}")

    @property
    def pending_readings(self) -> list[Reading]:
        return [r for r in self.readings.values() if r.answer is None]

    def hand(self, hand_id: int) -> HandRecord:
        for hand in self.hands:
            if hand.hand_id == hand_id:
                return hand
        raise LookupError(f"match {self.match_id} has no hand {hand_id}")


def replay(events: Iterable[Event]) -> MatchState:
    """Fold a match's events, oldest first, into its state."""
    state: MatchState | None = None
    for event in events:
        p = event.payload
        if event.kind == "match_created":
            state = MatchState(
                match_id=event.match_id, players=list(p["players"]), game=p.get("game", "gin"),
                preset=p.get("preset", "rulebook"), options=dict(p.get("options", {})),
                first_dealer=p.get("first_dealer") or p["players"][0], created_at=event.created_at,
            )
        elif state is None:
            raise UnknownMatch(f"event {event.id} ({event.kind}) comes before the match was created")
        else:
            _APPLY[event.kind](state, event)
        state.last_event_id = event.id
    if state is None:
        raise UnknownMatch("no such match")
    return state


def _revision(event: Event, result: dict[str, Any] | None = None) -> Revision:
    return Revision(event.id, event.kind, event.actor, event.created_at, event.payload.get("reason", ""), result)


def _hand_recorded(state: MatchState, event: Event) -> None:
    p = event.payload
    hand = HandRecord(
        hand_id=event.id, number=len(state.hands) + 1, dealer=p.get("dealer"), input=p.get("input", {}),
        result=p["result"], evidence=p.get("evidence"),
    )
    hand.revisions.append(_revision(event, p["result"]))
    state.hands.append(hand)
    # a new hand starts with an empty table
    state.discards, state.stock_count, state.turn, state.turn_since, state.plays = [], None, None, None, []
    # and with no open question: one about the hand that ended is moot once its result is recorded
    state.readings = {key: reading for key, reading in state.readings.items() if reading.answer is not None}


def _hand_corrected(state: MatchState, event: Event) -> None:
    hand = state.hand(event.payload["hand"])
    hand.input, hand.result = event.payload.get("input", hand.input), event.payload["result"]
    hand.revisions.append(_revision(event, event.payload["result"]))


def _hand_status(status: str):
    def apply(state: MatchState, event: Event) -> None:
        hand = state.hand(event.payload["hand"])
        hand.status = status
        hand.revisions.append(_revision(event))

    return apply


def _discard(state: MatchState, event: Event) -> None:
    state.discards.append({"player": event.payload["player"], "card": event.payload["card"]})


def _table(state: MatchState, event: Event) -> None:
    if "stock_count" in event.payload:
        state.stock_count = event.payload["stock_count"]
    if "turn" in event.payload:
        state.turn, state.turn_since = event.payload["turn"], event.created_at


def _rebuy(state: MatchState, event: Event) -> None:
    state.rebuys.append(RebuyRecord(event.id, event.payload["player"], event.actor, event.created_at, [_revision(event)]))


def _rebuy_voided(state: MatchState, event: Event) -> None:
    state.rebuy(event.payload["rebuy"]).revisions.append(_revision(event))


def _reading_proposed(state: MatchState, event: Event) -> None:
    p = event.payload
    state.readings[p["reading"]] = Reading(p["reading"], p["prompt"], list(p["choices"]), p.get("evidence"),
                                           picker=p.get("picker"))


def _reading_confirmed(state: MatchState, event: Event) -> None:
    reading = state.readings[event.payload["reading"]]
    reading.answer, reading.answered_by = event.payload["choice"], event.actor


def _camera(state: MatchState, event: Event) -> None:
    state.camera = {**event.payload, "at": event.created_at}


def _play(state: MatchState, event: Event) -> None:
    state.plays.append(dict(event.payload))
    payload = event.payload
    if payload.get("kind") == "pickup" and payload.get("cards"):
        # The card taken leaves the pile: the newest discard of it still lying there
        lying = [d for d in state.discards if d["card"] == payload["cards"][0] and "taken_by" not in d]
        if lying:
            lying[-1]["taken_by"] = payload.get("player")


_APPLY = {
    "hand_recorded": _hand_recorded,
    "hand_corrected": _hand_corrected,
    "hand_voided": _hand_status("voided"),
    "hand_restored": _hand_status("counted"),
    "discard": _discard,
    "table": _table,
    "reading_proposed": _reading_proposed,
    "reading_confirmed": _reading_confirmed,
    "rebuy": _rebuy,
    "rebuy_voided": _rebuy_voided,
    "camera": _camera,
    "play": _play,
}
EVENT_KINDS = ("match_created", *_APPLY)


class UnknownTournament(LookupError):
    """No ``tournament_created`` event for this id."""


@dataclass
class ResultEntry:
    """A match result entered for a tournament pairing; a later entry for the pairing replaces it."""

    event_id: int
    round: int
    first: str
    second: str
    winner: str
    amount: int
    actor: str
    at: str


@dataclass
class TournamentState:
    tournament_id: str
    players: list[str]
    system: str
    seed: str
    created_at: str
    entries: list[ResultEntry] = field(default_factory=list)
    last_event_id: int = 0

    @property
    def results(self) -> dict[tuple[int, frozenset], tuple[str, int]]:
        """The latest result per (round, pair)."""
        return {(e.round, frozenset((e.first, e.second))): (e.winner, e.amount) for e in self.entries}


def replay_tournament(events: Iterable[Event]) -> TournamentState:
    """Fold a tournament's events into its state.

    >>> t = replay_tournament([Event(1, "t", "tournament_created", {"players": ["A", "B"], "system": "round_robin",
    ...     "seed": "x"}, "host", "t"), Event(2, "t", "tournament_result", {"round": 1, "first": "A", "second": "B",
    ...     "winner": "B", "amount": 80}, "host", "t")])
    >>> t.results[(1, frozenset({"A", "B"}))]
    ('B', 80)
    """
    state: TournamentState | None = None
    for event in events:
        p = event.payload
        if event.kind == "tournament_created":
            state = TournamentState(event.match_id, list(p["players"]), p["system"], p["seed"], event.created_at)
        elif state is None:
            raise UnknownTournament(f"event {event.id} ({event.kind}) comes before the tournament was created")
        elif event.kind == "tournament_result":
            state.entries.append(ResultEntry(event.id, p["round"], p["first"], p["second"], p["winner"], p["amount"],
                                             event.actor, event.created_at))
        else:
            raise UnknownTournament(f"event {event.id} ({event.kind}) is not a tournament event")
        state.last_event_id = event.id
    if state is None:
        raise UnknownTournament("no such tournament")
    return state
