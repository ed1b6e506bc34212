"""Table geometry: camera pixels to table centimetres, from ArUco markers at the table corners.

Four markers of OpenCV's 4x4 dictionary (ids 0-3) lie with their centres on the corners of the
playing area: 0 top left, 1 top right, 2 bottom right, 3 bottom left, as the camera sees it.
Their centres give the homography from the image to table coordinates (cm, origin at marker 0).
The centre of a marker is the crossing of its diagonals, which perspective keeps, so the
markers may lie at any rotation.

:class:`Calibrator` checks every frame: markers where the homography expects them keep it
(``calibrated``); markers moved beyond ``tolerance_px`` with all four visible give a new one
(``recalibrated``: the camera was bumped); moved markers without all four visible, or no
markers at all, mean the table cannot be read (``moved`` / ``lost``), never a silent misreading.
Hidden markers (a hand over one) are fine as long as those still visible have not moved.

Without markers, four image points of the table corners set by hand give a fixed calibration
(:meth:`Calibration.from_corners`).

>>> cal = Calibration.from_corners([(100, 50), (1180, 60), (1200, 700), (80, 690)], 80, 60)
>>> [round(float(v), 1) for v in cal.to_table([(100, 50), (1200, 700)])[1]]
[80.0, 60.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

import cv2
import numpy as np

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)
CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")

State = Literal["uncalibrated", "calibrated", "recalibrated", "moved", "lost", "manual"]


class CalibrationError(ValueError):
    """Corner points that cannot define a table (too few, collinear, a bad table size)."""


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """The marker ``marker_id`` as a ``pixels`` square greyscale image (with its black border)."""
    if marker_id not in CORNER_IDS:
        raise CalibrationError(f"table markers are ids {CORNER_IDS}, got {marker_id!r}")
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, pixels)


@dataclass(frozen=True)
class Calibration:
    """A homography from image pixels to table cm, and the image points it was made from."""

    homography: np.ndarray
    width_cm: float
    height_cm: float
    image_corners: tuple[tuple[float, float], ...]

    @classmethod
    def from_corners(cls, image_corners: Sequence[Sequence[float]], width_cm: float, height_cm: float) -> "Calibration":
        """The table's four corners in the image, clockwise from top left (set by hand or from markers)."""
        points = np.asarray(image_corners, dtype=np.float64)
        if points.shape != (4, 2):
            raise CalibrationError(f"need four corner points (x, y), got {np.shape(image_corners)}")
        if not (width_cm > 0 and height_cm > 0):
            raise CalibrationError(f"table size must be positive, got {width_cm} x {height_cm} cm")
        area = 0.5 * abs(np.dot(points[:, 0], np.roll(points[:, 1], 1)) - np.dot(points[:, 1], np.roll(points[:, 0], 1)))
        if area < 100:
            raise CalibrationError(f"the four corners {points.tolist()} enclose no area: they must be the table's corners")
        table = np.array([(0, 0), (width_cm, 0), (width_cm, height_cm), (0, height_cm)], dtype=np.float64)
        homography, _ = cv2.findHomography(points, table)
        if homography is None:
            raise CalibrationError(f"no homography from the corners {points.tolist()}")
        return cls(homography, float(width_cm), float(height_cm), tuple(map(tuple, points.tolist())))

    def to_table(self, points: Sequence[Sequence[float]]) -> np.ndarray:
        """Image points (N x 2) to table cm (N x 2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_image(self, points: Sequence[Sequence[float]]) -> np.ndarray:
        """Table cm (N x 2) to image points (N x 2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    def image_length(self, point: Sequence[float], length_cm: float) -> float:
        """The longest a ``length_cm`` stretch of table looks in the image around the image ``point``,
        in pixels, whichever way it lies (perspective makes some directions longer than others).

        >>> cal = Calibration.from_corners([(0, 0), (800, 0), (800, 600), (0, 600)], 80, 60)
        >>> round(cal.image_length((400, 300), 10.8), 1)
        108.0
        """
        centre = self.to_table([point])[0]
        turns = np.linspace(0.0, np.pi, 8, endpoint=False)
        half = 0.5 * length_cm * np.stack([np.cos(turns), np.sin(turns)], axis=1)
        ends = self.to_image(np.concatenate([centre + half, centre - half]))
        return float(np.max(np.linalg.norm(ends[:len(turns)] - ends[len(turns):], axis=1)))


@dataclass(frozen=True)
class CalibrationReport:
    """What one frame said about the geometry; read the table only while ``usable``."""

    state: State
    calibration: Calibration | None
    visible: tuple[int, ...]
    moved_px: float
    message: str

    @property
    def usable(self) -> bool:
        return self.state in ("calibrated", "recalibrated", "manual")


def find_markers(image: np.ndarray) -> dict[int, tuple[float, float]]:
    """Centres of the table markers found in a BGR or grey image, by id."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, tuple[float, float]] = {}
    for quad, marker_id in zip(corners, [] if ids is None else ids.ravel()):
        if int(marker_id) in CORNER_IDS:
            found[int(marker_id)] = _diagonal_crossing(quad.reshape(4, 2))
    return found


def _diagonal_crossing(quad: np.ndarray) -> tuple[float, float]:
    """Where the diagonals of a quadrilateral cross: the image of the marker's centre."""
    p, r = quad[0], quad[2] - quad[0]
    q, s = quad[1], quad[3] - quad[1]
    denominator = r[0] * s[1] - r[1] * s[0]
    t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / denominator
    centre = p + t * r
    return float(centre[0]), float(centre[1])


class Calibrator:
    """Keeps the table geometry right frame after frame (see the module docstring).

    ``width_cm`` x ``height_cm`` is the rectangle of the marker centres.
    """

    def __init__(self, width_cm: float = 80.0, height_cm: float = 60.0, tolerance_px: float = 4.0) -> None:
        if not (width_cm > 0 and height_cm > 0):
            raise CalibrationError(f"table size must be positive, got {width_cm} x {height_cm} cm")
        self.width_cm, self.height_cm, self.tolerance_px = float(width_cm), float(height_cm), tolerance_px
        self.calibration: Calibration | None = None
        self.manual = False
        self._tapped: tuple[Calibration | None, tuple[int, int] | None] = (None, None)

    def set_corners(self, image_corners: Sequence[Sequence[float]],
                    frame_size: tuple[int, int] | None = None) -> CalibrationReport:
        """Fallback without markers: the table corners tapped on the web page, on a frame of
        ``frame_size`` (width, height; None: the camera's size is taken as it).

        A camera that later delivers another size at the same aspect ratio (the same view, scaled)
        gets the corners scaled with it; another aspect ratio means another crop of the sensor,
        where scaled corners would point beside the table, so the table is not read until the
        corners are tapped again.

        >>> calibrator = Calibrator(80, 60)
        >>> _ = calibrator.set_corners([(100, 50), (1180, 60), (1200, 700), (80, 690)], (1280, 720))
        >>> report = calibrator.update(np.zeros((360, 640, 3), np.uint8))
        >>> report.state, report.calibration.image_corners[2]
        ('manual', (600.0, 350.0))
        >>> calibrator.update(np.zeros((480, 640, 3), np.uint8)).state
        'uncalibrated'
        """
        self.calibration = Calibration.from_corners(image_corners, self.width_cm, self.height_cm)
        self.manual = True
        self._tapped = (self.calibration, tuple(frame_size) if frame_size else None)
        return CalibrationReport("manual", self.calibration, (), 0.0, "table corners set by hand; a moved camera cannot be noticed")

    def update(self, image: np.ndarray) -> CalibrationReport:
        found = find_markers(image)
        visible = tuple(sorted(found))
        if self.manual:
            return self._manual_report(image.shape[1], image.shape[0], visible)
        if self.calibration is None:
            if len(found) < 4:
                return CalibrationReport("uncalibrated", None, visible, 0.0, _missing(found, "to calibrate"))
            self.calibration = self._from(found)
            return CalibrationReport("calibrated", self.calibration, visible, 0.0, "calibrated from the four markers")
        if not found:
            return CalibrationReport("lost", self.calibration, visible, 0.0,
                                     "no table marker is visible: the table is not read until they are")
        expected = self.calibration.image_corners
        moved = max(float(np.hypot(*(np.subtract(found[i], expected[i])))) for i in found)
        if moved <= self.tolerance_px:
            return CalibrationReport("calibrated", self.calibration, visible, moved, "markers in place")
        if len(found) == 4:
            self.calibration = self._from(found)
            return CalibrationReport("recalibrated", self.calibration, visible, moved,
                                     f"the camera moved (markers off by {moved:.1f} px): recalibrated")
        return CalibrationReport("moved", self.calibration, visible, moved,
                                 f"the camera moved (markers off by {moved:.1f} px) and "
                                 + _missing(found, "to recalibrate") + "; the table is not read meanwhile")

    def _manual_report(self, width: int, height: int, visible: tuple[int, ...]) -> CalibrationReport:
        tapped, tapped_size = self._tapped
        if tapped_size is None or tapped_size == (width, height):
            self.calibration = tapped
            return CalibrationReport("manual", tapped, visible, 0.0, "table corners set by hand")
        tapped_width, tapped_height = tapped_size
        if abs(width / height - tapped_width / tapped_height) > 0.01:
            self.calibration = None
            return CalibrationReport("uncalibrated", None, visible, 0.0,
                                     f"the table corners were tapped on a {tapped_width}x{tapped_height} frame, but the "
                                     f"camera now gives {width}x{height} (another view): tap them again")
        scaled = [(x * width / tapped_width, y * height / tapped_height) for x, y in tapped.image_corners]
        if self.calibration is None or self.calibration.image_corners != tuple(scaled):
            self.calibration = Calibration.from_corners(scaled, self.width_cm, self.height_cm)
        return CalibrationReport("manual", self.calibration, visible, 0.0,
                                 f"table corners set by hand on a {tapped_width}x{tapped_height} frame, "
                                 f"scaled to {width}x{height}")

    def _from(self, found: dict[int, tuple[float, float]]) -> Calibration:
        return Calibration.from_corners([found[i] for i in CORNER_IDS], self.width_cm, self.height_cm)


def _missing(found: dict[int, tuple[float, float]], purpose: str) -> str:
    missing = [f"{i} ({CORNER_NAMES[i]})" for i in CORNER_IDS if i not in found]
    return f"marker {', '.join(missing)} not visible {purpose}" if missing else "all markers visible"
