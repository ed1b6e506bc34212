"""The camera as the dashboard sees it: the newest frame, what the calibration finds on it, and
the table corners set by hand.

The process that owns the camera (``rummyref run``) passes a :class:`TableCamera` to
:func:`webui.create_app` as ``config["CAMERA"]`` (``None``: no camera, as in ``rummyref
dashboard``). The web app never reads the camera itself: it looks at the frame the pipeline
read last, so a phone on the setup page costs the recognizer nothing.

Corners set by hand are recorded as events of the table (not of a match) under
:data:`TABLE_RECORD`: ``corners_set`` (four image points, clockwise from top left, and the frame
size they were tapped on) and ``corners_cleared`` (back to the markers). The newest one counts;
the older ones stay as the audit trail.

>>> check_corners([[100, 50], [1180, 60], [1200, 700], [80, 690]], (1280, 720))
[[100.0, 50.0], [1180.0, 60.0], [1200.0, 700.0], [80.0, 690.0]]
>>> check_corners([[100, 50], [1180, 60], [1200, 700]], (1280, 720))
Traceback (most recent call last):
...
webui.events.InvalidInput: corners: tap the four table corners (got 3 points)
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

import numpy as np

from webui.evidence import zone_outlines
from webui.events import InvalidInput
from webui.store import EventStore

TABLE_RECORD = "_table"
"""The record id of the table's own events (corners); never listed as a match."""
JPEG_QUALITY = 80


class TableCamera(Protocol):
    """What the dashboard needs of the camera (``rummyref.pipeline.Pipeline`` provides it)."""

    zones: Any
    """The table's zones (``engine.zones.ZoneMap``; its size is the table's, in cm)."""
    reads: str
    """What the referee reads: ``cards`` (the recognizer, which a learned deck improves) or ``tiles``."""

    def latest_image(self) -> np.ndarray | None:
        """The newest BGR frame, or None before the first one."""

    def use_corners(self, corners: Sequence[Sequence[float]] | None, size: tuple[int, int] | None = None) -> None:
        """Read the table through these image corners (tapped on a frame of ``size``) from now on;
        None: from the markers."""

    def geometry_status(self) -> dict[str, Any] | None:
        """The calibration as the referee reads it (``state``, ``message``, ``changes``), or None."""

    def corners_in_use(self) -> dict[str, Any] | None:
        """The table corners set by hand that the referee reads through now (``corners``, and ``size``:
        the frame size they were tapped on, None for the camera's own), or None: the markers."""

    @property
    def deck_name(self) -> str | None:
        """The learned deck the recognizer reads with, or None: the shipped recognizer alone."""


def check_corners(points: Any, size: tuple[int, int]) -> list[list[float]]:
    """Four points inside a frame of ``size`` (width, height) that enclose a table."""
    if not isinstance(points, list) or len(points) != 4:
        count = len(points) if isinstance(points, list) else 0
        raise InvalidInput("corners", f"tap the four table corners (got {count} points)")
    clean = []
    width, height = size
    for number, point in enumerate(points, start=1):
        try:
            x, y = (float(v) for v in point)
        except (TypeError, ValueError):
            raise InvalidInput("corners", f"corner {number} is not a point x, y: {point!r}"[:120]) from None
        if not (0 <= x <= width and 0 <= y <= height):
            raise InvalidInput("corners", f"corner {number} ({x:g}, {y:g}) lies outside the {width}x{height} frame")
        clean.append([round(x, 1), round(y, 1)])
    from vision.calibration import Calibration, CalibrationError

    try:
        Calibration.from_corners(clean, 1.0, 1.0)
    except CalibrationError as error:
        raise InvalidInput("corners", f"these corners do not frame a table: {error}") from None
    return clean


def record_corners(store: EventStore, corners: list[list[float]] | None, size: tuple[int, int] | None, actor: str):
    """Append ``corners_set`` (or ``corners_cleared`` for None) to the table's record."""
    if corners is None:
        return store.append(TABLE_RECORD, "corners_cleared", {}, actor)
    return store.append(TABLE_RECORD, "corners_set", {"corners": corners, "size": list(size)}, actor)


def corner_history(store: EventStore) -> list[Any]:
    """Every corner change, oldest first (the audit trail)."""
    return [e for e in store.events(TABLE_RECORD) if e.kind in ("corners_set", "corners_cleared")]


def stored_corners(store: EventStore) -> dict[str, Any] | None:
    """The corners set by hand that count now (``corners``, ``size``), or None (markers)."""
    history = corner_history(store)
    if not history or history[-1].kind == "corners_cleared":
        return None
    return history[-1].payload


def frame_jpeg(image: np.ndarray, width: int = 1280) -> bytes:
    """The frame as a JPEG for the page, at most ``width`` pixels wide (phones need no more).

    Overlay points are in the frame's own pixels; the page scales them with the picture.
    """
    import cv2

    if image.shape[1] > width:
        image = cv2.resize(image, (width, round(image.shape[0] * width / image.shape[1])), interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("the camera frame could not be encoded as JPEG")
    return jpeg.tobytes()


def calibration_view(image: np.ndarray, zones: Any, corners: dict[str, Any] | None) -> dict[str, Any]:
    """What the calibration makes of ``image``: markers found, the state, and the zones in the image
    (through the corners set by hand when there are, else through the four markers)."""
    from vision.calibration import CORNER_IDS, CORNER_NAMES, Calibration, find_markers

    height, width = image.shape[:2]
    found = find_markers(image)  # once: marker detection is most of this request's time
    missing = [CORNER_NAMES[i] for i in CORNER_IDS if i not in found]
    if corners is not None:
        state, message, quad = "manual", "table corners set by hand; a moved camera cannot be noticed", corners["corners"]
    elif not missing:
        state, message, quad = "calibrated", "calibrated from the four markers", [found[i] for i in CORNER_IDS]
    else:
        state, message, quad = "uncalibrated", f"marker {', '.join(missing)} not visible", None
    calibration = Calibration.from_corners(quad, zones.width, zones.height) if quad else None
    return {
        "size": [width, height],
        "markers": [{"id": i, "name": CORNER_NAMES[i], "x": round(found[i][0], 1), "y": round(found[i][1], 1)}
                    for i in CORNER_IDS if i in found],
        "missing": missing, "state": state, "usable": calibration is not None, "message": message,
        "corners": corners["corners"] if corners else None,
        "zones": zone_outlines(zones, calibration),
    }
