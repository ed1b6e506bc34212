"""The main job: camera -> recognizer -> table coordinates -> tracker -> record -> dashboard.

One process, three kinds of thread, nothing that can fall behind:

- the camera reader (:class:`~hardware.cameras.FrameGrabber`) keeps only the newest frame, so a
  slow recognizer skips frames instead of queueing them;
- the worker (:class:`Pipeline`) takes the newest frame, reads it (:class:`TableReader`: markers,
  motion, cards, zones), feeds the tracker (:class:`HandSession`) and writes what the tracker
  commits to the record (:class:`Recorder`) *before* anything is shown; button presses, camera
  status changes and players' answers reach it through a bounded queue and the record;
- the web server (waitress) serves the dashboard, which follows the record live.

The same reading and tracking run without threads in :func:`replay_frames` (``rummyref replay``).

>>> sighting_position(CardObservation("7H", 0.9, ((10.0, 20.0),), ((0, 0), (40, 0), (40, 60), (0, 60))))
(20.0, 30.0)
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from engine.match import HandScore, MatchState, new_match
from engine.rules import GinRules
from engine.tracker import (BACK, CHOICES, NOTHING, UNREAD, Event, GinTracker, Sighting, TrackerError, TrackerOptions,
                            deck_confidence)
from engine.zones import CARD_HEIGHT_CM, CARD_WIDTH_CM, ZoneMap
from vision.observation import CardObservation

log = logging.getLogger(__name__)

MAX_TEXT = 200
"""What the record keeps of a tracker's explanation (the store refuses longer texts)."""
GEOMETRY_CHANGES_KEPT = 20
"""Calibration state changes the camera page lists (the newest ones)."""


class PipelineError(RuntimeError):
    """The pipeline cannot start as configured (no calibration, a match that does not fit, ...)."""


# --- one frame: where are which cards -------------------------------------------------------

@dataclass(frozen=True)
class FrameReading:
    """What one frame says: the cards in table cm with their zones, and whether the table is still.

    ``sightings`` is empty while the table cannot be read (no calibration, markers moved) or is
    not still: the tracker ignores moving frames, so they are not recognized at all.
    """

    frame_id: int
    observations: tuple[CardObservation, ...]
    sightings: tuple[Sighting, ...]
    still: bool
    geometry: str
    """The calibration state (``calibrated``, ``manual``, ``moved``, ...)."""
    recognized: bool = True
    """False for a still frame left unread because the tracker had already settled this still period."""

    def feed(self, session: "HandSession") -> list[Event]:
        """Give this reading to the hand's tracker (an unread still frame tells it nothing)."""
        if self.still and not self.recognized:
            return []
        return session.update(self.frame_id, self.sightings, self.still)


def sighting_position(observation: CardObservation) -> tuple[float, float]:
    """The image point that stands for a card: its outline's centre, else its read corner indices' mean."""
    points = observation.outline or observation.corners
    xs, ys = zip(*points)
    return sum(xs) / len(xs), sum(ys) / len(ys)


INDEX_TO_CENTRE_CM = ((0.5 - 0.085) * CARD_WIDTH_CM, (0.5 - 0.14) * CARD_HEIGHT_CM)
"""From a card's upper-left index to its centre, for a card lying upright as the camera sees it.
A card read at one index only is almost always one of a fan spread to the right, whose upper-left
indices show; without this its position would lie a third of a card off, splitting the fan."""


DIAGONAL_CM = (2 * INDEX_TO_CENTRE_CM[0], 2 * INDEX_TO_CENTRE_CM[1])
"""From a card's upper-left index to its lower-right one."""
CARD_DIAGONAL_CM = math.hypot(CARD_WIDTH_CM, CARD_HEIGHT_CM)
"""A card's two indices lie closer together than this (the recognizer pairs no indices further apart)."""
PAIR_TOLERANCE_CM = 1.2


def pair_corners(placed: Sequence[tuple[Sighting, bool]]) -> list[Sighting]:
    """One sighting per card from readings of single indices (``(sighting, single)``, positions as
    if each were an upper-left index): a reading a card's diagonal below and right of another is
    that card's lower-right index. The same card at both corners is one card; two different cards
    read at the corners of one card are one card too, and unless the second reading is weak
    (below 0.5) it is doubtful (the confidence of the weaker, the other as candidate): asked, not guessed.

    >>> upper, lower = Sighting("KH", 0.9, 40, 30, None), Sighting("AH", 0.6, 40 + DIAGONAL_CM[0], 30 + DIAGONAL_CM[1], None)
    >>> [(s.code, s.confidence, s.candidates) for s in pair_corners([(upper, True), (lower, True)])]
    [('KH', 0.6, ('AH',))]
    >>> [(s.code, s.confidence) for s in pair_corners([(upper, True), (replace(lower, code="KH"), True)])]
    [('KH', 0.9)]
    """
    singles = [s for s, single in placed if single]
    taken: set[int] = set()
    merged: dict[int, Sighting] = {}
    for i, upper in enumerate(singles):
        for j, lower in enumerate(singles):
            if i == j or i in taken or j in taken:
                continue
            if math.dist((lower.x - upper.x, lower.y - upper.y), DIAGONAL_CM) > PAIR_TOLERANCE_CM:
                continue
            strong, weak = sorted((upper, lower), key=lambda s: -s.confidence)
            if strong.code == weak.code or weak.confidence < 0.5:
                card = replace(upper, code=strong.code, confidence=strong.confidence,
                               candidates=tuple(dict.fromkeys(strong.candidates + ((weak.code,) if weak.code != strong.code else ()))))
            else:
                card = replace(upper, code=strong.code, confidence=weak.confidence, candidates=(weak.code,) + strong.candidates)
            merged[i] = card
            taken |= {i, j}
    out = [s for s, single in placed if not single]
    out += [merged.get(i, s) for i, s in enumerate(singles) if i not in taken or i in merged]
    return out


FELT_AT_CENTRE, CARD_AT_CENTRE = 0.2, 0.8
"""Shares of card colour around a centre (:func:`vision.presence.card_share`) below which it lies on
the felt, and above which on a card."""


