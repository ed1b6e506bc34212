"""Training data for both stages, cut from scenes of :mod:`vision.synth`.

Everything is generated in memory from a seed, so ``python -m vision.train``
needs nothing on disk but the deck artwork the synth package renders.

- Detector samples: each scene scaled so its indices are 6..64 px tall (the
  range the detector meets after :class:`vision.recognizer.Recognizer` scales a
  frame), stored whole; random crops and target maps are drawn per step.
- Classifier samples: upright patches cut with :func:`vision.patches.index_patch`
  from the full-resolution scene with the position, angle and size errors the
  detector makes, plus "not an index" patches: card faces, table, indices
  turned upside down or mostly covered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterator

import cv2
import numpy as np

from vision.geometry import angle_of_up
from vision.labels import BACK_CODE, NONE_CLASS, class_of
from vision.patches import PATCH_SIZE, index_patch

MIN_VISIBLE = 0.6
"""An index at least this visible must be read; below IGNORE_VISIBLE it must be rejected."""
IGNORE_VISIBLE = 0.3


@dataclass(frozen=True)
class IndexLabel:
    """One corner index of a scene in this package's conventions (see :mod:`vision.patches`)."""

    card: str
    x: float
    y: float
    angle: float
    size: float
    visible: float


@dataclass(frozen=True)
class BackLabel:
    """A face-down card: the centre of its visible part and the card's height."""

    x: float
    y: float
    height: float
    visible: float


def scene_labels(scene) -> tuple[list[IndexLabel], list[BackLabel]]:
    """The one place that reads :class:`vision.synth` annotations (same angle convention)."""
    indices = [IndexLabel(a.card, float(a.center[0]), float(a.center[1]), float(a.angle),
                          float(a.size), float(a.visible)) for a in scene.indices]
    backs = []
    for card in scene.cards:
        if card.card != BACK_CODE or card.visible < IGNORE_VISIBLE:
            continue
        outline = np.asarray(card.outline, np.float64)
        height = float(np.linalg.norm(outline[3] - outline[0]))
        cx, cy = outline.mean(axis=0)
        backs.append(BackLabel(float(cx), float(cy), height, float(card.visible)))
    return indices, backs


@dataclass(frozen=True)
class FaceLabel:
    """A face-up card: its outline (top-left, top-right, bottom-right, bottom-left of the upright card)."""

    outline: np.ndarray
    visible: float

    @property
    def angle(self) -> float:
        """The card's glyph angle (see :mod:`vision.geometry`): its up direction, bottom-left to top-left."""
        return angle_of_up(self.outline[0] - self.outline[3])

    def point(self, u: float, v: float) -> tuple[float, float]:
        """The image point at fractions ``u`` across and ``v`` down the card."""
        top = self.outline[0] + u * (self.outline[1] - self.outline[0])
        bottom = self.outline[3] + u * (self.outline[2] - self.outline[3])
        x, y = top + v * (bottom - top)
        return float(x), float(y)


def scene_faces(scene) -> list[FaceLabel]:
    """The face-up cards of a scene that show at least a little."""
    return [FaceLabel(np.asarray(card.outline, np.float64), float(card.visible)) for card in scene.cards
            if card.card != BACK_CODE and card.visible >= IGNORE_VISIBLE]


def render_scenes(seed: int, count: int, designs: str | tuple[str, ...] = "train", kinds: bool = True,
                  table_overlap: tuple[float, float] | None = None, layouts: float = 0.0, grazing: float = 0.0,
                  **changes) -> Iterator:
    """``count`` scenes from one seed: mostly table scenes, some close-ups and small
    phone photos (when ``kinds``), each portrait or landscape; ``changes`` override
    :class:`vision.synth.scenes.SceneParams` fields (e.g. ``overlap=0.9``).
    ``table_overlap`` draws each table scene's overlap uniformly from that
    range (tight fans in many scenes, not only in a few) instead of the
    table default 0.6; close-ups and small photos keep theirs. ``layouts`` and
    ``grazing`` are the shares of scenes that are instead photos of ``learn-deck``'s
    upright layout (:meth:`SceneParams.layout`) or taken from low over the table
    (:meth:`SceneParams.grazing`).

    >>> scenes = render_scenes(3, 2, table_overlap=(0.9, 0.8))
    >>> next(scenes)
    Traceback (most recent call last):
    ...
    ValueError: table_overlap must be a range (low, high) within 0..1, got (0.9, 0.8)
    """
    from vision.synth.scenes import SceneParams, render_scene

    if table_overlap is not None and not 0.0 <= table_overlap[0] <= table_overlap[1] <= 1.0:
        raise ValueError(f"table_overlap must be a range (low, high) within 0..1, got {table_overlap}")
    if not (0.0 <= layouts and 0.0 <= grazing and layouts + grazing <= 1.0):
        raise ValueError(f"layouts and grazing must be shares that add up to at most 1, got {layouts} and {grazing}")
    rng = np.random.default_rng(seed)
    for _ in range(count):
        roll = rng.random() if kinds else 0.0
        params = (SceneParams.closeup(designs=designs) if roll > 0.88 else
                  SceneParams.small_photo(designs=designs) if roll > 0.72 else SceneParams(designs=designs))
        if table_overlap is not None and roll <= 0.72:
            # Drawn only when asked, so that the default stream of scenes stays as it was.
            params = replace(params, overlap=float(rng.uniform(*table_overlap)))
        if kinds and (layouts or grazing):     # drawn only when asked, as above
            kind = rng.random()
            if kind < layouts:
                params = SceneParams.layout(designs=designs)
            elif kind < layouts + grazing:
                params = SceneParams.grazing(designs=designs)
        if kinds and rng.random() < 0.25:
            params = params.portrait()
        yield render_scene(rng, replace(params, **changes))


