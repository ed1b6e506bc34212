"""Simulated Wiener Rummy rounds photographed and read by the card recognizer, then tracked and scored.

``rummyref replay --simulate N --game wiener --render`` uses this. :func:`engine.simulate_wiener.simulate_wiener`
plays the round and says what lies where in every frame; :class:`WienerFilm` photographs each
frame with :class:`~rummyref.render_game.GameRenderer` (the held-out deck design the Gin replay
uses, with its joker faces; the 100 x 80 cm table of 2-6 seats) and reads it with the same
:class:`~rummyref.pipeline.TableReader` as a live table (markers, motion, recognizer, zones;
``JK`` readings kept as jokers; with ``replay --learn-deck`` the recognizer reads with the deck
learned first from rendered photos of its layout and its jokers, :func:`vision.train.layout.learned_deck`). The readings go to a :class:`~engine.wiener_tracker.WienerTracker`,
whose questions the simulated players answer as in the readings-only path
(:func:`engine.simulate.feed`), and the round is scored by the same rules
(:func:`rummyref.simulated_replay.replay_wiener`): ``agree``, ``wrong`` (a committed result that
is not the truth: never allowed) or ``needs_confirmation``.

Frames are photographed and read one at a time (a round has 600-1300 frames; kept, they would
fill gigabytes), and still frames the tracker no longer needs (its table settled) are not
recognized, as on a live table. After the round's last frame the final table lies still for
:data:`~rummyref.simulated_replay.LINGER_FRAMES` more frames while the players look at it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from engine.simulate import SimFrame, feed
from engine.simulate_wiener import SimulatedRound
from engine.tracker import Event

MAX_ANSWERS = 100
"""Questions the players answer in one round before they stop (the round then has no result)."""


@dataclass
class FilmCounts:
    """What was photographed and read, over all rounds of a run."""

    frames: int = 0
    recognized: int = 0
    """Still frames the recognizer read (the others moved, or the tracker had settled the table)."""
    seconds: float = 0.0
    """Reading time only (markers, motion, recognizer, zones; rendering is not timed)."""

    def to_json(self) -> dict[str, Any]:
        """The figures for the summary line.

        >>> FilmCounts(frames=120, recognized=40, seconds=30.0).to_json()["read_fps"]
        4.0
        """
        return {"frames": self.frames, "recognized": self.recognized, "read_seconds": round(self.seconds, 1),
                "read_fps": round(self.frames / self.seconds, 2) if self.seconds else None}


class WienerFilm:
    """Photographs and reads simulated Wiener rounds: :meth:`track` is a ``track`` for
    :func:`~rummyref.simulated_replay.replay_wiener`."""

    def __init__(self, recognizer: Any, size: tuple[int, int] = (1280, 720), max_frames: int | None = None,
                 read_from: int = 0, design: str | None = None) -> None:
        self.recognizer = recognizer
        self.size = size
        self.design = design
        """The deck design photographed (default the first held-out design, as the Gin replay)."""
        self.max_frames = max_frames
        """Only the first this many frames of a round (tests; the round then has no result)."""
        self.read_from = read_from
        """Frames before this one reach the tracker with the simulator's readings, unphotographed
        (tests: the layouts read by the recognizer without photographing the whole round)."""
        self.counts = FilmCounts()

    def frames(self, game: SimulatedRound, tracker: Any) -> Iterator[SimFrame]:
        """The frames of ``game`` as the tracker gets them: each photographed and read, the sightings
        the reader's; a still frame not recognized (the tracker's table had settled) is left out."""
        from rummyref.pipeline import TableReader, make_calibrator
        from rummyref.render_game import GameRenderer, rendered_frames
        from rummyref.simulated_replay import LINGER_FRAMES

        table_cm = (game.zones.width, game.zones.height)
        renderer = GameRenderer(*self.size, table_cm, design=self.design, seed=game.seed)
        reader = TableReader(self.recognizer, game.zones, make_calibrator(table_cm), jokers=True)
        shown = game.frames[:self.max_frames]
        if len(shown) == len(game.frames):
            last = shown[-1]
            shown = shown + [replace(last, frame_id=last.frame_id + k) for k in range(1, LINGER_FRAMES + 1)]
        yield from shown[:self.read_from]
        shown = shown[self.read_from:]
        for frame, image in zip(shown, rendered_frames(shown, renderer)):
            start = time.perf_counter()
            reading = reader.read(frame.frame_id, image, tracker.needs_frames)
            self.counts.seconds += time.perf_counter() - start
            self.counts.frames += 1
            self.counts.recognized += reading.still and reading.recognized
            if reading.still and not reading.recognized:
                continue  # settled: nothing new to read until something moves
            yield replace(frame, sightings=reading.sightings, still=reading.still)

    def track(self, game: SimulatedRound, answer: bool = True) -> tuple[list[Event], list[tuple[Event, str]]]:
        """``game`` photographed, read and tracked; as :func:`~engine.simulate_wiener.track_wiener`."""
        from engine.wiener_tracker import WienerTracker

        tracker = WienerTracker(game.players, game.dealer, zones=game.zones)
        return feed(tracker, self.frames(game, tracker), answer, limit=MAX_ANSWERS)
