"""The live Wiener Rummy referee (001): ``rummyref run --game wiener``.

The same chain as Gin (:class:`~rummyref.pipeline.Pipeline`: camera, calibration, motion,
recognizer, zones, record), read with jokers and two decks, on the Wiener table of 2-6 seats
(``engine.zones.default_zones("wiener", n)``), each round tracked by a
:class:`~engine.wiener_tracker.WienerTracker`:

- the tracker's questions go to the dashboard as Gin's do, and so do its questions about which
  move a player made (two decks hold every card twice) and who knocked;
- a round the tracker settles is recorded as the dashboard scores one, from the cards each player
  laid out, with the photo it was settled on (:meth:`~rummyref.pipeline.Recorder.record`);
- who sits in the next round and who deals come from the record: players go out above the limit,
  buy in again on the dashboard, and a deciding round seats two. The next round is tracked once
  the last one is cleared from the table;
- a round the tracker cannot settle is recorded by the players on the dashboard; the next round
  starts from that record too, as it does after the undo button;
- without a learned deck (``run --deck``) every reading below 0.98 is asked, the layouts' (not 0.9)
  and the discard pile's (not 0.8): a deck the recognizer was not taught has its small indices
  misread surely (:data:`~engine.tracker.UNLEARNED_DECK_CONFIDENCE`).
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.tracker import Event, TrackerOptions
from engine.wiener import WienerRules
from engine.wiener_tracker import LAYOUT_CONFIDENCE, WienerTracker, layout_confidence
from engine.zones import default_zones
from rummyref.pipeline import Pipeline, TrackedHands

TABLE_CM = (100.0, 80.0)
"""The playing area of a Wiener table between the markers (``run --table-cm`` may say otherwise):
the simulated and rendered rounds' table, room for six players' layouts."""


class WienerSession(TrackedHands):
    """The tracker of the Wiener round being played. A settled round only marks the session
    ``settled``; the caller starts the next one with :meth:`start_round` once the record says who
    sits and deals.

    >>> session = WienerSession(("Ann", "Ben", "Cy"), "Cy", WienerRules(), TABLE_CM, TrackerOptions())
    >>> session.hand, session.tracker.players, session.tracker.dealer, len(session.tracker.seat_zones)
    (1, ('Ann', 'Ben', 'Cy'), 'Cy', 3)
    >>> session.start_round(("Ann", "Cy"), "Ann", WienerRules(), number=2)
    >>> session.hand, session.tracker.players, session.clearing
    (2, ('Ann', 'Cy'), True)
    """

    def __init__(self, players: Sequence[str], dealer: str, rules: WienerRules, table_cm: tuple[float, float],
                 options: TrackerOptions, layout_confidence: float = LAYOUT_CONFIDENCE, play_confidence: float = 0.0) -> None:
        self.table_cm, self.options = table_cm, options
        self.layout_confidence, self.play_confidence = layout_confidence, play_confidence
        self.tracker: WienerTracker | None = None
        self.ended = None
        self.start_round(tuple(players), dealer, rules, number=1)
        self.clearing = False  # the first round is tracked from the first frame

    def start_round(self, seated: Sequence[str], dealer: str, rules: WienerRules, number: int) -> None:
        """Track round ``number`` of ``seated`` (in seat order), dealt by ``dealer``, once the table is cleared."""
        self.zones = default_zones("wiener", len(seated), *self.table_cm)
        tracker = WienerTracker(tuple(seated), dealer, rules, self.zones, self.options, self.layout_confidence,
                                self.play_confidence)
        if self.tracker is not None:  # what the players named for cards the camera cannot read holds for this deck
            tracker.named, tracker.misread = self.tracker.named, self.tracker.misread
        self.tracker, self.hand = tracker, number
        self.clearing, self.settled = True, False

    def _settle(self, events: list[Event]) -> list[Event]:
        if self._settled(events) is not None:
            self.ended = (self.hand, self.tracker)
            self.settled = True
        return events


class WienerPipeline(Pipeline):
    """:class:`~rummyref.pipeline.Pipeline` for a Wiener Rummy match (see the module)."""

    jokers = True

    def _new_session(self) -> WienerSession:
        config = self.config
        return WienerSession(config.players, config.first_dealer or config.players[0], WienerRules(),
                             config.table_cm, config.tracker,
                             layout_confidence(self.deck_learned) if config.layout_confidence is None
                             else config.layout_confidence, self.play_confidence)

    def _commit(self, events: list[Event], frame: Any) -> None:
        super()._commit(events, frame)
        if self.session.settled:
            self.session.settled = False    # looked at once: a round the record refused waits for the players
            self._next_round()

    def _hands_recorded(self, results: list[Any]) -> None:
        """A round the players recorded themselves: the record says which round comes next."""
        if results:
            self._next_round()

    def _hand_undone(self) -> None:
        self._next_round()

    def _next_round(self) -> None:
        """Start tracking the round the record says comes next (seats, dealer, the match's rules),
        unless the match is over or the record is still at the round being played."""
        from webui import engine_adapter
        from webui.events import setup_of, standing
        from webui.state import replay

        state = replay(self.recorder.store.events(self.match_id))
        now = standing(state)
        if now.finished or now.rounds_played + 1 == self.session.hand:
            return  # over, or the round being tracked is still the record's next one (a refused result: the players record it)
        (table,) = now.tables
        rules = engine_adapter.form("wiener").rules(setup_of(state))
        self.session.start_round(table.players, table.dealer, rules, now.rounds_played + 1)
        self.zones = self.reader.zones = self.session.zones
