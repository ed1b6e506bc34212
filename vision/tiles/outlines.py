"""Finding tiles without a model: tile faces are the light, nearly colourless rectangles of a
frame, and touching tiles in a row form one long rectangle that is cut at its seams.

1. On the frame scaled to :data:`WORK_SIDE` pixels, a face score (lightness minus chroma in
   Lab) is thresholded by Otsu; the face colour is then read from those pixels and the mask
   redrawn as "close to the face colour" -- so warm or cold light, cream or white faces are
   handled by the frame itself.
2. Each outer contour's minimum-area rectangle is a tile or a row of tiles; its short side is
   the tile height of a row, its long side the height of a lone tile. A looser look at the face
   colour (more colour cast, deeper shade) wins where it explains clearly more tiles; where it
   does not, the tiles it alone sees are listed as unexplained (a doubt for the reader).
3. A row is cut into ``n`` tiles where the seams between touching tiles (the dark bevel lines
   across the row) are deepest, ``n`` near ``length / (aspect * height)``.

The result is tile candidates (centre, axis angle modulo a half turn, height, width), in frame
pixels; the classifier decides which way is up and whether a candidate is a tile at all.

>>> frame = np.full((200, 300, 3), 60, np.uint8)
>>> for x in (100, 130, 160):                       # three touching tiles, 30x40
...     _ = cv2.rectangle(frame, (x, 80), (x + 28, 120), (225, 235, 240), -1)
>>> sorted((round(c.x), round(c.y), round(c.height)) for c in find_tiles(frame))   # true centres 114, 144, 174
[(115, 101, 43), (145, 101, 43), (175, 101, 43)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

WORK_SIDE = 640
"""The frame's long side while looking for faces (finer is slower and no better)."""
ASPECT_RANGE = (0.62, 0.86)
"""Tile width / height of the sets this reader knows."""
COLOUR_TOLERANCE = 20.0
"""How far (Lab a, b) a face pixel may be from the frame's face colour."""
HULL_FILL = 0.86
MIN_FILL = 0.6
DARKEST = 0.68
"""A face may be this much darker than the lightest faces near it."""
DEEPEST_SHADE = 0.8
"""... and the faces in a shadow this much darker than those in the light."""
STRICT_DARKEST = 0.85
"""Where the faces' colour is the table's too (cream faces on an olive cloth), a face may be only
this much darker than the face colour, shade or not: the faces are what is much lighter."""
LOOSE_TOLERANCE = 32.0
LOOSE_SHADE = 0.6
LOOSE_GAIN = 1.1
LOOSE_EXPLAINED = 0.9
"""The looser second look at the winning face colour (:func:`face_rects`): colour tolerance,
deepest shade, how many more tiles it must explain to win, and how much of its mask its tiles
must explain."""
SQUARE = 1.08
"""A light blob nearer to square than this (long / short side) is no tile (tablecloth dots)."""
MAX_COVER = 0.45
"""Tile faces never cover more of the frame than this."""
OPEN_COUNT = 6.0
"""Counts whose seam score is within this of the best one stay open for the classifier."""
MAX_ROW = 13 * ASPECT_RANGE[1] + 0.5
UNEXPLAINED = 0.35
"""A face-coloured patch this big (in tile faces) that no rectangle explains may be a missed tile ..."""
INK = 0.015
"""... where it encloses this much (in tile faces) of something not face-coloured: a number."""
CONTRAST = 10.0
"""The contrast look (:func:`contrast_rects`): a face is at least this much lighter (Lab
lightness, 0..255) than the mean of its surroundings ..."""
FACE_CHROMA = 25.0
"""A contrast-look blob this colourless (Lab chroma) may be a tile face whatever the table (see :func:`_colourless`)."""
GLARE_CONTRASTS = (40.0, 60.0)
"""... and again at each of these bars (tiles under glare stand out from its halo only so; at the
heart of a glare pool, where the faces are white out, the halo too is 40 above its surroundings)."""
REOPEN_KERNEL = cv2.MORPH_ELLIPSE
"""The shape :func:`_rect_blobs` opens a blob with before looking at it again: round, so that a tile
turned 30-45 degrees keeps its shape (a square cut its corners until it no longer looked like a tile;
until session 12)."""
SURROUNDINGS = 3.0
"""... an area this many tile heights wide."""
LIGHTER_SHARE = 0.3
"""A face-coloured patch no tile explains is a doubt only where this much of it is lighter than its surroundings."""
SEAMS = 3.0
"""A row of touching tiles has seams at least this much darker (grey levels) than its faces."""
SEAM_PERCENTILE = 97
BEVEL = 0.035
"""How much of a tile height the darker bevel takes off the face at each edge."""
"""A blob's convex hull must fill ``HULL_FILL`` of its rectangle and the blob itself ``MIN_FILL``
(a row of tiles fills nearly all of it; a digit reaching the bevel dents it)."""


@dataclass(frozen=True)
class TileCandidate:
    """A light rectangle that may be a tile. ``angle``: the tile's up direction, modulo pi
    (:mod:`vision.geometry` convention); ``row``: candidates cut from one rectangle share it."""

    x: float
    y: float
    angle: float
    height: float
    width: float
    row: int


_LEVELS = np.arange(256, dtype=np.float32) - np.float32(128)
"""The Lab a or b of each uint8 level, centred on 0 (as :class:`_Scaled` holds them)."""
_CHROMA = np.hypot(_LEVELS[:, None], _LEVELS[None, :]).ravel()
"""The chroma of each pair of a, b levels (index: :attr:`_Scaled.levels`)."""


