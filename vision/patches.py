"""Rotation-normalised crops of corner indices, shared by training and run time.

A corner index (rank above suit) is described by its centre, the angle of the
glyphs' up direction and its height in pixels. Angle convention: radians,
0 = glyphs upright in the image, positive = turned clockwise on screen, so the
up vector is ``(sin a, -cos a)`` in image coordinates (y points down).

The classifier sees exactly the patch that :func:`index_patch` cuts, in
training and at run time; that is why this module is the single place that
defines it.

>>> import numpy as np
>>> frame = np.zeros((100, 100, 3), np.uint8)
>>> frame[40:60, 45:55] = 255                      # a bright upright bar
>>> patch = index_patch(PatchSource(frame), (50.0, 50.0), 0.0, 20.0)
>>> patch.shape, patch.dtype
((40, 40, 3), dtype('uint8'))
>>> int(patch[20, 20, 0]), int(patch[1, 1, 0])     # centre bright, corner dark
(255, 0)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

PATCH_SIZE = 40
"""Side of the square patch the classifier reads, in pixels."""

PATCH_CONTEXT = 2.0
"""Patch side as a multiple of the index height: the whole index plus a margin."""


class PatchSource:
    """A frame with a lazily built image pyramid, so that large indices are
    cut from a downscaled level instead of aliasing in a bilinear warp."""

    def __init__(self, frame: np.ndarray) -> None:
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(f"expected a BGR uint8 image of shape (H, W, 3), got {frame.dtype} {frame.shape}")
        self._levels = [frame]

    @property
    def frame(self) -> np.ndarray:
        return self._levels[0]

    def level(self, k: int) -> np.ndarray:
        while len(self._levels) <= k:
            previous = self._levels[-1]
            if min(previous.shape[:2]) < 16:
                return previous
            self._levels.append(cv2.pyrDown(previous))
        return self._levels[k]


def patch_transform(center: tuple[float, float], angle: float, size: float, out: int = PATCH_SIZE,
                    context: float = PATCH_CONTEXT) -> np.ndarray:
    """2x3 matrix taking patch pixel coordinates to frame coordinates.

    >>> m = patch_transform((10.0, 20.0), 0.0, 20.0, out=32, context=1.6)
    >>> [round(float(v), 3) for v in m @ np.array([15.5, 15.5, 1.0])]
    [10.0, 20.0]
    """
    scale = context * size / out
    c, s = math.cos(angle), math.sin(angle)
    right = np.array([c, s]) * scale          # patch +x in the frame
    down = np.array([-s, c]) * scale          # patch +y in the frame
    half = out / 2 - 0.5
    origin = np.asarray(center, dtype=np.float64) - half * right - half * down
    return np.column_stack([right, down, origin])


def index_patch(source: PatchSource, center: tuple[float, float], angle: float, size: float,
                out: int = PATCH_SIZE, context: float = PATCH_CONTEXT) -> np.ndarray:
    """Cut the upright ``out`` x ``out`` patch around one corner index."""
    scale = context * size / out
    level = max(0, int(math.floor(math.log2(scale)))) if scale > 1.0 else 0
    image = source.level(level)
    factor = source.frame.shape[1] / image.shape[1]
    matrix = patch_transform(center, angle, size, out, context)
    # Pyramid level k holds pixel (x, y) of the frame at ((x + 0.5) / f - 0.5).
    matrix = matrix / factor
    matrix[:, 2] += 0.5 / factor - 0.5
    return cv2.warpAffine(image, matrix, (out, out), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
