"""Fresh simulated hands through the whole pipeline, scored against the simulator's truth.

``rummyref replay --simulate N --seed S`` and ``benchmarks/eval_replay.py`` use this: each hand
is played by :func:`engine.simulate.simulate_hand`, photographed by
:class:`~rummyref.render_game.GameRenderer` (a held-out deck design), read by the same
:class:`~rummyref.pipeline.TableReader` and :class:`~rummyref.pipeline.HandSession` as a live
table, and the hand's committed result is compared with the truth. Wiener rounds go the same way
(:func:`replay_wiener`), and through the live referee's record too (:func:`referee_simulated_round`,
``benchmarks/eval_wiener_referee.py``).

What counts (:class:`HandReplay`):

- ``agree``: the tracker committed a result and it equals the truth;
- ``wrong``: it committed a result that differs from the truth: a silent miss, the one thing
  the referee must never do (a question earlier in the hand does not excuse it);
- ``needs_confirmation``: the hand asked the players something (a doubtful card, a rule conflict)
  or ended without a result they must record themselves. Such a hand is a miss, never a wrong one.

With ``answer=True`` the players answer each question as they would at the table: they look at
the card the question points at (the true card nearest the reading's table position; "no card
here" where none lies there, :meth:`engine.simulate.SimFrame.answer`); they stop
answering only when asked the same thing about the same card :data:`MAX_ANSWERS` times.
``tappable`` counts the answers that were among the choices the dashboard offers for the question
(:func:`rummyref.pipeline.reading_choices`); the others a player could give only by recording
the hand by hand.

>>> HandReplay(7, "knock", {"winner": "Ann", "points": 12, "kind": "knock", "dealer": None}, None, 0, 0).to_json()["agree"]
False
"""

from __future__ import annotations

import hashlib
import pickle
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np

from engine.match import HandScore
from engine.simulate import SimulatedHand, simulate_hand
from engine.tracker import Event, TrackerOptions, deck_confidence
from engine.zones import ZoneMap, default_zones

PLAYERS = ("Ann", "Ben")
LINGER_FRAMES = 12
"""Still frames of the final table after a hand's last frame (the players read the result)."""
MAX_ANSWERS = 3
"""Players asked the same thing again after answering it this often stop answering (the hand then
ends without a result): an answer the tracker cannot use is not repeated forever."""


@dataclass(frozen=True)
class HandReplay:
    """One replayed hand: the truth, what the pipeline committed, what it asked."""

    seed: int
    outcome: str
    truth: dict[str, Any]
    result: dict[str, Any] | None
    questions: int
    answered: int
    tappable: int = 0
    """Answers that were among the choices the dashboard offers for the question (the rest a player
    could give only by recording the hand by hand)."""
    events_equal: bool = False
    """Every committed event (discards, pickups, layouts, ...) equals the truth, in order."""
    flagged: int = 0
    frames: int = 0
    recognized: int = 0
    seconds: float = 0.0
    logged: bool = False
    """Replayed from the table reader's logged readings (:class:`ReadingLog`): not read, not timed."""
    events: tuple[Event, ...] = ()
    """What the tracker committed and asked, in order (not in the JSON line)."""

    @property
    def agree(self) -> bool:
        return self.result is not None and self.result == self.truth

    @property
    def needs_confirmation(self) -> bool:
        return self.questions > 0 or self.result is None

    @property
    def wrong(self) -> bool:
        """A committed result that is not the truth."""
        return self.result is not None and not self.agree

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "outcome": self.outcome, "truth": self.truth, "result": self.result,
                "agree": self.agree, "needs_confirmation": self.needs_confirmation, "wrong": self.wrong,
                "questions": self.questions, "answered": self.answered, "tappable": self.tappable,
                "events_equal": self.events_equal,
                "flagged": self.flagged, "frames": self.frames, "recognized": self.recognized,
                "seconds": round(self.seconds, 2), "logged": self.logged}


def score_hand(seed: int, outcome: str, truth: HandScore, committed: list[Event], asked: int, answered: int,
               true_events: list[Event], tappable: int = 0, **counts: Any) -> HandReplay:
    """Compare what a tracker committed for one hand with the simulator's truth."""
    end = next((e for e in committed if e.kind == "hand_end" and e.result is not None and not e.needs_confirmation), None)
    plain = [e for e in committed if not e.needs_confirmation]
    return HandReplay(seed, outcome, truth.to_dict(), end.result.to_dict() if end else None, asked, answered, tappable,
                      [e.key() for e in plain] == [e.key() for e in true_events],
                      sum(e.flagged for e in committed), events=tuple(committed), **counts)


