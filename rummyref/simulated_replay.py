"""Fresh simulated hands through the whole pipeline, scored against the simulator's truth.

``rummyref replay --simulate N --seed S`` and ``benchmarks/eval_replay.py`` use this: each hand
is played by :func:`engine.simulate.simulate_hand`, photographed by
:class:`~rummyref.render_game.GameRenderer` (a held-out deck design), read by the same
:class:`~rummyref.pipeline.TableReader` and :class:`~rummyref.pipeline.HandSession` as a live
table, and the hand's committed result is compared with the truth.

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
from pathlib import Path
from typing import Any

import numpy as np

from engine.match import HandScore
from engine.simulate import SimulatedHand, simulate_hand
from engine.tracker import Event
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
                "seconds": round(self.seconds, 2)}


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
    frames = sum(r.frames for r in replays)
    seconds = sum(r.seconds for r in replays)
    return {"summary": True, "hands": hands, "outcomes": dict(Counter(r.outcome for r in replays)),
            "agree": sum(r.agree for r in replays), "agree_rate": round(sum(r.agree for r in replays) / hands, 4) if hands else None,
            "wrong_committed": sum(r.wrong for r in replays),
            "hands_with_questions": sum(r.needs_confirmation for r in replays),
            "questions": sum(r.questions for r in replays), "answered": sum(r.answered for r in replays),
            "tappable": sum(r.tappable for r in replays), "no_result": sum(r.result is None for r in replays),
            "events_equal": sum(r.events_equal for r in replays),
            "frames": frames, "recognized": sum(r.recognized for r in replays),
            "seconds": round(seconds, 1), "fps": round(frames / seconds, 2) if seconds else None}


def replay_gin_hand(hand: SimulatedHand, recognizer: Any, zones: ZoneMap, size: tuple[int, int] = (1280, 720),
                    answer: bool = False, design: str | None = None) -> HandReplay:
    """Render ``hand`` (with ``design``, default the first held-out design) and run it through reader
    and tracker; the render is not timed."""
    from rummyref.render_game import GameRenderer, render_hand

    images: list[np.ndarray] = []
    render_hand(hand, GameRenderer(*size, (zones.width, zones.height), design=design, seed=hand.seed), images.append)
    return replay_rendered(hand, images, recognizer, zones, answer)


def replay_rendered(hand: SimulatedHand, images: list[np.ndarray], recognizer: Any, zones: ZoneMap,
                    answer: bool = False) -> HandReplay:
    """The rendered frames of ``hand`` through reader and tracker (timed), scored against its truth."""
    from rummyref.pipeline import HandSession, TableReader, make_calibrator, reading_choices

    reader = TableReader(recognizer, zones, make_calibrator((zones.width, zones.height)))
    session = HandSession(hand.players, hand.dealer, zones=zones)
    tracker = session.tracker
    committed: list[Event] = []
    asked = answered = tappable = 0
    answers: Counter[tuple] = Counter()
    start = time.perf_counter()
    # After the last card the table lies as it is while the players look at the result.
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


class RecordedRecognizer:
    """A recognizer whose readings are kept in a file, keyed by the frame's content: rendering is
    deterministic, so replaying the same hands again (to try a change of the table reader or the
    tracker) recognizes only frames it has not read before. The file belongs to one set of models,
    one learned deck and one design: the caller names it accordingly.

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
        self.recognizer, self.path = recognizer, Path(path)
        self.readings: dict[str, list] = pickle.loads(self.path.read_bytes()) if self.path.exists() else {}
        self.new = 0

    def recognize(self, frame: np.ndarray, card_diagonal: Any = None) -> list:
        key = hashlib.blake2b(frame.tobytes(), digest_size=16).hexdigest()
        if key not in self.readings:
            self.readings[key] = self.recognizer.recognize(frame, card_diagonal)
            self.new += 1
        return list(self.readings[key])

    def save(self) -> None:
        """Write the readings (when any are new)."""
        if self.new:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_bytes(pickle.dumps(self.readings))
            self.new = 0


def replay_gin(seeds: Iterable[int], size: tuple[int, int] = (1280, 720), answer: bool = False, threads: int = 1,
               progress: Callable[[str], None] = lambda text: None, deck: Any = None, design: str | None = None,
               model_dir: Any = None, record: Path | None = None) -> Iterable[HandReplay]:
    """Replay the hands of ``seeds`` one by one (yielding each as it is done), photographed with
    ``design`` (default the first held-out design), read with the models in ``model_dir`` (default
    the shipped ones); ``deck`` is a learned :class:`vision.decks.DeckProfile` of that design (as the
    players would teach it before playing). With ``record`` (a folder) the recognizer's readings of
    each hand are kept there (:class:`RecordedRecognizer`, one file a seed) and reused."""
    from vision.recognizer import Recognizer

    recognizer = Recognizer(model_dir, threads=threads).with_deck(deck)
    zones = default_zones("gin", 2)
    for number, seed in enumerate(seeds, start=1):
        hand = simulate_hand(seed, zones=zones, players=PLAYERS)
        progress(f"hand {number} (seed {seed}, {hand.outcome}, {len(hand.frames)} frames): rendering and reading")
        reading = recognizer if record is None else RecordedRecognizer(recognizer, Path(record) / f"{seed}.pkl")
        replayed = replay_gin_hand(hand, reading, zones, size, answer, design)
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
