"""What changed on the table between two photos taken by one fixed camera.

A turn changes the table in a few places: a row laid, a tile put at a row's end, a tile taken
out. Where the two photos are alike, the table is as it was, whatever the reader makes of it;
:func:`rummyref.turn_photos.judge_turn` uses that to judge a turn by what changed. The photos
are compared on a copy :data:`WORK_WIDTH` pixels wide, blurred a little (sensor noise), each
colour channel scaled to the other photo's median (a camera's exposure and white balance drift a
little between photos: by at most :data:`DRIFT`, or :data:`DARK_DRIFT` levels in a dark channel). A
pixel whose colour moved by more than :data:`CHANGED` and :data:`BRIGHTER` of its brightness is
changed. Where the colours drifted further, or more than :data:`MOVED` of the frame changed, the
photos are not one camera's view of one table (the camera was moved, a lamp switched on) and
nothing is known: :func:`table_change` gives ``None``.

>>> before = np.full((360, 640, 3), (40, 110, 30), np.uint8)      # green cloth
>>> after = before.copy()
>>> _ = cv2.rectangle(after, (300, 100), (330, 140), (225, 235, 240), -1)   # a tile laid
>>> change = table_change(before, after)
>>> round(change.distance((315, 120))), round(change.distance((315, 200)))
(0, 59)
>>> change.unexplained([], 1200.0)                                 # no tile read there
[(315.0, 120.0)]
>>> change.unexplained([np.array([(300, 100), (330, 100), (330, 140), (300, 140)])], 1200.0)
[]
>>> change.share([(300, 100), (330, 100), (330, 140), (300, 140)]), change.share([(0, 0), (30, 0), (30, 40), (0, 40)])
(1.0, 0.0)
>>> table_change(before, np.zeros_like(before)) is None            # all of it changed: the camera moved
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

WORK_WIDTH = 640
"""The width the photos are compared at."""
CHANGED = 24.0
"""A pixel whose colour (BGR, after the exposure is matched and the noise blurred) moved by more than this changed."""
BRIGHTER = 0.08
"""... and by this share of its brightness more (exposure drifts scale the light parts most; glare clips)."""
DRIFT = 1.25
"""Exposure and white balance drift between two photos by one camera by at most this factor (per colour channel)."""
DARK = 32.0
DARK_DRIFT = 10.0
"""A channel whose median is under ``DARK`` is matched by at most ``DARK_DRIFT`` levels, unscaled."""
MOVED = 0.15
"""Where more than this share of the frame changed, the photos are not of one table by one still camera."""
UNREAD_SHARE = 0.3
"""A changed patch this big (in tile faces) that no tile read in either photo covers is a change unread."""


@dataclass(frozen=True)
class TableChange:
    """Where two photos differ: ``changed`` (bool, :data:`WORK_WIDTH` wide), ``scale`` frame pixels per work pixel."""

    changed: np.ndarray
    scale: float
    distances: np.ndarray = field(init=False, repr=False)
    """Work pixels from each work pixel to the nearest changed one."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "distances", cv2.distanceTransform((~self.changed).astype(np.uint8), cv2.DIST_L2, 5))

    def distance(self, point: Sequence[float]) -> float:
        """Frame pixels from ``point`` (frame pixels) to the nearest change (``inf`` where nothing changed)."""
        if not self.changed.any():
            return math.inf
        height, width = self.changed.shape
        x = min(max(int(round(point[0] / self.scale)), 0), width - 1)
        y = min(max(int(round(point[1] / self.scale)), 0), height - 1)
        return float(self.distances[y, x]) * self.scale

    def share(self, outline: Sequence[Sequence[float]]) -> float:
        """The share of the pixels inside ``outline`` (frame pixels) that changed."""
        inside = np.zeros(self.changed.shape, np.uint8)
        cv2.fillPoly(inside, [np.round(np.asarray(outline, np.float32) / self.scale).astype(np.int32)], 1)
        return float(self.changed[inside > 0].mean()) if inside.any() else 0.0

    def unexplained(self, outlines: Sequence[np.ndarray], tile_area: float) -> list[tuple[float, float]]:
        """Centres (frame pixels) of the changed patches of at least :data:`UNREAD_SHARE` of
        ``tile_area`` (frame pixels) that the ``outlines`` (tiles read in either photo, frame
        pixels; a quarter of a tile's side is added around each for its shadow) leave uncovered."""
        return self._unexplained(outlines, tile_area)[0]

    def unexplained_mask(self, outlines: Sequence[np.ndarray], tile_area: float) -> np.ndarray:
        """The pixels (bool, :data:`WORK_WIDTH` wide) of the patches :meth:`unexplained` finds."""
        return self._unexplained(outlines, tile_area)[1]

    def _unexplained(self, outlines: Sequence[np.ndarray], tile_area: float
                     ) -> tuple[list[tuple[float, float]], np.ndarray]:
        left = self.changed.astype(np.uint8)
        covered = np.zeros_like(left)
        for corners in outlines:
            corners = np.asarray(corners, np.float32) / self.scale
            centre = corners.mean(axis=0)
            grown = centre + (corners - centre) * 1.5
            cv2.fillPoly(covered, [np.round(grown).astype(np.int32)], 1)
        left[covered > 0] = 0
        count, labels, stats, centres = cv2.connectedComponentsWithStats(left, connectivity=8)
        least = UNREAD_SHARE * tile_area / self.scale ** 2
        kept = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] >= least]
        return ([(float(centres[k][0] * self.scale), float(centres[k][1] * self.scale)) for k in kept],
                np.isin(labels, kept))


def table_change(before: np.ndarray, after: np.ndarray) -> TableChange | None:
    """Where ``after`` differs from ``before`` (BGR frames of one size), or ``None`` where they
    are not photos of one table by one still camera (another size, or more than :data:`MOVED` changed)."""
    if before.shape != after.shape or before.ndim != 3:
        return None
    scale = before.shape[1] / WORK_WIDTH
    size = (WORK_WIDTH, max(1, round(before.shape[0] / scale)))
    first, second = (cv2.GaussianBlur(cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32), (0, 0), 1.0)
                     for image in (before, after))
    # Exposure and white balance drift between photos: match each channel's median, by a little
    # (in a dark channel noise moves the median by more than the drift does: there by a few levels).
    medians = [np.median(image.reshape(-1, 3), axis=0) for image in (first, second)]
    gain = medians[0] / np.maximum(medians[1], 1.0)
    dark = np.minimum(*medians) < DARK
    if not np.all(np.where(dark, np.abs(medians[0] - medians[1]) <= DARK_DRIFT, (gain >= 1 / DRIFT) & (gain <= DRIFT))):
        return None
    second *= np.where(dark, 1.0, gain).astype(np.float32)
    bright = np.maximum(np.linalg.norm(first, axis=2), np.linalg.norm(second, axis=2))
    changed = np.linalg.norm(first - second, axis=2) > CHANGED + BRIGHTER * bright
    changed = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    if changed.mean() > MOVED:
        return None
    return TableChange(changed, scale)