@dataclass(frozen=True)
class _Scaled:
    """A frame scaled to :data:`WORK_SIDE` as the looks read it, worked out once: the BGR
    image, its Lab lightness (``light8``: uint8 as OpenCV gives it; ``light``: float32), a and b
    centred on 0 (float32), each pixel's a and b levels as one number (``levels``: a * 256 + b
    of the uint8 Lab) -- so that a test of a pixel's colour is a table of the 65536 colours
    looked up, not arithmetic on every pixel (the same float32 arithmetic, so the same
    answers) -- and its :func:`lightest_nearby`. The seam profiles of its rectangles
    (:meth:`seam_profile`) are each worked out once too: the face-colour looks and the blobs ask
    for the same ones.

    >>> scaled = _Scaled.of(np.full((32, 32, 3), (150, 160, 140), np.uint8))
    >>> [round(float(v[0, 0]), 3) for v in (scaled.light, scaled.a, scaled.b, scaled.chroma())]
    [164.0, -9.0, 3.0, 9.487]
    >>> bool(scaled.near_colour(-9.0, 6.0, 3.5)[0, 0]), bool(scaled.near_colour(-9.0, 6.0, 2.5)[0, 0])
    (True, False)
    """

    bgr: np.ndarray
    light8: np.ndarray
    light: np.ndarray
    a: np.ndarray
    b: np.ndarray
    levels: np.ndarray
    nearby: np.ndarray
    profiles: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, small: np.ndarray) -> "_Scaled":
        """From a scaled BGR frame."""
        light8, a, b = cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2LAB))
        light = light8.astype(np.float32)
        centred = [plane.astype(np.float32) - np.float32(128) for plane in (a, b)]
        return cls(small, light8, light, *centred, (a.astype(np.uint16) << 8) | b, lightest_nearby(light))

    def chroma(self) -> np.ndarray:
        """Each pixel's chroma (the length of its a, b)."""
        return np.take(_CHROMA, self.levels)

    def near_colour(self, a: float, b: float, tolerance: float, window: tuple[slice, slice] | None = None) -> np.ndarray:
        """The pixels whose a, b lie within ``tolerance`` of ``a``, ``b`` (bool; of ``window`` only, if given)."""
        table = np.zeros((256, 256), bool)
        # Only levels less than the tolerance away on each axis can be near (a level more is kept too).
        rows, columns = (slice(max(0, math.floor(level - tolerance)), max(0, min(256, math.ceil(level + tolerance) + 1)))
                         for level in (a + 128, b + 128))
        table[rows, columns] = np.hypot(_LEVELS[rows, None] - a, _LEVELS[None, columns] - b) < tolerance
        return np.take(table.ravel(), self.levels if window is None else self.levels[window])

    def seam_profile(self, rect) -> np.ndarray:
        """The seam profile of a rectangle (OpenCV's ``((x, y), (w, h), degrees)``): the
        lightness along its long axis, the :data:`SEAM_PERCENTILE` th percentile across it
        (:func:`_seam_rows`). Dips are seams: a seam is dark across the whole height of a row, a
        digit's stroke only across the digit (bold digits wider than a fifth of the height made a
        lower percentile dip at the digits, not the seams, and counts of wide rows of narrow tiles
        came out one or two short)."""
        return self.seam_profiles([rect])[0]

    def seam_profiles(self, rects: list) -> list[np.ndarray]:
        """:meth:`seam_profile` of each of ``rects``, each worked out once per frame. Those not
        known yet go through numpy's percentile together, side by side where they have as many
        rows (a column's percentile is the same alone or beside others; a call is costly)."""
        keys = [(tuple(rect[0]), tuple(rect[1]), rect[2]) for rect in rects]
        rows = {key: _seam_rows(self.bgr, rect) for key, rect in zip(keys, rects) if key not in self.profiles}
        heights: dict[int, list] = {}
        for key, inner in rows.items():
            heights.setdefault(len(inner), []).append(key)
        for same in heights.values():
            profiles = np.percentile(np.hstack([rows[key] for key in same]), SEAM_PERCENTILE, axis=0)
            ends = np.cumsum([rows[key].shape[1] for key in same])
            self.profiles.update(zip(same, np.split(profiles, ends[:-1])))
        return [self.profiles[key] for key in keys]


def _percentiles(values: np.ndarray, which: tuple[float, ...]) -> np.ndarray:
    """:func:`numpy.percentile` of a frame's worth of values, the same numbers in about half the time:
    numpy's sort is vectorised, the partition its percentile makes is not, and on sorted values
    that partition has next to nothing to do.

    >>> _percentiles(np.array([[3.0, 1.0], [4.0, 2.0]], np.float32), (50, 90))
    array([2.5, 3.7])
    """
    return np.percentile(np.sort(values, axis=None), which)


def _face_colours(scaled: _Scaled, light_97: float, peaks: int = 3) -> list[tuple[float, float, float]]:
    """Guesses of the faces' (lightness, a, b). The lightest, least coloured few percent of the
    frame's pixels are tile faces, glare (which spreads from the light's colour to white) or a
    pale part of the table; so their median, the lightest pixels' median and the ``peaks``
    commonest colours among a wider top are all tried. ``light_97``: the 97th percentile of the
    lightness (the caller has it)."""
    light, a, b = scaled.light, scaled.a, scaled.b
    score = light - 1.5 * scaled.chroma()
    guesses = []
    # Under a strong colour cast the faces are coloured too: the lightest pixels are a guess.
    # A table with only a few tiles on it shows less than 3 % faces: the top half percent too.
    wide, high, highest = _percentiles(score, (92, 97, 99.5))
    planes = [plane.ravel() for plane in (light, a, b)]
    for top in (score >= high, light >= light_97, score >= highest):
        where = np.flatnonzero(top)         # once, not once per plane
        guesses.append(tuple(float(np.median(plane[where])) for plane in planes))
    tl, ta, tb = (plane[np.flatnonzero(score >= wide)] for plane in planes)
    counts, a_edges, b_edges = np.histogram2d(ta, tb, bins=(np.arange(-64, 65, 4), np.arange(-64, 65, 4)))
    for _ in range(peaks):
        i, j = np.unravel_index(int(np.argmax(counts)), counts.shape)
        if counts[i, j] < 0.05 * len(ta):
            break
        peak = np.hypot(ta - (a_edges[i] + 2), tb - (b_edges[j] + 2)) < 8
        guesses.append((float(np.median(tl[peak])), float(np.median(ta[peak])), float(np.median(tb[peak]))))
        counts[max(0, i - 3):i + 4, max(0, j - 3):j + 4] = 0
    return guesses


def lightest_nearby(light: np.ndarray) -> np.ndarray:
    """The lightness of the lightest things near each pixel. "Nearby" is about a tenth of the
    frame, found on a coarse grid (cheap)."""
    coarse = cv2.resize(light, None, fx=1 / 16, fy=1 / 16, interpolation=cv2.INTER_AREA)
    lightest = cv2.GaussianBlur(cv2.dilate(coarse, np.ones((5, 5), np.uint8)), (5, 5), 0)
    return cv2.resize(lightest, (light.shape[1], light.shape[0]), interpolation=cv2.INTER_LINEAR)


def _shade(nearby: np.ndarray, face: float, deepest: float = DEEPEST_SHADE) -> np.ndarray:
    """How much darker than ``face`` the lightest things nearby are (0..1, per pixel; at least
    ``deepest``), from :func:`lightest_nearby`: in a shadow or the dark corner of a frame the
    faces are darker too, so the bar for "not much darker than a face" drops with them."""
    return np.clip(nearby / max(face, 1.0), deepest, 1.0)


