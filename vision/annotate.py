"""Draw what the recognizer saw onto a copy of the frame.

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

SURE = 0.9


def draw_observations(frame: np.ndarray, observations: list[CardObservation]) -> np.ndarray:
    """Green for confident readings, orange for ones the player should confirm."""
    canvas = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1600)
    for obs in observations:
        colour = (60, 200, 60) if obs.confidence >= SURE else (0, 140, 255)
        if obs.outline is not None:
            cv2.polylines(canvas, [np.round(np.array(obs.outline)).astype(np.int32)], True, colour, max(1, int(2 * scale)))
        for x, y in obs.corners:
            centre = (int(round(x)), int(round(y)))
            cv2.circle(canvas, centre, max(3, int(8 * scale)), colour, max(1, int(2 * scale)))
            label = f"{obs.card} {obs.confidence:.2f}" + (f" {obs.back_design}" if obs.back_design else "")
            origin = (centre[0] + int(10 * scale), centre[1] - int(10 * scale))
            cv2.putText(canvas, label, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (0, 0, 0), max(2, int(5 * scale)))
            cv2.putText(canvas, label, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, colour, max(1, int(2 * scale)))
    return canvas
