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
>>> wood = np.full((72, 128, 3), (60, 110, 170), np.uint8)   # a skin-toned table is no hand
>>> detector = MotionDetector()
>>> detector.update(wood).still, detector.update(wood).still
(False, True)
>>> wood[30:, 80:95] = (150, 175, 225)                       # a light hand reaching in over it
>>> detector.update(wood).still, detector.update(wood).still
(False, False)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

SKIN_CR = (135, 180)
SKIN_CB = (85, 135)
WIDE_SKIN_CR = (128, 180)
"""The Cr range :func:`hand_share` looks in where it also tests that a patch hides the table
as a hand does: cold room light pulls a hand's Cr below 135, and the test weeds out the more
patches of the table the wider range lets in."""
RESTING_HAND_SHARE = 0.003
"""A skin-coloured patch over this share of the table is a hand, even lying still."""


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
                 max_skin: float = RESTING_HAND_SHARE, mask: np.ndarray | None = None) -> None:
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
        skin = int(_largest_patch(skin_mask(small) & area).sum()) / max(int(area.sum()), 1)
        if skin > TABLE_SHARE:
            # The table itself is skin-toned (wood, a beige cloth): taken as a hand, no frame was ever
            # still there. A hand on it is told from it by reaching in and by its colour (hand_share).
            skin = hand_share(small, self.width)
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


def skin_mask(image: np.ndarray, cr_range: tuple[int, int] = SKIN_CR) -> np.ndarray:
    """Pixels of a BGR image in the classic YCrCb skin range (``cr_range``: another Cr range)."""
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    cr, cb = ycrcb[..., 1], ycrcb[..., 2]
    return (cr >= cr_range[0]) & (cr <= cr_range[1]) & (cb >= SKIN_CB[0]) & (cb <= SKIN_CB[1])


TABLE_SHARE = 0.3
"""A skin-coloured patch over this share of the frame is the table itself (wood, a beige cloth)."""
AWAY_FROM_TABLE = 20.0
"""On such a table a hand is told by its colour: this far (Lab, lightness counted half) from the table's."""
SPREAD = 4
SPREAD_CELLS = 8
"""A colour (within about 8 Lab units, 16 in lightness) that takes up a good part (a twentieth) of at least
``SPREAD_CELLS`` of a ``SPREAD`` x ``SPREAD`` grid of the frame is the table's pattern (its wood, a
stripe, a blot that comes back all over it), not a hand: a hand reaching in over the table
covers a few cells near the edge it comes from."""


