"""Is a face-down card candidate a card, or only a spot that looks like a card's back?

The detector's second heat map answers "does this look like a card back?" from
texture: it also fires on patterned cloth, packaging, a back's pattern printed on
a box, or the artwork in the middle of a face-up court card. A face-down card is
more than its pattern: it is a card-sized rectangle, and the middle of a card
shows no index. :func:`confirm_backs` keeps a candidate only when both hold:

- **Outline**: a rectangle of the card's size (the detector's estimate of the
  card height, ``OUTLINE_SCALES`` around it, card aspects ``OUTLINE_ASPECTS``,
  any turn) whose sides carry edges running along them. :func:`outline_strength`
  measures, for the best such rectangle, the gradient across its sides
  relative to the gradient of the whole neighbourhood (about 0.64 for
  edges of random direction, the level of texture; well above it where a real
  outline is); three of the four sides count, so one may be covered.
- **No index inside**: no index reading lies within ``INSIDE_REACH`` card
  heights of the centre. A face-down card shows none there; the centre of a
  face-up card has its own corner indices that close.

``MIN_OUTLINE`` was chosen on rendered validation scenes, never on real photos:
on 200 scenes of seed 101 (all scene kinds, training designs, clutter 0.9,
back decoys 0.5) it keeps 95 % of the face-down cards that candidate G's
detector finds (98 of 103) and drops 20 of its 44 false ones.
"""

from __future__ import annotations

import math
from typing import Iterable

import cv2
import numpy as np

OUTLINE_CARD_PX = 48
"""The card height the neighbourhood is resampled to before its edges are measured."""
OUTLINE_SCALES = (0.85, 1.0, 1.15)
OUTLINE_ASPECTS = (0.64, 0.72)   # card width / height: bridge to poker size
OUTLINE_TURNS = 36               # rectangle turns tried, over 180 degrees
OUTLINE_SAMPLES = 16             # points per side
MIN_OUTLINE = 2.0
INSIDE_REACH = 0.5


def _side_points() -> tuple[np.ndarray, np.ndarray]:
    """Points on the sides of a unit-height, unit-width rectangle centred at 0 and
    their outward normals, side by side: (4, S, 2) each."""
    t = (np.arange(OUTLINE_SAMPLES) + 0.5) / OUTLINE_SAMPLES - 0.5
    zero, half = np.zeros_like(t), np.full_like(t, 0.5)
    points = np.stack([np.stack([t, -half], 1), np.stack([t, half], 1),
                       np.stack([-half, t], 1), np.stack([half, t], 1)])
    normals = np.stack([np.stack([zero, -half * 2], 1), np.stack([zero, half * 2], 1),
                        np.stack([-half * 2, zero], 1), np.stack([half * 2, zero], 1)])
    return points, normals


_POINTS, _NORMALS = _side_points()


def outline_strength(frame: np.ndarray, center: tuple[float, float], card_height: float) -> float:
    """How clearly a card-sized rectangle outline surrounds ``center`` (BGR frame).

    The edge across the sides of the best-fitting rectangle, relative to the
    neighbourhood's mean gradient: about 0.6 in texture, several times that
    around a card.

    >>> rng = np.random.default_rng(0)
    >>> table = rng.integers(60, 120, (200, 200, 3)).astype(np.uint8)
    >>> card = table.copy()
    >>> _ = cv2.rectangle(card, (65, 50), (135, 150), (40, 40, 170), -1)
    >>> outline_strength(card, (100.0, 100.0), 100.0) > 2 * outline_strength(table, (100.0, 100.0), 100.0)
    True
    """
    scale = OUTLINE_CARD_PX / max(card_height, 1.0)
    half = int(0.8 * OUTLINE_CARD_PX) + 2
    move = np.float32([[scale, 0, half - scale * center[0]], [0, scale, half - scale * center[1]]])
    crop = cv2.warpAffine(frame, move, (2 * half, 2 * half), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    crop = cv2.GaussianBlur(crop, (0, 0), 1.0)
    gx, gy = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    # Per pixel the colour channel with the strongest edge: a red back on brown wood differs in hue more than in grey.
    strongest = (gx * gx + gy * gy).argmax(axis=2)[..., None]
    gx, gy = np.take_along_axis(gx, strongest, 2)[..., 0], np.take_along_axis(gy, strongest, 2)[..., 0]
    level = float(np.hypot(gx, gy).mean()) + 1.0
    best = 0.0
    turns = np.arange(OUTLINE_TURNS) * (math.pi / OUTLINE_TURNS)
    cos, sin = np.cos(turns)[:, None, None], np.sin(turns)[:, None, None]
    for size in OUTLINE_SCALES:
        for aspect in OUTLINE_ASPECTS:
            px = _POINTS[..., 0] * aspect * size * OUTLINE_CARD_PX
            py = _POINTS[..., 1] * size * OUTLINE_CARD_PX
            nx, ny = _NORMALS[..., 0], _NORMALS[..., 1]
            # (turns, 4 sides, samples): the points turned about the centre, and their normals.
            x = np.clip(np.rint(cos * px - sin * py + half).astype(int), 0, 2 * half - 1)
            y = np.clip(np.rint(sin * px + cos * py + half).astype(int), 0, 2 * half - 1)
            across = np.abs(gx[y, x] * (cos * nx - sin * ny) + gy[y, x] * (sin * nx + cos * ny)) / level
            sides = np.sort(np.median(across, axis=2), axis=1)[:, 1:]   # the best three sides of each turn
            best = max(best, float(sides.mean(axis=1).max()))
    return best


def confirm_backs(frame: np.ndarray, backs: Iterable, index_points: list[tuple[float, float]],
                  min_outline: float = MIN_OUTLINE, inside_reach: float = INSIDE_REACH) -> list:
    """The back candidates (``x``, ``y``, ``size`` = card height) that are card-shaped and hold no read index.

    >>> from vision.recognizer import IndexCandidate
    >>> frame = np.full((200, 200, 3), 90, np.uint8)
    >>> _ = cv2.rectangle(frame, (65, 50), (135, 150), (40, 40, 170), -1)
    >>> back = IndexCandidate(100.0, 100.0, 0.0, 100.0, 0.8)
    >>> len(confirm_backs(frame, [back], [])), len(confirm_backs(frame, [back], [(120.0, 130.0)]))
    (1, 0)
    """
    kept = []
    for back in backs:
        if any(math.hypot(x - back.x, y - back.y) < inside_reach * back.size for x, y in index_points):
            continue
        if outline_strength(frame, (back.x, back.y), back.size) >= min_outline:
            kept.append(back)
    return kept
