"""Photographs of a given tile table: tiles at known table positions (cm), seen by a camera above.

The tile simulator (:mod:`engine.simulate_tiles`) knows where each tile lies on the table in
centimetres; :class:`TableCamera` maps those to image pixels through a homography (a camera a
little off straight above the table, so the far side looks smaller), and :func:`render_table`
draws the tiles there with :func:`vision.synth.tiles.draw_tile` and takes the photo with the
tile scenes' camera effects (room light, shadows, noise, blur). One :class:`TableLook` per game
keeps the tile set and the table surface alike from frame to frame; the font is the held-out
one, never seen in training.

>>> camera = TableCamera.overhead(640, 480)
>>> camera.to_table(camera.to_image([(40.0, 30.0)])).round(1).tolist()
[[40.0, 30.0]]
>>> look = TableLook.random(np.random.default_rng(0), camera)
>>> scene = render_table(np.random.default_rng(1), camera, look, [("R7", 10.0, 10.0), ("R8", 13.0, 10.0)])
>>> scene.image.shape, [t.code for t in scene.tiles]
((480, 640, 3), ['R7', 'R8'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..motion import RESTING_HAND_SHARE, hand_share
from .tiles import TileAnnotation, TileScene, TileSceneParams, TileStyle, _photograph, random_tile_table, \
    tile_fonts

TILE_CM = (2.8, 3.8)
"""A tile's face, width and height in cm (as :class:`engine.tile_tracker.TileTrackerOptions`)."""


@dataclass(frozen=True)
class TableCamera:
    """Where the camera sees the table: ``matrix`` maps table cm to image pixels."""

    width: int
    height: int
    table_cm: tuple[float, float]
    matrix: np.ndarray

    @classmethod
    def overhead(cls, width: int = 1280, height: int = 720, table_cm: tuple[float, float] = (80.0, 60.0),
                 far_side: float = 0.92, margin: float = 12.0) -> "TableCamera":
        """The whole table in view, its far edge (y = 0) ``far_side`` times as wide as the near one."""
        if not 0.5 <= far_side <= 1.0:
            raise ValueError(f"far_side must be between 0.5 and 1, got {far_side}")
        table_w, table_h = table_cm
        scale = min((width - 2 * margin) / table_w, (height - 2 * margin) / table_h)
        near_w, tall = table_w * scale, table_h * scale
        left, top = (width - near_w) / 2, (height - tall) / 2
        inset = near_w * (1 - far_side) / 2
        image = np.float32([[left + inset, top], [left + near_w - inset, top], [left + near_w, top + tall], [left, top + tall]])
        table = np.float32([[0, 0], [table_w, 0], [table_w, table_h], [0, table_h]])
        return cls(width, height, table_cm, cv2.getPerspectiveTransform(table, image))

    def to_image(self, points: Sequence[Sequence[float]]) -> np.ndarray:
        """Table cm to image pixels, (N, 2)."""
        return cv2.perspectiveTransform(np.float64(points).reshape(-1, 1, 2), self.matrix).reshape(-1, 2)

    def to_table(self, points: Sequence[Sequence[float]]) -> np.ndarray:
        """Image pixels to table cm, (N, 2): the inverse of :meth:`to_image`."""
        return cv2.perspectiveTransform(np.float64(points).reshape(-1, 1, 2), np.linalg.inv(self.matrix)).reshape(-1, 2)


@dataclass(frozen=True)
class TableLook:
    """What stays the same over a game: the tile set's style and the table surface."""

    style: TileStyle
    table: np.ndarray
    params: TileSceneParams

    @classmethod
    def random(cls, rng: np.random.Generator, camera: TableCamera, palette: str = "ravensburger",
               fonts: str = "heldout", skin_free: bool = True, effects: float = 1.0) -> "TableLook":
        """A random set of ``palette`` in ``fonts`` on a table that stands out from the tile faces
        (the reader's outline finder needs that, see :mod:`vision.tiles.outlines`). With
        ``skin_free``, tables whose colour the hand detector (:func:`vision.motion.hand_share`)
        takes for skin in photos are drawn again: on those (reddish wood, orange cloth; about 45 % of
        the synth tables) most frames read as a hand over the table, so the reader calls no reading
        complete. ``effects`` scales the camera effects (noise, blur, glare; 0: none)."""
        params = TileSceneParams(width=camera.width, height=camera.height, palette=palette, fonts=fonts, hands=0.0,
                                 tilt=0.0, light_tables=False, effects=effects)
        style = replace(TileStyle.random(rng, palette, tile_fonts(fonts)), aspect=TILE_CM[0] / TILE_CM[1])
        while True:
            look = cls(style, random_tile_table(rng, params), params)
            if not skin_free or not look.skin_like(rng, camera):
                return look

    def skin_like(self, rng: np.random.Generator, camera: "TableCamera", photos: int = 4) -> bool:
        """Does the hand detector take part of the bare table for skin in any of a few photos (room
        light and camera effects vary from photo to photo)?"""
        return any(hand_share(render_table(rng, camera, self, []).image) > RESTING_HAND_SHARE for _ in range(photos))


def render_table(rng: np.random.Generator, camera: TableCamera, look: TableLook,
                 tiles: Sequence[tuple[str, float, float]]) -> TileScene:
    """One still photo of ``tiles`` (code, x cm, y cm of the centre), upright as the simulator lays them."""
    half_w, half_h = TILE_CM[0] / 2, TILE_CM[1] / 2
    placed = []
    for code, x, y in tiles:
        corners = camera.to_image([(x - half_w, y - half_h), (x + half_w, y - half_h), (x + half_w, y + half_h),
                                   (x - half_w, y + half_h)])
        tile = TileAnnotation(code, corners, 0.0, 0.0, 0.0, -1)
        tile.set_outline(corners)
        placed.append(tile)
    tile_h = float(np.median([t.height for t in placed])) if placed else 40.0
    return _photograph(rng, look.params, look.style, placed, [], tile_h, look.table)