FACE_MASK_REACH = 4
"""Pixels of :func:`face_mask` depend on the frame's pixels this near them (its opening and closing)."""


def face_mask(scaled: _Scaled, face: tuple[float, float, float], tolerance: float = COLOUR_TOLERANCE,
              deepest: float = DEEPEST_SHADE, window: tuple[slice, slice] | None = None,
              darkest: float = DARKEST) -> np.ndarray:
    """Pixels near the face colour ``face`` (within ``tolerance`` in a, b) and not much darker
    (at least ``darkest`` of its lightness; uint8 0/255; in a shadow down to ``deepest`` of that)
    of a scaled frame; with ``window``, of that part of it (the same as the whole frame's mask
    there, but for :data:`FACE_MASK_REACH` pixels along the window's sides inside the frame)."""
    fl, fa, fb = face
    light, nearby = (scaled.light, scaled.nearby) if window is None else (scaled.light[window], scaled.nearby[window])
    near = scaled.near_colour(fa, fb, tolerance, window) & (light > darkest * fl * _shade(nearby, fl, deepest))
    opened = cv2.morphologyEx(near.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    # Closing seals the dents of digits at the bevel and the thin seams inside a row.
    return cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _tile_count(rects: list) -> float:
    """About how many tiles of one size a set of rectangles holds (odd-sized ones count not)."""
    if not rects:
        return 0.0
    typical = float(np.median([min(size) for _, size, _ in rects]))
    return sum(max(size) / min(size) for _, size, _ in rects if 0.7 * typical <= min(size) <= 1.4 * typical)


def _seamed_count(scaled: _Scaled, rects: list) -> float:
    """Like :func:`_tile_count`, but a long rectangle without seams across it (a stripe of
    the table, not a row of touching tiles) counts as one tile only."""
    if not rects:
        return 0.0
    typical = float(np.median([min(size) for _, size, _ in rects]))
    scaled.seam_profiles([rect for rect in rects if 0.7 * typical <= min(rect[1]) <= 1.4 * typical
                          and max(rect[1]) / min(rect[1]) >= 1.6])        # all at once, the cheaper way
    count = 0.0
    for rect in rects:
        across, ratio = min(rect[1]), max(rect[1]) / min(rect[1])
        if 0.7 * typical <= across <= 1.4 * typical:
            seamed = ratio < 1.6 or max((s for s, _ in _seam_scores(scaled.seam_profile(rect), across,
                                                                  near=0.74).values()), default=0.0) >= SEAMS
            count += ratio if seamed else 1.0
    return count


def face_rects(scaled: _Scaled, min_area: float, known: tuple[float, float, float] | None = None
               ) -> tuple[list, np.ndarray | None, tuple[list, np.ndarray | None], tuple[float, float, float] | None,
                          list[tuple[float, float, float]]]:
    """The tile-shaped rectangles of a scaled frame, under the face-colour guess that
    explains the most tiles of one size -- so warm or cold light, cream or white faces and glare
    need no setting -- that guess's face mask (None when no guess was plausible), the
    rectangles of a looser look at that colour (more shade, more colour cast) that the first
    ones do not explain, with that look's mask: faces in a dark corner or under glare that may
    be missed tiles; the winning face colour (lightness, a, b; None where none won); and the other
    guesses that explain a tile, the likelier first. ``known``: the face colour to go by instead of
    the frame's own guesses (the one another photo of the table, in the same light, went by)."""
    lighter_than, light_97 = _percentiles(scaled.light, (60, 97))
    looks = []
    crowded = []        # guesses whose colour covers half the frame or more: the table's too
    for face in ([known] if known is not None else _face_colours(scaled, float(light_97))):
        if known is None and face[0] < lighter_than or any(np.allclose(face, other, atol=2.0) for other in crowded + [
                look[0] for look in looks]):
            continue        # a guess of faces is lighter than most of the table (and a guess once is enough)
        mask = face_mask(scaled, face)
        if np.count_nonzero(mask) <= MAX_COVER * mask.size:     # faces cover less than half of it
            rects = _rect_blobs(mask, min_area,
                                stricter=lambda box, face=face: face_mask(scaled, face, COLOUR_TOLERANCE / 2, window=box))
            looks.append((face, rects, mask))
        else:
            crowded.append(face)
    # A guess the table shares (cream faces on an olive cloth): only what is nearly as light as the
    # faces may be one, shade or not. Beside other looks it counts where its tiles explain nearly all
    # of its mask (not a light part of the cloth), as the looser look must: in a live game a light
    # third of the cloth, so counted, won and cut a row wrong.
    least = LOOSE_EXPLAINED if any(rects for _, rects, _ in looks) else 0.0     # beside other looks, or alone
    looks += [(face, *look) for face in crowded for look in [_strict_look(scaled, face, min_area, least)] if look is not None]
    # Seams are costly to check: a look whose tiles, seams or not, are fewer than the best
    # seamed count so far cannot win.
    looks.sort(key=lambda look: -_tile_count(look[1]))
    best: tuple[list, np.ndarray | None] = ([], None)
    best_count, best_face = -1.0, (0.0, 0.0, 0.0)
    for face, rects, mask in looks:
        if _tile_count(rects) <= best_count:
            break
        count = _seamed_count(scaled, rects)
        if count > best_count:
            best, best_count, best_face = (rects, mask), count, face
    loose: list = []
    loose_mask = None
    if best_count > 0:
        # A light or colour gradient across the table (a warm lamp on one side, a dark corner)
        # leaves the far faces outside the winning colour: a looser look at the same colour
        # wins where it explains clearly more tiles.
        mask = face_mask(scaled, best_face, LOOSE_TOLERANCE, LOOSE_SHADE)
        if np.count_nonzero(mask) <= MAX_COVER * mask.size:
            rects = _rect_blobs(mask, min_area,
                                stricter=lambda box: face_mask(scaled, best_face, COLOUR_TOLERANCE / 2, window=box))
            # ... and where the tiles explain nearly all of its mask (not a light check of the cloth)
            if _tile_count(rects) > best_count * LOOSE_GAIN and _explained_share(mask, rects) >= LOOSE_EXPLAINED:
                count = _seamed_count(scaled, rects)
                if count > best_count * LOOSE_GAIN:
                    best = (rects, mask)
            covered = _covered(scaled.light.shape, best[0])
            loose = [r for r in rects if _share_inside(covered, r) < 0.5]
            loose_mask = mask
    others = [face for face, rects, _ in looks if rects and face != best_face]
    return best[0], best[1], (loose, loose_mask), best_face if best_count > 0 else None, others


def _strict_look(scaled: _Scaled, face: tuple[float, float, float], min_area: float,
                 explained: float = LOOSE_EXPLAINED) -> tuple[list, np.ndarray] | None:
    """The tile rectangles and mask of a face colour the table shares, counting only what is at least
    :data:`STRICT_DARKEST` of its lightness, shade or not; None where that mask still covers too much
    or its tiles explain less than ``explained`` of it (a light part of the cloth; where no other look
    explains a tile, the caller asks nothing of it).

    >>> frame = np.full((200, 300, 3), (150, 180, 190), np.uint8)          # a cream cloth, a little darker
    >>> for x in (40, 80, 120):                                           # three cream faces in a row
    ...     _ = cv2.rectangle(frame, (x, 80), (x + 38, 132), (215, 240, 250), -1)
    >>> face = (245.0, 1.0, 10.0)
    >>> look = _strict_look(_Scaled.of(frame), face, 50)
    >>> len(look[0])
    1
    >>> _ = cv2.circle(frame, (240, 100), 55, (215, 240, 250), -1)           # a pool of light on it
    >>> _strict_look(_Scaled.of(frame), face, 50) is None, len(_strict_look(_Scaled.of(frame), face, 50, 0.0)[0])
    (True, 1)
    """
    mask = face_mask(scaled, face, darkest=STRICT_DARKEST, deepest=1.0)
    if np.count_nonzero(mask) > MAX_COVER * mask.size:
        return None
    rects = _rect_blobs(mask, min_area, stricter=lambda box: face_mask(scaled, face, COLOUR_TOLERANCE / 2, 1.0, window=box,
                                                                        darkest=STRICT_DARKEST))
    return (rects, mask) if _explained_share(mask, rects) >= explained else None


def _share_inside(covered: np.ndarray, rect) -> float:
    """The share of ``rect``'s pixels that ``covered`` (0/255) covers."""
    window, own = _own_pixels(covered.shape, rect)
    return float(np.count_nonzero(own & (covered[window] > 0)) / max(1, np.count_nonzero(own)))


def _own_pixels(shape: tuple[int, ...], rect) -> tuple[tuple[slice, slice], np.ndarray]:
    """The pixels of an image of ``shape`` inside ``rect``, as :func:`_covered` fills them, within
    the rectangle's bounding box: that box (slices, clipped to the image) and the pixels in it (bool).

    >>> window, own = _own_pixels((100, 100), ((50, 20), (10, 6), 0))
    >>> window, int(own.sum()) == int(_covered((100, 100), [((50, 20), (10, 6), 0)]).astype(bool).sum())
    ((slice(17, 24, None), slice(45, 56, None)), True)
    """
    corners = np.round(cv2.boxPoints(rect)).astype(np.int32)
    x0, y0 = max(0, int(corners[:, 0].min())), max(0, int(corners[:, 1].min()))
    x1, y1 = min(shape[1], int(corners[:, 0].max()) + 1), min(shape[0], int(corners[:, 1].max()) + 1)
    own = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
    cv2.fillPoly(own, [corners - (x0, y0)], 255)
    return (slice(y0, y1), slice(x0, x1)), own > 0


def _covered(shape: tuple[int, ...], rects: list) -> np.ndarray:
    """The pixels (uint8 0/255) inside any of ``rects``."""
    covered = np.zeros(shape[:2], np.uint8)
    for rect in rects:
        cv2.fillPoly(covered, [np.round(cv2.boxPoints(rect)).astype(np.int32)], 255)
    return covered


def _explained_share(mask: np.ndarray, rects: list) -> float:
    """The share of a face mask's pixels inside the tile rectangles found in it.

    >>> mask = np.zeros((40, 40), np.uint8); mask[5:15, 5:30] = 255; mask[30:35, 0:10] = 255
    >>> round(_explained_share(mask, [((17.0, 9.5), (25.0, 10.0), 0.0)]), 2)
    0.83
    """
    return float(np.count_nonzero(mask & _covered(mask.shape, rects)) / max(1, np.count_nonzero(mask)))


def _unexplained(mask: np.ndarray, rects: list, height: float, aspect: float,
                 lighter: np.ndarray | None = None) -> list[tuple[float, float, bool]]:
    """Centres of face-coloured patches, each about as big as a tile face, that no accepted
    rectangle explains: a tile the finder may have missed (merged with glare or the table,
    split by its own ink), and whether each encloses ink (:func:`_inked`; a blank one holds no
    whole tile). Thin slivers along the rectangles' edges are opened away. With
    ``lighter`` (:func:`lighter_mask`), a patch must be lighter than its surroundings in at least
    :data:`LIGHTER_SHARE` of its pixels: a tile face is, a face-coloured part of the table's
    pattern (a stripe, a blot) mostly is not."""
    covered = _covered(mask.shape, rects)
    grow = max(3, int(round(height * 0.15)) | 1)
    patches = mask & ~cv2.dilate(covered, np.ones((grow, grow), np.uint8))
    size = max(3, int(round(height * aspect * 0.45)))
    left = cv2.morphologyEx(patches, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
    count, labels, stats, centres = cv2.connectedComponentsWithStats(left)
    tile_area = height * height * aspect
    kept = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] >= UNEXPLAINED * tile_area]
    if kept and lighter is not None:
        share = np.bincount(labels.ravel(), lighter.ravel() > 0, count) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
        kept = [k for k in kept if share[k] >= LIGHTER_SHARE]
    inked = _inked(patches, labels, kept, INK * tile_area) if kept else {}
    return [(float(centres[k][0]), float(centres[k][1]), inked[k]) for k in kept]


