"""`rummyref demo`'s game: short simulated Gin hands filmed by a rendered camera, and the script
that plays the players.

The hands come from the simulator (:mod:`engine.simulate`); :class:`DemoCamera` renders their
frames with :class:`~rummyref.render_game.GameRenderer` and the deck shipped in
``rummyref/demo_deck`` (a design the recognizer never saw in training). Everything after the
camera is what ``rummyref run`` does: corner markers, motion, recognizer, tracker, record,
dashboard.

The players are a script (:class:`DemoScript`) that knows the simulator's truth and acts only
through the record, as players do on the dashboard: it answers the tracker's questions about
cards, and when the camera has not settled a hand by the time the hand's last table has lain
still for a while, it enters both players' cards as on the Score page (the engine settles them).
Everything it does is recorded as by :data:`SCRIPT_ACTOR` and printed.

>>> hands = DemoGame(seed=250, hands=1).simulate()
>>> len(hands), hands[0].outcome, len(hands[0].frames) - HOLD_FRAMES
(1, 'knock', 158)
>>> DemoScript(hands).settle_at
[170]
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from engine.simulate import Pace, SimulatedHand
from engine.tracker import Event
from engine.zones import default_zones
from hardware.cameras.base import CameraClosed, CameraSetupError, CameraSource, EndOfStream, Pacer

DECK_DIR = Path(__file__).resolve().parent / "demo_deck"
DEMO_PACE = Pace(moving=(2, 3), still=(8, 9))
"""Quicker than a real table, and still long enough for the tracker's six-frame window."""
HOLD_FRAMES = 12
"""The last table of a hand stays this many more frames before the cards are gathered."""
SCRIPT_ACTOR = "demo script (knows the simulator's truth)"
"""Who the record names for everything the demo's players do."""


def load_demo_deck() -> Any:
    """The shipped deck (``rummyref/demo_deck``: the faces as PNG, 192 px high)."""
    import cv2

    from vision.synth.decks import Deck
    from vision.synth.faces import CardFace

    faces = {}
    for path in sorted(DECK_DIR.glob("*.png")):
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3 or image.shape[2] != 4:
            raise CameraSetupError(f"demo deck: {path} is not a BGRA PNG; reinstall rummyref")
        faces[path.stem] = CardFace(path.stem, image, ())
    if len(faces) != 53:
        raise CameraSetupError(f"demo deck: expected 52 faces and a back in {DECK_DIR}, found {len(faces)}; reinstall rummyref")
    return Deck("gnome/plastic (demo copy)", faces)


def learned_demo_deck(directory: Path, model_dir: Path | None = None,
                      progress: Callable[[str], None] = print) -> Any:
    """The demo deck as its players teach it before they play: ``rummyref learn-deck``'s method on two
    rendered photos of the guided layout (:func:`vision.train.layout.learned_deck`). Learned once for the
    models in ``model_dir`` and kept in ``directory`` (a :class:`vision.decks.DeckProfile` named after the
    classifier it was learned for, so new models learn it afresh)."""
    from vision.decks import DeckProfile, classifier_digest
    from vision.recognizer import CLASSIFIER_FILE, DEFAULT_MODEL_DIR
    from vision.train.layout import learned_deck

    name = "demo-" + classifier_digest(Path(model_dir or DEFAULT_MODEL_DIR) / CLASSIFIER_FILE)
    try:
        return DeckProfile.load(name, directory)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError) as error:  # a damaged file: learn again rather than stop the demo
        progress(f"the kept demo deck {DeckProfile.path(name, directory)} cannot be read ({error}); learning it again")
    profile = learned_deck(load_demo_deck(), model_dir, progress=progress, name=name)
    profile.save(directory)
    return profile


@dataclass(frozen=True)
class DemoGame:
    """Which hands the demo plays: ``hands`` hands from ``seed`` (hand k uses ``seed + k - 1``).

    The default, seed 250, gives two short knock hands (158 and 103 frames before the hold, the simulator's own
    :data:`~engine.simulate.SHOW_DOWN_HOLD` of the last table included).
    """

    seed: int = 250
    hands: int = 2
    size: tuple[int, int] = (1280, 720)
    players: tuple[str, str] = ("Ann", "Ben")

    @property
    def table_cm(self) -> tuple[float, float]:
        zones = default_zones("gin", 2)
        return zones.width, zones.height

    def simulate(self) -> list[SimulatedHand]:
        """The hands, each ending with :data:`HOLD_FRAMES` more frames of its last table."""
        from rummyref.render_game import simulate_match

        played = simulate_match(self.seed, self.hands, self.players, default_zones("gin", 2), pace=DEMO_PACE)
        return [replace(hand, frames=hand.frames + [hand.frames[-1]] * HOLD_FRAMES) for hand in played]


class _Closed(Exception):
    """The camera was closed while the renderer waited to hand over a frame."""