def lower_index(sighting: Sighting, mask: np.ndarray) -> Sighting:
    """A card read at one index only is placed as if that were its upper-left index (a fan's cards
    show those); but the last card of a fan shows its lower-right index too, and the reader may read
    only that one. When felt lies where the card's centre would be and card where it would be from a
    lower-right index, it is one: the card lies a diagonal up and left (else it would pass for a card
    lying beside its fan, splitting its meld).

    >>> from vision.presence import PX_PER_CM
    >>> mask = np.zeros((300, 400), np.uint8); mask[int(40.5 * PX_PER_CM):int(49.3 * PX_PER_CM), int(25.9 * PX_PER_CM):int(32.1 * PX_PER_CM)] = 1
    >>> low = Sighting("JC", 0.95, 29.0 + DIAGONAL_CM[0], 44.9 + DIAGONAL_CM[1], None)
    >>> moved = lower_index(low, mask); round(moved.x, 1), round(moved.y, 1)
    (29.0, 44.9)
    >>> lower_index(replace(low, x=29.0, y=44.9), mask).x
    29.0
    """
    from vision.presence import PX_PER_CM, card_share

    x, y = sighting.x - DIAGONAL_CM[0], sighting.y - DIAGONAL_CM[1]
    if (card_share(mask, PX_PER_CM, sighting.x, sighting.y) < FELT_AT_CENTRE
            and card_share(mask, PX_PER_CM, x, y) > CARD_AT_CENTRE):
        return replace(sighting, x=x, y=y)
    return sighting


ARTWORK_MARGIN_CM = 0.4
"""How far beyond a card's edge a reading still counts as lying on its face (the card's turn and
the index positions are estimates)."""


def on_face(point: Sequence[float], upper: Sequence[float], lower: Sequence[float], margin: float = ARTWORK_MARGIN_CM) -> bool:
    """Whether a table point lies on the face of the card whose upper-left and lower-right indices
    lie at ``upper`` and ``lower`` (table cm): the card's centre and turn follow from its diagonal.

    >>> upper, lower = (40.0, 30.0), (40.0 + DIAGONAL_CM[0], 30.0 + DIAGONAL_CM[1])
    >>> on_face((40.0, 36.5), upper, lower), on_face((45.0, 31.0), upper, lower), on_face((48.0, 33.0), upper, lower)
    (True, True, False)
    """
    centre = ((upper[0] + lower[0]) / 2, (upper[1] + lower[1]) / 2)
    turn = math.atan2(lower[1] - upper[1], lower[0] - upper[0]) - math.atan2(DIAGONAL_CM[1], DIAGONAL_CM[0])
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    across = dx * math.cos(turn) + dy * math.sin(turn)
    down = -dx * math.sin(turn) + dy * math.cos(turn)
    return abs(across) <= CARD_WIDTH_CM / 2 + margin and abs(down) <= CARD_HEIGHT_CM / 2 + margin


def drop_artwork(observations: Sequence[CardObservation], to_table: Callable[[Any], Any]) -> list[CardObservation]:
    """Without readings that lie on the face of a card read at both diagonal corners, read less surely
    than that card: nothing there can be another card's index (the face covers it), so they are the
    card's own picture (court figures, pips) read as an index. The face is placed in table cm
    (``to_table`` maps image points there) from the two indices and the card's shape, not from the
    recognizer's outline, whose turn is an estimate from one index.

    >>> card = CardObservation("JD", 0.9, ((40.0, 30.0), (40.0 + DIAGONAL_CM[0], 30.0 + DIAGONAL_CM[1])), ((0, 0),) * 4)
    >>> same = lambda points: np.asarray(points, dtype=float)
    >>> [o.card for o in drop_artwork([card, CardObservation("4C", 0.4, ((39.6, 36.6),)),
    ...                                CardObservation("9C", 0.95, ((49.0, 30.0),))], same)]
    ['JD', '9C']
    """
    faces = [(o.confidence, *to_table(o.corners[:2])) for o in observations if o.outline is not None and len(o.corners) >= 2]
    kept = []
    for obs in observations:
        if obs.outline is None and obs.card != "BACK" and faces:
            point = to_table(obs.corners[:1])[0]
            if any(confidence > obs.confidence and on_face(point, upper, lower) for confidence, upper, lower in faces):
                continue
        kept.append(obs)
    return kept


MARKER_REACH_CM = 6.5
"""Half the diagonal of the largest marker ``rummyref markers`` prints (9 cm): a point this close
to a table corner may lie on its marker."""


def off_markers(observations: Sequence[CardObservation], calibration: Any,
                table_cm: tuple[float, float]) -> tuple[CardObservation, ...]:
    """The observations without face-down cards read on a corner marker: a black-and-white marker
    looks like a card's back to the detector, and a real face-down card lying there would hide the
    marker that the frame was just calibrated with.

    >>> from vision.calibration import Calibration
    >>> table = Calibration.from_corners([(0, 0), (800, 0), (800, 600), (0, 600)], 80, 60)
    >>> seen = [CardObservation("BACK", 0.6, ((12.0, 15.0),)), CardObservation("BACK", 0.6, ((400.0, 300.0),)),
    ...         CardObservation("7H", 0.9, ((12.0, 15.0),))]
    >>> [(o.card, o.corners[0]) for o in off_markers(seen, table, (80, 60))]
    [('BACK', (400.0, 300.0)), ('7H', (12.0, 15.0))]
    """
    observations = tuple(observations)
    backs = [o for o in observations if o.card == "BACK"]
    if not backs:
        return observations
    width, height = table_cm
    corners = np.array([(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)])
    at = calibration.to_table([sighting_position(o) for o in backs])
    on_marker = {id(o) for o, point in zip(backs, at)
                 if np.min(np.linalg.norm(corners - np.asarray(point), axis=1)) < MARKER_REACH_CM}
    return tuple(o for o in observations if id(o) not in on_marker)