def _inked_rects(mask: np.ndarray | None, rects: list, least: float) -> list[bool]:
    """Whether each of ``rects`` (found in ``mask``) has a blob that encloses something not
    face-coloured (:func:`_inked`).

    >>> mask = np.zeros((60, 90), np.uint8); mask[5:45, 5:35] = 255; mask[5:45, 50:80] = 255
    >>> mask[15:35, 15:22] = 0                                       # the left one has a number
    >>> _inked_rects(mask, [((20, 25), (30, 40), 0), ((65, 25), (30, 40), 0)], 100)
    [True, False]
    """
    if mask is None or not rects:
        return [False] * len(rects)
    labels = np.zeros(mask.shape, np.int32)
    for number, rect in enumerate(rects, 1):
        cv2.fillPoly(labels, [np.round(cv2.boxPoints(rect)).astype(np.int32)], number)
    labels[mask == 0] = 0
    inked = _inked(mask, labels, [k for k in range(1, len(rects) + 1) if (labels == k).any()], least)
    return [bool(inked.get(number)) for number in range(1, len(rects) + 1)]


def _inked(patches: np.ndarray, labels: np.ndarray, kept: list[int], least: float) -> dict[int, bool]:
    """Whether each kept patch (``labels`` numbers, after opening) encloses at least ``least``
    pixels of something not face-coloured: the whole patch before opening (``patches``, 0/255)
    around it, its holes filled. A tile's number or joker face is such a hole in its face; a
    patch of face-coloured table (a glare spot, a light check of a cloth) has none and cannot
    be a missed tile.

    >>> patches = np.zeros((60, 60), np.uint8); patches[5:45, 5:35] = 255; patches[15:35, 15:22] = 0
    >>> labels = (patches > 0).astype(np.int32); labels[:, 40:] = 0
    >>> _inked(patches, labels, [1], 100), _inked(patches, labels, [1], 200)
    ({1: True}, {1: False})
    """
    count, whole = cv2.connectedComponents(patches)
    inked = {}
    for k in kept:
        numbers = np.unique(whole[labels == k])
        own = np.isin(whole, numbers[numbers > 0]).astype(np.uint8)
        ys, xs = np.nonzero(own)
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        box = np.pad(own[y0:y1, x0:x1], 1)
        outside = box.copy()
        flood = np.zeros((box.shape[0] + 2, box.shape[1] + 2), np.uint8)
        cv2.floodFill(outside, flood, (0, 0), 1)     # what the flood from the border cannot reach is a hole
        inked[k] = int(np.count_nonzero(outside == 0)) >= least
    return inked