class DemoCamera(CameraSource):
    """The demo's camera: renders the frames of ``hands`` on its own thread, one ahead.

    ``consumed`` says how many frames the pipeline has taken; the camera hands out a frame only
    when the pipeline has taken the one before, so a slow machine plays the game slower instead of
    dropping frames (a real camera does not wait: the pipeline reads its newest frame). ``fps``
    caps the pace; the game ends with :class:`EndOfStream`.
    """

    def __init__(self, hands: Sequence[SimulatedHand], game: DemoGame, *, fps: float | None = None,
                 consumed: Callable[[], int] | None = None, name: str = "demo") -> None:
        self.name = name
        self._game = game
        self._closed = threading.Event()
        self._pacer = Pacer(fps, self._closed)
        self._consumed = consumed or (lambda: self.delivered)
        self._fps = fps
        self.delivered = 0
        self._ended = False
        self._frames: queue.Queue[np.ndarray | BaseException | None] = queue.Queue(maxsize=1)
        self._thread = threading.Thread(target=self._render, args=(list(hands),), daemon=True, name="demo-renderer")
        self._thread.start()

    @property
    def resolution(self) -> tuple[int, int]:
        return self._game.size

    @property
    def fps(self) -> float | None:
        return self._fps

    def _render(self, hands: list[SimulatedHand]) -> None:
        from rummyref.render_game import GameRenderer, render_hand

        try:
            renderer = GameRenderer(*self._game.size, self._game.table_cm, seed=self._game.seed, deck=load_demo_deck())
            for hand in hands:
                render_hand(hand, renderer, self._put)
            self._put(None)
        except _Closed:
            pass
        except Exception as error:  # noqa: BLE001 - handed to the reader, which reports it
            try:
                self._put(error)
            except _Closed:
                pass

    def _put(self, item: np.ndarray | BaseException | None) -> None:
        while True:
            if self._closed.is_set():
                raise _Closed
            try:
                self._frames.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def read(self) -> np.ndarray:
        if self._ended:
            raise EndOfStream(f"{self.name}: the demo game is over")
        while self._consumed() < self.delivered:  # the pipeline has not taken the last frame yet
            if self._closed.wait(0.005):
                raise CameraClosed(f"{self.name}: camera is closed")
        self._pacer.wait()
        while True:
            if self._closed.is_set():
                raise CameraClosed(f"{self.name}: camera is closed")
            try:
                item = self._frames.get(timeout=0.1)
                break
            except queue.Empty:
                continue
        if item is None:
            self._ended = True
            raise EndOfStream(f"{self.name}: the demo game is over")
        if isinstance(item, BaseException):
            raise CameraSetupError(f"{self.name}: rendering failed: {type(item).__name__}: {item}") from item
        self.delivered += 1
        return item

    def close(self) -> None:
        self._closed.set()


class DemoScript:
    """The demo's players. They know the simulator's truth (``hands``, as :meth:`DemoGame.simulate`
    gives them; camera frame n is the n-th of all their frames) and say only what the dashboard
    lets players say.
    """

    def __init__(self, hands: Sequence[SimulatedHand]) -> None:
        self.hands = list(hands)
        self.frames = [frame for hand in self.hands for frame in hand.frames]
        self.settle_at: list[int] = []
        """Per hand, the camera frame after which the players enter the hand if the camera has not:
        the last frame of its hold."""
        total = 0
        for hand in self.hands:
            total += len(hand.frames)
            self.settle_at.append(total)

    def answer(self, event: Event) -> str | None:
        """The card that truly lies where a question (a ``needs_confirmation`` reading) points, or
        :data:`~engine.tracker.NOTHING` where none lies there (:meth:`engine.simulate.SimFrame.answer`)."""
        if not (event.kind == "reading" and event.needs_confirmation and event.zone and event.position):
            return None
        if not 1 <= event.frame_id <= len(self.frames):
            return None
        return self.frames[event.frame_id - 1].answer(event)

    def overdue(self, frame_id: int, hand: int) -> SimulatedHand | None:
        """Hand number ``hand`` (1-based), if the camera should have settled it by frame ``frame_id``."""
        if 1 <= hand <= len(self.hands) and frame_id >= self.settle_at[hand - 1]:
            return self.hands[hand - 1]
        return None

    @staticmethod
    def score_form(hand: SimulatedHand) -> dict[str, Any]:
        """What players tap on the Score page for ``hand``: both hands' cards, who knocked, who dealt.

        >>> form = DemoScript.score_form(DemoGame(seed=250, hands=1).simulate()[0])
        >>> form["knocker"], form["dealer"], sorted(len(cards) for cards in form["hands"].values())
        ('Ben', 'Ben', [10, 10])
        """
        knock = next((e for e in hand.truth if e.kind == "knock"), None)
        if knock is None:
            raise ValueError(f"hand {hand.seed} ended without a knock ({hand.outcome}): nothing to enter on the Score page")
        return {"hands": {player: [str(card) for card in cards] for player, cards in hand.hands.items()},
                "knocker": knock.player, "dealer": hand.dealer}
