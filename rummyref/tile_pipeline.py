"""The camera referee for tile Rummy: frames -> tile reader -> tile tracker -> record -> dashboard.

``rummyref run --game tiles`` runs it, with the same camera, threads, calibration and record as
Gin (:class:`rummyref.pipeline.Pipeline`); what differs is what a frame says and when a turn ends:

- a still frame is read by the tile reader (:class:`vision.tiles.reader.TileReader`); its tiles and
  its doubts (signs of a tile missed) go to the tracker in table cm
  (:class:`engine.tile_tracker.TileTracker`), tiles and doubts off the playing area left out (the
  markers' white squares, the racks);
- a turn ends when the players tap whose turn begins on the dashboard's turn clock (002's two-minute
  timer, the same tap that restarts the clock), or press the turn button (GPIO, the knock button)
  like a chess clock: the tracker then compares the table with the one before and the engine judges
  the turn; a tap on the player whose turn runs restarts the clock only;
- the tracker's questions (a tile read unsurely, a place where a tile may be missed) go to the
  dashboard with the photo, the place marked (:mod:`rummyref.tile_questions`), and the answers back;
- a round ends when the players record it on the dashboard (the racks are out of the camera's
  sight): the next round is tracked from the first still frame of a cleared table, begun by the
  next player clockwise.

Each judged turn is recorded as a ``play`` of kind ``turn`` (the tiles played, the groups on the
table after it, ``flagged`` when illegal or not judged, the verdict in words) with the still frame
it was judged on, before the dashboard shows it.

The reading and tracking run without threads in :class:`TileReferee`, which the pipeline drives.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from engine.cards import PALETTES
from engine.tile_tracker import TileDoubt, TileEvent, TileSighting, TileTracker, TileTrackerOptions
from engine.tiles import TileRules
from engine.zones import default_zones
from rummyref.pipeline import MAX_TEXT, Inbox, Pipeline, make_calibrator
from rummyref.tile_questions import ask, tile_overlay
from rummyref.tile_replay import doubts as reading_doubts, sightings as reading_sightings

log = logging.getLogger(__name__)

OFF_TABLE_CM = 1.0
"""A tile or doubt whose centre lies this far beyond the playing area is not on the table."""


@dataclass(frozen=True)
class TileFrameReading:
    """What one frame says: the tiles in table cm, the reader's doubts, whether the table is still.

    ``reading`` (:class:`vision.tiles.reader.TableReading`, the tiles on the playing area) is None
    for a frame that was not read: the table moving, or not calibrated."""

    reading: Any
    sightings: tuple[TileSighting, ...]
    doubts: tuple[TileDoubt, ...]
    still: bool
    calibration: Any = None


class TileTableReader:
    """Frames to :class:`TileFrameReading` values: calibration, motion, then (still frames) tiles.

    ``reader`` is a :class:`vision.tiles.reader.TileReader`, ``calibrator`` a
    :class:`vision.calibration.Calibrator` of the playing area (``table_cm``)."""

    def __init__(self, reader: Any, calibrator: Any, table_cm: tuple[float, float], motion: Any | None = None) -> None:
        from vision.motion import MotionDetector

        self.reader, self.calibrator, self.table_cm = reader, calibrator, table_cm
        # Only motion says the table moved: tile faces in warm light are skin-coloured, and a row of them
        # looked like a resting hand, so no frame was still. The tile reader tells a hand over the table
        # itself, leaving out the tiles it read (its doubt "a hand covers part of the table").
        self.motion = motion or MotionDetector(max_skin=1.0)
        self.geometry = None
        """The newest :class:`vision.calibration.CalibrationReport` (None before the first frame)."""

    def read(self, image: np.ndarray) -> TileFrameReading:
        report = self.geometry = self.calibrator.update(image)
        still = self.motion.update(image).still and report.usable
        if not still:
            return TileFrameReading(None, (), (), False)
        calibration = report.calibration
        reading = self.reader.read(image)
        on_table = [tile for tile in reading.tiles
                    if self.on_table(calibration.to_table([np.mean(tile.outline, axis=0)])[0])]
        reading = replace(reading, tiles=tuple(on_table))
        doubts = tuple(d for d in reading_doubts(reading, calibration) if d.place is None or self.on_table(d.place))
        return TileFrameReading(reading, reading_sightings(reading, calibration), doubts, True, calibration)

    def on_table(self, point: Sequence[float]) -> bool:
        """Whether a point (table cm) lies on the playing area (:data:`OFF_TABLE_CM` of slack).

        >>> TileTableReader(None, None, (80.0, 60.0), motion=object()).on_table((79.5, -0.5)), \\
        ...     TileTableReader(None, None, (80.0, 60.0), motion=object()).on_table((40.0, 62.0))
        (True, False)
        """
        x, y = point
        width, height = self.table_cm
        return -OFF_TABLE_CM <= x <= width + OFF_TABLE_CM and -OFF_TABLE_CM <= y <= height + OFF_TABLE_CM


class TileRound:
    """The tracker of the tile Rummy round being played, and whose turn it is on the dashboard.

    The first tap of a round on the turn clock begins its first turn (the tracker follows that
    player clockwise); each later tap on another player ends the turn before it. After a round the
    players record, the next one is tracked from the first still frame without tiles: until the
    players clear the table, it still shows the last round.

    >>> game = TileRound(("Ann", "Ben", "Cy"), "Ben", options=TileTrackerOptions(window=1, quorum=1))
    >>> game.turn_begins("Ann", 1), game.tracker.player     # the first tap names who begins
    ([], 'Ann')
    >>> run = [TileSighting(code, 0.95, 10 + 3 * i, 20) for i, code in enumerate(["R10", "R11", "R12", "R13"])]
    >>> game.update(2, run, still=True)
    []
    >>> game.turn_begins("Ann", 3)                           # the clock restarted: the turn goes on
    []
    >>> [e.describe() for e in game.turn_begins("Ben", 4)]
    ['#1 turn Ann R10 R11 R12 R13: legal (opening 46)']
    """

    def __init__(self, players: Sequence[str], starter: str, rules: TileRules = TileRules(),
                 options: TileTrackerOptions = TileTrackerOptions()) -> None:
        self.players, self.rules, self.options = tuple(players), rules, options
        self.hand = 1
        """The round being played (the questions' numbers belong to it)."""
        self.starter, self.tracker = starter, self._tracker(starter)
        self.current: str | None = None
        """Whose turn runs, as tapped on the dashboard (None: no turn of this round begun yet)."""
        self.clearing = False

    def _tracker(self, starter: str) -> TileTracker:
        at = self.players.index(starter)
        return TileTracker(self.players[at:] + self.players[:at], self.rules, self.options)

    def update(self, frame_id: int, sightings: Sequence[TileSighting], still: bool,
               doubts: Sequence[TileDoubt] = ()) -> list[TileEvent]:
        if self.clearing:
            if not (still and not sightings and not doubts):
                return []
            self.clearing = False
        return self.tracker.update(frame_id, sightings, still, doubts)

    @property
    def next_player(self) -> str:
        """Whose turn comes next in the tracker's order (the round's first player before any turn)."""
        tracker = self.tracker
        return tracker.players[0] if self.current is None else tracker.players[(tracker.turn + 1) % len(self.players)]

    def turn_begins(self, player: str, frame_id: int) -> list[TileEvent]:
        """The dashboard says ``player``'s turn begins: the turn before ends and is judged."""
        if player == self.current:
            return []
        if self.current is None:
            self.current = player
            if player != self.starter and not self.tracker.events:     # another player begins the round
                self.starter, self.tracker = player, self._tracker(player)
            return []
        if player != self.next_player:
            log.warning("the dashboard says %s's turn begins; after %s's turn the referee expected %s",
                        player, self.tracker.player, self.next_player)
        self.current = player
        return self.tracker.end_turn(frame_id)

    def confirm(self, seq: int, code: str) -> list[TileEvent]:
        """The players' answer to question ``seq``; one the tracker no longer waits for is dropped."""
        if not self.tracker.awaits(seq):
            log.info("answer %s to question #%d is moot", code, seq)
            return []
        return self.tracker.confirm(seq, code)

    def round_recorded(self) -> None:
        """The players recorded the round: the next one begins with the next player clockwise."""
        self.hand += 1
        self.starter = self.players[(self.players.index(self.starter) + 1) % len(self.players)]
        self.tracker, self.current, self.clearing = self._tracker(self.starter), None, True


def ruling(event: TileEvent) -> dict[str, Any]:
    """A committed turn or draw as a ``play`` of the record (:data:`webui.events.TILE_PLAY_KINDS`).

    >>> ruling(TileEvent(3, "turn", 9, "Ann", played=("R12", "R13"), groups=(("R10", "R11", "R12", "R13"),),
    ...     legal=True, opening_points=46))["detail"]
    'legal: R12 R13 played, the first laying out worth 46'
    >>> ruling(TileEvent(4, "turn", 9, "Ben", played=("B2",), legal=False, violations=("B2 is no group",)))["flagged"]
    True
    """
    if event.kind == "draw":
        return {"kind": "draw", "player": event.player, "detail": f"{event.player} drew from the pool: the table is unchanged"}
    if event.needs_confirmation:
        return {"kind": "turn", "player": event.player, "flagged": True,
                "detail": f"not judged: {event.detail}; record the turn by hand if it matters"[:MAX_TEXT]}
    played = " ".join(event.played)
    if event.legal:
        detail = f"legal: {played} played" + (f", the first laying out worth {event.opening_points}"
                                              if event.opening_points is not None else "")
    else:
        detail = f"ILLEGAL: {'; '.join(event.violations)} (002: the tiles go back to the rack)"
    return {"kind": "turn", "player": event.player, "cards": list(event.played),
            "melds": [list(group) for group in event.groups], "flagged": not event.legal, "detail": detail[:MAX_TEXT]}


class TileReferee:
    """One tile Rummy match read frame by frame into its record, without threads.

    ``reader`` a :class:`TileTableReader`, ``game`` a :class:`TileRound`, ``recorder`` a
    :class:`rummyref.pipeline.Recorder` of the match."""

    def __init__(self, reader: TileTableReader, game: TileRound, recorder: Any) -> None:
        self.reader, self.game, self.recorder = reader, game, recorder
        self.frame_id = 0
        self.last: TileFrameReading | None = None
        """What the newest frame said."""
        self._still: tuple[np.ndarray, TileFrameReading] | None = None
        """The newest still frame read, and its reading: the evidence of the next ruling."""

    def frame(self, frame_id: int, image: np.ndarray) -> list[TileEvent]:
        """Read one frame; questions it raises go to the dashboard. Returns the tracker's events."""
        self.frame_id = frame_id
        seen = self.last = self.reader.read(image)
        if seen.still:
            self._still = (image, seen)
        events = self.game.update(frame_id, seen.sightings, seen.still, seen.doubts)
        self._record(events)
        return events

    def inbox(self, inbox: Inbox) -> list[TileEvent]:
        """The players' answers, taps on the turn clock and recorded rounds, in the order they were written
        (a round recorded, then the first tap of the next one)."""
        events = []
        for kind, item in inbox.items:
            if kind == "answer" and item[0] == self.game.hand:
                events += self._record(self.game.confirm(item[1], item[2]))
            elif kind == "turn":
                events += self._record(self.game.turn_begins(item, self.frame_id))
            elif kind == "hand":
                self.game.round_recorded()
        return events

    def next_turn(self) -> list[TileEvent]:
        """The turn button: the next player's turn begins (the first press begins the round's first
        turn), written to the record so the dashboard's clock restarts, and the turn before is judged."""
        player = self.game.next_player
        self.recorder.turn(player)
        return self._record(self.game.turn_begins(player, self.frame_id))

    def _record(self, events: list[TileEvent]) -> list[TileEvent]:
        if not events:
            return events
        image, seen = self._still if self._still is not None else (None, None)
        questions = [e for e in events if e.needs_confirmation and e.kind in ("reading", "doubt")]
        if questions and seen is not None:
            ask(self.recorder, self.game.hand, questions, image, seen.reading.tiles, seen.calibration.to_image,
                self.game.tracker)
        rulings = [e for e in events if e.kind in ("turn", "draw")]
        if rulings:
            evidence = None
            if seen is not None:
                read = [tile_overlay(tile) for tile in seen.reading.tiles]
                evidence = self.recorder.snapshot(image, read)
            for event in rulings:
                self.recorder.play({**ruling(event), "evidence": evidence})
        return events


class TilePipeline(Pipeline):
    """:class:`~rummyref.pipeline.Pipeline` for tile Rummy: the tile reader and :class:`TileReferee`.

    ``config.players`` are 2-4 players in seat order (clockwise), ``config.first_dealer`` the one
    who begins the first round, ``config.tiles`` the tile set, ``config.deck`` its last layer learned
    with ``rummyref learn-tiles`` (or None); ``reader`` a :class:`vision.tiles.reader.TileReader`
    (default: the shipped one, with ``config.deck``)."""

    reads = "tiles"

    def __init__(self, config: Any, open_store: Any, match_id: str, *, reader: Any = None,
                 tracker: TileTrackerOptions = TileTrackerOptions(), **options: Any) -> None:
        self._tile_reader, self._tile_options = reader, tracker
        super().__init__(config, open_store, match_id, **options)

    def _build(self, recognizer: Any) -> None:
        config = self.config
        reader = self._tile_reader
        rules = TileRules(palette=PALETTES[config.tiles])
        if reader is None:
            from vision.tiles.reader import TileReader

            reader = TileReader(config.model_dir, threads=config.threads, profile=config.deck)
        reader = reader.with_palette(rules.palette, reader.profile)      # only the set's own colours compete
        self.zones = default_zones("tiles", len(config.players), *config.table_cm)    # drawn on the camera page
        self.reader = TileTableReader(reader, make_calibrator(config.table_cm, config.corners, config.corners_size),
                                      config.table_cm)
        self.session = TileRound(config.players, config.first_dealer or config.players[0], rules, self._tile_options)
        self.referee: TileReferee | None = None

    @property
    def deck_name(self) -> str | None:
        """The learned tile set the reader reads with, or None."""
        profile = self.reader.reader.profile
        return None if profile is None else profile.name

    def _referee(self) -> TileReferee:
        """The referee, made once the worker has opened the record (its recorder)."""
        if self.referee is None:
            self.referee = TileReferee(self.reader, self.session, self.recorder)
        return self.referee

    def _take_record(self, inbox: Inbox) -> None:
        self._done(self._referee().inbox(inbox))

    def _take_buttons(self) -> None:
        """The knock button is the turn button, pressed like a chess clock: the turn running ends and the
        next player's begins, on the dashboard's clock too. The undo button does nothing in tile Rummy."""
        while not self._commands.empty():
            button = self._commands.get_nowait()
            if button == "knock":
                self._done(self._referee().next_turn())
            else:
                log.info("the %s button does nothing in tile Rummy", button)

    def _read_frame(self, frame_id: int, image: np.ndarray) -> bool:
        referee = self._referee()
        self._done(referee.frame(frame_id, image))
        return referee.last.still

    def _done(self, events: list[TileEvent]) -> None:
        if events:
            self.stats.events += len(events)
            self.on_events(events)
