"""Simulated Gin hands as a camera would film them: a frame folder that ``--camera dir:`` plays.

:func:`engine.simulate.simulate_hand` says what truly lies where in every frame (card centres in
table cm, face up or down, whether a hand is over the table). :class:`GameRenderer` photographs
that: a felt table with the four ArUco corner markers (so calibration works as on a real table),
seen by a pinhole camera 60-90 cm above the table (off centre and turned a little, so the table
is a trapezoid), cards drawn with a held-out deck design (never seen in the recognizer's
training), each turned by a few degrees as players drop them and casting a soft shadow, a hand
reaching over the table while players act (motion-blurred, with its shadow), room light that
changes between actions, and sensor noise in every frame.

>>> renderer = GameRenderer(width=320, height=180, seed=1)
>>> from engine.simulate import Placed
>>> image = renderer.render((Placed("7H", 40.0, 30.0, "discard"),), still=True)
>>> image.shape, image.dtype
((180, 320, 3), dtype('uint8'))
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.match import new_match
from engine.simulate import Pace, Placed, SimFrame, SimulatedHand, simulate_hand
from engine.tracker import BACK
from engine.zones import CARD_HEIGHT_CM, CARD_WIDTH_CM, ZoneMap, default_zones

MARKER_CM = 5.0
"""Printed marker side; the markers' centres are the table corners."""
MARGIN_CM = 5.0
"""Table shown beyond the markers' centres."""
FELT_BGR = (38, 105, 30)
CAMERA_HEIGHT_CM = (60.0, 90.0)
"""The camera's height above the table, drawn per game from this range."""
CARD_TURN_DEG = 4.0
"""Cards lie turned by up to this much."""
SHADOW_OFFSET_CM = (0.15, 0.15)
SHADOW_DEPTH = 0.35
_GRAIN_SLACK = 64


