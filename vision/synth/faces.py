"""Card faces and the corner indices printed on them.

A :class:`CardFace` is one rendered card (BGRA, upright, cropped to the card)
with the boxes of its corner indices -- the rank + suit glyphs a player reads
in a fanned meld. :func:`find_corner_indices` locates those boxes on any
rendered face by looking for the compact cluster of ink closest to each
corner, so real deck art needs no hand annotation.

>>> face = blank_face(300, 200)
>>> face[40:70, 12:30, :3] = 0      # a rank glyph ...
>>> face[74:90, 13:29, :3] = 0      # ... and the suit below it
>>> [tuple(b.box) for b in find_corner_indices(face)]
[(12, 40, 30, 90)]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.cards import ALL_CARDS, JOKER_CODE

CARD_CODES: tuple[str, ...] = tuple(str(card) for card in ALL_CARDS)
"""The 52 card codes in :attr:`engine.cards.Card.index` order ('AS' .. 'KC')."""
BACK_CODE = "BACK"

# Where an index may sit, as fractions of the card's width and height.
_CORNER_REGION = (0.27, 0.31)
# Ink: a channel differs this much from the paper colour around it.
_INK_CONTRAST = 70
# Glyphs of one index are at most this far apart (fraction of card height).
_GLYPH_GAP = 0.03


@dataclass(frozen=True)
class IndexBox:
    """The axis-aligned box of one corner index on an upright card face.

    ``box`` is ``(x0, y0, x1, y1)`` in face pixels (x1, y1 exclusive);
    ``rotation`` is 0 where the glyphs stand upright on the upright card and
    180 where they are printed upside down (the bottom-right index).

    >>> IndexBox((10, 20, 30, 60), 180).height
    40
    """

    box: tuple[int, int, int, int]
    rotation: int

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    def corners(self) -> np.ndarray:
        """The box corners as 4x2 float32, in reading order of the glyphs:
        top-left, top-right, bottom-right, bottom-left as the index is read.

        >>> IndexBox((0, 0, 4, 8), 0).corners().tolist()
        [[0.0, 0.0], [4.0, 0.0], [4.0, 8.0], [0.0, 8.0]]
        >>> IndexBox((0, 0, 4, 8), 180).corners().tolist()
        [[4.0, 8.0], [0.0, 8.0], [0.0, 0.0], [4.0, 0.0]]
        """
        x0, y0, x1, y1 = self.box
        pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        return pts if self.rotation == 0 else np.roll(pts, 2, axis=0)


@dataclass
class CardFace:
    """One card of one design: its code ('10H', 'JK' or 'BACK'), BGRA pixels
    and the corner indices found on it (none for backs)."""

    code: str
    image: np.ndarray
    indices: tuple[IndexBox, ...]

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.image.shape[1], self.image.shape[0]


def blank_face(height: int, width: int, paper: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """An opaque BGRA card of one paper colour.

    >>> blank_face(4, 3).shape
    (4, 3, 4)
    """
    face = np.empty((height, width, 4), np.uint8)
    face[:, :, :3] = paper
    face[:, :, 3] = 255
    return face


def _ink_mask(region: np.ndarray) -> np.ndarray:
    """Pixels of a BGRA region that are printed ink rather than paper."""
    opaque = region[:, :, 3] > 128
    if not opaque.any():
        return opaque
    paper = np.median(region[opaque][:, :3], axis=0)
    contrast = np.abs(region[:, :, :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    return opaque & (contrast > _INK_CONTRAST)


def _top_left_index(face: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box of the compact ink cluster nearest the top-left corner."""
    h, w = face.shape[:2]
    rw, rh = int(w * _CORNER_REGION[0]), int(h * _CORNER_REGION[1])
    mask = _ink_mask(face[:rh, :rw]).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = max(4, int(2e-5 * w * h))
    glyphs = []
    for x, y, bw, bh, area in stats[1:count]:
        touches_inner_edge = x + bw >= rw or y + bh >= rh
        # Frame lines and the card border run along the card; glyphs are compact.
        too_long = bw > 0.6 * rw or bh > 0.6 * rh
        if area < min_area or touches_inner_edge or too_long:
            continue
        glyphs.append((int(x), int(y), int(x + bw), int(y + bh)))
    if not glyphs:
        return None
    union = min(glyphs, key=lambda g: g[0] + g[1])
    gap = _GLYPH_GAP * h
    grown = True
    while grown:
        grown = False
        for g in glyphs:
            near = (g[0] < union[2] + gap and g[2] > union[0] - gap
                    and g[1] < union[3] + gap and g[3] > union[1] - gap)
            inside = g[0] >= union[0] and g[1] >= union[1] and g[2] <= union[2] and g[3] <= union[3]
            if near and not inside:
                union = (min(union[0], g[0]), min(union[1], g[1]), max(union[2], g[2]), max(union[3], g[3]))
                grown = True
    return union


def _similar(a: tuple[int, int, int, int], b: tuple[int, int, int, int], tolerance: float) -> bool:
    """Boxes of about the same size at about the same place."""
    size = max(a[3] - a[1], b[3] - b[1])
    return all(abs(p - q) <= tolerance * size for p, q in zip(a, b))


def find_corner_indices(face: np.ndarray) -> list[IndexBox]:
    """Boxes of the corner indices on an upright BGRA card face.

    Looks for the index at the top-left corner and, rotated, at the
    bottom-right; four-index decks also carry one at the top-right and
    bottom-left, which count only where they mirror the top-left index.
    """
    h, w = face.shape[:2]
    found: list[IndexBox] = []
    top_left = _top_left_index(face)
    if top_left is None:
        return found
    found.append(IndexBox(top_left, 0))
    x0, y0, x1, y1 = top_left
    turned = _top_left_index(face[::-1, ::-1])
    if turned is not None and _similar(turned, top_left, 0.35):
        found.append(IndexBox((w - turned[2], h - turned[3], w - turned[0], h - turned[1]), 180))
    mirrored = _top_left_index(face[:, ::-1])
    if mirrored is not None and _similar(mirrored, top_left, 0.2):
        found.append(IndexBox((w - mirrored[2], mirrored[1], w - mirrored[0], mirrored[3]), 0))
        flipped = _top_left_index(face[::-1])
        if flipped is not None and _similar(flipped, top_left, 0.2):
            found.append(IndexBox((flipped[0], h - flipped[3], flipped[2], h - flipped[1]), 180))
    return found
