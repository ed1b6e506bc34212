"""Table calibration from ArUco markers on rendered tables seen through known homographies."""

import cv2
import numpy as np
import pytest

from rummyref.cli import main
from vision.calibration import CalibrationError, Calibration, Calibrator, find_markers, marker_image

WIDTH_CM, HEIGHT_CM = 80.0, 60.0
PX_PER_CM = 10
MARKER_CM = 6.0
MARGIN_CM = 5.0


def table_image() -> np.ndarray:
    """The table seen from straight above at 10 px/cm, markers centred on the playing-area corners."""
    w, h = int((WIDTH_CM + 2 * MARGIN_CM) * PX_PER_CM), int((HEIGHT_CM + 2 * MARGIN_CM) * PX_PER_CM)
    image = np.full((h, w, 3), (60, 120, 40), np.uint8)
    side = int(MARKER_CM * PX_PER_CM)
    quiet = side // 6  # the white border a printed marker has around it
    for marker_id, (x, y) in enumerate([(0, 0), (WIDTH_CM, 0), (WIDTH_CM, HEIGHT_CM), (0, HEIGHT_CM)]):
        cx, cy = int((x + MARGIN_CM) * PX_PER_CM), int((y + MARGIN_CM) * PX_PER_CM)
        image[cy - side // 2 - quiet:cy + side // 2 + quiet, cx - side // 2 - quiet:cx + side // 2 + quiet] = 255
        image[cy - side // 2:cy + side // 2, cx - side // 2:cx + side // 2] = cv2.cvtColor(marker_image(marker_id, side), cv2.COLOR_GRAY2BGR)
    return image


def camera_view(table_to_image: np.ndarray, size=(1280, 720)) -> np.ndarray:
    """The rendered table warped by a homography from table cm to camera pixels, with sensor noise."""
    cm_to_canvas = np.array([[PX_PER_CM, 0, MARGIN_CM * PX_PER_CM], [0, PX_PER_CM, MARGIN_CM * PX_PER_CM], [0, 0, 1]])
    warp = table_to_image @ np.linalg.inv(cm_to_canvas)
    frame = cv2.warpPerspective(table_image(), warp, size, borderValue=(70, 80, 90))
    noise = np.random.default_rng(1).normal(0, 3, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def homography(corners_px) -> np.ndarray:
    table = np.float32([(0, 0), (WIDTH_CM, 0), (WIDTH_CM, HEIGHT_CM), (0, HEIGHT_CM)])
    return cv2.getPerspectiveTransform(table, np.float32(corners_px))


# A camera above the table, slightly tilted: the far edge looks shorter.
VIEW = homography([(300, 120), (990, 130), (1130, 640), (170, 630)])
BUMPED = homography([(330, 100), (1010, 125), (1140, 650), (185, 615)])
PROBES_CM = [(10, 10), (40, 30), (70, 50), (5, 55), (75, 5)]


def probe_error_cm(calibration: Calibration, truth: np.ndarray) -> float:
    image_points = cv2.perspectiveTransform(np.float64(PROBES_CM).reshape(-1, 1, 2), truth).reshape(-1, 2)
    return float(np.max(np.linalg.norm(calibration.to_table(image_points) - np.float64(PROBES_CM), axis=1)))


def test_markers_found_and_homography_recovered():
    frame = camera_view(VIEW)
    assert sorted(find_markers(frame)) == [0, 1, 2, 3]
    report = Calibrator(WIDTH_CM, HEIGHT_CM).update(frame)
    assert report.state == "calibrated" and report.usable
    assert probe_error_cm(report.calibration, VIEW) < 0.3


def test_bumped_camera_is_noticed_and_recalibrated():
    calibrator = Calibrator(WIDTH_CM, HEIGHT_CM)
    calibrator.update(camera_view(VIEW))
    assert calibrator.update(camera_view(VIEW)).state == "calibrated"
    report = calibrator.update(camera_view(BUMPED))
    assert report.state == "recalibrated" and report.moved_px > 10
    assert probe_error_cm(report.calibration, BUMPED) < 0.3
    assert probe_error_cm(report.calibration, VIEW) > 1.0  # the old geometry would misread the table
    assert calibrator.update(camera_view(BUMPED)).state == "calibrated"


def hide_marker(frame: np.ndarray, truth: np.ndarray, marker_id: int) -> np.ndarray:
    corner = [(0, 0), (WIDTH_CM, 0), (WIDTH_CM, HEIGHT_CM), (0, HEIGHT_CM)][marker_id]
    x, y = cv2.perspectiveTransform(np.float64([[corner]]), truth).ravel().astype(int)
    covered = frame.copy()
    cv2.circle(covered, (x, y), 60, (90, 140, 200), -1)  # a hand over the marker
    return covered


def test_hidden_marker_keeps_calibration_but_moved_and_hidden_is_not_usable():
    calibrator = Calibrator(WIDTH_CM, HEIGHT_CM)
    calibrator.update(camera_view(VIEW))
    still = calibrator.update(hide_marker(camera_view(VIEW), VIEW, 2))
    assert still.state == "calibrated" and still.visible == (0, 1, 3)
    moved = calibrator.update(hide_marker(camera_view(BUMPED), BUMPED, 2))
    assert moved.state == "moved" and not moved.usable
    assert "marker 2 (bottom right) not visible" in moved.message
    lost = calibrator.update(np.full((720, 1280, 3), 90, np.uint8))
    assert lost.state == "lost" and not lost.usable


def test_manual_corners_without_markers():
    corners = cv2.perspectiveTransform(np.float64([[(0, 0)], [(WIDTH_CM, 0)], [(WIDTH_CM, HEIGHT_CM)], [(0, HEIGHT_CM)]]), VIEW)
    report = Calibrator(WIDTH_CM, HEIGHT_CM).set_corners(corners.reshape(4, 2))
    assert report.state == "manual" and report.usable
    assert probe_error_cm(report.calibration, VIEW) < 0.05
    with pytest.raises(CalibrationError, match="enclose no area"):
        Calibration.from_corners([(0, 0), (10, 10), (20, 20), (30, 30)], 80, 60)
    with pytest.raises(CalibrationError, match="four corner points"):
        Calibration.from_corners([(0, 0), (10, 10)], 80, 60)


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_markers_command_writes_a_detectable_a4_sheet(tmp_path, suffix, capsys):
    out = tmp_path / f"sheet{suffix}"
    assert main(["markers", str(out)]) == 0
    assert out.stat().st_size > 10_000
    if suffix == ".png":
        sheet = cv2.imread(str(out))
        assert sheet.shape[:2] == (3508, 2480)  # A4 at 300 dpi
        found = find_markers(sheet)
        assert sorted(found) == [0, 1, 2, 3]
        assert found[1][0] > found[0][0] and found[2][1] > found[1][1]  # laid out as on the table
    else:
        assert out.read_bytes().startswith(b"%PDF")


def test_markers_command_rejects_other_formats(tmp_path, capsys):
    assert main(["markers", str(tmp_path / "sheet.jpg")]) == 2
    assert "written as .pdf or .png" in capsys.readouterr().err