class GameRenderer:
    """Photographs simulated tables: ``render(table, still)`` -> a BGR frame.

    ``design`` is a deck design (default: the first held-out one), or ``deck`` the faces themselves.
    The camera looks down with a small random tilt (``seed``); the table of ``table_cm`` fills the
    frame's height.
    """

    def __init__(self, width: int = 1280, height: int = 720, table_cm: tuple[float, float] = (80.0, 60.0),
                 design: str | None = None, seed: int = 0, noise: float = 2.5, deck: Any = None,
                 camera_height_cm: float | None = None) -> None:
        from vision.synth.decks import HELDOUT_DESIGNS, load_deck

        self.width, self.height, self.table_cm = width, height, table_cm
        self.rng = np.random.default_rng(seed)
        self.camera_height_cm = float(camera_height_cm or self.rng.uniform(*CAMERA_HEIGHT_CM))
        if not CAMERA_HEIGHT_CM[0] / 2 <= self.camera_height_cm <= CAMERA_HEIGHT_CM[1] * 2:
            raise ValueError(f"camera height {self.camera_height_cm} cm is outside {CAMERA_HEIGHT_CM[0] / 2:g}.."
                             f"{CAMERA_HEIGHT_CM[1] * 2:g} cm")
        self.deck = deck or load_deck(design or HELDOUT_DESIGNS[0])
        self.noise = noise
        # Sensor noise: one field larger than the frame, a different crop each frame (drawing
        # 2.7 million fresh normals per 1280x720 frame would be most of the rendering time).
        self._grain = self.rng.standard_normal((height + _GRAIN_SLACK, width + _GRAIN_SLACK, 3), dtype=np.float32) * noise
        self.to_image = self._camera()
        self.background = self._table()
        self.light = 1.0
        self._table_canvas: tuple[tuple[Placed, ...], np.ndarray] | None = None
        self._hand_layer: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def pixels_per_cm(self) -> float:
        """Magnification at the table centre."""
        centre = np.array(self.table_cm) / 2
        a, b = cv2.perspectiveTransform(np.array([[centre, centre + (1, 0)]], np.float64), self.to_image)[0]
        return float(np.linalg.norm(b - a))

    def _camera(self) -> np.ndarray:
        """Homography table cm -> image of a pinhole camera ``camera_height_cm`` above the table.

        The camera stands off centre towards the bottom edge (a stand at a player's side) and
        looks at the table's centre, turned about its axis by up to 2 degrees; its focal length
        is chosen so that the table with its margins fills the frame, as the mount plan does.
        The lower the camera, the stronger the trapezoid.
        """
        tw, th = self.table_cm
        eye = np.array([tw / 2 + self.rng.uniform(-4, 4), th / 2 + self.rng.uniform(0.1, 0.3) * th,
                        self.camera_height_cm])
        forward = np.array([tw / 2, th / 2, 0.0]) - eye
        forward /= np.linalg.norm(forward)
        roll = np.radians(self.rng.uniform(-2, 2))
        up_hint = np.array([np.sin(roll), -np.cos(roll), 0.0])  # image up is the table's far edge
        right = np.cross(up_hint, forward)
        right /= np.linalg.norm(right)
        down = np.cross(right, forward)
        m = MARGIN_CM
        span = np.array([(-m, -m, 0), (tw + m, -m, 0), (tw + m, th + m, 0), (-m, th + m, 0)], np.float64)
        rel = span - eye
        projected = np.stack([rel @ right / (rel @ forward), rel @ down / (rel @ forward)], axis=1)
        low, high = projected.min(axis=0), projected.max(axis=0)
        scale = min(self.width / (high[0] - low[0]), self.height / (high[1] - low[1])) * 0.94
        centre = (low + high) / 2
        image = (projected - centre) * scale + (self.width / 2, self.height / 2)
        return cv2.getPerspectiveTransform(span[:, :2].astype(np.float32), image.astype(np.float32))

    def _project(self, points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), self.to_image).reshape(-1, 2)

    def _table(self) -> np.ndarray:
        """Felt with a little texture and room light, the four markers on its corners."""
        from vision.calibration import CORNER_IDS, marker_image
        from vision.synth.effects import light_gradient

        felt = np.empty((self.height, self.width, 3), np.float32)
        felt[:] = FELT_BGR
        felt += self.rng.normal(0, 6, (self.height, self.width, 1)).astype(np.float32)
        felt = light_gradient(self.rng, felt) if self.rng.random() < 0.7 else felt
        canvas = np.clip(felt, 0, 255)
        tw, th = self.table_cm
        for marker_id, (cx, cy) in zip(CORNER_IDS, [(0, 0), (tw, 0), (tw, th), (0, th)]):
            pixels = 200
            paper = np.full((pixels, pixels), 255, np.uint8)
            inner = int(pixels * 0.8)
            start = (pixels - inner) // 2
            paper[start:start + inner, start:start + inner] = marker_image(marker_id, inner)
            half = MARKER_CM / 2 / 0.8  # the paper square around the marker
            square = np.float32([(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)])
            self._paste(canvas, cv2.cvtColor(paper, cv2.COLOR_GRAY2BGRA), square)
        return canvas

    def _paste(self, canvas: np.ndarray, bgra: np.ndarray, table_quad: np.ndarray) -> None:
        """Warp a BGRA image onto the table quad ``table_quad`` (cm, clockwise from top left)."""
        quad = self._project(table_quad).astype(np.float32)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width), min(y1, self.height)
        if x0 >= x1 or y0 >= y1:
            return
        h, w = bgra.shape[:2]
        source = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
        matrix = cv2.getPerspectiveTransform(source, (quad - (x0, y0)).astype(np.float32))
        warped = cv2.warpPerspective(bgra, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255
        region = canvas[y0:y1, x0:x1]
        region += alpha * (warped[:, :, :3].astype(np.float32) - region)

    def _card(self, canvas: np.ndarray, placed: Placed, offset: tuple[float, float] = (0.0, 0.0)) -> None:
        face = self._face(placed)
        card_px = CARD_HEIGHT_CM * self.pixels_per_cm
        self._paste(canvas, face.shrunk(card_px / face.size[1]), card_quad(placed, offset))

    def _face(self, placed: Placed) -> Any:
        """The face a card shows; a joker one of the design's joker faces, the same while it lies."""
        if placed.code != "JK":
            return self.deck.faces["BACK" if placed.code == BACK else placed.code]
        if not self.deck.jokers:
            raise ValueError(f"deck design {self.deck.design} has no joker faces: choose one with jokers for games with jokers")
        return self.deck.jokers[zlib.crc32(f"{placed.x:.1f} {placed.y:.1f}".encode()) % len(self.deck.jokers)]

    def _shadows(self, canvas: np.ndarray, table: Sequence[Placed]) -> None:
        """Soft shadows of the cards (light from the upper left), darkening the felt under them."""
        mask = np.zeros((self.height, self.width), np.float32)
        for placed in table:
            quad = self._project(card_quad(placed, SHADOW_OFFSET_CM))
            cv2.fillConvexPoly(mask, np.round(quad * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
        mask = cv2.GaussianBlur(mask, (0, 0), 0.25 * self.pixels_per_cm)
        canvas *= 1 - SHADOW_DEPTH * mask[:, :, None]

    def bump(self, dx_px: float, dy_px: float, turn_deg: float = 0.0) -> None:
        """Someone knocks the camera: the whole picture shifts by ``dx_px``, ``dy_px`` and turns by
        ``turn_deg`` about the frame's centre (markers included), as a moved camera sees the table.

        >>> r = GameRenderer(width=320, height=180, seed=1)
        >>> before = r._project([(0.0, 0.0)])[0]
        >>> r.bump(10, -5)
        >>> [round(float(v), 1) for v in r._project([(0.0, 0.0)])[0] - before]
        [10.0, -5.0]
        """
        move = cv2.getRotationMatrix2D((self.width / 2, self.height / 2), turn_deg, 1.0)
        move[:, 2] += (dx_px, dy_px)
        self.to_image = np.vstack([move, (0, 0, 1)]) @ self.to_image
        self.background = self._table()
        self._table_canvas = None

    def new_action(self) -> None:
        """Between actions the room light drifts a little and the hand moves elsewhere."""
        self.light = float(np.clip(self.light * self.rng.uniform(0.96, 1.04), 0.85, 1.15))
        self._hand_layer = None

    def render(self, table: Sequence[Placed], still: bool, reach: tuple[float, float] | None = None) -> np.ndarray:
        """One frame of ``table``; while not ``still`` a hand reaches towards ``reach`` (table cm)."""
        from vision.synth import occluders

        canvas = self._cards(tuple(sorted(table, key=lambda p: (p.zone, p.y, p.x)))).copy()
        if not still:
            target = reach or (self.rng.uniform(0, self.table_cm[0]), self.rng.uniform(0, self.table_cm[1]))
            point = self._project(np.array([target]))[0]
            point = point + self.rng.normal(0, 0.5 * CARD_WIDTH_CM * self.pixels_per_cm, 2)  # it moves every frame
            colour, alpha = occluders.hand(self.rng, self.width, self.height, CARD_HEIGHT_CM * self.pixels_per_cm,
                                           (float(point[0]), float(point[1])))
            alpha = self._blurred(alpha)
            canvas *= 1 - SHADOW_DEPTH * self._hand_shadow(alpha)[:, :, None]
            canvas += alpha[:, :, None] * (colour - canvas)
        canvas *= self.light
        dy, dx = self.rng.integers(0, _GRAIN_SLACK, 2)
        canvas += self._grain[dy:dy + self.height, dx:dx + self.width]
        return np.clip(canvas, 0, 255).astype(np.uint8)


    def _cards(self, table: tuple[Placed, ...]) -> np.ndarray:
        """The felt with the cards and their shadows, kept while the table stays the same (still frames)."""
        if self._table_canvas is not None and self._table_canvas[0] == table:
            return self._table_canvas[1]
        canvas = self.background.copy()
        self._shadows(canvas, table)
        for placed in table:
            if placed.zone == "stock":  # a few cards deep
                for k in (2, 1):
                    self._card(canvas, placed, (0.08 * k, -0.08 * k))
            self._card(canvas, placed)
        self._table_canvas = (table, canvas)
        return canvas

    def _blurred(self, alpha: np.ndarray) -> np.ndarray:
        """Motion blur of a moving hand's outline (its colour is smooth already): a line kernel up
        to half a card width long in a random direction, applied at half resolution."""
        small = cv2.resize(alpha, (self.width // 2, self.height // 2), interpolation=cv2.INTER_AREA)
        length = int(self.rng.integers(2, max(3, int(CARD_WIDTH_CM * self.pixels_per_cm / 4))))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(self.rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        kernel /= max(float(kernel.sum()), 1e-6)
        return cv2.resize(cv2.filter2D(small, -1, kernel), (self.width, self.height), interpolation=cv2.INTER_LINEAR)

    def _hand_shadow(self, alpha: np.ndarray) -> np.ndarray:
        """A hand above the table shadows it further off and softer than a card (quarter resolution)."""
        quarter = (self.width // 4, self.height // 4)
        small = cv2.resize(alpha, quarter, interpolation=cv2.INTER_AREA)
        shift = SHADOW_OFFSET_CM[0] * self.pixels_per_cm  # 4x a card's offset, in quarter pixels
        small = cv2.warpAffine(small, np.float32([[1, 0, shift], [0, 1, shift]]), quarter)
        small = cv2.GaussianBlur(small, (0, 0), self.pixels_per_cm / 4)
        return cv2.resize(small, (self.width, self.height), interpolation=cv2.INTER_LINEAR)


def card_quad(placed: Placed, offset: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The four corners (table cm, clockwise from top left) of a card as it lies: turned by a few
    degrees, the same for the same card at the same place (a card does not turn while it lies).

    >>> quad = card_quad(Placed("7H", 40.0, 30.0, "discard"))
    >>> [round(float(v), 1) for v in quad.mean(axis=0)], round(float(np.linalg.norm(quad[1] - quad[0])), 1)
    ([40.0, 30.0], 6.3)
    """
    turn = zlib.crc32(f"{placed.code} {placed.x:.1f} {placed.y:.1f}".encode()) / 0xFFFFFFFF * 2 - 1
    angle = np.radians(CARD_TURN_DEG * turn)
    c, s = np.cos(angle), np.sin(angle)
    half = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * (CARD_WIDTH_CM / 2, CARD_HEIGHT_CM / 2)
    turned = half @ np.array([[c, s], [-s, c]])
    return (turned + (placed.x + offset[0], placed.y + offset[1])).astype(np.float32)


def _reach(table: Sequence[Placed], before: Sequence[Placed]) -> tuple[float, float] | None:
    """Where the players act: the centre of what changed since the last still table."""
    changed = set(table) ^ set(before)
    if not changed:
        return None
    return (sum(p.x for p in changed) / len(changed), sum(p.y for p in changed) / len(changed))


def rendered_frames(frames: Iterable[SimFrame], renderer: GameRenderer) -> Iterator[np.ndarray]:
    """Each of ``frames`` (a simulated Gin hand's or Wiener round's) photographed, one at a time: a
    new action brings new light, and a hand reaches where the table changes."""
    before: tuple[Placed, ...] = ()
    was_still = True
    for frame in frames:
        if was_still and not frame.still:
            renderer.new_action()
        yield renderer.render(frame.table, frame.still, None if frame.still else _reach(frame.table, before))
        if frame.still:
            before = frame.table
        was_still = frame.still


def render_hand(hand: SimulatedHand, renderer: GameRenderer, write: Callable[[np.ndarray], None]) -> int:
    """Render every frame of ``hand`` through ``write``; returns the number of frames."""
    for image in rendered_frames(hand.frames, renderer):
        write(image)
    return len(hand.frames)


def simulate_match(seed: int, hands: int, players: tuple[str, str] = ("Ann", "Ben"),
                   zones: ZoneMap | None = None, first_dealer: str | None = None, pace: Pace = Pace()) -> list[SimulatedHand]:
    """``hands`` simulated hands from ``seed``, each dealt by whom the match rules say (the loser deals);
    ``pace`` sets how many frames an action takes."""
    match = new_match(players, first_dealer or players[1])
    played = []
    for number in range(hands):
        if match.finished:
            break
        hand = simulate_hand(seed + number, zones=zones, players=players, dealer=match.next_dealer, pace=pace)
        match = match.record(hand.result)
        played.append(hand)
    return played


def hand_truth(hand: SimulatedHand, first_frame: int) -> dict:
    """The ground truth of one hand as JSON (frame numbers in the folder, 1-based)."""
    from rummyref.pipeline import event_json

    events = []
    for event in hand.truth:
        data = event_json(event, 0)
        data["frame"] = first_frame + event.frame_id
        data.pop("hand")
        data.pop("seq")
        events.append(data)
    return {"seed": hand.seed, "dealer": hand.dealer, "players": list(hand.players), "outcome": hand.outcome,
            "result": hand.result.to_dict(), "first_frame": first_frame, "frames": len(hand.frames), "events": events}


def write_game(out: Path, seed: int, hands: int, width: int = 1280, height: int = 720,
               players: tuple[str, str] = ("Ann", "Ben"), max_frames: int | None = None,
               progress: Callable[[str], None] = lambda text: None, pace: Pace = Pace()) -> dict:
    """Render ``hands`` hands into ``out`` (``f000001.jpg``...) with ``game.json`` (setup) and
    ``truth.json`` (ground truth); returns the truth. ``max_frames`` cuts the game short (tests)."""
    out.mkdir(parents=True, exist_ok=True)
    if any(out.glob("f*.jpg")):
        raise FileExistsError(f"{out} already holds frames; render into an empty folder")
    zones = default_zones("gin", 2)
    renderer = GameRenderer(width, height, (zones.width, zones.height), seed=seed)
    count = 0

    class _Full(Exception):
        pass

    def write(image: np.ndarray) -> None:
        nonlocal count
        if max_frames is not None and count >= max_frames:
            raise _Full
        count += 1
        cv2.imwrite(str(out / f"f{count:06d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])

    truth = {"seed": seed, "players": list(players), "first_dealer": players[1], "design": renderer.deck.design,
             "size": [width, height], "table_cm": [zones.width, zones.height], "hands": []}
    for number, hand in enumerate(simulate_match(seed, hands, players, zones, pace=pace), start=1):
        first = count + 1
        try:
            render_hand(hand, renderer, write)
        except _Full:
            truth["hands"].append(hand_truth(hand, first) | {"complete": False})
            break
        truth["hands"].append(hand_truth(hand, first) | {"complete": True})
        progress(f"hand {number}: {len(hand.frames)} frames, {hand.outcome} ({count} frames in all)")
    setup = {key: truth[key] for key in ("players", "first_dealer", "table_cm", "size")}
    (out / "game.json").write_text(json.dumps(setup, indent=1))
    (out / "truth.json").write_text(json.dumps(truth, indent=1))
    return truth


def read_setup(folder: Path) -> dict | None:
    """The setup a rendered game was made with (players, first dealer, table size), or None."""
    path = folder / "game.json"
    return json.loads(path.read_text()) if path.is_file() else None