class TableReader:
    """Turns frames into :class:`FrameReading` values: calibration, motion, then (still frames) cards.

    ``calibrator`` is a :class:`vision.calibration.Calibrator` (markers, or corners set by hand).
    ``sure`` is the confidence the tracker's options take a reading at (:attr:`TrackerOptions.min_confidence`);
    the tracker of an untaught deck asks up to a higher bar (:func:`engine.tracker.deck_confidence`),
    on pile readings this reader passes on as read.
    ``jokers``: the game is played with jokers (Wiener Rummy), so a ``JK`` reading is a joker; in a
    game without them (Gin) no card can be one, and it is taken as a face-down card.
    """

    def __init__(self, recognizer: Any, zones: ZoneMap, calibrator: Any, motion: Any | None = None,
                 sure: float = TrackerOptions().min_confidence, jokers: bool = False) -> None:
        from vision.motion import MotionDetector

        self.recognizer = recognizer
        self.sure = sure
        self.jokers = jokers
        self.zones = zones
        self.pile_watch = PileWatch(self)
        self.calibrator = calibrator
        self.motion = motion or MotionDetector()
        self.frames = 0
        self.recognized = 0
        self.geometry = None
        """The newest :class:`vision.calibration.CalibrationReport` (None before the first frame)."""

    def read(self, frame_id: int, image: np.ndarray, wanted: bool = True) -> FrameReading:
        """Read one frame; a still frame is recognized only if ``wanted`` (the tracker's
        :attr:`~engine.tracker.GinTracker.needs_frames`): recognition is most of the cost."""
        self.frames += 1
        report = self.geometry = self.calibrator.update(image)
        still = self.motion.update(image).still and report.usable
        if not still:
            self.pile_watch.moved()
            return FrameReading(frame_id, (), (), False, report.state)
        if not wanted:
            return FrameReading(frame_id, (), (), True, report.state, recognized=False)
        calibration = report.calibration
        observations = off_markers(self.recognizer.recognize(image, lambda point: calibration.image_length(point, CARD_DIAGONAL_CM)),
                                   calibration, (self.zones.width, self.zones.height))
        self.recognized += 1
        from vision.presence import table_view

        view = table_view(image, report.calibration.homography, (self.zones.width, self.zones.height))
        sightings = self.pile_watch.check(view, list(self.sightings(observations, report.calibration, view)))
        return FrameReading(frame_id, observations, tuple(sightings), True, report.state)

    def sightings(self, observations: Sequence[CardObservation], calibration: Any,
                  view: np.ndarray | None = None) -> tuple[Sighting, ...]:
        """The recognizer's observations as the tracker's sightings: table cm and zones; with the
        table's top-down ``view`` (:func:`vision.presence.table_view`) also the cards that lie in the
        discard pile or a player's area unread (:data:`~engine.tracker.UNREAD`), to be asked about."""
        observations = drop_artwork(observations, calibration.to_table)
        points = [sighting_position(o) for o in observations]
        table = calibration.to_table(points) if points else []
        placed = []
        for obs, (x, y) in zip(observations, table):
            single = obs.outline is None and obs.card != "BACK"
            if single:
                x, y = x + INDEX_TO_CENTRE_CM[0], y + INDEX_TO_CENTRE_CM[1]  # see INDEX_TO_CENTRE_CM
            code = obs.card if obs.card != "JK" or self.jokers else BACK
            placed.append((Sighting(code, float(obs.confidence), float(x), float(y), None), single))
        mask = None
        if view is not None:
            from vision.presence import card_mask

            mask = card_mask(view)
        singles = {id(s) for s, single in placed if single}
        sightings = []
        for s in pair_corners(placed):
            if id(s) in singles and mask is not None:  # a single index, not paired with the card's other one
                s = lower_index(s, mask)
            zone = self.zones.zone_at(s.x, s.y)
            if s.code != "BACK" or zone:
                sightings.append(replace(s, zone=zone.name if zone else None))
        if mask is not None:
            marks = [tuple(map(float, point)) for point in table]  # where indices were read (single ones uncorrected)
            sightings += self.unread(mask, sightings, marks)
        return tuple(self.pile_top(sightings))

    def pile_top(self, sightings: list[Sighting], doubt: bool = False) -> list[Sighting]:
        """The discard pile shows one card, its top: readings there that are all unsure (a card read
        weakly at one corner, then as another card at the other, or its picture read as an index)
        are one unread card at the pile's place, with what was read as the candidates and a
        face-down card (a knock). Sure readings stay as they are (a card under the top may show
        beside it), unless the pile is in ``doubt``."""
        pile = [s for s in sightings if s.zone is not None and self.zones.named(s.zone).kind == "discard"]
        if not pile or (not doubt and any(s.confidence >= self.sure for s in pile)):
            return sightings
        zone = self.zones.named(pile[0].zone)
        read = sorted((s for s in pile if s.code != UNREAD), key=lambda s: -s.confidence)
        candidates = tuple(dict.fromkeys(c for s in read for c in (s.code,) + s.candidates if c != UNREAD))
        if BACK not in candidates[:5]:  # a face-down card (a knock) is always one answer
            candidates = candidates[:5] + (BACK,)
        top = Sighting(UNREAD, 0.0, *zone.centre, zone.name, candidates)
        return [s for s in sightings if s not in pile] + [top]

    def unread(self, mask: np.ndarray, sightings: Sequence[Sighting], marks: Sequence[tuple[float, float]] = ()) -> list[Sighting]:
        """A sighting of each card lying unread in the discard pile or a player's area (``mask``: the
        :func:`~vision.presence.card_mask` of the table's top-down view at :data:`~vision.presence.PX_PER_CM`;
        ``marks``: the table points where indices were read)."""
        from vision.presence import PX_PER_CM, unread_cards

        found = []
        for zone in self.zones.zones:
            if zone.kind not in ("discard", "layout"):
                continue
            read = [(s.x, s.y) for s in sightings if s.zone == zone.name]
            if zone.kind == "discard" and read:
                continue  # the pile shows one card, and something was read on it
            # A pile read nowhere in its zone is unread, whatever was read on its patch: a reading whose
            # estimated centre fell outside the zone would otherwise hide the top card.
            pile_marks = () if zone.kind == "discard" else marks
            for x, y in unread_cards(mask, PX_PER_CM, read, zone.rect, rows=zone.kind == "layout", marks=pile_marks):
                if self.zones.zone_at(x, y) is zone:
                    found.append(Sighting(UNREAD, 0.0, x, y, zone.name))
        return found


