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

With ``record`` (a folder) the reader's readings of each round are kept there (:class:`FilmRecording`,
one file a seed) and a later run replays them without photographing or recognizing anything: a
change of the tracker or the simulated players is then measured in seconds, not hours.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.simulate import SimFrame, feed
from engine.simulate_wiener import SimulatedRound
from engine.tracker import Event, Sighting

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
    replayed: int = 0
    """Frames replayed from a recording (not photographed, not timed)."""
    borrowed: int = 0
    """Still frames the tracker wanted that the recording left unrecognized (its tracker had settled
    the table): they get the still period's last recognized reading."""

    def to_json(self) -> dict[str, Any]:
        """The figures for the summary line.

        >>> FilmCounts(frames=120, recognized=40, seconds=30.0).to_json()["read_fps"]
        4.0
        """
        return {"frames": self.frames, "recognized": self.recognized, "read_seconds": round(self.seconds, 1),
                "read_fps": round(self.frames / self.seconds, 2) if self.seconds else None,
                "replayed_frames": self.replayed, "borrowed_readings": self.borrowed}


@dataclass(frozen=True)
class RecordedFrame:
    """What the table reader made of one frame: still or moving, recognized or left unread (the
    tracker had settled the table), the sightings."""

    frame_id: int
    still: bool
    recognized: bool
    sightings: tuple[Sighting, ...] = ()


@dataclass
class FilmRecording:
    """The readings of one photographed round, in frame order, kept in a file.

    Replayed (:meth:`frames`), a still frame is left out where the tracker no longer needs it, as
    on a live table. Where the tracker being replayed wants a still frame the recording's tracker
    did not (its table had settled), the frame gets a reading recognized earlier in the same still
    period, the first, then the second, ... in turn: the table has not moved, so only the sensor
    noise differs (counted as ``borrowed``; one reading repeated would outvote the others).

    >>> seen = (Sighting("7H", 0.9, 40.0, 30.0, "discard"),)
    >>> film = FilmRecording([RecordedFrame(1, False, False), RecordedFrame(2, True, True, seen), RecordedFrame(3, True, False)])
    >>> class Wanting:
    ...     needs_frames = True
    >>> counts = FilmCounts()
    >>> [(f.frame_id, f.still, len(f.sightings)) for f in film.frames(Wanting(), counts)], counts.borrowed
    ([(1, False, 0), (2, True, 1), (3, True, 1)], 1)
    """

    frames_read: list[RecordedFrame] = field(default_factory=list)

    @staticmethod
    def path(folder: Path, seed: int, players: int, frames: int | None = None, start: int = 0) -> Path:
        """The file of round ``seed`` of ``players`` in ``folder`` (only its first ``frames`` were read,
        those before ``start`` as the simulator's readings).

        >>> FilmRecording.path(Path("rec"), 7, 4).name, FilmRecording.path(Path("rec"), 7, 4, 70, 20).name
        ('wiener-4p-7.pkl', 'wiener-4p-7-first70-from20.pkl')
        """
        return Path(folder) / f"wiener-{players}p-{seed}{f'-first{frames}' if frames else ''}{f'-from{start}' if start else ''}.pkl"

    @classmethod
    def load(cls, path: Path) -> "FilmRecording":
        return cls(pickle.loads(Path(path).read_bytes()))

    def save(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(self.frames_read))

    def frames(self, tracker: Any, counts: FilmCounts) -> Iterator[RecordedFrame]:
        """The recorded readings as the tracker gets them (see the class)."""
        period: list[tuple[Sighting, ...]] = []
        lent = 0
        for frame in self.frames_read:
            counts.frames += 1
            counts.replayed += 1
            if not frame.still:
                period, lent = [], 0
                yield frame
                continue
            if frame.recognized:
                period.append(frame.sightings)
            if not tracker.needs_frames:
                continue
            if not frame.recognized:
                if not period:
                    continue  # the recording read nothing in this still period: there is nothing to give
                counts.borrowed += 1
                frame = replace(frame, sightings=period[lent % len(period)], recognized=True)
                lent += 1
            counts.recognized += 1
            yield frame


