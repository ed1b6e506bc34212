"""The Wiener Rummy tracker: the Gin tracker's discard-pile reading for 2-6 seats, two decks.

Play goes round the table to the left (seat ``i`` then ``i + 1``); the dealer holds 11 cards and
opens by discarding. The discard pile says what happened as in Gin: a new top card is a discard
by the player to move, the card under it showing again a pickup, a face-down card the knock;
a stock draw is inferred, and an empty stock is rebuilt from the pile (001), so there is no
"no game". After the knock every player lays out: once each seat's area holds ten cards the
round is settled by :func:`engine.wiener.settle_round` with the knocker's melds as laid (cards
lying together are one meld) and the end event carries each seat's penalty points. With two
decks a card may be seen twice; three times is a question.

>>> from engine.zones import default_zones
>>> from engine.tracker import Sighting
>>> zones = default_zones("wiener", players=3)
>>> t = WienerTracker(("Ann", "Ben", "Cleo"), dealer="Cleo", zones=zones, options=TrackerOptions(window=1, quorum=1))
>>> pile = zones.named("discard").centre
>>> [e.describe() for e in t.update(1, [Sighting("7H", 0.95, *pile, "discard")], still=True)]
['#1 discard Cleo 7H (stock 75)']
>>> [e.describe() for e in t.update(2, [Sighting("9C", 0.95, *pile, "discard")], still=True)]
['#2 stock_draw Ann (stock 74) (inferred)', '#3 discard Ann 9C (stock 74)']
"""

from __future__ import annotations

from typing import Sequence

from engine.cards import parse_card
from engine.tracker import BACK, Event, GinTracker, TrackerError, TrackerOptions, _Card
from engine.wiener import WienerError, WienerRules, settle_round
from engine.wildmelds import WildMeld, WildMeldError
from engine.zones import ZoneMap, default_zones

HAND_SIZE = 10
DECK_SIZE = 106


class WienerTracker(GinTracker):
    """Tracks one Wiener Rummy round of ``players`` (2-6, in seat order) dealt by ``dealer``."""

    decks = 2
    _copies = "two decks hold it twice at most"

    def __init__(self, players: Sequence[str], dealer: str, rules: WienerRules = WienerRules(),
                 zones: ZoneMap | None = None, options: TrackerOptions = TrackerOptions()) -> None:
        if not 2 <= len(players) <= 6 or len(set(players)) != len(players):
            raise TrackerError(f"Wiener Rummy is tracked for 2-6 players with different names, got {list(players)!r}")
        if dealer not in players:
            raise TrackerError(f"dealer {dealer!r} is not one of the players {', '.join(players)}")
        self.players, self.dealer, self.rules, self.options = tuple(players), dealer, rules, options
        self.zones = zones or default_zones("wiener", len(players))
        if self.zones.players != len(players) or self.zones.of_kind("discard") is None:
            raise TrackerError(f"Wiener Rummy needs a zone map with {len(players)} seats and a discard zone")
        self.discard_zone = self.zones.of_kind("discard").name
        self.seat_zones = tuple(self.zones.seat_zone(seat).name for seat in range(len(players)))
        self._start(opener=self.players.index(dealer), stock=DECK_SIZE - HAND_SIZE * len(players) - 1)

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.players)

    def _stock_ended(self) -> bool:
        return False  # an empty stock is rebuilt from the discard pile (001)

    def _layouts(self, reading: dict[str, dict[str, _Card]], frame_id: int) -> list[Event]:
        """Settle once every seat shows its ten cards (or the players say the layouts are complete)."""
        laid = [[_card_code(c.code) for c in reading.get(zone, {}).values() if c.code != BACK] for zone in self.seat_zones]
        if not self._finish and any(len(cards) < HAND_SIZE for cards in laid):
            return []
        knocker = self.players[self.knocker]
        own = {code: card for code, card in reading.get(self.seat_zones[self.knocker], {}).items() if code != BACK}
        groups_of = lambda group: [_card_code(c) for c in group]  # noqa: E731
        groups = [tuple(groups_of(g)) for g in self._group(own) if len(g) >= 3]
        events = []
        try:
            melds = [WildMeld.of([parse_card(c) for c in g], ace_high=True) for g in groups]
        except WildMeldError as error:
            melds = None
            events.append(self._emit("irregularity", frame_id, knocker, flagged=True, detail=f"{knocker}'s layout: {error}"))
        melded = {c for g in groups for c in g}
        for seat, cards in enumerate(laid):
            mine = seat == self.knocker
            events.append(self._emit("layout", frame_id, self.players[seat], melds=tuple(groups) if mine else (),
                                     cards=tuple(c for c in cards if not (mine and c in melded))))
        self.phase = "over"
        try:
            if melds is None:
                raise WienerError("the knocker's layout holds no valid meld grouping")
            result = settle_round([[parse_card(c) for c in cards] for cards in laid], self.knocker, self.rules,
                                  knocker_melds=[m.pieces for m in melds])
        except WienerError as error:
            events.append(self._emit("hand_end", frame_id, flagged=True, needs_confirmation=True,
                                     detail=f"the round cannot be settled as laid: {error}"))
            return events
        events.append(self._emit("hand_end", frame_id, penalties=result.penalties, detail=result.explanation))
        return events


def _card_code(code: str) -> str:
    """The card of a reading; the tracker marks a second copy in one zone with a star."""
    return code.rstrip("*")