class PileWatch:
    """Catches a discard read as the card it covers: the pile's picture changes after the table
    moved, yet the card read on top is the one read there before (a new card misread as the old
    top, a discard that would go unseen and put the turn order out). Then the pile is in doubt
    for that still period: it becomes one unread card, asked about (:meth:`TableReader.pile_top`).
    """

    def __init__(self, reader: "TableReader") -> None:
        self.reader = reader
        self.before: tuple[np.ndarray, frozenset[str]] | None = None
        """The pile's picture and the cards read on it (surely, or weakly as an unread card's
        candidates: the players may have named it one of them), in the last still frame read."""
        self.doubt: bool | None = None
        """Whether the pile is in doubt in this still period (None: not decided yet)."""

    def moved(self) -> None:
        self.doubt = None

    def check(self, view: np.ndarray, sightings: list[Sighting]) -> list[Sighting]:
        from vision.presence import PX_PER_CM, similar

        zone = self.reader.zones.of_kind("discard")
        x0, y0, x1, y1 = (int(round(v * PX_PER_CM)) for v in zone.rect)
        picture = view[max(y0, 0):y1, max(x0, 0):x1]
        pile = [s for s in sightings if s.zone == zone.name]
        sure = frozenset(s.code for s in pile if s.confidence >= self.reader.sure)
        if self.doubt is None:
            self.doubt = bool(self.before is not None and sure and sure <= self.before[1]
                              and not similar(picture, self.before[0]))
        self.before = (picture, sure | {c for s in pile if s.code == UNREAD for c in s.candidates})
        return self.reader.pile_top(sightings, doubt=True) if self.doubt else sightings


def make_calibrator(table_cm: tuple[float, float], corners: Sequence[Sequence[float]] | None = None,
                    corners_size: tuple[int, int] | None = None):
    """A calibrator from the markers, or fixed by four image corners tapped on a frame of
    ``corners_size`` (a moved camera then goes unnoticed)."""
    from vision.calibration import Calibrator

    calibrator = Calibrator(*table_cm)
    if corners is not None:
        calibrator.set_corners(corners, corners_size)
        log.warning("table corners set by hand: without markers a moved camera cannot be noticed")
    return calibrator


# --- the hands of a match ------------------------------------------------------------------

class TrackedHands(ABC):
    """What every game's session shares: the tracker of the hand (or round) being played, fed the
    frames once the last hand is cleared from the table, the players' answers and the knock button.
    Subclasses start each hand's tracker and say what a settled hand does (:meth:`_settle`)."""

    hand: int
    tracker: GinTracker
    zones: ZoneMap
    clearing: bool
    ended: tuple[int, GinTracker] | None

    def _cleared(self, sightings: Sequence[Sighting]) -> bool:
        """Nothing of the last hand shows: no card in a player's area, no face-down discard."""
        seats, pile = set(self.tracker.seat_zones), self.tracker.discard_zone
        return not any(s.zone in seats or (s.zone == pile and s.code == BACK) for s in sightings)

    @property
    def waiting(self) -> bool:
        """The hand is over but has no result: the players must record it."""
        return self.tracker.phase == "over"

    def update(self, frame_id: int, sightings: Sequence[Sighting], still: bool) -> list[Event]:
        if self.clearing:
            if not (still and self._cleared(sightings)):
                return []
            self.clearing = False
        return self._settle(self.tracker.update(frame_id, sightings, still))

    def confirm(self, seq: int, code: str) -> list[Event]:
        """The players' answer to question ``seq``; an answer the tracker no longer waits for (the card
        was covered or taken first) is logged and dropped, never fatal."""
        try:
            return self._settle(self.tracker.confirm(seq, code))
        except TrackerError as error:
            log.warning("answer %s to question #%d not used: %s", code, seq, error)
            return []

    def press_knock(self, frame_id: int) -> list[Event]:
        """The knock button: a knock by the player to move."""
        player = self.tracker.players[self.tracker.turn.player]
        return self._settle(self.tracker.press_knock(player, frame_id))

    @abstractmethod
    def _settle(self, events: list[Event]) -> list[Event]:
        """What the session does when ``events`` settle the hand; returns them."""

    @staticmethod
    def _settled(events: Sequence[Event]) -> Event | None:
        """The event that ends the hand with a result the tracker is sure of, if any."""
        return next((e for e in events if e.kind == "hand_end" and not e.needs_confirmation
                     and (e.result is not None or e.penalties is not None)), None)

    def owner(self, events: Sequence[Event]) -> tuple[int, GinTracker]:
        """The hand (number, tracker) that committed ``events``: the one just ended if they end it."""
        if self.ended is not None and self._settled(events) is not None:
            return self.ended
        return self.hand, self.tracker


class HandSession(TrackedHands):
    """The tracker of the Gin hand being played; when a hand ends with a result, the next one starts
    with the dealer the match rules name (the loser deals, the same dealer after no game).

    A hand that ends without a result the tracker could settle stays open (``waiting``): the
    players record it on the dashboard, then :meth:`hand_recorded` starts the next one. A hand
    the players record while the tracker is still following it (the camera lost track) ends it too:
    the record, not the tracker, says which hand is being played.

    After a hand, the next one is tracked from the first still frame without cards in the players'
    areas and without a face-down card on the discard pile: until the players gather the cards, the
    table still shows the last hand, which the new hand's tracker would read as a knock and layouts.

    >>> session = HandSession(("Ann", "Ben"), "Ben", options=TrackerOptions(window=1, quorum=1))
    >>> session.hand, session.tracker.dealer
    (1, 'Ben')
    """

    def __init__(self, players: tuple[str, str], first_dealer: str, rules: GinRules = GinRules(),
                 zones: ZoneMap | None = None, options: TrackerOptions = TrackerOptions()) -> None:
        self.players, self.rules, self.zones, self.options = players, rules, zones, options
        self.match: MatchState = new_match(players, first_dealer, rules)
        self.hand = 0
        self.tracker: GinTracker | None = None
        self.tracker = self._next_tracker()
        self.ended: tuple[int, GinTracker] | None = None
        """The hand number and tracker of the hand that ended last."""
        self.clearing = False  # the first hand is tracked from the first frame
        """The last hand still lies on the table: the new one is not tracked yet."""

    def _next_tracker(self) -> GinTracker:
        self.hand += 1
        self.clearing = True
        tracker = GinTracker(self.players, self.match.next_dealer, self.rules, self.zones, self.options)
        if self.tracker is not None:  # what the players named for cards the camera cannot read holds for this deck
            tracker.named, tracker.misread = self.tracker.named, self.tracker.misread
        return tracker

    def hand_recorded(self, result: HandScore) -> None:
        """A hand the players recorded themselves ends the open hand."""
        self.match = self.match.record(result)
        self.tracker = self._next_tracker()

    def undo(self) -> None:
        """The last recorded hand was undone: the next hand's dealer follows from the hands before it."""
        if self.match.outcomes:
            self.match = self.match.undo()
            self.hand -= 1
            self.tracker = self._next_tracker()

    def _settle(self, events: list[Event]) -> list[Event]:
        end = self._settled(events)
        if end is not None and not self.match.finished:
            self.match = self.match.record(end.result)
            self.ended = (self.hand, self.tracker)
            self.tracker = self._next_tracker()
        return events