class WienerFilm:
    """Photographs and reads simulated Wiener rounds: :meth:`track` is a ``track`` for
    :func:`~rummyref.simulated_replay.replay_wiener`."""

    def __init__(self, recognizer: Any, size: tuple[int, int] = (1280, 720), max_frames: int | None = None,
                 read_from: int = 0, design: str | None = None, record: Path | None = None,
                 deck_learned: bool | None = None) -> None:
        self.recognizer = recognizer
        self.deck_learned = deck_learned if deck_learned is not None else (
            recognizer is None or recognizer.deck is not None)
        """Whether the readings are those of a learned deck, which sets the tracker's bars; by default the
        recognizer's deck, and a recording replayed without a recognizer is taken for a learned deck's."""
        self.size = size
        self.design = design
        """The deck design photographed (default the first held-out design, as the Gin replay)."""
        self.max_frames = max_frames
        """Only the first this many frames of a round (tests; the round then has no result)."""
        self.read_from = read_from
        """Frames before this one reach the tracker with the simulator's readings, unphotographed
        (tests: the layouts read by the recognizer without photographing the whole round)."""
        self.record = record
        """A folder of :class:`FilmRecording` files: a round recorded there is replayed, not photographed;
        another is photographed, read and recorded there (the caller names the folder for the models,
        the learned deck, the design and the size)."""
        self.counts = FilmCounts()

    @property
    def layout_confidence(self) -> float:
        """The tracker's bar for layout readings: by :attr:`deck_learned`."""
        from engine.wiener_tracker import layout_confidence

        return layout_confidence(self.deck_learned)

    @property
    def play_confidence(self) -> float:
        """The tracker's bar for readings before the knock: by :attr:`deck_learned` where the round is
        photographed from its first frame; the simulator's readings (a round photographed from
        :attr:`read_from` on) are no deck's and keep the tracker's own."""
        from engine.tracker import deck_confidence

        return deck_confidence(self.deck_learned or self.read_from > 0)

    def frames(self, game: SimulatedRound, tracker: Any) -> Iterator[SimFrame]:
        """The frames of ``game`` as the tracker gets them: each photographed and read, the sightings
        the reader's; a still frame not recognized (the tracker's table had settled) is left out."""
        from rummyref.pipeline import TableReader, make_calibrator
        from rummyref.render_game import GameRenderer, rendered_frames
        from rummyref.simulated_replay import LINGER_FRAMES

        shown = game.frames[:self.max_frames]
        if len(shown) == len(game.frames):
            last = shown[-1]
            shown = shown + [replace(last, frame_id=last.frame_id + k) for k in range(1, LINGER_FRAMES + 1)]
        yield from shown[:self.read_from]
        shown = shown[self.read_from:]
        path = None if self.record is None else \
            FilmRecording.path(self.record, game.seed, len(game.players), self.max_frames, self.read_from)
        if path is not None and path.is_file():
            truth = {frame.frame_id: frame for frame in shown}
            last = None
            for reading in FilmRecording.load(path).frames(tracker, self.counts):
                last = reading
                yield replace(truth[reading.frame_id], sightings=reading.sightings, still=reading.still)
            # A round recorded before the players held the final table longer: the table lies as it was
            # last read, so its frames lend that reading (as a still frame the recording left unread does).
            for frame in shown:
                if last is not None and frame.frame_id > last.frame_id and last.still and tracker.needs_frames:
                    self.counts.borrowed += 1
                    yield replace(frame, sightings=last.sightings, still=True)
            return
        recording = FilmRecording()
        table_cm = (game.zones.width, game.zones.height)
        renderer = GameRenderer(*self.size, table_cm, design=self.design, seed=game.seed)
        reader = TableReader(self.recognizer, game.zones, make_calibrator(table_cm), jokers=True)
        for frame, image in zip(shown, rendered_frames(shown, renderer)):
            start = time.perf_counter()
            reading = reader.read(frame.frame_id, image, tracker.needs_frames)
            self.counts.seconds += time.perf_counter() - start
            self.counts.frames += 1
            self.counts.recognized += reading.still and reading.recognized
            recording.frames_read.append(RecordedFrame(frame.frame_id, reading.still, reading.still and reading.recognized,
                                                       tuple(reading.sightings)))
            if reading.still and not reading.recognized:
                continue  # settled: nothing new to read until something moves
            yield replace(frame, sightings=reading.sightings, still=reading.still)
        if path is not None:
            recording.save(path)

    def track(self, game: SimulatedRound, answer: bool = True) -> tuple[list[Event], list[tuple[Event, str]]]:
        """``game`` photographed, read and tracked; as :func:`~engine.simulate_wiener.track_wiener`."""
        from engine.wiener_tracker import WienerTracker

        tracker = WienerTracker(game.players, game.dealer, zones=game.zones, layout_confidence=self.layout_confidence,
                                play_confidence=self.play_confidence)
        return feed(tracker, self.frames(game, tracker), answer, limit=MAX_ANSWERS)
