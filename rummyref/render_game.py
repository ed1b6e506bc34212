"""Simulated Gin hands as a camera would film them: a frame folder that ``--camera dir:`` plays.

:func:`engine.simulate.simulate_hand` says what truly lies where in every frame (card centres in
table cm, face up or down, whether a hand is over the table). :class:`GameRenderer` photographs
that: a felt table with the four ArUco corner markers (so calibration works as on a real table),
seen through a slightly tilted camera, cards drawn with a held-out deck design (never seen in the
recognizer's training), a hand reaching over the table while players act, room light that
changes between actions, and sensor noise in every frame.

>>> renderer = GameRenderer(width=320, height=180, seed=1)
>>> from engine.simulate import Placed
>>> image = renderer.render((Placed("7H", 40.0, 30.0, "discard"),), still=True)
>>> image.shape, image.dtype
((180, 320, 3), dtype('uint8'))
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from engine.match import new_match
from engine.simulate import Placed, SimulatedHand, simulate_hand
from engine.tracker import BACK
from engine.zones import CARD_HEIGHT_CM, CARD_WIDTH_CM, ZoneMap, default_zones

MARKER_CM = 5.0
"""Printed marker side; the markers' centres are the table corners."""
MARGIN_CM = 5.0
"""Table shown beyond the markers' centres."""
FELT_BGR = (38, 105, 30)
_GRAIN_SLACK = 64


class GameRenderer:
    """Photographs simulated tables: ``render(table, still)`` -> a BGR frame.

    ``design`` is a deck design (default: the first held-out one). The camera looks down with a
    small random tilt (``seed``); the table of ``table_cm`` fills the frame's height.
    """

    def __init__(self, width: int = 1280, height: int = 720, table_cm: tuple[float, float] = (80.0, 60.0),
                 design: str | None = None, seed: int = 0, noise: float = 2.5) -> None:
        from vision.synth.decks import HELDOUT_DESIGNS, load_deck

        self.width, self.height, self.table_cm = width, height, table_cm
        self.rng = np.random.default_rng(seed)
        self.deck = load_deck(design or HELDOUT_DESIGNS[0])
        self.noise = noise
        # Sensor noise: one field larger than the frame, a different crop each frame (drawing
        # 2.7 million fresh normals per 1280x720 frame would be most of the rendering time).
        self._grain = self.rng.standard_normal((height + _GRAIN_SLACK, width + _GRAIN_SLACK, 3), dtype=np.float32) * noise
        self.to_image = self._camera()
        self.background = self._table()
        self.light = 1.0
        self._hand_layer: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def pixels_per_cm(self) -> float:
        """Magnification at the table centre."""
        centre = np.array(self.table_cm) / 2
        a, b = cv2.perspectiveTransform(np.array([[centre, centre + (1, 0)]], np.float64), self.to_image)[0]
        return float(np.linalg.norm(b - a))

    def _camera(self) -> np.ndarray:
        """Homography table cm -> image: the table (with margins) fitted to the frame, then tilted a little."""
        tw, th = self.table_cm
        span_w, span_h = tw + 2 * MARGIN_CM, th + 2 * MARGIN_CM
        scale = min(self.width / span_w, self.height / span_h) * 0.94
        ox, oy = (self.width - span_w * scale) / 2, (self.height - span_h * scale) / 2
        table = np.float32([(0, 0), (tw, 0), (tw, th), (0, th)])
        flat = (table + MARGIN_CM) * scale + (ox, oy)
        # perspective: the far edge (top) a few percent narrower, a slight turn
        squeeze = self.rng.uniform(0.02, 0.06) * span_w * scale
        turn = self.rng.uniform(-0.015, 0.015) * self.height
        tilted = flat + np.float32([(squeeze, turn), (-squeeze, -turn), (0, 0), (0, 0)])
        return cv2.getPerspectiveTransform(table, tilted.astype(np.float32))

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
        face = self.deck.faces["BACK" if placed.code == BACK else placed.code]
        x, y = placed.x + offset[0], placed.y + offset[1]
        half_w, half_h = CARD_WIDTH_CM / 2, CARD_HEIGHT_CM / 2
        quad = np.float32([(x - half_w, y - half_h), (x + half_w, y - half_h), (x + half_w, y + half_h), (x - half_w, y + half_h)])
        card_px = CARD_HEIGHT_CM * self.pixels_per_cm
        self._paste(canvas, face.shrunk(card_px / face.size[1]), quad)

    def new_action(self) -> None:
        """Between actions the room light drifts a little and the hand moves elsewhere."""
        self.light = float(np.clip(self.light * self.rng.uniform(0.96, 1.04), 0.85, 1.15))
        self._hand_layer = None

    def render(self, table: Sequence[Placed], still: bool, reach: tuple[float, float] | None = None) -> np.ndarray:
        """One frame of ``table``; while not ``still`` a hand reaches towards ``reach`` (table cm)."""
        from vision.synth import occluders

        canvas = self.background.copy()
        for placed in sorted(table, key=lambda p: (p.zone, p.y, p.x)):
            if placed.zone == "stock":  # a few cards deep
                for k in (2, 1):
                    self._card(canvas, placed, (0.08 * k, -0.08 * k))
            self._card(canvas, placed)
        if not still:
            target = reach or (self.rng.uniform(0, self.table_cm[0]), self.rng.uniform(0, self.table_cm[1]))
            point = self._project(np.array([target]))[0]
            point = point + self.rng.normal(0, 0.5 * CARD_WIDTH_CM * self.pixels_per_cm, 2)  # it moves every frame
            colour, alpha = occluders.hand(self.rng, self.width, self.height, CARD_HEIGHT_CM * self.pixels_per_cm,
                                           (float(point[0]), float(point[1])))
            canvas += alpha[:, :, None] * (colour - canvas)
        canvas *= self.light
        dy, dx = self.rng.integers(0, _GRAIN_SLACK, 2)
        canvas += self._grain[dy:dy + self.height, dx:dx + self.width]
        return np.clip(canvas, 0, 255).astype(np.uint8)


def _reach(table: Sequence[Placed], before: Sequence[Placed]) -> tuple[float, float] | None:
    """Where the players act: the centre of what changed since the last still table."""
    changed = set(table) ^ set(before)
    if not changed:
        return None
    return (sum(p.x for p in changed) / len(changed), sum(p.y for p in changed) / len(changed))


def render_hand(hand: SimulatedHand, renderer: GameRenderer, write: Callable[[np.ndarray], None]) -> int:
    """Render every frame of ``hand`` through ``write``; returns the number of frames."""
    before: tuple[Placed, ...] = ()
    was_still = True
    for frame in hand.frames:
        if was_still and not frame.still:
            renderer.new_action()
        write(renderer.render(frame.table, frame.still, None if frame.still else _reach(frame.table, before)))
        if frame.still:
            before = frame.table
        was_still = frame.still
    return len(hand.frames)


def simulate_match(seed: int, hands: int, players: tuple[str, str] = ("Ann", "Ben"),
                   zones: ZoneMap | None = None, first_dealer: str | None = None) -> list[SimulatedHand]:
    """``hands`` simulated hands from ``seed``, each dealt by whom the match rules say (the loser deals)."""
    match = new_match(players, first_dealer or players[1])
    played = []
    for number in range(hands):
        if match.finished:
            break
        hand = simulate_hand(seed + number, zones=zones, players=players, dealer=match.next_dealer)
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
               progress: Callable[[str], None] = lambda text: None) -> dict:
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
    for number, hand in enumerate(simulate_match(seed, hands, players, zones), start=1):
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