def table_colour(lab: np.ndarray, only: np.ndarray | None = None) -> np.ndarray:
    """Pixels of a Lab image (uint8, OpenCV's scale) whose colour is spread all over it
    (see :data:`SPREAD_CELLS`); neighbouring bins of 8 units (two each way in lightness) count together. ``only``: the
    pixels (bool) to look at, the others are False (cheaper).

    >>> lab = np.zeros((40, 40, 3), np.uint8); lab[:, ::4] = (120, 150, 160)     # stripes all over
    >>> lab[30:, 30:] = (200, 150, 150)                                           # one patch in a corner
    >>> common = table_colour(lab); bool(common[0, 0]), bool(common[35, 35])
    (True, False)
    """
    bins = (lab // 8).astype(np.int32)
    index = ((bins[..., 0] + 2) * 34 + bins[..., 1] + 1) * 34 + bins[..., 2] + 1     # room for the neighbours
    only = np.ones(index.shape, bool) if only is None else only
    wanted, where = np.unique(index[only], return_inverse=True)
    # Lightness varies more across a table (a lamp, a dark corner) than hue: two bins each way.
    offsets = np.array([(i * 34 + j) * 34 + k for i in (-2, -1, 0, 1, 2) for j in (-1, 0, 1) for k in (-1, 0, 1)])
    height, width = index.shape
    present = np.zeros(len(wanted), np.int32)
    for row in range(SPREAD):
        for column in range(SPREAD):
            cell = index[row * height // SPREAD:(row + 1) * height // SPREAD,
                         column * width // SPREAD:(column + 1) * width // SPREAD]
            histogram = np.bincount(cell.ravel(), minlength=36 * 34 ** 2)
            present += histogram[wanted[:, None] + offsets].sum(axis=1) >= 0.05 * cell.size
    common = np.zeros(index.shape, bool)
    common[only] = present[where.ravel()] >= SPREAD_CELLS
    return common


def shrink(image: np.ndarray, width: int) -> np.ndarray:
    """``image`` scaled down to ``width`` pixels wide, its aspect kept, averaging the pixels
    (OpenCV's area interpolation) half the size at a time while halving leaves a whole number of
    steps to go (1280 px to 160 in three halvings; 1920 px in two, then one step to a third): OpenCV halves a frame
    in a fifth of the time it takes to shrink it 4 or 8 times in one step, and averages of
    averages of whole blocks differ from one step's by about a grey level.

    >>> shrink(np.zeros((720, 1280, 3), np.uint8), 160).shape
    (90, 160, 3)
    """
    while image.shape[1] % (2 * width) == 0 and image.shape[0] % 2 == 0:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
    height = max(1, round(image.shape[0] * width / image.shape[1]))
    return image if image.shape[1] == width and image.shape[0] == height else cv2.resize(
        image, (width, height), interpolation=cv2.INTER_AREA)


def hand_share(frame: np.ndarray, width: int = 160, ignore: list[np.ndarray] | None = None,
               opaque: bool = False) -> float:
    """The share of the frame under its largest skin-coloured patch that reaches the frame's
    edge: a hand or arm reaching in over the table (:func:`hand_patch`). A skin-coloured patch of the table itself
    (a wood grain stripe, a check of the cloth) mostly lies inside the frame, and a patch over
    :data:`TABLE_SHARE` of the frame is the table; there only skin-coloured pixels
    :data:`AWAY_FROM_TABLE` from the table's median colour can be a hand. ``ignore``:
    polygons (frame pixels) known to be something else, such as tile faces in warm light.
    ``opaque``: count only patches that hide the table as a hand does (:func:`hand_like`: glare,
    a lamp's warm light and the table's own grain do not); with that test to weed out the table,
    skin is looked for in the wider :data:`WIDE_SKIN_CR` (hands in cold light), and a patch with
    holes the table shows through (:func:`solid`: the cloth between a pattern's dots) is no hand.

    >>> frame = np.zeros((90, 160, 3), np.uint8); frame[:] = (40, 120, 40)   # green cloth
    >>> hand_share(frame)
    0.0
    >>> frame[20:60, 30:60] = (90, 120, 200)             # a skin-toned patch inside the frame
    >>> hand_share(frame)
    0.0
    >>> frame[40:90, 100:120] = (90, 120, 200)           # an arm reaching in from the bottom
    >>> round(hand_share(frame), 3), round(hand_share(frame, opaque=True), 3)
    (0.069, 0.069)
    >>> wood = np.zeros((90, 160, 3), np.uint8); wood[:] = (60, 110, 170)   # a skin-toned table
    >>> hand_share(wood)
    0.0
    >>> wood[40:90, 100:120] = (150, 175, 225)           # a light hand on it
    >>> round(hand_share(wood), 3)
    0.069
    """
    patch = hand_patch(frame, width, ignore, opaque)
    return float(patch.mean())


def hand_patch(frame: np.ndarray, width: int = 160, ignore: list[np.ndarray] | None = None,
               opaque: bool = False) -> np.ndarray:
    """The patch (bool, the frame scaled to ``width``) that :func:`hand_share` takes for a hand,
    all False where none.

    >>> frame = np.zeros((90, 160, 3), np.uint8); frame[:] = (40, 120, 40)   # green cloth
    >>> frame[40:90, 100:120] = (90, 120, 200)           # an arm reaching in from the bottom
    >>> patch = hand_patch(frame); int(patch.sum()), bool(patch[60, 110]), bool(patch[20, 20])
    (1000, True, False)
    """
    small = shrink(frame, width)
    skin = skin_mask(small, WIDE_SKIN_CR if opaque else SKIN_CR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    skin &= ~table_colour(lab, skin)
    known = np.zeros(skin.shape, np.uint8)
    if ignore:
        scale = width / frame.shape[1]
        cv2.fillPoly(known, [np.round(np.asarray(p, np.float32) * scale).astype(np.int32) for p in ignore], 1)
        skin &= known == 0
    keep = None
    if opaque:
        @functools.cache
        def finer() -> tuple[np.ndarray, np.ndarray]:   # made only where a patch is to be judged (most frames have none)
            finer_frame = shrink(frame, 2 * width)
            size = (finer_frame.shape[1], finer_frame.shape[0])
            colour = cv2.cvtColor(finer_frame, cv2.COLOR_BGR2LAB)
            return colour.astype(np.float32), cv2.resize(known, size, interpolation=cv2.INTER_NEAREST) > 0

        def keep(patch: np.ndarray) -> bool:
            return solid(patch, known > 0) and hand_like(finer()[0], patch, finer()[1])
    patch = _largest_patch(skin, reaching_edge=True, at_most=int(TABLE_SHARE * skin.size), keep=keep)
    lab = lab.astype(np.float32)
    table = np.median(lab.reshape(-1, 3), axis=0)
    away = np.hypot(np.hypot(lab[..., 1] - table[1], lab[..., 2] - table[2]), (lab[..., 0] - table[0]) / 2) > AWAY_FROM_TABLE
    other = _largest_patch(skin & away, reaching_edge=True, keep=keep)
    return other if other.sum() > patch.sum() else patch


HOLES = 0.05
"""A skin-coloured patch whose holes (the table showing through, tiles left out) add up to
more than this share of it is no hand: a hand hides what lies under it whole."""


def solid(patch: np.ndarray, known: np.ndarray) -> bool:
    """Whether a patch (bool) hides what lies under it as a hand does: its holes, but ``known``
    pixels (tiles), add up to at most :data:`HOLES` of it.

    >>> palm = np.zeros((40, 60), bool); palm[10:40, 20:40] = True   # reaching in from the bottom
    >>> cloth = palm.copy()
    >>> for y, x in np.ndindex(4, 3): cloth[13 + 6 * y:16 + 6 * y, 23 + 6 * x:26 + 6 * x] = False
    >>> solid(palm, np.zeros_like(palm)), solid(cloth, np.zeros_like(cloth))     # a pattern's dots show through
    (True, False)
    """
    outer = np.zeros((patch.shape[0] + 2, patch.shape[1] + 2), np.uint8)   # the frame's edge is no hole
    outer[1:-1, 1:-1] = patch
    cv2.floodFill(outer, None, (0, 0), 1)         # all but the holes
    holes = (outer[1:-1, 1:-1] == 0) & ~known
    return int(holes.sum()) <= HOLES * int(patch.sum())


HAND_RIM = 0.4
HAND_TEXTURE = 0.6
"""A skin-coloured patch hides the table as a hand does where its rim is sharp (the steepest
quarter of the colour steps across it at least :data:`HAND_RIM` of the colour difference
between the patch and the table around it, per pixel) and the table's texture does not show
through it (its fine colour texture under :data:`HAND_TEXTURE` of the table's around it).
Glare and a lamp's warm pool of light add light to the table behind a soft rim, grain and all;
a skin-toned streak of wood grain or a blot of the cloth is textured like the table around it."""


def hand_like(lab: np.ndarray, patch: np.ndarray, known: np.ndarray | None = None) -> bool:
    """Whether a skin-coloured ``patch`` (bool, any size) of a Lab image ``lab`` (float, OpenCV's
    scale; twice the patch's size or more, the patch is scaled to it) hides the table as a hand
    does: see :data:`HAND_RIM`. ``known``: pixels of ``lab`` that are something else (tiles), left
    out of the rim and of the table around it.

    >>> ys, xs = np.mgrid[0:90, 0:160]
    >>> grain = np.zeros((90, 160, 3), np.float32); grain[...] = (100, 150, 160)
    >>> grain[..., 0] += 20 * np.sin(xs * 1.7) * np.cos(ys * 1.3)       # a wood grain
    >>> spot = grain.copy(); glow = 80 * np.exp(-((xs - 80) ** 2 + (ys - 45) ** 2) / 400.0)
    >>> spot[..., 0] += glow                                            # a soft glare spot on it
    >>> hand_like(spot, glow > 25)
    False
    >>> hand = grain.copy(); hand[20:70, 60:100] = (170, 150, 150)      # an opaque hand, sharp rim
    >>> hand_like(hand, hand[..., 0] > 160)
    True
    """
    mask = cv2.resize(patch.astype(np.uint8), (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_NEAREST)
    known = np.zeros(mask.shape, bool) if known is None else known
    inner = cv2.erode(mask, np.ones((5, 5), np.uint8)) > 0
    ring = (cv2.dilate(mask, np.ones((9, 9), np.uint8)) > 0) & (mask == 0) & ~known
    # The rim is where the patch meets the table: not the frame's edge, nor a tile's.
    rim = (cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0) & ~(cv2.erode(mask, np.ones((3, 3), np.uint8)) > 0)
    rim[:2], rim[-2:], rim[:, :2], rim[:, -2:] = False, False, False, False
    rim &= cv2.dilate(known.astype(np.uint8), np.ones((5, 5), np.uint8)) == 0
    if not inner.any() or not ring.any() or not rim.any():
        return False            # too thin to hide a tile, or no rim on the table to judge
    # Steps and texture only around the patch (cheaper); 4 pixels more than its ring is room
    # enough for the filters to see the same pixels as on the whole image.
    ys, xs = np.nonzero(ring | (mask > 0))
    window = (slice(max(0, ys.min() - 4), ys.max() + 5), slice(max(0, xs.min() - 4), xs.max() + 5))
    lab, inner, ring, rim = lab[window], inner[window], ring[window], rim[window]
    difference = float(np.linalg.norm(np.median(lab[inner], axis=0) - np.median(lab[ring], axis=0)))
    steps = np.sqrt(sum(cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0) ** 2 + cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1) ** 2
                        for c in range(3))) / 8
    sharp = float(np.percentile(steps[rim], 75)) >= HAND_RIM * max(difference, 1.0)
    texture = sum(np.abs(cv2.Laplacian(cv2.GaussianBlur(lab[..., c], (3, 3), 0), cv2.CV_32F)) for c in range(3))
    hiding = float(np.median(texture[inner])) < HAND_TEXTURE * max(float(np.median(texture[ring])), 0.1)
    return sharp and hiding


def _largest_patch(mask: np.ndarray, reaching_edge: bool = False, at_most: int | None = None, keep=None) -> np.ndarray:
    """The largest connected patch (bool) of ``mask`` after an opening removes specks (with
    ``reaching_edge``, of the patches that touch the mask's border; with ``at_most``, of the
    patches no bigger; with ``keep``, a function of a patch (bool mask), of those it keeps); all
    False where none is.

    >>> mask = np.zeros((20, 20), bool); mask[2:12, 2:10] = True; mask[15, 15] = True
    >>> int(_largest_patch(mask).sum()), int(_largest_patch(mask, reaching_edge=True).sum())
    (80, 0)
    """
    opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    numbers = np.arange(1, count)
    stats = stats[1:]
    wanted = np.ones(len(stats), bool)
    if reaching_edge:
        left, top, right, bottom = (stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP],
                                    stats[:, cv2.CC_STAT_LEFT] + stats[:, cv2.CC_STAT_WIDTH],
                                    stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT])
        wanted &= (left == 0) | (top == 0) | (right >= mask.shape[1]) | (bottom >= mask.shape[0])
    if at_most is not None:
        wanted &= stats[:, cv2.CC_STAT_AREA] <= at_most
    for k in np.argsort(-stats[:, cv2.CC_STAT_AREA]):
        if wanted[k]:
            patch = labels == numbers[k]
            if keep is None or keep(patch):
                return patch
    return np.zeros(mask.shape, bool)
