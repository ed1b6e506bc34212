"""The tile classifier's view: one tile cut upright from the frame, white-balanced on its face.

Shared by training (:mod:`vision.train.tiles`) and the reader, so the two cannot drift apart.
The cut is :func:`vision.geometry.index_patch_transform` (the card crop's geometry) widened to a
``PATCH_WIDTH`` x ``PATCH_HEIGHT`` rectangle; ``angle`` is the tile's up direction as in
:mod:`vision.geometry`.

>>> frame = np.zeros((100, 100, 3), np.uint8)
>>> frame[30:70, 35:65] = (150, 200, 230)          # a cream face under warm light
>>> patch = tile_patch(frame, (50.0, 50.0), 0.0, 40.0)
>>> patch.shape, patch[20, 16].tolist()            # balanced: the face comes out neutral
((40, 32, 3), [220, 220, 220])
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.geometry import index_patch_transform

PATCH_HEIGHT = 40
PATCH_WIDTH = 32
PATCH_CONTEXT = 1.1
"""The patch height covers this many tile heights."""
FACE_LEVEL = 220.0
"""The grey the face is balanced to."""


def balance(patch: np.ndarray) -> np.ndarray:
    """Scale each channel so the tile face (the bright majority of the patch's middle) is a
    neutral :data:`FACE_LEVEL` grey: warm or cold light and cream or white faces all look
    alike, and the ink keeps its hue relative to the face."""
    h, w = patch.shape[:2]
    middle = patch[h // 6:h - h // 6, w // 5:w - w // 5].reshape(-1, 3).astype(np.float32)
    brightness = middle.sum(axis=1)
    face = middle[brightness >= np.percentile(brightness, 50)].mean(axis=0)
    gains = FACE_LEVEL / np.maximum(face, 8.0)
    return np.clip(patch.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def tile_patch(frame: np.ndarray, center: tuple[float, float], angle: float, height: float) -> np.ndarray:
    """The balanced upright patch (``PATCH_HEIGHT`` x ``PATCH_WIDTH``) of the tile at ``center``."""
    matrix = index_patch_transform(center, angle, height, PATCH_HEIGHT, PATCH_CONTEXT)
    matrix[0, 2] -= (PATCH_HEIGHT - PATCH_WIDTH) / 2
    patch = cv2.warpAffine(frame, matrix, (PATCH_WIDTH, PATCH_HEIGHT), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    return balance(patch)


def jittered_patch(frame: np.ndarray, center: tuple[float, float], angle: float, height: float,
                   rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """:func:`tile_patch` with the outline finder's errors: the centre off by ~6 % of the
    height, the angle by ~4 degrees, the height by ~8 % (normal, times ``strength``)."""
    dx, dy = rng.normal(0, 0.06 * strength, 2) * height
    return tile_patch(frame, (center[0] + dx, center[1] + dy), angle + rng.normal(0, math.radians(4) * strength),
                      height * math.exp(rng.normal(0, 0.08 * strength)))