def event_json(event: Event, hand: int) -> dict[str, Any]:
    """A tracker event as one JSON object (``rummyref replay --json``).

    >>> event_json(Event(3, "reading", 40, cards=("7H",), needs_confirmation=True, candidates=("7H", "7D")), 1)
    {'hand': 1, 'seq': 3, 'kind': 'reading', 'frame': 40, 'player': None, 'cards': ['7H'], 'melds': [], 'stock': None, 'inferred': False, 'needs_confirmation': True, 'candidates': ['7H', '7D'], 'flagged': False, 'detail': ''}
    """
    data: dict[str, Any] = {
        "hand": hand, "seq": event.seq, "kind": event.kind, "frame": event.frame_id, "player": event.player,
        "cards": list(event.cards), "melds": [list(m) for m in event.melds], "stock": event.stock,
        "inferred": event.inferred, "needs_confirmation": event.needs_confirmation,
        "candidates": list(event.candidates), "flagged": event.flagged, "detail": event.detail,
    }
    if event.result is not None:
        data["result"] = event.result.to_dict()
    if event.ruling is not None:
        data["ruling"] = event.ruling.rule
    return data


# --- the record ----------------------------------------------------------------------------

def reading_id(hand: int, seq: int) -> str:
    """The record's id of the question a tracker event ``seq`` of hand ``hand`` asks.

    >>> reading_id(2, 14)
    'h2-e14'
    """
    return f"h{hand}-e{seq}"


def reading_choices(event: Event) -> list[str]:
    """What the dashboard offers for a doubtful card: the tracker's candidates, then the same rank
    in the other suits (the usual misreading), up to :data:`~engine.tracker.CHOICES` cards, and
    last "no card here" (:data:`~engine.tracker.NOTHING`): the camera may have read a card where
    none lies.

    >>> reading_choices(Event(1, "reading", 5, cards=("7H",), needs_confirmation=True, candidates=("7H",)))
    ['7H', '7S', '7D', '7C', 'NONE']

    A card seen but not read has only the tracker's candidates (none: the players name it with the card picker).

    >>> reading_choices(Event(1, "reading", 5, cards=("UNREAD",), needs_confirmation=True))
    ['NONE']
    """
    choices = list(dict.fromkeys(event.candidates or event.cards))
    read = (event.cards or event.candidates)[0]
    if read == UNREAD:  # nothing was read there: only the candidates the tracker has, if any
        choices = [c for c in choices if c != UNREAD]
    elif read not in (BACK, "JK"):  # a joker has no suit to misread
        rank = read[:-1]
        choices += [rank + suit for suit in "SHDC" if rank + suit not in choices]
    return [c for c in choices if c != NOTHING][:CHOICES] + [NOTHING]


@dataclass
class Inbox:
    """What players wrote on the dashboard since the recorder last looked, in the order they wrote it:
    ``("answer", (hand, seq, answer))`` to a question asked, ``("hand", result)`` for a hand (round)
    they recorded themselves (Gin: a :class:`~engine.match.HandScore`; tile Rummy: the stored
    result), ``("turn", player)`` for whose turn begins (the turn clock)."""

    items: list[tuple[str, Any]] = field(default_factory=list)

    def _of(self, kind: str) -> list[Any]:
        return [item for what, item in self.items if what == kind]

    @property
    def answers(self) -> list[tuple[int, int, str]]:
        return self._of("answer")

    @property
    def hands(self) -> list[Any]:
        return self._of("hand")


