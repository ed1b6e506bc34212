"""Draw what the recognizer (or the tile reader) saw onto a copy of the frame.

>>> import numpy as np
>>> from vision.observation import CardObservation
>>> out = draw_observations(np.zeros((60, 80, 3), np.uint8), [CardObservation("QS", 0.9, ((30.0, 30.0),))])
>>> out.shape, int(out.max()) > 0
((60, 80, 3), True)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.observation import CardObservation
from vision.tiles.reader import TableReading

SURE = 0.9
SURE_COLOUR, UNSURE_COLOUR, DOUBT_COLOUR = (60, 200, 60), (0, 140, 255), (40, 40, 230)


def draw_observations(frame: np.ndarray, observations: list[CardObservation]) -> np.ndarray:
    """Green for confident readings, orange for ones the player should confirm."""
    canvas = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1600)
    for obs in observations:
        colour = SURE_COLOUR if obs.confidence >= SURE else UNSURE_COLOUR
        if obs.outline is not None:
            cv2.polylines(canvas, [np.round(np.array(obs.outline)).astype(np.int32)], True, colour, max(1, int(2 * scale)))
        for x, y in obs.corners:
            centre = (int(round(x)), int(round(y)))
            cv2.circle(canvas, centre, max(3, int(8 * scale)), colour, max(1, int(2 * scale)))
            label = f"{obs.card} {obs.confidence:.2f}" + (f" {obs.back_design}" if obs.back_design else "")
            _label(canvas, label, (centre[0] + int(10 * scale), centre[1] - int(10 * scale)), colour, scale)
    return canvas


def draw_tiles(frame: np.ndarray, reading: TableReading, sure: float) -> np.ndarray:
    """Each tile read, outlined with its code: green where read at least ``sure``, orange below;
    a red ring, numbered as :attr:`TableReading.doubts`, at each place a doubt is about.

    >>> from vision.tiles.reader import Doubt, TileObservation
    >>> reading = TableReading((TileObservation("R7", 0.5, ((10, 10), (30, 10), (30, 40), (10, 40)), 0),),
    ...                        (Doubt("a tile-sized patch of face colour at (60, 30) is no tile found", (60, 30)),))
    >>> out = draw_tiles(np.zeros((60, 80, 3), np.uint8), reading, 0.7)
    >>> tuple(int(v) for v in out[10, 20]), tuple(int(v) for v in out[30, 60 - 9])
    ((0, 140, 255), (40, 40, 230))
    """
    canvas = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1600)
    thick = max(1, int(2 * scale))
    for tile in reading.tiles:
        colour = SURE_COLOUR if tile.confidence >= sure else UNSURE_COLOUR
        cv2.polylines(canvas, [np.round(np.array(tile.outline)).astype(np.int32)], True, colour, thick)
        top = min(tile.outline, key=lambda corner: corner[1])
        _label(canvas, tile.tile if tile.confidence >= sure else f"{tile.tile}?", (int(top[0]), int(top[1]) - thick), colour, scale)
    for number, doubt in enumerate(reading.doubts, 1):
        at = getattr(doubt, "at", None)
        if at is not None:
            centre = (int(round(at[0])), int(round(at[1])))
            radius = max(6, int(24 * scale))
            cv2.circle(canvas, centre, radius, DOUBT_COLOUR, thick)
            _label(canvas, str(number), (centre[0] + radius, centre[1] - radius), DOUBT_COLOUR, scale)
    return canvas


def _label(canvas: np.ndarray, text: str, origin: tuple[int, int], colour: tuple[int, int, int], scale: float) -> None:
    """Text in ``colour`` on a dark outline, legible on any table."""
    cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (0, 0, 0), max(2, int(5 * scale)))
    cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, colour, max(1, int(2 * scale)))
