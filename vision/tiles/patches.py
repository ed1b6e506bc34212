"""The tile classifier's view: one tile cut upright from the frame, white-balanced on its face.

Shared by training (:mod:`vision.train.tiles`) and the reader, so the two cannot drift apart.
The cut is :func:`vision.geometry.index_patch_transform` (the card crop's geometry) widened to a
``PATCH_WIDTH`` x ``PATCH_HEIGHT`` rectangle; ``angle`` is the tile's up direction as in
:mod:`vision.geometry`.

>>> frame = np.zeros((100, 100, 3), np.uint8)
>>> frame[30:70, 35:65] = (150, 200, 230)          # a cream face under warm light
>>> patch = tile_patch(frame, (50.0, 50.0), 0.0, 40.0)
>>> patch.shape, [round(v, -1) for v in patch[20, 16].tolist()]     # balanced: the face comes out neutral
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


def balance(patches: np.ndarray) -> np.ndarray:
    """Scale each channel so the tile face (the bright half of the patch's middle) is a neutral
    :data:`FACE_LEVEL` grey: warm or cold light and cream or white faces all look alike, and
    the ink keeps its hue relative to the face. Takes one patch (H, W, 3) or a batch
    (N, H, W, 3), uint8.

    >>> patch = np.full((40, 32, 3), (100, 150, 200), np.uint8); patch[5:10, 5:10] = 20
    >>> balance(patch)[20, 16].tolist(), balance(patch)[7, 7].tolist()
    ([220, 219, 220], [44, 29, 22])
    """
    batch = patches if patches.ndim == 4 else patches[None]
    n, h, w = batch.shape[:3]
    middle = batch[:, h // 6:h - h // 6, w // 5:w - w // 5].reshape(n, -1, 3).astype(np.float32)
    brightness = middle[:, :, 0] + middle[:, :, 1] + middle[:, :, 2]
    # The median brightness from a sort of whole levels (numpy sorts uint16 by radix, far
    # faster than its median); the sums over the bright half are of whole levels, exact in float32.
    ordered = np.sort(brightness.astype(np.uint16), axis=1)
    size = ordered.shape[1]
    median = (ordered[:, (size - 1) // 2] + ordered[:, size // 2].astype(np.float64)) / 2
    bright = brightness >= median[:, None]
    face = np.matmul(bright[:, None, :].astype(np.float32), middle)[:, 0] / bright.sum(axis=1, keepdims=True)
    gains = FACE_LEVEL / np.maximum(face, 8.0)
    # Each channel of a patch maps its 256 levels through one table (the scaled level, clipped
    # and truncated, as scaling every pixel would give it; a tenth of the work).
    tables = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains[:, None, :], 0, 255).astype(np.uint8)
    balanced = np.empty_like(batch)
    for k in range(n):
        cv2.LUT(batch[k], tables[k][:, None, :], dst=balanced[k])
    return balanced if patches.ndim == 4 else balanced[0]


def balanced_both_ways(upright: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) upright patches balanced (:func:`balance`), each followed by itself turned
    over: (2N, H, W, 3). A patch turned over balances alike (its middle holds the same pixels and
    the face's sums are exact), so each is balanced once.

    >>> upright = np.random.default_rng(0).integers(0, 256, (2, 40, 32, 3), dtype=np.uint8)
    >>> both = balanced_both_ways(upright)
    >>> both.shape, bool((both[3] == balance(upright[1, ::-1, ::-1])).all())
    ((4, 40, 32, 3), True)
    """
    balanced = balance(upright)
    both = np.empty((2 * len(upright), *upright.shape[1:]), upright.dtype)
    both[0::2], both[1::2] = balanced, balanced[:, ::-1, ::-1]
    return both


def cut_patch(frame: np.ndarray, center: tuple[float, float], angle: float, height: float) -> np.ndarray:
    """The upright patch of a tile as the camera saw it (not balanced)."""
    matrix = index_patch_transform(center, angle, height, PATCH_HEIGHT, PATCH_CONTEXT)
    matrix[0, 2] -= (PATCH_HEIGHT - PATCH_WIDTH) / 2
    return cv2.warpAffine(frame, matrix, (PATCH_WIDTH, PATCH_HEIGHT), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def tile_patch(frame: np.ndarray, center: tuple[float, float], angle: float, height: float) -> np.ndarray:
    """The balanced upright patch (``PATCH_HEIGHT`` x ``PATCH_WIDTH``) of the tile at ``center``."""
    return balance(cut_patch(frame, center, angle, height))


def jittered_patch(frame: np.ndarray, center: tuple[float, float], angle: float, height: float,
                   rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """:func:`tile_patch` with the outline finder's errors: the centre off by ~6 % of the
    height, the angle by ~4 degrees, the height by ~8 % (normal, times ``strength``)."""
    dx, dy = rng.normal(0, 0.06 * strength, 2) * height
    return tile_patch(frame, (center[0] + dx, center[1] + dy), angle + rng.normal(0, math.radians(4) * strength),
                      height * math.exp(rng.normal(0, 0.08 * strength)))
