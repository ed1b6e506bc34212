"""Geometry of corner indices, shared by training and the runtime recognizer.

An index is described by its centre ``(x, y)`` in image pixels, its
``angle`` and its ``size`` (the height of the rank+suit box in pixels).
``angle`` is the clockwise rotation of the glyphs from upright, in radians:
0 means the glyphs stand upright in the image, ``pi/2`` means their "up"
points to the image's right (+x), ``pi`` means upside down. The glyphs' up
direction is therefore ``(sin(angle), -cos(angle))`` in image coordinates
(y grows downwards); see :func:`up_vector` and :func:`angle_of_up`.

:func:`crop_index` cuts the rotation-normalised square patch the index
classifier reads. OpenCV and numpy only.

>>> import numpy as np
>>> round(angle_of_up(np.array([1.0, 0.0])), 4)  # up points right
1.5708
>>> np.round(up_vector(np.pi / 2), 6).tolist()
[1.0, -0.0]
"""

from __future__ import annotations

import math

import cv2
import numpy as np

PATCH_SIZE = 32
"""Default side of an index patch in pixels."""
PATCH_CONTEXT = 1.3
"""The patch side covers this many index heights (some margin around the glyphs)."""


def up_vector(angle: float) -> np.ndarray:
    """The unit vector of the glyphs' up direction in image coordinates."""
    return np.array([math.sin(angle), -math.cos(angle)])


def angle_of_up(up: np.ndarray) -> float:
    """The index angle whose up direction is ``up`` (any length), in (-pi, pi]."""
    return math.atan2(float(up[0]), -float(up[1]))


def index_patch_transform(center: tuple[float, float], angle: float, size: float,
                          patch: int = PATCH_SIZE, context: float = PATCH_CONTEXT) -> np.ndarray:
    """The 2x3 affine map from image pixels to patch pixels for an index.

    The index centre lands on the patch centre, its up direction on the
    patch's up (-y), and ``context * size`` image pixels span the patch.

    >>> m = index_patch_transform((100.0, 50.0), 0.0, 20.0, patch=26, context=1.3)
    >>> (m @ [100.0, 50.0, 1.0]).tolist(), (m @ [100.0, 40.0, 1.0]).tolist()
    ([13.0, 13.0], [13.0, 3.0])
    """
    if size <= 0:
        raise ValueError(f"index size must be positive, got {size}")
    scale = patch / (context * size)
    c, s = math.cos(angle), math.sin(angle)
    cx, cy = center
    # Rows: the glyphs' right direction (cos, sin) and down direction (-sin, cos).
    return np.array([
        [scale * c, scale * s, patch / 2 - scale * (c * cx + s * cy)],
        [-scale * s, scale * c, patch / 2 - scale * (-s * cx + c * cy)],
    ])


def crop_index(image: np.ndarray, center: tuple[float, float], angle: float, size: float,
               patch: int = PATCH_SIZE, context: float = PATCH_CONTEXT) -> np.ndarray:
    """The square patch (``patch`` x ``patch``) with the index upright in its middle.

    Works on grey or colour images. Large indices are first shrunk with
    area averaging so that small patches do not alias; outside the image
    the patch is filled by replicating the border.

    >>> img = np.zeros((100, 100), np.uint8); img[40:50, 45:55] = 255
    >>> p = crop_index(img, (50.0, 45.0), 0.0, 10.0, patch=13, context=1.3)
    >>> p.shape, int(p[6, 6]), int(p[0, 0])
    ((13, 13), 255, 0)
    """
    transform = index_patch_transform(center, angle, size, patch, context)
    scale = patch / (context * size)
    if scale < 0.5:
        # Shrink a neighbourhood of the index first (area averaging), then warp.
        radius = int(context * size * 0.75) + 2
        x0, y0 = int(center[0]) - radius, int(center[1]) - radius
        x1, y1 = x0 + 2 * radius, y0 + 2 * radius
        h, w = image.shape[:2]
        region = image[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
        if region.size:
            shrink = min(1.0, 2 * scale)
            small = cv2.resize(region, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
            fx = small.shape[1] / region.shape[1]
            fy = small.shape[0] / region.shape[0]
            to_small = np.array([[fx, 0, -max(0, x0) * fx], [0, fy, -max(0, y0) * fy], [0, 0, 1]])
            transform = transform @ np.linalg.inv(to_small)
            image = small
    return cv2.warpAffine(image, transform, (patch, patch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
