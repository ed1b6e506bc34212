"""Things that lie on or over the cards: hands and fingers, and table clutter
(coins, pens, cups, phones, printed paper with letters and digits that must
not be read as cards).

Each drawer returns a layer ``(colour, alpha)`` over the whole image, float32,
sized relative to ``card_px`` (the height of a card in the image).

>>> import numpy as np
>>> colour, alpha = hand(np.random.default_rng(2), 200, 160, 80.0)
>>> colour.shape, alpha.shape, 0.0 < float(alpha.max()) <= 1.0
((160, 200, 3), (160, 200), True)
"""

from __future__ import annotations

import cv2
import numpy as np

from .backgrounds import smooth_noise

Layer = tuple[np.ndarray, np.ndarray]

# BGR skin tones from very light to very dark.
_SKIN = np.float32([[185, 200, 240], [150, 175, 225], [120, 150, 205], [95, 125, 180], [70, 95, 150],
                    [50, 70, 115], [35, 50, 80]])


def _capsule(mask: np.ndarray, start: np.ndarray, end: np.ndarray, radius: float) -> None:
    thickness = max(1, int(2 * radius))
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0, thickness, cv2.LINE_AA)


def hand(rng: np.random.Generator, width: int, height: int, card_px: float) -> Layer:
    """A hand reaching in from an image border: arm, palm, some fingers and a
    thumb (or a single pointing finger), skin-coloured with soft shading."""
    mask = np.zeros((height, width), np.float32)
    side = rng.integers(4)
    entry = np.float32([[rng.uniform(0, width), 0], [width, rng.uniform(0, height)],
                        [rng.uniform(0, width), height], [0, rng.uniform(0, height)]][side])
    inward = np.float32([[0, 1], [-1, 0], [0, -1], [1, 0]][side])
    turn = rng.uniform(-0.7, 0.7)
    direction = np.float32([inward[0] * np.cos(turn) - inward[1] * np.sin(turn),
                            inward[0] * np.sin(turn) + inward[1] * np.cos(turn)])
    normal = np.float32([-direction[1], direction[0]])
    scale = card_px * rng.uniform(0.8, 1.2)
    palm = entry + direction * scale * rng.uniform(0.3, 2.0)
    _capsule(mask, entry - direction * scale, palm, 0.4 * scale)
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(0.5 * scale), int(0.45 * scale)),
                float(np.degrees(np.arctan2(direction[1], direction[0]))), 0, 360, 1.0, -1, cv2.LINE_AA)
    pointing = rng.random() < 0.3
    fingers = [0.0] if pointing else np.linspace(-0.3, 0.3, 4) + rng.normal(0, 0.05, 4)
    for k, spread in enumerate(fingers):
        base = palm + direction * 0.35 * scale + normal * spread * scale
        length = scale * (rng.uniform(0.7, 1.0) if pointing else rng.uniform(0.4, 0.85)) * (0.8 if k in (0, 3) else 1.0)
        bend = direction + normal * rng.normal(0, 0.15)
        _capsule(mask, base, base + bend / np.linalg.norm(bend) * length, 0.09 * scale)
    thumb_side = 1 if rng.random() < 0.5 else -1
    thumb_base = palm + normal * thumb_side * 0.35 * scale
    _capsule(mask, thumb_base, thumb_base + (normal * thumb_side + direction) * 0.4 * scale, 0.1 * scale)
    alpha = cv2.GaussianBlur(mask, (0, 0), max(0.6, card_px / 150)).clip(0, 1)
    tone = _SKIN[rng.integers(len(_SKIN))] * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    shade = 0.75 + 0.4 * smooth_noise(rng, width, height, max(8.0, scale / 2))
    colour = tone * shade[:, :, None]
    return colour, alpha


def clutter(rng: np.random.Generator, width: int, height: int, card_px: float) -> Layer:
    """One object on the table: a coin, pen, cup rim, phone or printed paper."""
    mask = np.zeros((height, width), np.float32)
    colour = np.empty((height, width, 3), np.float32)
    centre = np.float32([rng.uniform(0, width), rng.uniform(0, height)])
    kind = rng.integers(5)
    base = rng.uniform(20, 235, 3).astype(np.float32)
    colour[:] = base
    c = tuple(int(v) for v in centre)
    if kind == 0:  # coin
        radius = int(card_px * rng.uniform(0.1, 0.2))
        cv2.circle(mask, c, radius, 1.0, -1, cv2.LINE_AA)
        colour[:] = np.float32([[60, 140, 180], [160, 160, 160], [50, 90, 150]][rng.integers(3)])
    elif kind == 1:  # pen or pencil
        angle = rng.uniform(0, np.pi)
        half = np.float32([np.cos(angle), np.sin(angle)]) * card_px * rng.uniform(0.6, 1.0)
        _capsule(mask, centre - half, centre + half, card_px * 0.04)
    elif kind == 2:  # cup or glass rim seen from above
        radius = int(card_px * rng.uniform(0.35, 0.5))
        cv2.circle(mask, c, radius, 1.0, -1, cv2.LINE_AA)
        cv2.circle(colour, c, int(radius * 0.85), tuple(float(v) * 0.5 for v in base), -1)
    elif kind == 3:  # phone
        size = (int(card_px * 0.45), int(card_px * 0.9))
        box = cv2.boxPoints((c, size, rng.uniform(0, 180))).astype(np.int32)
        cv2.fillConvexPoly(mask, box, 1.0, cv2.LINE_AA)
        colour[:] = rng.uniform(10, 50)
    else:  # paper or a book cover with letters and digits on it
        size = (int(card_px * rng.uniform(1, 2.5)), int(card_px * rng.uniform(1, 2.5)))
        box = cv2.boxPoints((c, size, rng.uniform(0, 180))).astype(np.int32)
        cv2.fillConvexPoly(mask, box, 1.0, cv2.LINE_AA)
        sheet = np.empty((height, width, 3), np.uint8)  # putText draws on 8-bit images only
        sheet[:] = rng.uniform(180, 250, 3)
        ink = tuple(float(v) for v in rng.uniform(0, 120, 3))
        for _ in range(int(rng.integers(3, 10))):
            text = "".join(rng.choice(list("AKQJ0123456789abcdefghijklmnopqrstuvwxyz "), int(rng.integers(1, 8))))
            org = (int(centre[0] + rng.uniform(-0.5, 0.5) * size[0]), int(centre[1] + rng.uniform(-0.5, 0.5) * size[1]))
            cv2.putText(sheet, text, org, int(rng.integers(0, 8)), card_px / 120 * rng.uniform(0.5, 2), ink,
                        max(1, int(card_px / 80)), cv2.LINE_AA)
        colour = sheet.astype(np.float32)
    return colour, cv2.GaussianBlur(mask, (0, 0), 0.7)