def _rect_blobs(mask: np.ndarray, min_area: float, width: float | None = None, stricter=None,
                offset: tuple[int, int] = (0, 0)) -> list:
    """Min-area rectangles of the blobs that fill them like tiles do. A blob that does not
    (a tile touching a light stripe of the table, a glare spot) is opened with a kernel of
    half a tile's ``width`` and looked at again: thin stripes and bridges fall away. With
    ``stricter`` (a function giving a mask of pixels nearer the face colour within a window,
    :func:`face_mask`'s ``window``) it is also looked
    at within that mask -- a glare halo tinted by the table falls away -- and the look that
    explains more tiles counts. ``offset``: where ``mask``'s corner lies in the frame (the
    rectangles are in frame pixels)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=offset)
    rects, merged = [], []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        rect = cv2.minAreaRect(contour)
        w, h = rect[1]
        # The hull ignores dents where a digit's ink reaches the darker bevel.
        if max(w, h) > MAX_ROW * min(w, h) or max(w, h) < SQUARE * min(w, h) or min(w, h) ** 2 < min_area:
            continue        # longer than 13 tiles side by side (a stripe of the table), square (a dot) or a sliver
        if cv2.contourArea(cv2.convexHull(contour)) >= HULL_FILL * w * h and area >= MIN_FILL * w * h:
            rects.append(rect)
        else:
            merged.append(contour)
    if merged and width is not False:
        size = width or (float(np.median([min(r[1]) for r in rects])) * 0.74 if rects else None)
        if size and size >= 6:
            kernel = cv2.getStructuringElement(REOPEN_KERNEL, (int(size * 0.55), int(size * 0.55)))
            looks, corner = _merged_looks(mask, merged, max(*kernel.shape, FACE_MASK_REACH), stricter)
            found = [[r for r in _rect_blobs(cv2.morphologyEx(look, cv2.MORPH_OPEN, kernel), min_area, False, offset=corner)
                      if min(r[1]) >= 0.6 * size] for look in looks]
            rects += max(found, key=_tile_count)
    return rects


def _merged_looks(mask: np.ndarray, merged: list, margin: int, stricter=None) -> tuple[list[np.ndarray], tuple[int, int]]:
    """The pixels of ``mask`` inside the ``merged`` contours, and (with ``stricter``) those of them
    in the stricter mask too, within the contours' box and ``margin`` pixels around it, with that
    window's top left corner: what an opening (a kernel up to ``margin`` wide) and the stricter
    mask (:data:`FACE_MASK_REACH`) make of those pixels is the same as on the whole mask, since
    nothing outside the contours is set, at a fraction of the work."""
    x, y, w, h = cv2.boundingRect(np.vstack(merged))
    x0, y0 = max(0, x - margin), max(0, y - margin)
    box = (slice(y0, y + h + margin), slice(x0, x + w + margin))
    blob = np.zeros_like(mask[box])
    cv2.drawContours(blob, merged, -1, 255, -1, offset=(-x0, -y0))
    return [blob & mask[box]] + ([blob & mask[box] & stricter(box)] if stricter else []), (x0, y0)


def _seam_rows(small: np.ndarray, rect) -> np.ndarray:
    """A rectangle of a scaled BGR frame cut upright (its long axis along x) in grey levels
    (float32), less the bevels along its long sides: the rows of :meth:`_Scaled.seam_profile`."""
    (cx, cy), (w, h), deg = rect
    length, across = (w, h) if w >= h else (h, w)
    turn = deg if w >= h else deg + 90
    matrix = cv2.getRotationMatrix2D((cx, cy), turn, 1.0)
    matrix[:, 2] += (length / 2 - cx, across / 2 - cy)
    upright = cv2.warpAffine(small, matrix, (max(1, int(round(length))), max(1, int(round(across)))),
                             flags=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return grey[int(across * 0.05):max(int(across * 0.05) + 1, int(across * 0.95))]


def _seam_scores(profile: np.ndarray, across: float, near: float | None = None) -> dict[int, tuple[float, float]]:
    """For each count of tiles the aspect range allows a row of this profile: how much deeper
    the dips at its cuts are than the faces between them (grey levels; 0 for one tile), and its
    tiles' width / height; with ``near``, only the counts within one of the count whose tiles
    have that width / height. The bevel makes a row's blob short by about ``BEVEL`` of a tile
    height at each end."""
    length = len(profile)
    bevel = BEVEL * across
    low = max(1, math.floor((length + 2 * bevel) / (ASPECT_RANGE[1] * (across + 2 * bevel)) + 0.3))
    high = max(low, math.ceil((length + 2 * bevel) / (ASPECT_RANGE[0] * (across + 2 * bevel)) - 0.3))
    if near is not None:
        likeliest = round((length + 2 * bevel) / (near * (across + 2 * bevel)))
        low, high = max(low, likeliest - 1), min(high, likeliest + 1)
    smooth = np.convolve(profile, np.ones(3) / 3, mode="same").tolist()
    scores = {}
    for n in range(low, high + 1):
        pitch = (length + 2 * bevel) / n
        score = 0.0
        if n > 1:
            cuts = [int(round(k * pitch - bevel)) for k in range(1, n)]
            near = [min(smooth[max(0, c - 1):c + 2]) for c in cuts]
            between = [_median(smooth[max(0, int((k + 0.3) * pitch - bevel)):int((k + 0.7) * pitch - bevel) + 1])
                       for k in range(n)]
            score = float(_median(between) - _mean(near))
        scores[n] = (score, pitch / (across + 2 * bevel))
    return scores


def _median(values: list[float]) -> float:
    """The median of a short list, as :func:`numpy.median` gives it (a tenth of its time here).

    >>> _median([3.0, 1.0, 2.0]), _median([4.0, 1.0, 2.0, 3.0])
    (2.0, 2.5)
    """
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _mean(values: list[float]) -> float:
    """The mean of a short list, as :func:`numpy.mean` gives it (its sum, without its overhead).

    >>> _mean([0.1, 0.2, 0.4]) == float(np.mean([0.1, 0.2, 0.4]))
    True
    """
    return float(np.add.reduce(np.array(values, np.float64))) / len(values)


def _ranked_counts(profile: np.ndarray, across: float, aspect: float) -> list[int]:
    """How many tiles a row of this profile may hold, likeliest first: counts whose cuts fall
    on the deepest dips, among those the aspect range allows, nudged towards the frame's
    typical ``aspect``."""
    scores = {n: seams - 60 * abs(ratio - aspect) for n, (seams, ratio) in _seam_scores(profile, across).items()}
    ranked = sorted(scores, key=lambda n: -scores[n])
    # A runner-up far behind is no real alternative (saves the classifier the work).
    return [n for n in ranked if scores[n] >= scores[ranked[0]] - OPEN_COUNT]


@dataclass(frozen=True)
class Blob:
    """A light rectangle in frame pixels: one tile or a row of touching tiles. ``counts``: how
    many tiles it may hold, likeliest first (the reader may let the classifier choose)."""

    x: float
    y: float
    axis: float
    """Direction of the long side (radians, image coordinates)."""
    length: float
    across: float
    counts: tuple[int, ...]
    number: int
    second_look: bool = False
    """Found by the contrast look (:func:`contrast_rects`), not by the face colour."""
    vouches: tuple[tuple[float, float], ...] = ()
    """Centres of face-coloured patches (frame pixels) that only this blob explains: signs of a
    missed tile for as long as the blob's tiles are not all read (see :func:`contrast_rects`)."""

    def count_at(self, pitch: float) -> int:
        """How many tiles of width / height ``pitch`` (as :meth:`cut` measures them) the blob holds.

        >>> Blob(0, 0, 0.0, 200.0, 40.0, (4,), 0).count_at(0.7)
        7
        """
        bevel = BEVEL * self.across
        return max(1, round((self.length + 2 * bevel) / (pitch * (self.across + 2 * bevel))))

    def cut(self, n: int) -> list[TileCandidate]:
        """The ``n`` tiles of the blob: a lone tile stands along the long side, a row's tiles
        across it."""
        if n == 1:
            return [TileCandidate(self.x, self.y, angle_of_axis(self.axis), self.length, self.across, self.number)]
        bevel = BEVEL * self.across
        pitch = (self.length + 2 * bevel) / n
        along = np.array([math.cos(self.axis), math.sin(self.axis)])
        up = angle_of_axis(self.axis + math.pi / 2)
        tiles = []
        for k in range(n):
            x, y = np.array([self.x, self.y]) + ((k + 0.5) * pitch - bevel - self.length / 2) * along
            tiles.append(TileCandidate(float(x), float(y), up, self.across + 2 * bevel, pitch, self.number))
        return tiles