def summary(replays: Iterable[HandReplay]) -> dict[str, Any]:
    """The figures of a run: agree rate, silent wrong results, questions, speed.

    >>> summary([HandReplay(1, "gin", {}, {}, 0, 0), HandReplay(2, "knock", {}, None, 2, 0)])["agree_rate"]
    0.5
    """
    replays = list(replays)
    hands = len(replays)
    read = [r for r in replays if not r.logged]  # the speed of hands replayed from logged readings says nothing
    frames = sum(r.frames for r in read)
    seconds = sum(r.seconds for r in read)
    return {"summary": True, "hands": hands, "outcomes": dict(Counter(r.outcome for r in replays)),
            "agree": sum(r.agree for r in replays), "agree_rate": round(sum(r.agree for r in replays) / hands, 4) if hands else None,
            "wrong_committed": sum(r.wrong for r in replays),
            "hands_with_questions": sum(r.needs_confirmation for r in replays),
            "questions": sum(r.questions for r in replays), "answered": sum(r.answered for r in replays),
            "tappable": sum(r.tappable for r in replays), "no_result": sum(r.result is None for r in replays),
            "events_equal": sum(r.events_equal for r in replays),
            "logged": hands - len(read), "frames": frames, "recognized": sum(r.recognized for r in read),
            "seconds": round(seconds, 1), "fps": round(frames / seconds, 2) if seconds else None}


def replay_gin_hand(hand: SimulatedHand, recognizer: Any, zones: ZoneMap, size: tuple[int, int] = (1280, 720),
                    answer: bool = False, design: str | None = None, readings: Path | None = None,
                    play_confidence: float = 0.0) -> HandReplay:
    """Render ``hand`` (with ``design``, default the first held-out design) and run it through reader
    and tracker (asking about readings below ``play_confidence`` too, see :func:`replay_rendered`); the
    render is not timed. With ``readings`` (a file of :class:`ReadingLog`) a hand whose every frame the
    reader read before, as the tracker wants them read now, is replayed from there without rendering."""
    from rummyref.pipeline import TableReader, make_calibrator
    from rummyref.render_game import GameRenderer, render_hand

    log = ReadingLog(readings) if readings is not None else None
    if log is not None:
        try:
            return replace(replay_rendered(hand, None, log.reader(), zones, answer, play_confidence), logged=True)
        except NotRead:
            pass  # a frame the tracker wants read that was never read so: read the hand afresh
    images: list[np.ndarray] = []
    render_hand(hand, GameRenderer(*size, (zones.width, zones.height), design=design, seed=hand.seed), images.append)
    reader = TableReader(recognizer, zones, make_calibrator((zones.width, zones.height)))
    if log is None:
        return replay_rendered(hand, images, reader, zones, answer, play_confidence)
    replayed = replay_rendered(hand, images, log.reader(reader), zones, answer, play_confidence)
    log.save()
    return replayed


class _Recording:
    """Readings kept in a pickle file beside ``path``, whose name carries a digest of the code they
    depend on (``code``: patterns as :data:`READER_CODE`), so that readings made by other code are not
    reused."""

    def __init__(self, path: Path, code: Iterable[str]) -> None:
        path = Path(path)
        self.path = path.with_name(f"{path.stem}-{_code_digest(code)}{path.suffix}")
        self.readings: dict[Any, Any] = pickle.loads(self.path.read_bytes()) if self.path.exists() else {}
        self.new = 0

    def save(self) -> None:
        """Write the readings (when any are new)."""
        if self.new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_bytes(pickle.dumps(self.readings))
            self.new = 0


class NotRead(LookupError):
    """A :class:`ReadingLog` holds no reading of a frame read as asked."""