# Detector --------------------------------------------------------------------
@dataclass
class DetectorScene:
    """A scene scaled for the detector, with labels in its pixel coordinates."""

    image: np.ndarray
    indices: list[IndexLabel]
    backs: list[BackLabel]


def scale_for_detector(image: np.ndarray, indices: list[IndexLabel], backs: list[BackLabel],
                       rng: np.random.Generator) -> DetectorScene:
    """Scale so that the scene's median index lands log-uniformly in 5..72 px."""
    sizes = [i.size for i in indices] or [b.height / 5 for b in backs] or [20.0]
    target = math.exp(rng.uniform(math.log(5), math.log(72)))
    scale = target / float(np.median(sizes))
    h, w = image.shape[:2]
    # Keep stored images small: the crop is 256 px, no need for much more.
    scale = min(scale, 1100 / max(h, w)) if max(h, w) * scale > 1100 else scale
    new_size = (max(32, round(w * scale)), max(32, round(h * scale)))
    resized = cv2.resize(image, new_size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sx = new_size[0] / w
    return DetectorScene(
        resized,
        [IndexLabel(i.card, i.x * sx, i.y * sx, i.angle, i.size * sx, i.visible) for i in indices],
        [BackLabel(b.x * sx, b.y * sx, b.height * sx, b.visible) for b in backs],
    )


def _splat(heat: np.ndarray, weight: np.ndarray, x: float, y: float, sigma: float, ignore: bool) -> tuple[int, int] | None:
    """Draw a Gaussian centred at (x, y) (cell units, cell centres at integers) with
    1.0 at the nearest cell, or an ignore disc; returns that cell if it is on the map."""
    h, w = heat.shape
    cx, cy = int(math.floor(x + 0.5)), int(math.floor(y + 0.5))
    radius = max(1, int(math.ceil(2.5 * sigma)))
    x0, x1, y0, y1 = max(0, cx - radius), min(w, cx + radius + 1), max(0, cy - radius), min(h, cy + radius + 1)
    if x0 >= x1 or y0 >= y1:
        return None
    if ignore:
        weight[y0:y1, x0:x1] = 0.0
        return None
    gy, gx = np.mgrid[y0:y1, x0:x1]
    g = np.exp(-((gx - x) ** 2 + (gy - y) ** 2) / (2 * sigma * sigma))
    np.maximum(heat[y0:y1, x0:x1], g, out=heat[y0:y1, x0:x1])
    if not (0 <= cx < w and 0 <= cy < h):
        return None
    heat[cy, cx] = 1.0
    return cy, cx


def detector_targets(scene: DetectorScene, x0: int, y0: int, size: int, quarter_turns: int, stride: int = 4):
    """Target maps for a ``size`` square crop at (x0, y0), turned by ``quarter_turns`` x 90 degrees.

    Returns ``heat (2, S, S)``, ``weight (2, S, S)`` (0 = ignore), ``regression
    (4, S, S)`` = cos, sin, log size, back log size, and ``reg_mask (2, S, S)``.
    """
    cells = size // stride
    heat = np.zeros((2, cells, cells), np.float32)
    weight = np.ones((2, cells, cells), np.float32)
    regression = np.zeros((4, cells, cells), np.float32)
    reg_mask = np.zeros((2, cells, cells), np.float32)
    turn = quarter_turns * math.pi / 2

    def place(x: float, y: float) -> tuple[float, float]:
        # Coordinates in the crop, then turned clockwise like np.rot90(k=-quarter_turns).
        u, v = x - x0, y - y0
        for _ in range(quarter_turns % 4):
            u, v = size - v, u
        return u / stride - 0.5, v / stride - 0.5

    for label in scene.indices:
        u, v = place(label.x, label.y)
        if not (-2 <= u < cells + 2 and -2 <= v < cells + 2):
            continue
        sigma = max(0.6, label.size / stride / 5)
        ignore = label.visible < MIN_VISIBLE
        if label.visible < IGNORE_VISIBLE:
            continue
        peak = _splat(heat[0], weight[0], u, v, sigma, ignore)
        if peak is not None:
            angle = label.angle + turn
            r = max(0, int(label.size / stride / 6))
            py, px = peak
            ys, xs = slice(max(0, py - r), py + r + 1), slice(max(0, px - r), px + r + 1)
            regression[0, ys, xs] = math.cos(angle)
            regression[1, ys, xs] = math.sin(angle)
            regression[2, ys, xs] = math.log(label.size)
            reg_mask[0, ys, xs] = 1.0
    for back in scene.backs:
        u, v = place(back.x, back.y)
        if not (-2 <= u < cells + 2 and -2 <= v < cells + 2):
            continue
        sigma = max(0.8, back.height / stride / 8)
        peak = _splat(heat[1], weight[1], u, v, sigma, back.visible < MIN_VISIBLE)
        if peak is not None:
            py, px = peak
            regression[3, py, px] = math.log(back.height)
            reg_mask[1, py, px] = 1.0
    return heat, weight, regression, reg_mask


def detector_batch(scenes: list[DetectorScene], rng: np.random.Generator, batch: int, size: int = 192):
    """A random batch of crops with their targets, as numpy arrays."""
    images = np.zeros((batch, 3, size, size), np.float32)
    cells = size // 4
    heats = np.zeros((batch, 2, cells, cells), np.float32)
    weights = np.zeros((batch, 2, cells, cells), np.float32)
    regs = np.zeros((batch, 4, cells, cells), np.float32)
    masks = np.zeros((batch, 2, cells, cells), np.float32)
    for b in range(batch):
        scene = scenes[int(rng.integers(len(scenes)))]
        h, w = scene.image.shape[:2]
        canvas = np.zeros((max(h, size), max(w, size), 3), np.uint8)
        canvas[:h, :w] = scene.image
        # Prefer crops that contain indices, and face-down cards (rare in scenes, so easily unlearnt).
        roll = rng.random()
        if scene.backs and roll < 0.3:
            back = scene.backs[int(rng.integers(len(scene.backs)))]
            x0 = int(np.clip(back.x - rng.uniform(0.25, 0.75) * size, 0, canvas.shape[1] - size))
            y0 = int(np.clip(back.y - rng.uniform(0.25, 0.75) * size, 0, canvas.shape[0] - size))
        elif scene.indices and roll < 0.8:
            target = scene.indices[int(rng.integers(len(scene.indices)))]
            x0 = int(np.clip(target.x - rng.uniform(0.1, 0.9) * size, 0, canvas.shape[1] - size))
            y0 = int(np.clip(target.y - rng.uniform(0.1, 0.9) * size, 0, canvas.shape[0] - size))
        else:
            x0 = int(rng.integers(canvas.shape[1] - size + 1))
            y0 = int(rng.integers(canvas.shape[0] - size + 1))
        turns = int(rng.integers(4))
        crop = np.rot90(canvas[y0:y0 + size, x0:x0 + size], k=-turns)
        images[b] = crop.transpose(2, 0, 1) * (1.0 / 255.0)
        heats[b], weights[b], regs[b], masks[b] = detector_targets(scene, x0, y0, size, turns)
    return images, heats, weights, regs, masks


# Classifier ------------------------------------------------------------------
def jitter(label: IndexLabel, rng: np.random.Generator, strength: float = 1.0) -> tuple[tuple[float, float], float, float]:
    """Centre, angle and size with the errors a stride-4 detector makes."""
    shift = rng.normal(0, 0.12 * strength, 2) * label.size
    angle = label.angle + rng.normal(0, math.radians(8) * strength)
    size = label.size * math.exp(rng.normal(0, 0.15 * strength))
    return (label.x + shift[0], label.y + shift[1]), angle, size


def classifier_samples(image: np.ndarray, indices: list[IndexLabel], rng: np.random.Generator,
                       per_index: int = 3, negatives: int = 12, faces: list[FaceLabel] = (),
                       face_negatives: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Patches and class numbers cut from one full-resolution scene.

    Besides the readable indices, "not an index" patches: the table and
    anything at random, covered and upside-down indices, a single glyph of an
    index cut as if it were a whole index (what a detector pass at the wrong
    scale offers), and ``face_negatives`` patches per face-up card from its
    middle -- pips and court artwork, turned like the card's indices.
    """
    patches, classes = [], []
    sizes = [i.size for i in indices] or [30.0]
    seen = [i for i in indices if i.visible >= IGNORE_VISIBLE]

    def clear_of_indices(center: tuple[float, float], reach: float) -> bool:
        return all(math.hypot(center[0] - i.x, center[1] - i.y) >= reach * i.size for i in seen)

    for label in indices:
        if label.visible >= MIN_VISIBLE:
            for _ in range(per_index):
                center, angle, size = jitter(label, rng)
                patches.append(index_patch(image, center, angle, size))
                classes.append(class_of(label.card))
            if rng.random() < 0.3:
                # The rank or the suit glyph alone, cut at glyph size.
                up = -1.0 if rng.random() < 0.5 else 1.0
                along = up * rng.uniform(0.2, 0.3) * label.size
                center = (label.x + along * math.sin(label.angle), label.y - along * math.cos(label.angle))
                patches.append(index_patch(image, center, label.angle + rng.normal(0, 0.1),
                                           label.size * rng.uniform(0.35, 0.5)))
                classes.append(NONE_CLASS)
        if label.visible < IGNORE_VISIBLE or rng.random() < 0.3:
            # Covered indices and upside-down readings must not be read.
            center, angle, size = jitter(label, rng)
            if label.visible >= IGNORE_VISIBLE:
                angle += math.pi
            patches.append(index_patch(image, center, angle, size))
            classes.append(NONE_CLASS)
    h, w = image.shape[:2]
    for _ in range(negatives):
        size = float(rng.choice(sizes)) * math.exp(rng.normal(0, 0.3))
        center = (rng.uniform(0, w), rng.uniform(0, h))
        if clear_of_indices(center, 0.6):
            patches.append(index_patch(image, center, rng.uniform(-math.pi, math.pi), size))
            classes.append(NONE_CLASS)
    typical = float(np.median(sizes))
    for face in faces:
        for _ in range(face_negatives):
            center = face.point(rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.85))
            size = typical * math.exp(rng.normal(0.2, 0.4))
            if 0 <= center[0] < w and 0 <= center[1] < h and clear_of_indices(center, 0.8):
                turn = math.pi if rng.random() < 0.5 else 0.0
                patches.append(index_patch(image, center, face.angle + turn + rng.normal(0, 0.15), size))
                classes.append(NONE_CLASS)
    if not patches:
        return np.zeros((0, PATCH_SIZE, PATCH_SIZE, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(patches), np.asarray(classes, np.int64)


HARD_NEGATIVE_REACH = 1.0
"""A detector peak at least this many index heights from every index of a scene is surely no index."""


def detector_negatives(image: np.ndarray, indices: list[IndexLabel], candidates, limit: int,
                       rng: np.random.Generator) -> np.ndarray:
    """"Not an index" patches where a detector finds an index candidate (objects with ``x``, ``y``,
    ``angle``, ``size``) but the scene has none: the rugs, book covers, artwork and print it
    mistakes for indices, cut as the recognizer would cut them. At most ``limit``, drawn at random.

    >>> rng = np.random.default_rng(0)
    >>> image = np.zeros((100, 100, 3), np.uint8)
    >>> index = IndexLabel("AS", 20.0, 20.0, 0.0, 10.0, 1.0)
    >>> far, near = IndexLabel("", 70.0, 70.0, 0.0, 10.0, 1.0), IndexLabel("", 25.0, 20.0, 0.0, 10.0, 1.0)
    >>> detector_negatives(image, [index], [far, near], 5, rng).shape
    (1, 40, 40, 3)
    """
    clear = [c for c in candidates
             if all(math.hypot(c.x - i.x, c.y - i.y) >= HARD_NEGATIVE_REACH * max(i.size, c.size) for i in indices)]
    chosen = [clear[k] for k in rng.permutation(len(clear))[:limit]]
    if not chosen:
        return np.zeros((0, PATCH_SIZE, PATCH_SIZE, 3), np.uint8)
    return np.stack([index_patch(image, (c.x, c.y), c.angle, c.size) for c in chosen])
