"""The classifier's view of a corner index: an upright patch cut from the full frame.

The cutting itself is :func:`vision.geometry.crop_index` (shared with the synth
package); this module fixes the patch size and margin the classifier was
trained with, so training and run time cannot drift apart.

>>> import numpy as np
>>> frame = np.zeros((100, 100, 3), np.uint8)
>>> frame[40:60, 45:55] = 255                      # a bright upright bar
>>> patch = index_patch(frame, (50.0, 50.0), 0.0, 20.0)
>>> patch.shape, patch.dtype
((40, 40, 3), dtype('uint8'))
>>> int(patch[20, 20, 0]), int(patch[1, 1, 0])     # centre bright, corner dark
(255, 0)
"""

from __future__ import annotations

import numpy as np

from vision.geometry import crop_index

PATCH_SIZE = 40
"""Side of the square patch the classifier reads, in pixels."""

PATCH_CONTEXT = 2.0
"""Patch side as a multiple of the index height: the whole index plus a margin
(some decks' index boxes hold the rank only, with the suit just below)."""


def index_patch(frame: np.ndarray, center: tuple[float, float], angle: float, size: float) -> np.ndarray:
    """The upright ``PATCH_SIZE`` square patch around one corner index (see :mod:`vision.geometry`)."""
    return crop_index(frame, center, angle, size, PATCH_SIZE, PATCH_CONTEXT)


def index_patches(frame: np.ndarray, indices) -> np.ndarray:
    """Patches of several indices (objects with ``x``, ``y``, ``angle``, ``size``), as one (N, S, S, 3) array."""
    if not indices:
        return np.zeros((0, PATCH_SIZE, PATCH_SIZE, 3), np.uint8)
    return np.stack([index_patch(frame, (i.x, i.y), i.angle, i.size) for i in indices])