@dataclass(frozen=True)
class Layout:
    """What the outline finder saw in a frame: the blobs, the tiles' typical width / height
    and the centres (frame pixels) of face-coloured patches no blob explains."""

    blobs: list[Blob]
    aspect: float
    unexplained: list[tuple[float, float]]
    contrast_only: bool = False
    """No face colour explained a tile: the blobs are the contrast look's alone (and the
    patches are those lighter than their surroundings, where the table's grain is too)."""
    blank: list[tuple[float, float]] = field(default_factory=list)
    """Centres of face-coloured patches no blob explains that enclose no number: no whole tile
    can lie there, but a blob beside one may be part of a tile the finder cut wrong."""
    face: tuple[float, float, float] | None = None
    """The face colour that won (:func:`face_rects`), None where none did."""
    other_faces: list[tuple[float, float, float]] = field(default_factory=list)
    """The other face colours guessed that explain a tile, the likelier first: where the winner's
    blobs read as no tile (a striped cloth's stripes), the faces may be of one of these."""


def row_pitch(blobs: list[Blob], least: int = 3) -> float | None:
    """The tile width / height the frame's rows share (as :meth:`Blob.cut` measures it): the
    median over the blobs whose likeliest count is two tiles or more, where at least ``least``
    are; None otherwise. A set's tiles in a row are cut a little narrower than a lone tile's
    outline (its bevels), and the lone tiles may be too few to tell the aspect at all.

    >>> rows = [Blob(0, 0, 0.0, 90.0, 40.0, (3,), k) for k in range(3)]
    >>> round(row_pitch(rows), 3), row_pitch(rows[:2])
    (0.723, None)
    """
    pitches = [tile.width / tile.height for blob in blobs if blob.counts[0] >= 2 for tile in blob.cut(blob.counts[0])[:1]]
    return float(np.median(pitches)) if len(pitches) >= least else None


def find_blobs(frame: np.ndarray, min_height: float = 12.0, alternatives: int = 2) -> list[Blob]:
    """The tile-shaped light rectangles of a BGR frame with up to ``alternatives`` counts each."""
    return find_layout(frame, min_height, alternatives).blobs