class ReadingLog(_Recording):
    """What the table reader made of each frame of one rendered hand, kept in a file so that a change
    of the tracker is measured again without rendering or reading. The reader keeps state from frame to
    frame (the discard pile's look, :class:`~rummyref.pipeline.PileWatch`), and which still frames it
    recognizes depends on the tracker (:attr:`~engine.tracker.GinTracker.needs_frames`); so a reading is
    keyed by its frame and by which frames before it were recognized. The file's name carries a digest
    of the code the readings depend on (:data:`READER_CODE`): a changed reader reads afresh.

    >>> from rummyref.pipeline import FrameReading
    >>> class Reader:
    ...     recognized = 0
    ...     def read(self, frame_id, image, wanted=True):
    ...         return FrameReading(frame_id, (), (), True, "calibrated", recognized=wanted)
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "7.readings.pkl"
    >>> log = ReadingLog(path)
    >>> first = log.reader(Reader())
    >>> [first.read(k, None, wanted).recognized for k, wanted in ((1, True), (2, False))], first.recognized
    ([True, False], 1)
    >>> log.save(); again = ReadingLog(path).reader()
    >>> again.read(1, None, True).frame_id, again.read(2, None, True)
    Traceback (most recent call last):
    ...
    rummyref.simulated_replay.NotRead: frame 2 was not read so before
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path, READER_CODE)

    def reader(self, table_reader: Any = None) -> "_LoggedReader":
        """A reader for one pass over the hand: from the log, else (if given) ``table_reader``, logged."""
        return _LoggedReader(self, table_reader)


class _LoggedReader:
    """One pass of a :class:`ReadingLog`: reads like a :class:`~rummyref.pipeline.TableReader`."""

    def __init__(self, log: ReadingLog, table_reader: Any) -> None:
        self.log, self.table_reader = log, table_reader
        self.history = hashlib.blake2b(digest_size=16)
        self.recognized = 0

    def read(self, frame_id: int, image: np.ndarray | None, wanted: bool = True) -> Any:
        self.history.update(b"\1" if wanted else b"\0")
        key = (frame_id, self.history.hexdigest())
        reading = self.log.readings.get(key)
        if reading is None:
            if self.table_reader is None:
                raise NotRead(f"frame {frame_id} was not read so before")
            reading = self.log.readings[key] = self.table_reader.read(frame_id, image, wanted)
            self.log.new += 1
        self.recognized += reading.still and reading.recognized
        return reading


RECOGNIZER_CODE = ("vision/*.py",)
"""The code a recognizer's readings of a frame depend on (the tile reader and training apart)."""
READER_CODE = RECOGNIZER_CODE + ("rummyref/pipeline.py", "rummyref/render_game.py", "vision/synth/**/*.py",
                                 "engine/simulate.py")
"""The code the table reader's readings of a simulated hand's frame depend on: the recognizer's, the
reader's, and what renders the frame."""