class Recorder:
    """Writes what the tracker commits into the match record, with evidence, then tells the dashboard.

    Everything goes through :func:`webui.events.record`, the same validation the web forms and the
    JSON API use. ``notify`` wakes the dashboard's live streams (in the same process).
    """

    def __init__(self, store: Any, match_id: str, notify: Callable[[], None] | None = None, actor: str = "camera") -> None:
        self.store, self.match_id, self.actor = store, match_id, actor
        self.notify = notify or (lambda: None)
        self._asked: dict[str, tuple[int, int]] = {}
        self._seen = store.last_event_id(match_id)
        self._camera_state: str | None = None

    def snapshot(self, image: np.ndarray, observations: Sequence[CardObservation | dict[str, Any]],
                 zones: Sequence[dict[str, Any]] = (), doubts: Sequence[dict[str, Any]] = ()) -> str:
        """Store the frame as the camera took it, with what was read (card positions, or their JSON;
        ``zones`` and the places asked about, ``doubts``, as image polygons) beside it for the
        dashboard to draw over the photo; returns its sha256."""
        import cv2

        from webui.evidence import make_overlay

        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        if not ok:
            raise PipelineError("the frame could not be encoded as JPEG evidence")
        overlay = make_overlay(image.shape[1], image.shape[0],
                               [o if isinstance(o, dict) else o.to_json() for o in observations], zones, doubts)
        return self.store.put_snapshot(jpeg.tobytes(), overlay)

    def _write(self, kind: str, payload: dict[str, Any]) -> Any:
        from webui.events import InvalidInput, record

        try:
            return record(self.store, self.match_id, kind, payload, self.actor)
        except InvalidInput as error:
            # The record refuses it (a hand after the match ended, ...): keep the reason, never crash.
            log.warning("the record refused a %s event: %s", kind, error)
            if kind != "play":
                self._write("play", {"kind": "irregularity", "flagged": True,
                                     "detail": f"not recorded as {kind}: {error}"[:MAX_TEXT]})
            return None

    def record(self, events: Sequence[Event], hand: int, tracker: GinTracker, evidence: str | None) -> int:
        """Write ``events`` of hand ``hand`` (tracked by ``tracker``); returns how many were written."""
        written = 0
        for event in events:
            written += self._record_one(event, hand, tracker, evidence)
        if written:
            self.notify()
        return written

    def _record_one(self, event: Event, hand: int, tracker: GinTracker, evidence: str | None) -> int:
        detail = event.detail[:MAX_TEXT]
        if event.needs_confirmation and event.kind == "move":     # Wiener: which move a player made, or who knocked
            return self.propose(hand, event.seq, detail, list(event.candidates), evidence)
        if event.needs_confirmation and event.kind == "reading":
            prompt = f"Which card is this? {detail}"[:MAX_TEXT]
            # The card lying there may be none of the likely ones (or nothing was read at all): the
            # players can name any card with the picker.
            return self.propose(hand, event.seq, prompt, reading_choices(event), evidence, picker="cards")
        if event.kind == "discard":
            written = self._write("discard", {"player": event.player, "card": event.cards[0]})
            seat = tracker.players.index(event.player)
            self._write("table", {"stock_count": event.stock, "turn": tracker.players[(seat + 1) % len(tracker.players)]})
            return bool(written)
        if event.kind == "hand_end" and event.penalties is not None and not event.needs_confirmation:
            return self._record_round(tracker, detail, evidence)
        if event.kind == "hand_end" and event.result is not None and not event.needs_confirmation:
            knocker = None if tracker.knocker is None else tracker.players[tracker.knocker]
            result = {"kind": event.result.kind, "winner": event.result.winner, "knocker": knocker,
                      "points": event.result.points, "explanation": detail,
                      "rule": event.ruling.rule if event.ruling else ""}
            return bool(self._write("hand_recorded", {"dealer": tracker.dealer, "input": {"source": "camera", "hand": hand},
                                                       "result": result, "evidence": evidence}))
        if event.stock is not None and event.kind in ("pickup", "stock_draw"):
            self._write("table", {"stock_count": event.stock, "turn": event.player})
        return bool(self._write("play", {"kind": event.kind, "player": event.player, "cards": list(event.cards),
                                         "melds": [list(m) for m in event.melds], "flagged": event.flagged,
                                         "detail": detail, "evidence": evidence}))

    def _record_round(self, tracker: GinTracker, detail: str, evidence: str | None) -> int:
        """A Wiener round the tracker settled, recorded the way the dashboard scores one: from the
        cards each player laid out, settled by the engine (:func:`webui.events.score_hand`)."""
        from webui.events import InvalidInput, score_hand

        laid = {event.player: [c for meld in event.melds for c in meld] + list(event.cards)
                for event in tracker.events if event.kind == "layout"}
        form = {"hands": laid, "knocker": tracker.players[tracker.knocker], "dealer": tracker.dealer}
        try:
            score_hand(self.store, self.match_id, form, self.actor, evidence=evidence)
        except InvalidInput as error:
            log.warning("the record refused the round: %s", error)
            self._write("play", {"kind": "irregularity", "flagged": True, "evidence": evidence,
                                 "detail": f"round not recorded ({detail}): {error}; record it by hand"[:MAX_TEXT]})
            return 0
        return 1

    def _write_and_tell(self, kind: str, payload: dict[str, Any]) -> bool:
        """Write one event and, where the record took it, tell the dashboard; returns whether it did."""
        written = bool(self._write(kind, payload))
        if written:
            self.notify()
        return written

    def turn(self, player: str) -> bool:
        """Write that ``player``'s turn begins (the turn clock restarts on every phone; tile Rummy's turn button)."""
        return self._write_and_tell("table", {"turn": player})

    def play(self, payload: dict[str, Any]) -> bool:
        """Write one ruling of the camera as a ``play`` (tile Rummy's turns: :mod:`rummyref.tile_pipeline`)."""
        return self._write_and_tell("play", payload)

    def propose(self, hand: int, seq: int, prompt: str, choices: Sequence[str], evidence: str | None,
                picker: str | None = None) -> bool:
        """Ask the players question ``seq`` of hand (or turn) ``hand`` on the dashboard; the answer
        comes back through :meth:`inbox`. ``picker`` ``tiles`` / ``cards``: any tile of the set / any
        card answers it too."""
        reading = reading_id(hand, seq)
        self._asked[reading] = (hand, seq)
        return bool(self._write("reading_proposed", {"reading": reading, "prompt": prompt[:MAX_TEXT],
                                                      "choices": list(choices), "evidence": evidence}
                                | ({"picker": picker} if picker else {})))

    def camera(self, status: Any) -> None:
        """Record a camera status change (``hardware.cameras.CameraStatus``); repeats of a state are skipped."""
        if status.state == self._camera_state:
            return
        self._camera_state = status.state
        self._write_and_tell("camera", {"state": status.state, "camera": status.camera, "reason": status.reason[:MAX_TEXT]})

    def inbox(self) -> Inbox:
        """What players wrote since the last call (:class:`Inbox`)."""
        inbox = Inbox()
        for event in self.store.events(self.match_id, after=self._seen):
            self._seen = event.id
            if event.kind == "reading_confirmed" and event.payload["reading"] in self._asked:
                hand, seq = self._asked.pop(event.payload["reading"])
                inbox.items.append(("answer", (hand, seq, event.payload["choice"])))
            elif event.kind == "hand_recorded" and event.actor != self.actor:
                result = event.payload["result"]
                points = result.get("points")   # Gin: the winner's; tile Rummy: every player's; Wiener: none
                inbox.items.append(("hand", HandScore(result.get("winner"), points, result["kind"])
                                    if isinstance(points, int) else result))
            elif event.kind == "table" and "turn" in event.payload and event.actor != self.actor:
                inbox.items.append(("turn", event.payload["turn"]))
        return inbox

    def void_last_hand(self, reason: str) -> bool:
        """The undo button: the last counted hand is undone (a new event; nothing is deleted)."""
        from webui.state import replay

        counted = replay(self.store.events(self.match_id)).counted_hands
        if not counted:
            return False
        written = self._write("hand_voided", {"hand": counted[-1].hand_id, "reason": reason})
        if written:
            self.notify()
        return bool(written)


# --- the threaded pipeline -----------------------------------------------------------------

