"""Simulated tile Rummy games photographed and read by the tile reader, then tracked and scored.

``rummyref replay --simulate N --game tiles --render`` uses this. :func:`engine.simulate_tiles.simulate_tiles`
plays the game and says where every tile lies (table cm) in every frame; :class:`TileFilm` takes
the last :data:`STILL_FRAMES` still frames of each turn, photographs that table
(:func:`vision.synth.tile_table.render_table`: held-out font, table texture, room light, camera
effects, a camera slightly off straight above), reads each photo with the real
:class:`~vision.tiles.reader.TileReader` and turns what it read into
:class:`~engine.tile_tracker.TileSighting` values in table cm (each outline's corners through the
inverse homography, the reading's confidence). The turns then go through the same
:class:`~engine.tile_tracker.TileTracker` and the same scoring as the readings-only path
(:func:`rummyref.simulated_replay.replay_tiles`).

A reading that is not :attr:`~vision.tiles.reader.TableReading.complete` (signs of a missed
tile, a hand over the table; an empty table excepted) goes to the tracker with its doubts
(:func:`doubts`: each at its place on the table where the reader gives one as data, else about
the whole table), and the tracker asks the players about them
(:class:`~engine.tile_tracker.TileDoubt`); the simulated players answer from the true table
(:meth:`~engine.simulate_tiles.TileFrame.answer`). Unanswered, a turn ends as a question, never as a
guess. ``answer=False`` keeps the old way: an incomplete reading's frame goes as not still, so
the tracker's window starts again. The hands moving between turns are one not-still frame (not drawn).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine.simulate_tiles import SimulatedTiles, TileFrame, track_tiles
from engine.tile_tracker import TileDoubt, TileEvent, TileSighting, TileTrackerOptions

STILL_FRAMES = 3
"""Still frames photographed and read per turn by default (the simulator's turns have 9-14, a live
camera more; few keep replays fast)."""
RENDERED_OPTIONS = TileTrackerOptions(window=3, quorum=2)
"""The tracker settles a table on 3 complete readings in a row, 2 of them agreeing."""
EMPTY_TABLE = "no tile found"
"""The reader's only doubt about a frame with no tile at all: the empty table before the first
turn, not a sign of a tile missed (that shows as a patch of face colour left unexplained)."""


def doubts(reading: Any, camera: Any) -> tuple[TileDoubt, ...]:
    """A reading's doubts for the tracker, each at its place on the table (cm) where the reader names
    one (:class:`~vision.tiles.reader.Doubt`: one place where one tile may lie unread or misread),
    else about the table. The empty table's "no tile found" is no doubt.

    >>> from vision.synth.tile_table import TableCamera
    >>> from vision.tiles.reader import Doubt, TableReading
    >>> camera = TableCamera.overhead(640, 480)
    >>> gap = Doubt("one tile's room between two tiles in one line", camera.to_image([(20, 10)])[0])
    >>> [(d.x, d.y) for d in doubts(TableReading((), (gap, Doubt("a hand covers part of the table"))), camera)]
    [(20.0, 10.0), (None, None)]
    """
    from vision.tiles.reader import doubt_place

    if usable(reading):
        return ()
    found = []
    for why in reading.doubts:
        point = doubt_place(why)
        if point is not None:
            x, y = camera.to_table([point])[0]
            found.append(TileDoubt(str(why), round(float(x), 1), round(float(y), 1)))
        elif why != EMPTY_TABLE:
            found.append(TileDoubt(str(why)))
    return tuple(found)


def usable(reading: Any) -> bool:
    """Is ``reading`` a complete reading of the table (an empty table is one)?

    >>> from vision.tiles.reader import TableReading
    >>> usable(TableReading((), (EMPTY_TABLE,))), usable(TableReading((), ("a hand covers part of the table", EMPTY_TABLE)))
    (True, False)
    """
    return reading.complete or (not reading.tiles and tuple(reading.doubts) == (EMPTY_TABLE,))


def sightings(reading: Any, camera: Any) -> tuple[TileSighting, ...]:
    """A :class:`~vision.tiles.reader.TableReading`'s tiles at their table positions (cm).

    >>> from vision.synth.tile_table import TableCamera
    >>> from vision.tiles.reader import TableReading, TileObservation
    >>> camera = TableCamera.overhead(640, 480)
    >>> corners = tuple(map(tuple, camera.to_image([(9, 8), (11, 8), (11, 12), (9, 12)])))
    >>> sightings(TableReading((TileObservation("R7", 0.93, corners, 0),)), camera)
    (TileSighting(code='R7', confidence=0.93, x=10.0, y=10.0),)
    """
    found = []
    for tile in reading.tiles:
        x, y = camera.to_table(tile.outline).mean(axis=0)
        found.append(TileSighting(tile.tile, float(tile.confidence), round(float(x), 2), round(float(y), 2)))
    return tuple(found)


@dataclass
class FilmCounts:
    """What was photographed and read, over all games of a run."""

    frames: int = 0
    incomplete: int = 0
    exact: int = 0
    """Readings whose tiles equal the table's (as a multiset), complete or not: how far the doubts,
    not the tiles read, keep turns from being committed."""
    turns: int = 0
    complete_turns: int = 0
    """Turns whose every reading was complete: those the tracker could judge had it known the table
    before them (after a turn it cannot read, it asks about every later one)."""
    seconds: float = 0.0
    """Reading time only (rendering is not timed)."""

    def to_json(self) -> dict[str, Any]:
        return {"frames_read": self.frames, "incomplete_readings": self.incomplete, "exact_readings": self.exact,
                "turns_read_complete": f"{self.complete_turns}/{self.turns}",
                "read_seconds": round(self.seconds, 1),
                "read_fps": round(self.frames / self.seconds, 2) if self.seconds else None}


class TileFilm:
    """Photographs and reads simulated tile games: :meth:`track` is a ``track`` for
    :func:`~rummyref.simulated_replay.replay_tiles`."""

    def __init__(self, reader: Any, size: tuple[int, int] = (1280, 960), still_frames: int = STILL_FRAMES,
                 effects: float = 1.0) -> None:
        from vision.synth.tile_table import TableCamera

        self.reader = reader
        self.camera = TableCamera.overhead(*size)
        self.still_frames = still_frames
        self.effects = effects
        self.counts = FilmCounts()

    def frames(self, game: SimulatedTiles, ask: bool = True) -> list[TileFrame]:
        """The frames of ``game`` the tracker gets: per turn one not-still frame for the hands, then
        the last still frames photographed and read, with the reader's doubts (``ask`` False: an
        incomplete reading as not still)."""
        from vision.synth.tile_table import TableLook, render_table

        look = TableLook.random(np.random.default_rng([game.seed, 0]), self.camera, effects=self.effects)
        out: list[TileFrame] = []
        turn: list[TileFrame] = []
        for frame in game.frames:
            turn.append(frame)
            if not frame.end_turn:
                continue
            moving = [f for f in turn if not f.still]
            if moving:
                out.append(replace(moving[0], sightings=()))
            readable = True
            for still in [f for f in turn if f.still][-self.still_frames:]:
                scene = render_table(np.random.default_rng([game.seed, 1, still.frame_id]), self.camera, look, still.table)
                start = time.perf_counter()
                reading = self.reader.read(scene.image)
                self.counts.seconds += time.perf_counter() - start
                self.counts.frames += 1
                self.counts.incomplete += not usable(reading)
                self.counts.exact += Counter(t.tile for t in reading.tiles) == Counter(t[0] for t in still.table)
                out.append(replace(still, sightings=sightings(reading, self.camera), still=ask or usable(reading),
                                   doubts=doubts(reading, self.camera) if ask else ()))
                readable = readable and usable(reading)
            self.counts.turns += 1
            self.counts.complete_turns += readable
            turn = []
        return out

    def track(self, game: SimulatedTiles, answer: bool = True) -> tuple[list[TileEvent], list[tuple[TileEvent, str | None]]]:
        """``game`` photographed, read and tracked; as :func:`~engine.simulate_tiles.track_tiles`."""
        return track_tiles(replace(game, frames=self.frames(game, ask=answer)), answer=answer, options=RENDERED_OPTIONS)