def find_layout(frame: np.ndarray, min_height: float = 12.0, alternatives: int = 2, contrast: bool = True,
                face: tuple[float, float, float] | None = None) -> Layout:
    """The blobs of a BGR frame (see :func:`find_blobs`) and what they leave unexplained;
    ``contrast=False`` leaves out the contrast look (:func:`contrast_rects`; to measure its cost);
    ``face``: the face colour to go by instead of the frame's own guesses (:attr:`Layout.face` of
    another photo of the same table in the same light)."""
    scale = min(1.0, WORK_SIDE / max(frame.shape[:2]))
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
    min_area = (min_height * scale) ** 2 * 0.5
    scaled = _Scaled.of(small)
    rects, mask, (loose, loose_mask), winner, others = face_rects(scaled, min_area, face)
    second_look = False
    if not rects and contrast:
        # No face colour explains a tile (faces and table alike in colour): tiles lighter than
        # their surroundings, of one size, are all there is to go by.
        mask = lighter_mask(scaled.light8)
        rects = _one_size(_rect_blobs(mask, min_area))
        second_look = True
        tinted = _tinted_faces(scaled, rects, mask, min_area)
        if tinted is not None:
            rects, mask = tinted
            second_look = False
    lone = [min(r[1]) / max(r[1]) for r in rects if ASPECT_RANGE[0] <= min(r[1]) / max(r[1]) <= ASPECT_RANGE[1]]
    aspect = float(np.median(lone)) if len(lone) >= 3 else 0.74
    blobs = [_blob(scaled, rect, scale, aspect, alternatives, number, second_look) for number, rect in enumerate(rects)
             if min(max(rect[1]), min(rect[1]) / ASPECT_RANGE[1]) >= min_height * scale]
    unexplained: list[tuple[float, float]] = []
    blank: list[tuple[float, float]] = []
    if mask is not None and blobs:
        height = float(np.median([b.across if b.counts[0] > 1 else b.length for b in blobs])) * scale
        lighter = lighter_mask(scaled.light8, height) if contrast else None
        patches = _unexplained(mask, rects, height, aspect, lighter)
        # A tile or a row of them in a dark corner or under glare shows in the looser look only.
        sized = [r for r in loose if _tile_sized(r, height, aspect)]
        patches += [(r[0][0], r[0][1], inked)
                    for r, inked in zip(sized, _inked_rects(loose_mask, sized, INK * height * height * aspect))]
        unexplained = [(x / scale, y / scale) for x, y, inked in patches if inked]
        blank = [(x / scale, y / scale) for x, y, inked in patches if not inked]
        found = []
        if not second_look and lighter is not None:
            faces = (mask > 0) & (_covered(mask.shape, rects) > 0)
            face = (float(np.median(scaled.a[faces])), float(np.median(scaled.b[faces]))) if faces.any() else None
            found = contrast_rects(small, lighter, rects, height, aspect, min_area, face)
            # Tiles washed out by glare merge with its halo unless the bar is much higher.
            for bar in GLARE_CONTRASTS:
                found += contrast_rects(small, lighter_mask(scaled.light8, height, bar), rects + found, height,
                                        aspect, min_area, face)
        for rect in found:
            # A patch this blob explains stays a doubt until its tiles are read (a glare
            # spot can be tile-shaped too): the reader puts it back where they are not.
            corners = cv2.boxPoints(rect) / scale
            vouches = tuple(p for p in unexplained if cv2.pointPolygonTest(corners, p, False) >= 0)
            unexplained = [p for p in unexplained if p not in vouches]
            blobs.append(_blob(scaled, rect, scale, aspect, alternatives, len(rects) + len(blobs), True, vouches))
    return Layout(blobs, aspect, unexplained, second_look, blank, winner, others)


def _tinted_faces(scaled: _Scaled, rects: list, lighter: np.ndarray,
                  min_area: float) -> tuple[list, np.ndarray] | None:
    """The tile rectangles and face mask of the face colour read off the contrast look's tiles
    (``rects``, found in ``lighter``: pixels lighter than their surroundings), where that colour
    explains more tiles than they do; None where it does not. Faces tinted by a colour cast the
    table does not share (lavender faces on a grey-blue table) are neither the lightest nor the
    least coloured pixels of a frame, so no face-colour guess finds them, and many are barely
    lighter than the table; their colour sets them apart.

    >>> frame = np.full((200, 300, 3), (150, 140, 120), np.uint8)       # a grey-blue table
    >>> for x in (40, 100, 160, 220):                                  # lavender faces, barely lighter
    ...     _ = cv2.rectangle(frame, (x, 80), (x + 28, 120), (200, 150, 160), -1)
    >>> faint = np.zeros((200, 300), np.uint8); faint[80:121, 40:69] = 255    # the contrast look saw one
    >>> found = _tinted_faces(_Scaled.of(frame), [((54.0, 100.0), (29.0, 41.0), 0.0)], faint, 50)
    >>> len(found[0])
    4
    """
    inside = (_covered(scaled.light.shape, rects) > 0) & (lighter > 0)
    if not rects or np.count_nonzero(inside) < min_area:
        return None
    face = tuple(float(np.median(plane[inside])) for plane in (scaled.light, scaled.a, scaled.b))
    mask = face_mask(scaled, face)
    if np.count_nonzero(mask) > MAX_COVER * mask.size:
        return None
    found = _rect_blobs(mask, min_area, stricter=lambda box: face_mask(scaled, face, COLOUR_TOLERANCE / 2, window=box))
    return (found, mask) if _seamed_count(scaled, found) > _seamed_count(scaled, rects) else None


def contrast_rects(small: np.ndarray, lighter: np.ndarray, rects: list, height: float, aspect: float,
                   min_area: float, face: tuple[float, float] | None = None) -> list:
    """Tile- or row-shaped rectangles of a scaled BGR frame that are lighter than their
    surroundings (``lighter``: its :func:`lighter_mask`) and that none of ``rects`` (the face
    colour's) covers: faces whose colour the table shares (a pink cloth under warm light) or
    that a shadow or glare tints; where the face colour found part of a row, the rest of it.
    Only the shapes of this frame's tiles (``height``, width / height ``aspect``) count, and only
    rectangles as colourless as a face (:func:`_colourless`) or, given the a, b of the frame's
    faces (``face``), whose lighter half has that colour: under warm light the faces themselves
    are coloured (a joker's face near a lamp, chroma 32, on a grey table).

    >>> frame = np.full((200, 300, 3), (90, 110, 200), np.uint8)      # a pink cloth
    >>> _ = cv2.rectangle(frame, (100, 80), (128, 120), (150, 165, 235), -1)   # a pink-lit tile
    >>> lighter = lighter_mask(cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)[:, :, 0], 41)
    >>> [(round(c[0]), round(c[1])) for c, size, _ in contrast_rects(frame, lighter, [], 41, 0.72, 50)]
    [(115, 101)]
    """
    covered = cv2.dilate(_covered(small.shape, rects), np.ones((3, 3), np.uint8))
    lighter = lighter & ~covered        # the rest of a row the face colour found part of: a blob of its own
    shaped = [r for r in _rect_blobs(lighter, min_area, height * aspect)
              if _tile_sized(r, height, aspect) and _share_inside(covered, r) < 0.2]
    if not shaped:
        return []
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    chroma = np.hypot(lab[:, :, 1] - 128, lab[:, :, 2] - 128)
    return [r for r in shaped if _colourless(chroma, r) or (face is not None and _face_coloured(lab, r, face))]