def _code_digest(patterns: Iterable[str]) -> str:
    """A digest of the repository's files matching ``patterns``: a recording made by other code is not reused."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=6)
    for source in sorted({path for pattern in patterns for path in root.glob(pattern)}):
        digest.update(source.read_bytes())
    return digest.hexdigest()


def replay_rendered(hand: SimulatedHand, images: list[np.ndarray] | None, reader: Any, zones: ZoneMap,
                    answer: bool = False, play_confidence: float = 0.0) -> HandReplay:
    """The rendered frames of ``hand`` through ``reader`` (a :class:`~rummyref.pipeline.TableReader`)
    and tracker (timed), scored against its truth. ``images`` None: a reader that needs none (a
    :class:`ReadingLog`'s). The tracker asks about readings below its own bar and below
    ``play_confidence`` (an untaught deck's, :func:`engine.tracker.deck_confidence`), as ``run`` does."""
    from rummyref.pipeline import HandSession, reading_choices

    session = HandSession(hand.players, hand.dealer, zones=zones, options=TrackerOptions().asking_below(play_confidence))
    tracker = session.tracker
    committed: list[Event] = []
    asked = answered = tappable = 0
    answers: Counter[tuple] = Counter()
    start = time.perf_counter()
    # After the last card the table lies as it is while the players look at the result.
    images = images if images is not None else [None] * len(hand.frames)
    lingering = [(replace(hand.frames[-1], frame_id=hand.frames[-1].frame_id + k), images[-1]) for k in range(1, LINGER_FRAMES + 1)]
    for frame, image in list(zip(hand.frames, images)) + lingering:
        if session.tracker is not tracker:
            break  # the hand has ended with a result
        pending = reader.read(frame.frame_id, image, tracker.needs_frames).feed(session)
        while pending:
            event = pending.pop(0)
            committed.append(event)
            if event.needs_confirmation and event.kind == "reading":
                asked += 1
                card = frame.answer(event) if answer and session.tracker is tracker and tracker.awaits(event.seq) else None
                if card is not None:
                    same = (event.zone, event.cards, event.position, card)  # the same question about the same card
                    if answers[same] >= MAX_ANSWERS:
                        continue
                    answers[same] += 1
                    answered += 1
                    tappable += card in reading_choices(event)
                    pending += session.confirm(event.seq, card)
    seconds = time.perf_counter() - start
    return score_hand(hand.seed, hand.outcome, hand.result, committed, asked, answered, hand.truth, tappable,
                      frames=len(images), recognized=reader.recognized, seconds=seconds)


class RecordedRecognizer(_Recording):
    """A recognizer whose readings are kept in a file, keyed by the frame's content: rendering is
    deterministic, so replaying the same hands again (to try a change of the table reader or the
    tracker) recognizes only frames it has not read before. The file belongs to one set of models,
    one learned deck and one design: the caller names it accordingly; its name carries a digest of the
    recognizer's code (:data:`RECOGNIZER_CODE`).

    >>> class Counting:
    ...     calls = 0
    ...     def recognize(self, frame, card_diagonal=None):
    ...         Counting.calls += 1
    ...         return [frame.shape]
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "readings.pkl"
    >>> frame = np.zeros((4, 4, 3), np.uint8)
    >>> recorded = RecordedRecognizer(Counting(), path)
    >>> recorded.recognize(frame), recorded.recognize(frame.copy()), Counting.calls
    ([(4, 4, 3)], [(4, 4, 3)], 1)
    >>> recorded.save(); RecordedRecognizer(Counting(), path).recognize(frame), Counting.calls
    ([(4, 4, 3)], 1)
    """

    def __init__(self, recognizer: Any, path: Path) -> None:
        super().__init__(path, RECOGNIZER_CODE)
        self.recognizer = recognizer

    def recognize(self, frame: np.ndarray, card_diagonal: Any = None) -> list:
        key = hashlib.blake2b(frame.tobytes(), digest_size=16).hexdigest()
        if key not in self.readings:
            self.readings[key] = self.recognizer.recognize(frame, card_diagonal)
            self.new += 1
        return list(self.readings[key])


def replay_gin(seeds: Iterable[int], size: tuple[int, int] = (1280, 720), answer: bool = False, threads: int = 1,
               progress: Callable[[str], None] = lambda text: None, deck: Any = None, design: str | None = None,
               model_dir: Any = None, record: Path | None = None,
               play_confidence: float | None = None) -> Iterable[HandReplay]:
    """Replay the hands of ``seeds`` one by one (yielding each as it is done), photographed with
    ``design`` (default the first held-out design), read with the models in ``model_dir`` (default
    the shipped ones); ``deck`` is a learned :class:`vision.decks.DeckProfile` of that design (as the
    players would teach it before playing). With ``record`` (a folder) the recognizer's readings of
    each hand are kept there (:class:`RecordedRecognizer`, one file a seed) and reused, and so are the
    table reader's (:class:`ReadingLog`): a hand the reader read before as the tracker wants it read
    now is replayed without rendering. Readings below ``play_confidence`` are asked (None: by the deck,
    as ``run`` asks, :func:`engine.tracker.deck_confidence`)."""
    from vision.recognizer import Recognizer

    recognizer = Recognizer(model_dir, threads=threads).with_deck(deck)
    if play_confidence is None:
        play_confidence = deck_confidence(deck is not None)
    zones = default_zones("gin", 2)
    for number, seed in enumerate(seeds, start=1):
        hand = simulate_hand(seed, zones=zones, players=PLAYERS)
        progress(f"hand {number} (seed {seed}, {hand.outcome}, {len(hand.frames)} frames): rendering and reading")
        reading = recognizer if record is None else RecordedRecognizer(recognizer, Path(record) / f"{seed}.pkl")
        readings = None if record is None else Path(record) / f"{seed}.readings.pkl"
        replayed = replay_gin_hand(hand, reading, zones, size, answer, design, readings, play_confidence)
        if record is not None:
            reading.save()
        yield replayed


def replay_tiles(seeds: Iterable[int], turns: int = 30, players: int = 4, answer: bool = True,
                 track: Callable[..., tuple[list, int]] | None = None) -> Iterable[dict[str, Any]]:
    """Tile Rummy on simulated table readings (no images): one record per turn, truth against the tracker.
    ``track`` (default :func:`~engine.simulate_tiles.track_tiles`) takes a game and ``answer`` and returns
    the committed events and the questions with their answers: :mod:`rummyref.tile_replay` passes one
    that photographs and reads the table. ``questions`` counts the questions asked during the turn,
    ``answered`` those the players answered (not "none of these"); ``needs_confirmation``: the turn itself stayed a question.

    >>> turn = next(iter(replay_tiles([3], turns=2)))
    >>> sorted(turn)
    ['agree', 'answered', 'needs_confirmation', 'questions', 'result', 'seed', 'truth', 'turn', 'wrong']
    """
    from engine.simulate_tiles import simulate_tiles, track_tiles
    from engine.tile_tracker import NOT_AS_READ

    for seed in seeds:
        game = simulate_tiles(seed, players=players, turns=turns)
        committed, asked = (track or track_tiles)(game, answer=answer)
        last = 0
        for number, (truth, event) in enumerate(zip(game.truth, committed), start=1):
            doubtful = event.needs_confirmation
            agree = not doubtful and event.key() == truth.key()
            replies = [reply for question, reply in asked if last < question.seq < event.seq]
            last = event.seq
            yield {"seed": seed, "turn": number, "truth": _tile_turn(truth), "result": None if doubtful else _tile_turn(event),
                   "agree": agree, "needs_confirmation": doubtful, "wrong": not doubtful and not agree,
                   "questions": len(replies), "answered": sum(reply not in (None, NOT_AS_READ) for reply in replies)}


def _tile_turn(event: Any) -> dict[str, Any]:
    return {"kind": event.kind, "player": event.player, "played": sorted(event.played), "legal": event.legal}


def tile_summary(turns: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Agree rate, wrong committed turns and questions of :func:`replay_tiles` records."""
    turns = list(turns)
    agree = sum(t["agree"] for t in turns)
    return {"summary": True, "game": "tiles", "turns": len(turns), "agree": agree,
            "agree_rate": round(agree / len(turns), 4) if turns else None,
            "wrong_committed": sum(t["wrong"] for t in turns),
            "needs_confirmation": sum(t["needs_confirmation"] for t in turns),
            "questions": sum(t["questions"] for t in turns), "answered": sum(t["answered"] for t in turns),
            "turns_with_questions": sum(t["questions"] > 0 for t in turns),
            "illegal_turns_in_truth": sum(t["truth"]["legal"] is False for t in turns),
            "draws_in_truth": sum(t["truth"]["kind"] == "draw" for t in turns)}


def replay_wiener(seeds: Iterable[int], players: int = 4, answer: bool = True,
                  track: Callable[..., tuple[list, list]] | None = None) -> Iterable[dict[str, Any]]:
    """Wiener Rummy rounds: one record per round, penalties against the truth. ``track`` (default
    :func:`~engine.simulate_wiener.track_wiener`, simulated readings, no images) takes a round and
    ``answer`` and returns the committed events and the questions with their answers:
    :mod:`rummyref.wiener_replay` passes one that photographs and reads the table.
    ``wrong`` is a committed penalty list that is not the truth; ``events_equal``
    says every committed event (discards, pickups, layouts) equals the truth; ``moves`` counts the
    questions about which move a player made (two decks), the rest of ``questions`` ask which card
    lies somewhere; ``answered`` counts the questions the players answered. ``rummy`` and
    ``jokers_laid`` say what the round covered."""
    from engine.simulate_wiener import simulate_wiener, track_wiener

    for seed in seeds:
        game = simulate_wiener(seed, players=players)
        committed, asked = (track or track_wiener)(game, answer=answer)
        end = next((e for e in reversed(committed) if e.kind == "hand_end"), None)
        result = list(end.penalties) if end is not None and end.penalties is not None else None
        truth = list(game.penalties) if game.penalties is not None else None
        laid = [e for e in game.truth if e.kind == "layout"]
        yield {"seed": seed, "truth": truth, "result": result, "agree": result is not None and result == truth,
               "needs_confirmation": result is None or bool(asked), "wrong": result is not None and result != truth,
               "questions": len(asked), "answered": sum(bool(reply) for _, reply in asked),
               "moves": sum(q.kind == "move" for q, _ in asked),
               "events_equal": [e.key() for e in committed] == [e.key() for e in game.truth],
               "rummy": any(e.melds and not e.cards for e in laid),
               "jokers_laid": sum(c == "JK" for e in laid for c in e.cards + tuple(c for m in e.melds for c in m))}


def referee_simulated_round(store: Any, game: Any, recognizer: Any = None,
                            renderer: Any = None) -> tuple[Any, dict[str, Any]]:
    """A simulated Wiener round (:func:`engine.simulate_wiener.simulate_wiener`) refereed as ``run --game
    wiener`` does it (:class:`~rummyref.wiener_pipeline.WienerPipeline`): a new match in ``store``,
    every frame through the pipeline, what it commits written to the record, each question it
    proposes answered there from the table as the players would (a question whose true answer the
    dashboard does not offer stays open; after :data:`~rummyref.wiener_replay.MAX_ANSWERS` answers
    the players stop). Without ``renderer`` the frames are the simulator's table readings, fed to the
    pipeline's session; with one (a :class:`~rummyref.render_game.GameRenderer`) each frame is
    photographed and read by the pipeline itself, markers, motion and ``recognizer`` included, its
    rulings written with their photos, and the final table lies still a while longer
    (:data:`LINGER_FRAMES`). Returns the pipeline and the round's figures: the penalties recorded
    against the truth (``agree``; ``wrong``: a recorded result that is not the truth), the questions
    proposed and answered, the discards recorded against the true ones.
    """
    from engine.wiener_tracker import LAYOUT_CONFIDENCE
    from rummyref.pipeline import PipelineConfig, Recorder, reading_id
    from rummyref.render_game import rendered_frames
    from rummyref.wiener_pipeline import TABLE_CM, WienerPipeline
    from rummyref.wiener_replay import MAX_ANSWERS
    from webui.events import create_match, record
    from webui.state import replay

    match_id = create_match(store, {"game": "wiener", "players": list(game.players), "first_dealer": game.dealer},
                            "simulation").match_id
    # Photographed, the bars are the ones for the recognizer's deck; the simulator's readings are no deck's.
    config = PipelineConfig(camera="dir:none", players=game.players, first_dealer=game.dealer, table_cm=TABLE_CM,
                            deck=None if recognizer is None else recognizer.deck,
                            layout_confidence=None if renderer is not None else LAYOUT_CONFIDENCE,
                            play_confidence=None if renderer is not None else 0.0)
    committed: list[Event] = []
    pipeline = WienerPipeline(config, lambda: store, match_id, recognizer=recognizer, on_events=committed.extend)
    pipeline.recorder = Recorder(store, match_id)
    proposed = answered = 0
    frames = list(game.frames)
    if renderer is not None:
        frames += [replace(frames[-1], frame_id=frames[-1].frame_id + k) for k in range(1, LINGER_FRAMES + 1)]
    photos = rendered_frames(frames, renderer) if renderer is not None else repeat(None)
    for frame, photo in zip(frames, photos):
        if photo is None:
            pipeline._commit(pipeline.session.update(frame.frame_id, frame.sightings, frame.still), None)
        else:
            pipeline._read_frame(frame.frame_id, photo)
        while committed:
            questions, committed[:] = [e for e in committed if e.needs_confirmation], []
            readings = replay(store.events(match_id)).readings
            for event in questions:
                asked = readings.get(reading_id(pipeline.session.hand, event.seq))
                if asked is None:
                    continue
                proposed += 1
                reply = frame.answer(event) if event.kind == "reading" else frame.answer_move(event)
                if answered < MAX_ANSWERS and (reply in asked.choices or asked.picker == "cards" and reply is not None):
                    record(store, match_id, "reading_confirmed", {"reading": asked.reading_id, "choice": reply}, "players")
                    answered += 1
            pipeline._take_record(pipeline.recorder.inbox())
    state = replay(store.events(match_id))
    result = [list(hand.result["penalties"]) for hand in state.counted_hands]
    truth = None if game.penalties is None else list(game.penalties)
    discards = [e.payload["card"] for e in store.events(match_id) if e.kind == "discard"]
    return pipeline, {"seed": game.seed, "truth": truth, "recorded": result[0] if result else None,
                      "agree": result == [truth], "wrong": bool(result) and result != [truth],
                      "proposed": proposed, "answered": answered,
                      "discards_equal": discards == [e.cards[0] for e in game.truth if e.kind == "discard"],
                      "next_round": pipeline.session.hand}
