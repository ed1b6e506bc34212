"""Is the table still? Frame differencing and a skin detector, the tracker's ``still`` flag.

The tracker commits nothing while hands move over the table or rest on it. Two cheap signals
on a small grey / YCrCb copy of the frame:

- motion: the share of pixels that changed by more than ``diff_threshold`` since the previous
  frame, after each frame is scaled to the same mean brightness, so a lamp switched on or a
  cloud passing is not motion;
- skin: the share of the frame covered by the largest patch of pixels in the classic YCrCb skin
  range (Cr 135..180, Cb 85..135), so a hand lying still over the cards still counts as
  occlusion. Only a connected patch counts: the red pips and court figures of many cards on the
  table add up to skin-coloured pixels too, but each is small and apart from the others.

>>> import numpy as np
>>> detector = MotionDetector()
>>> table = np.full((72, 128, 3), (40, 110, 30), np.uint8)   # green cloth
>>> detector.update(table).still, detector.update(table).still
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SKIN_CR = (135, 180)
SKIN_CB = (85, 135)


@dataclass(frozen=True)
class MotionReading:
    """One frame's verdict: changed and skin-coloured shares of the (table) area."""

    changed: float
    skin: float
    still: bool

    @property
    def occluded(self) -> bool:
        return not self.still


class MotionDetector:
    """Compares each frame with the previous one; ``mask`` (optional, 0/255) limits it to the table."""

    def __init__(self, width: int = 160, diff_threshold: int = 25, max_changed: float = 0.004,
                 max_skin: float = 0.003, mask: np.ndarray | None = None) -> None:
        self.width, self.diff_threshold = width, diff_threshold
        self.max_changed, self.max_skin = max_changed, max_skin
        self.mask = mask
        self._previous: np.ndarray | None = None

    def update(self, frame: np.ndarray) -> MotionReading:
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(f"expected a BGR frame (height x width x 3), got shape {frame.shape}")
        small = cv2.resize(frame, (self.width, max(1, round(frame.shape[0] * self.width / frame.shape[1]))),
                           interpolation=cv2.INTER_AREA)
        area = self._area(small.shape[:2])
        grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0).astype(np.float32)
        grey *= 128.0 / max(float(grey[area].mean()), 1.0)
        ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
        cr, cb = ycrcb[..., 1], ycrcb[..., 2]
        skin_pixels = (cr >= SKIN_CR[0]) & (cr <= SKIN_CR[1]) & (cb >= SKIN_CB[0]) & (cb <= SKIN_CB[1]) & area
        skin = _largest_patch(skin_pixels) / max(int(area.sum()), 1)
        if self._previous is None:
            changed = 1.0  # nothing to compare with yet: not known to be still
        else:
            changed = float((np.abs(grey - self._previous)[area] > self.diff_threshold).mean())
        self._previous = grey
        return MotionReading(changed, skin, changed <= self.max_changed and skin <= self.max_skin)

    def _area(self, shape: tuple[int, int]) -> np.ndarray:
        if self.mask is None:
            return np.ones(shape, bool)
        return cv2.resize(self.mask, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST) > 0


def _largest_patch(mask: np.ndarray) -> int:
    """Pixels in the largest connected patch of ``mask`` after an opening removes specks.

    >>> mask = np.zeros((20, 20), bool); mask[2:12, 2:10] = True; mask[15, 15] = True
    >>> _largest_patch(mask)
    80
    """
    opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0