def _face_coloured(lab: np.ndarray, rect, face: tuple[float, float]) -> bool:
    """Whether the lighter half of a rectangle of a Lab image (float32, as OpenCV's uint8) has the
    faces' a, b (``face``, centred on 0) within :data:`COLOUR_TOLERANCE`: the face around the ink.

    >>> lab = np.full((60, 80, 3), (120, 128, 128), np.float32)
    >>> lab[20:40, 30:45] = (200, 140, 160)                  # a warm face, chroma 34
    >>> lab[28:32, 36:39] = (60, 170, 150)                   # its red ink
    >>> rect = ((37, 30), (15, 20), 0)
    >>> _face_coloured(lab, rect, (13.0, 30.0)), _face_coloured(lab, rect, (0.0, 5.0))
    (True, False)
    """
    window, inside = _own_pixels(lab.shape, rect)
    a, b = lighter_half_colour(lab[window][inside])
    return math.hypot(a - face[0], b - face[1]) <= COLOUR_TOLERANCE


def lighter_half_colour(pixels: np.ndarray) -> tuple[float, float]:
    """The a, b (centred on 0) of the lighter half of Lab pixels (N x 3, OpenCV's scale): a tile
    face's colour beside its darker number.

    >>> lighter_half_colour(np.array([[230, 128, 150], [230, 130, 150], [60, 170, 150], [50, 170, 150]], np.uint8))
    (1.0, 22.0)
    """
    lighter = pixels[pixels[:, 0] >= np.median(pixels[:, 0])]
    return float(np.median(lighter[:, 1])) - 128, float(np.median(lighter[:, 2])) - 128


def _colourless(chroma: np.ndarray, rect) -> bool:
    """Whether a rectangle is about as colourless as a tile face, from the frame's Lab
    ``chroma``: its median chroma at most :data:`FACE_CHROMA`, or no more than that of a ring
    around it (faces tinted like the table under its light are less coloured than the table
    itself; a light blot of a coloured cloth is not).

    >>> chroma = np.full((120, 160), 12.0); chroma[40:81, 60:90] = 40.0     # a light green blot
    >>> _colourless(chroma, ((75, 60), (30, 41), 0)), _colourless(chroma * 0 + 30, ((75, 60), (30, 41), 0))
    (False, True)
    """
    inside = _covered(chroma.shape, [rect]) > 0
    grow = int(min(rect[1]) * 0.6) | 1
    ring = (cv2.dilate(inside.astype(np.uint8), np.ones((grow, grow), np.uint8)) > 0) & ~inside
    own = float(np.median(chroma[inside]))
    return own <= FACE_CHROMA or (bool(ring.any()) and own <= float(np.median(chroma[ring])) + 2.0)


def lighter_mask(light: np.ndarray, height: float | None = None, contrast: float = CONTRAST) -> np.ndarray:
    """Pixels (uint8 0/255) of a lightness image (uint8, Lab L) at least ``contrast`` lighter than their
    surroundings, :data:`SURROUNDINGS` tile ``height`` wide (without a height: a tenth of the frame)."""
    side = int(SURROUNDINGS * height if height else max(light.shape) / 10) | 1
    background = cv2.blur(light, (side, side)).astype(np.int16)
    lighter = ((light.astype(np.int16) - background) > contrast).astype(np.uint8) * 255
    lighter = cv2.morphologyEx(lighter, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return cv2.morphologyEx(lighter, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _one_size(rects: list) -> list:
    """The rectangles whose short side is near the typical one (rows and lone tiles of one set),
    when at least three agree; none otherwise (a few light patches of a table are no tiles).

    >>> rects = [((0, 0), (30, 40), 0), ((0, 0), (90, 40), 0), ((0, 0), (31, 42), 0), ((0, 0), (9, 80), 0)]
    >>> [size for _, size, _ in _one_size(rects)]
    [(30, 40), (90, 40), (31, 42)]
    """
    if len(rects) < 3:
        return []
    typical = float(np.median([min(size) for _, size, _ in rects]))
    kept = [r for r in rects if 0.7 * typical <= min(r[1]) <= 1.4 * typical]
    return kept if len(kept) >= 3 else []


def _blob(scaled: _Scaled, rect, scale: float, aspect: float, alternatives: int, number: int,
          second_look: bool = False, vouches: tuple[tuple[float, float], ...] = ()) -> Blob:
    """The blob of a rectangle of the scaled frame (frame pixels), with its likeliest counts."""
    (cx, cy), (w, h), deg = rect
    length, across = max(w, h), min(w, h)
    ratio = length / across
    if ratio < 1.25:
        counts: list[int] = [1]     # a lone tile, taller than wide
    elif ratio < 1.6:               # a lone tile or two side by side: the nearer aspect first
        counts = sorted((1, 2), key=lambda n: abs((1 / ratio if n == 1 else ratio / 2) - aspect))[:alternatives]
    else:
        counts = _ranked_counts(scaled.seam_profile(rect), across, aspect)[:alternatives]
    axis = math.radians(deg) if w >= h else math.radians(deg + 90)
    return Blob(cx / scale, cy / scale, axis, length / scale, across / scale, tuple(counts), number, second_look, vouches)


def _tile_sized(rect, height: float, aspect: float) -> bool:
    """Whether a rectangle is shaped like one tile of this ``height`` and width / height
    ``aspect`` (within a quarter), or like a row of them.

    >>> _tile_sized(((0, 0), (30, 40), 0), 40, 0.75), _tile_sized(((0, 0), (90, 40), 0), 40, 0.75)
    (True, True)
    >>> _tile_sized(((0, 0), (40, 40), 0), 40, 0.75), _tile_sized(((0, 0), (90, 12), 0), 40, 0.75)
    (False, False)
    """
    short, long = sorted(rect[1])
    lone = abs(short / (aspect * height) - 1) < 0.25 and abs(long / height - 1) < 0.25
    row = abs(short / height - 1) < 0.25 and long >= 1.6 * aspect * height
    return lone or row


def find_tiles(frame: np.ndarray, min_height: float = 12.0) -> list[TileCandidate]:
    """Tile candidates in a BGR frame, in frame pixels, each blob cut by its likeliest count."""
    return [tile for blob in find_blobs(frame, min_height) for tile in blob.cut(blob.counts[0])]


def angle_of_axis(direction: float) -> float:
    """The :mod:`vision.geometry` angle of a tile whose up runs along image direction
    ``direction`` (radians, x right, y down), folded into [-pi/2, pi/2).

    >>> round(angle_of_axis(-math.pi / 2), 4), round(angle_of_axis(math.pi / 2), 4)
    (0.0, 0.0)
    """
    angle = direction + math.pi / 2
    return (angle + math.pi / 2) % math.pi - math.pi / 2