@dataclass(frozen=True)
class PipelineConfig:
    """How ``rummyref run`` reads the table.

    ``corners`` (four image points, clockwise from top left) replace the markers; ``corners_size``
    is the frame size they were tapped on (the camera's frames are matched to it, see
    :meth:`vision.calibration.Calibrator.set_corners`).
    ``frame_size`` is asked of cameras that can be set (picamera2, USB).
    """

    camera: str
    players: tuple[str, ...]
    """Gin: two; Wiener Rummy: 2-6 and tile Rummy: 2-4, in seat order clockwise."""
    first_dealer: str | None = None
    rules: GinRules = GinRules()
    zones: ZoneMap | None = None
    table_cm: tuple[float, float] = (80.0, 60.0)
    corners: tuple[tuple[float, float], ...] | None = None
    corners_size: tuple[int, int] | None = None
    threads: int = 1
    frame_size: tuple[int, int] = (1280, 720)
    tracker: TrackerOptions = TrackerOptions()
    model_dir: Path | None = None
    deck: Any = None
    """A learned deck (:class:`vision.decks.DeckProfile`) the recognizer reads with, or None."""
    layout_confidence: float | None = None
    """Wiener Rummy: layout readings below this are asked; None: by the deck
    (:func:`engine.wiener_tracker.layout_confidence`: 0.9 with a learned deck, 0.98 without)."""
    play_confidence: float | None = None
    """Readings below this are asked (and below ``tracker``'s own bar): in Gin every reading, in Wiener
    Rummy those before the knock (the layouts have ``layout_confidence``); None: by the deck the
    recognizer reads with (:func:`engine.tracker.deck_confidence`: 0.8 with a learned deck, 0.98 without)."""
    tiles: str = "ravensburger"
    """Tile Rummy (:class:`rummyref.tile_pipeline.TilePipeline`): the tile set (``engine.cards.PALETTES``)."""
    poll_s: float = 0.25
    """How long the worker waits for a frame before it looks at buttons and answers again."""


@dataclass
class PipelineStats:
    frames: int = 0
    read: int = 0
    events: int = 0
    camera: str = "connecting"
    errors: list[str] = field(default_factory=list)


