"""Suit symbols drawn from a few numbers, so procedural decks have suit shapes no font has.

The installed fonts draw the four suits in about half a dozen shapes, and a classifier trained on
them reads an unseen deck's plump trefoil as a spade (``gnome/plastic``'s clubs, its commonest
misreading). A :class:`SuitShapes` fixes one deck's shapes: a heart of two lobes and a point, a
spade (a heart turned over on a stem), a club (three round leaves on a stem, from lean to plump)
and a diamond (straight, bulging or hollow sides); :func:`suit_mask` draws one as an ink mask.

>>> shapes = SuitShapes.from_rng(np.random.default_rng(0))
>>> mask = suit_mask(shapes, "C", 60)
>>> mask.shape[0], mask.dtype, 0.2 < float(mask.mean()) / 255 < 0.8
(60, dtype('uint8'), True)
>>> suit_mask(shapes, "X", 60)
Traceback (most recent call last):
...
ValueError: suit must be one of S, H, D, C, got 'X'
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_SUPERSAMPLE = 4
"""Shapes are drawn this many times larger and scaled down, for smooth edges."""


@dataclass(frozen=True)
class SuitShapes:
    """One deck's suit shapes, in units of the symbol's height (width follows from them).

    ``lobe``: radius of a heart's or spade's two lobes; ``lobe_spread``: how far their centres lie
    from the middle; ``point``: how far the sides bow out on their way to the point (0 straight);
    ``leaf``: radius of a club's three leaves; ``leaf_spread``: how far the side leaves lie from
    the middle (small: the leaves merge into a plump blob); ``leaf_drop``: how low the side leaves
    sit; ``stem``: the width of the stem's foot; ``stem_flare``: how much its sides curve in;
    ``diamond_width``: a diamond's width; ``diamond_bulge``: its sides' bow (negative: hollow).
    """

    lobe: float
    lobe_spread: float
    point: float
    leaf: float
    leaf_spread: float
    leaf_drop: float
    stem: float
    stem_flare: float
    diamond_width: float
    diamond_bulge: float

    @classmethod
    def from_rng(cls, rng: np.random.Generator) -> "SuitShapes":
        return cls(lobe=float(rng.uniform(0.2, 0.3)), lobe_spread=float(rng.uniform(0.16, 0.27)),
                   point=float(rng.uniform(-0.02, 0.12)), leaf=float(rng.uniform(0.16, 0.25)),
                   leaf_spread=float(rng.uniform(0.15, 0.29)), leaf_drop=float(rng.uniform(0.3, 0.42)),
                   stem=float(rng.uniform(0.14, 0.42)), stem_flare=float(rng.uniform(0.0, 0.12)),
                   diamond_width=float(rng.uniform(0.58, 0.9)), diamond_bulge=float(rng.uniform(-0.08, 0.1)))


def _bowed(start: np.ndarray, end: np.ndarray, bow: float, steps: int = 16) -> np.ndarray:
    """Points from ``start`` to ``end`` along a curve bowed ``bow`` (of its length) to its left."""
    direction = end - start
    normal = np.array([direction[1], -direction[0]])
    t = np.linspace(0.0, 1.0, steps)[:, None]
    return start + t * direction + (4 * bow * t * (1 - t)) * normal


def _heart(shapes: SuitShapes, top: float, bottom: float) -> tuple[list[tuple[float, float, float]], list[np.ndarray]]:
    """Circles (x, y, r) and polygons of a heart between heights ``top`` and ``bottom`` (point down)."""
    r, spread = shapes.lobe, shapes.lobe_spread
    cy = top + r
    left, right = np.array([0.5 - spread - r, cy]), np.array([0.5 + spread + r, cy])
    tip = np.array([0.5, bottom])
    body = np.concatenate([_bowed(left, tip, -shapes.point), _bowed(tip, right, -shapes.point),
                           [[0.5 + spread, cy - r * 0.3], [0.5 - spread, cy - r * 0.3]]])
    return [(0.5 - spread, cy, r), (0.5 + spread, cy, r)], [body]


def _stem(shapes: SuitShapes, joint: float) -> np.ndarray:
    """The stem from the middle at height ``joint`` down to a foot ``shapes.stem`` wide."""
    half = shapes.stem / 2
    foot_left, foot_right = np.array([0.5 - half, 1.0]), np.array([0.5 + half, 1.0])
    neck = np.array([0.5, joint])
    return np.concatenate([_bowed(neck, foot_left, shapes.stem_flare), _bowed(foot_right, neck, shapes.stem_flare)])


def _parts(shapes: SuitShapes, suit: str) -> tuple[list[tuple[float, float, float]], list[np.ndarray]]:
    if suit == "H":
        return _heart(shapes, 0.0, 1.0)
    if suit == "S":
        circles, polygons = _heart(shapes, 0.0, 0.78)
        # turned over: the point at the top, the lobes above the stem
        circles = [(x, 0.78 - y, r) for x, y, r in circles]
        polygons = [np.column_stack([p[:, 0], 0.78 - p[:, 1]]) for p in polygons]
        return circles, polygons + [_stem(shapes, 0.55)]
    if suit == "C":
        r, spread = shapes.leaf, shapes.leaf_spread
        side_y = r + shapes.leaf_drop
        circles = [(0.5, r, r), (0.5 - spread, side_y, r), (0.5 + spread, side_y, r), (0.5, side_y - r * 0.4, r * 0.8)]
        return circles, [_stem(shapes, side_y)]
    if suit == "D":
        half = shapes.diamond_width / 2
        corners = [np.array(p) for p in ((0.5, 0.0), (0.5 + half, 0.5), (0.5, 1.0), (0.5 - half, 0.5))]
        sides = [_bowed(corners[k], corners[(k + 1) % 4], -shapes.diamond_bulge) for k in range(4)]
        return [], [np.concatenate(sides)]
    raise ValueError(f"suit must be one of S, H, D, C, got {suit!r}")


def suit_mask(shapes: SuitShapes, suit: str, height: int) -> np.ndarray:
    """The ink mask (uint8, 255 = ink) of one suit symbol ``height`` pixels tall, cropped to its ink."""
    circles, polygons = _parts(shapes, suit)
    big = height * _SUPERSAMPLE
    # unit x -0.5..1.5 fits the canvas (a plump club's leaves reach past 0..1)
    canvas = np.zeros((big + 2 * _SUPERSAMPLE, big * 2), np.uint8)

    def pixels(points: np.ndarray) -> np.ndarray:
        return np.round((np.asarray(points, float) + [0.5, 0.0]) * big + [0.0, _SUPERSAMPLE]).astype(np.int32)

    for x, y, r in circles:
        cv2.circle(canvas, tuple(int(v) for v in pixels([x, y])), int(round(r * big)), 255, -1, cv2.LINE_AA)
    for polygon in polygons:
        cv2.fillPoly(canvas, [pixels(polygon)], 255, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 8)
    canvas = canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    width = max(1, round(canvas.shape[1] * height / canvas.shape[0]))
    return cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