class Pipeline:
    """Camera, worker and record for one match; :meth:`start`, then :meth:`stop` (or wait for a finite source to end).

    ``open_store`` opens the record (an SQLite connection belongs to one thread: the worker opens
    its own). ``on_events`` is called with each batch of tracker events after the batch is in the record,
    ``on_frame`` with each frame's number after the frame is read; both on the worker thread.
    """

    reads = "cards"
    """What the referee reads (:class:`webui.camera.TableCamera`): the card recognizer."""
    jokers = False
    """Whether the game is played with jokers: a ``JK`` reading is then a joker (Gin: a face-down card)."""

    def __init__(self, config: PipelineConfig, open_store: Callable[[], Any], match_id: str, *, recognizer: Any = None,
                 notify: Callable[[], None] | None = None, on_events: Callable[[list[Event]], None] | None = None,
                 on_camera: Callable[[Any], None] | None = None, camera_opener: Callable[..., Any] | None = None,
                 on_frame: Callable[[int], None] | None = None) -> None:
        self.config = config
        self._build(recognizer)
        self._open_store, self.match_id, self._notify = open_store, match_id, notify
        self.recorder: Recorder | None = None
        self.on_events = on_events or (lambda events: None)
        self.on_camera = on_camera or (lambda status: None)
        self.on_frame = on_frame or (lambda frame_id: None)
        self.stats = PipelineStats()
        self._stop = threading.Event()
        self._commands: queue.Queue[str] = queue.Queue(maxsize=16)
        self._statuses: queue.Queue[Any] = queue.Queue(maxsize=64)
        self._camera_opener = camera_opener
        self.grabber = None
        self._last_image: np.ndarray | None = None
        self._new_corners: list[tuple[Sequence[Sequence[float]] | None, tuple[int, int] | None]] = []
        self._corners_in_use = (config.corners, config.corners_size)
        self._geometry_changes: deque[dict[str, Any]] = deque(maxlen=GEOMETRY_CHANGES_KEPT)
        self._worker = threading.Thread(target=self._run, name="pipeline-worker", daemon=True)
        self.finished = threading.Event()

    def _build(self, recognizer: Any) -> None:
        """The card reader, the game session (:meth:`_new_session`) with the bars of the deck it reads,
        and the reader on the session's zones."""
        config = self.config
        if recognizer is None:
            from vision.recognizer import Recognizer

            recognizer = Recognizer(config.model_dir, threads=config.threads, deck=config.deck)
        self.deck_learned = getattr(recognizer, "deck", None) is not None
        """Whether the recognizer reads with the players' deck learned (``rummyref learn-deck``)."""
        self.play_confidence = (deck_confidence(self.deck_learned, config.tracker) if config.play_confidence is None
                                else config.play_confidence)
        """The bar a reading of play must reach not to be asked about (:attr:`PipelineConfig.play_confidence`)."""
        self.session = self._new_session()
        self.zones = self.session.zones
        self.reader = TableReader(recognizer, self.zones, make_calibrator(config.table_cm, config.corners,
                                                                          config.corners_size),
                                  sure=config.tracker.min_confidence, jokers=self.jokers)

    def _new_session(self) -> TrackedHands:
        """Gin: two players in the Gin zones, one :class:`HandSession` for the match."""
        from engine.zones import default_zones

        config = self.config
        zones = config.zones or default_zones("gin", 2, *config.table_cm)
        return HandSession(config.players, config.first_dealer or config.players[1], config.rules, zones,
                           config.tracker.asking_below(self.play_confidence))

    # inputs from other threads: only queued here, handled by the worker
    def press(self, button: str) -> None:
        """A button (``knock`` or ``undo``) from GPIO; a flood of presses beyond the queue is dropped."""
        try:
            self._commands.put_nowait(button)
        except queue.Full:
            log.warning("button %s ignored: too many presses waiting", button)

    # the dashboard's camera page (``webui.camera.TableCamera``): the newest frame, corners set by hand
    def latest_image(self) -> np.ndarray | None:
        """The frame the worker read last (the same array; callers must not change it)."""
        return self._last_image

    def use_corners(self, corners: Sequence[Sequence[float]] | None, size: tuple[int, int] | None = None) -> None:
        """Read the table through these four image corners, tapped on a frame of ``size``, from now on
        (None: from the markers again)."""
        self._new_corners.append((corners, size))  # list.append is atomic: the worker takes it up
        self._corners_in_use = (corners, size)

    def corners_in_use(self) -> dict[str, Any] | None:
        """The corners set by hand the table is read through (``run --corners``, or tapped on the
        camera page), as the camera page shows them; None: the markers."""
        corners, size = self._corners_in_use
        if corners is None:
            return None
        return {"corners": [[float(x), float(y)] for x, y in corners], "size": list(size) if size else None}

    @property
    def deck_name(self) -> str | None:
        """The learned deck the recognizer reads with, or None: the shipped recognizer alone."""
        deck = self.reader.recognizer.deck
        return None if deck is None else deck.name

    def geometry_status(self) -> dict[str, Any] | None:
        """The table geometry as the referee reads it: the newest calibration ``state`` and
        ``message``, and its last changes (``changes``, oldest first: ``state``, ``message``,
        ``frame``, ``at`` in Unix seconds); None before the first frame."""
        report = self.reader.geometry
        if report is None:
            return None
        return {"state": report.state, "message": report.message, "changes": list(self._geometry_changes)}

    def _on_status(self, status: Any) -> None:
        try:
            self._statuses.put_nowait(status)
        except queue.Full:
            pass  # the newest state comes again with the next change; the reader never blocks

    def start(self) -> "Pipeline":
        from hardware.cameras import FrameGrabber, open_reconnecting

        opener = self._camera_opener or open_reconnecting
        defaults = {"size": self.config.frame_size} if self.config.camera.split(":")[0] in ("usb", "picamera2") else {}
        camera = opener(self.config.camera, on_status=self._on_status, stop=self._stop, **defaults)
        self.grabber = FrameGrabber(camera).start()
        self._worker.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop reading, finish the frame in hand, and close the camera; idempotent."""
        self._stop.set()
        if self.grabber is not None:
            self.grabber.stop()
        if self._worker.is_alive() and self._worker is not threading.current_thread():
            self._worker.join(timeout)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the worker to end (a finite source played out, or stopped)."""
        return self.finished.wait(timeout)

    def _run(self) -> None:
        from hardware.cameras import CameraClosed, CameraError, EndOfStream

        store = self._open_store()
        self.recorder = Recorder(store, self.match_id, self._notify)
        try:
            while not self._stop.is_set():
                self._handle_inputs()
                try:
                    frame = self.grabber.latest(timeout=self.config.poll_s)
                except (EndOfStream, CameraClosed):
                    break
                except CameraError as error:
                    self.stats.errors.append(str(error))
                    log.error("camera failed: %s", error)
                    break
                if frame is not None:
                    self._process(frame.number, frame.image)
            self._handle_inputs()
        except Exception as error:  # noqa: BLE001 - the dashboard keeps running and says why
            log.exception("the pipeline stopped")
            self.stats.errors.append(f"{type(error).__name__}: {error}")
        finally:
            store.close()
            self.finished.set()

    def _handle_inputs(self) -> None:
        while self._new_corners:
            self.reader.calibrator = make_calibrator(self.config.table_cm, *self._new_corners.pop(0))
        while True:
            try:
                status = self._statuses.get_nowait()
            except queue.Empty:
                break
            self.stats.camera = status.state
            self.recorder.camera(status)
            self.on_camera(status)
        self._take_record(self.recorder.inbox())
        self._take_buttons()

    def _take_record(self, inbox: Inbox) -> None:
        """What the players wrote: answers to this hand's questions, hands they recorded themselves."""
        for hand, seq, card in inbox.answers:
            if hand == self.session.hand:
                self._commit(self.session.confirm(seq, card), None)
        self._hands_recorded(inbox.hands)

    def _hands_recorded(self, results: list[Any]) -> None:
        """Hands the players recorded themselves end the open hand (Gin: the session keeps the match)."""
        for result in results:
            self.session.hand_recorded(result)

    def _hand_undone(self) -> None:
        """The undo button voided the last hand in the record."""
        self.session.undo()

    def _take_buttons(self) -> None:
        while True:
            try:
                button = self._commands.get_nowait()
            except queue.Empty:
                break
            if button == "knock":
                self._commit(self.session.press_knock(self.stats.frames), None)
            elif button == "undo" and self.recorder.void_last_hand("undo button"):
                self._hand_undone()

    def _process(self, frame_id: int, image: np.ndarray) -> None:
        self.stats.frames += 1
        self._last_image = image
        self.stats.read += self._read_frame(frame_id, image)
        self._note_geometry(frame_id)
        self.on_frame(frame_id)

    def _read_frame(self, frame_id: int, image: np.ndarray) -> bool:
        """Read one frame into the session and commit what it brings; returns whether it was read."""
        reading = self.reader.read(frame_id, image, self.session.tracker.needs_frames)
        self._commit(reading.feed(self.session), (image, reading.observations))
        return reading.recognized and reading.still

    def _note_geometry(self, frame_id: int) -> None:
        report = self.reader.geometry
        last = self._geometry_changes[-1] if self._geometry_changes else None
        if last is None or last["state"] != report.state:  # messages vary frame by frame (pixels moved)
            self._geometry_changes.append({"state": report.state, "message": report.message, "frame": frame_id,
                                           "at": round(time.time(), 1)})

    def _commit(self, events: list[Event], frame: tuple[np.ndarray, Sequence[CardObservation]] | None) -> None:
        if not events:
            return
        hand, tracker = self.session.owner(events)
        from webui.evidence import zone_outlines

        zones = zone_outlines(self.zones, self.reader.calibrator.calibration)
        evidence = self.recorder.snapshot(*frame, zones) if frame is not None else None
        self.recorder.record(events, hand, tracker, evidence)
        self.stats.events += len(events)
        self.on_events(events)


# --- replay: the same reading and tracking, every frame, no threads ------------------------

def replay_frames(frames: Iterable[np.ndarray], reader: TableReader, session: HandSession) -> Iterator[dict[str, Any]]:
    """Every frame through the reader and the session; yields each event as :func:`event_json`."""
    for frame_id, image in enumerate(frames, start=1):
        reading = reader.read(frame_id, image, session.tracker.needs_frames)
        hand = session.hand
        for event in reading.feed(session):
            yield event_json(event, hand)
