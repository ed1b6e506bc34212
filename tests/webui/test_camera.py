"""The camera and calibration page: newest frame, markers and zones, table corners set by hand."""

from __future__ import annotations

import html
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.webui.support import PIN, csrf_of, without_markers
from webui.camera import TABLE_RECORD, record_corners, stored_corners
from webui.store import EventStore

CORNERS = [[120, 40], [1160, 40], [1200, 700], [80, 700]]


def post_corners(client, corners, pin: str | None = PIN, token: str | None = None):
    data = {"corners": corners if isinstance(corners, str) else json.dumps(corners),
            "csrf_token": token or csrf_of(client)}
    if pin is not None:
        data["pin"] = pin
    return client.post("/camera/corners", data=data)


def test_without_a_camera_the_page_says_so_and_frames_are_503(client):
    page = client.get("/camera")
    assert page.status_code == 200 and "No camera is connected" in page.text
    frame = client.get("/camera/frame.jpg")
    assert frame.status_code == 503 and "rummyref run --camera" in html.unescape(frame.text)
    view = client.get("/camera/view.json")
    assert view.status_code == 503 and "no camera" in view.json["message"]
    assert post_corners(client, CORNERS).status_code == 503


def test_the_page_says_whether_the_referee_reads_with_a_learned_deck(camera_app, camera):
    client = camera_app.test_client()
    page = html.unescape(client.get("/camera").text)
    assert 'data-state="none"' in page and "No deck learned" in page and "--deck NAME" in page and "less than 0.98 sure" in page
    camera.deck_name = "grandmas-deck"
    page = html.unescape(client.get("/camera").text)
    assert 'data-state="learned"' in page and "grandmas-deck" in page and "No deck learned" not in page


def test_the_newest_frame_is_served_as_jpeg(camera_app, camera):
    client = camera_app.test_client()
    frame = client.get("/camera/frame.jpg")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg" and frame.headers["Cache-Control"] == "no-store"
    image = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == camera.image.shape
    assert np.abs(image.astype(int) - camera.image.astype(int)).mean() < 6  # the same picture, JPEG-compressed


def test_a_big_frame_is_sent_at_phone_size_but_marks_stay_in_frame_pixels(camera_app, camera):
    camera.image = cv2.resize(camera.image, (2560, 1440))
    client = camera_app.test_client()
    image = cv2.imdecode(np.frombuffer(client.get("/camera/frame.jpg").data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (720, 1280, 3)
    assert client.get("/camera/view.json").json["size"] == [2560, 1440]


def test_view_finds_the_four_markers_and_places_the_zones(camera_app):
    view = camera_app.test_client().get("/camera/view.json").json
    assert view["state"] == "calibrated" and view["usable"] and view["missing"] == []
    assert [m["id"] for m in view["markers"]] == [0, 1, 2, 3]
    top_left, _, bottom_right, _ = view["markers"]
    assert top_left["x"] < 640 < bottom_right["x"] and top_left["y"] < 360 < bottom_right["y"]
    zones = {z["name"]: np.array(z["points"]) for z in view["zones"]}
    assert set(zones) == {"stock", "discard", "seat0", "seat1"}
    # zones lie between the markers: the table's corners are the markers' centres
    assert zones["seat1"][0] == pytest.approx([top_left["x"], top_left["y"]], abs=0.5)
    assert view["corners"] is None


def test_without_markers_the_view_says_which_are_missing(camera_app, camera):
    camera.image = without_markers(camera.image)
    view = camera_app.test_client().get("/camera/view.json").json
    assert view["state"] == "uncalibrated" and not view["usable"] and view["zones"] == []
    assert view["missing"] == ["top left", "top right", "bottom right", "bottom left"]


def test_corners_set_by_hand_are_recorded_handed_to_the_camera_and_used(camera_app, camera):
    camera.image = without_markers(camera.image)
    client = camera_app.test_client()
    response = post_corners(client, CORNERS)
    assert response.status_code == 302 and response.location == "/camera"
    assert camera.corners_used == [[[float(x), float(y)] for x, y in CORNERS]]
    assert camera.sizes_used == [(1280, 720)]  # the frame they were tapped on goes with them
    store = EventStore(camera_app.config["DATABASE"])
    assert stored_corners(store) == {"corners": camera.corners_used[0], "size": [1280, 720]}
    (event,) = store.events(TABLE_RECORD)
    assert event.kind == "corners_set" and event.actor.startswith("someone @")
    assert store.match_ids() == []  # the table's record is no match
    store.close()
    view = client.get("/camera/view.json").json
    assert view["state"] == "manual" and view["usable"] and view["corners"] == camera.corners_used[0]
    seat0 = next(z for z in view["zones"] if z["name"] == "seat0")
    assert seat0["points"][3] == pytest.approx(CORNERS[3], abs=0.5)  # bottom left of the near seat = table corner
    page = client.get("/camera").text
    assert "corners set by hand" in page and "Back to the markers" in page and "corners set</span>" in page


def test_the_page_shows_the_corners_the_referee_was_started_with(camera_app, camera):
    """``run --corners``: nothing tapped here, the referee reads through the corners it was given."""
    camera.image = without_markers(camera.image)
    camera.corners_given = {"corners": [[float(x), float(y)] for x, y in CORNERS], "size": None}
    client = camera_app.test_client()
    view = client.get("/camera/view.json").json
    assert view["state"] == "manual" and view["usable"] and view["corners"] == camera.corners_given["corners"]
    page = client.get("/camera").text
    assert "corners set by hand" in page and "rummyref run --corners" in page


def test_back_to_the_markers_is_recorded_and_keeps_the_audit_trail(camera_app, camera):
    client = camera_app.test_client()
    post_corners(client, CORNERS)
    token = csrf_of(client, "/camera")
    assert client.post("/camera/corners/clear", data={"csrf_token": token}).status_code == 302
    assert camera.corners_used[-1] is None
    store = EventStore(camera_app.config["DATABASE"])
    assert stored_corners(store) is None
    assert [e.kind for e in store.events(TABLE_RECORD)] == ["corners_set", "corners_cleared"]
    store.close()
    assert client.get("/camera/view.json").json["state"] == "calibrated"
    assert "back to the markers" in client.get("/camera").text


@pytest.mark.parametrize("corners, message", [
    ("", "tap the four table corners on the picture"),
    ("[[1, 2], [3", "tap the four table corners on the picture"),
    ([[120, 40], [1160, 40], [1200, 700]], "tap the four table corners (got 3 points)"),
    ([[120, 40], [1160, 40], [1300, 700], [80, 700]], "corner 3 (1300, 700) lies outside the 1280x720 frame"),
    ([[100, 100], [200, 100], [300, 100], [400, 100]], "these corners do not frame a table"),
    ([[120, 40], [1160, 40], ["a", 700], [80, 700]], "corner 3 is not a point"),
])
def test_bad_corners_are_refused_and_nothing_changes(camera_app, camera, corners, message):
    client = camera_app.test_client()
    response = post_corners(client, corners)
    assert response.status_code == 400 and message in html.unescape(response.text)
    assert camera.corners_used == []
    store = EventStore(camera_app.config["DATABASE"])
    assert store.events(TABLE_RECORD) == []
    store.close()


def test_corners_need_the_pin_and_a_csrf_token(camera_app, camera):
    client = camera_app.test_client()
    assert post_corners(client, CORNERS, pin=None).status_code == 403
    assert post_corners(client, CORNERS, pin="000000").status_code == 403
    assert client.post("/camera/corners", data={"corners": json.dumps(CORNERS), "pin": PIN}).status_code == 400
    assert client.post("/camera/corners/clear", data={"csrf_token": csrf_of(client, "/camera")}).status_code == 403
    assert camera.corners_used == []


def test_the_pipeline_reads_through_corners_handed_to_it(tmp_path, table_frame, recognizer):
    from rummyref.pipeline import Pipeline, PipelineConfig
    from webui.events import create_match

    folder = tmp_path / "frames"
    folder.mkdir()
    for number in range(1, 7):
        cv2.imwrite(str(folder / f"f{number:06d}.jpg"), without_markers(table_frame))
    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"players": ["Ann", "Ben"]}, "test").match_id
    pipeline = Pipeline(PipelineConfig(camera=f"dir:{folder}?fps=20", players=("Ann", "Ben")),
                        lambda: EventStore(tmp_path / "record.sqlite3"), match_id, recognizer=recognizer)
    assert pipeline.latest_image() is None
    pipeline.use_corners(CORNERS)
    pipeline.start()
    assert pipeline.wait(timeout=60)
    pipeline.stop()
    assert pipeline.reader.calibrator.manual
    assert pipeline.reader.calibrator.calibration.image_corners == tuple(map(tuple, CORNERS))
    assert pipeline.latest_image() is not None and pipeline.latest_image().shape == table_frame.shape
    assert pipeline.stats.read >= 1, "no frame was read through the corners"
    store.close()


def run_pipeline(tmp_path, frames, recognizer, fps=20, **config):
    """Play ``frames`` through a real pipeline reading a folder camera; the stopped pipeline.
    (A camera faster than the reader has frames skipped: slow ``fps`` where each frame counts.)"""
    from rummyref.pipeline import Pipeline, PipelineConfig
    from webui.events import create_match

    folder = tmp_path / "frames"
    folder.mkdir()
    for number, image in enumerate(frames, start=1):
        cv2.imwrite(str(folder / f"f{number:06d}.png"), image)
    store = EventStore(tmp_path / "record.sqlite3")
    match_id = create_match(store, {"players": ["Ann", "Ben"]}, "test").match_id
    store.close()
    pipeline = Pipeline(PipelineConfig(camera=f"dir:{folder}?fps={fps}", players=("Ann", "Ben"), **config),
                        lambda: EventStore(tmp_path / "record.sqlite3"), match_id, recognizer=recognizer)
    assert pipeline.geometry_status() is None
    pipeline.start()
    assert pipeline.wait(timeout=60)
    pipeline.stop()
    return pipeline


def test_corners_tapped_on_a_bigger_frame_are_scaled_to_the_camera(tmp_path, table_frame, recognizer):
    small = cv2.resize(without_markers(table_frame), (640, 360), interpolation=cv2.INTER_AREA)
    pipeline = run_pipeline(tmp_path, [small] * 6, recognizer, corners=tuple(map(tuple, CORNERS)),
                            corners_size=(1280, 720))
    assert pipeline.reader.calibrator.calibration.image_corners == tuple((x / 2, y / 2) for x, y in CORNERS)
    status = pipeline.geometry_status()
    assert status["state"] == "manual" and "scaled to 640x360" in status["message"]
    assert pipeline.stats.read >= 1


def test_the_pipeline_says_which_corners_it_reads_through(tmp_path, table_frame, recognizer):
    pipeline = run_pipeline(tmp_path, [without_markers(table_frame)] * 2, recognizer, corners=tuple(map(tuple, CORNERS)))
    assert pipeline.corners_in_use() == {"corners": [[float(x), float(y)] for x, y in CORNERS], "size": None}
    pipeline.use_corners(None)
    assert pipeline.corners_in_use() is None


def test_corners_tapped_on_another_view_are_not_used(tmp_path, table_frame, recognizer):
    """4:3 frames after corners tapped on 16:9 ones: another crop of the sensor, so the table is not read."""
    cropped = np.ascontiguousarray(without_markers(table_frame)[:, 160:1120])
    pipeline = run_pipeline(tmp_path, [cropped] * 4, recognizer, corners=tuple(map(tuple, CORNERS)),
                            corners_size=(1280, 720))
    status = pipeline.geometry_status()
    assert status["state"] == "uncalibrated" and "tap them again" in status["message"]
    assert pipeline.stats.read == 0 and pipeline.stats.events == 0


def test_the_referee_lists_a_bumped_camera_and_the_page_shows_it(tmp_path, table_frame, recognizer, camera_app, camera):
    bumped = cv2.warpAffine(table_frame, np.float32([[1, 0, 14], [0, 1, 9]]), (1280, 720),
                            borderMode=cv2.BORDER_REPLICATE)
    pipeline = run_pipeline(tmp_path, [table_frame] * 3 + [bumped] * 3, recognizer, fps=4)
    status = pipeline.geometry_status()
    assert [c["state"] for c in status["changes"]] == ["calibrated", "recalibrated", "calibrated"]
    first, moved, settled = (c["frame"] for c in status["changes"])
    assert first < moved < settled  # camera frame numbers (a slow reader may skip some)
    assert "the camera moved" in status["changes"][1]["message"]

    camera.geometry = status
    client = camera_app.test_client()
    assert client.get("/camera/view.json").json["referee"] == status


def test_run_takes_the_corners_tapped_earlier_and_serves_its_camera(tmp_path, table_frame):
    folder = tmp_path / "frames"
    folder.mkdir()
    for number in range(1, 4):
        cv2.imwrite(str(folder / f"f{number:06d}.jpg"), without_markers(table_frame))
    data = tmp_path / "data"
    store = EventStore(data / "record.sqlite3")
    record_corners(store, [[float(x), float(y)] for x, y in CORNERS], (1280, 720), "Cy @ 10.0.0.9")
    store.close()
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "-m", "rummyref", "run", "--camera", f"dir:{folder}?fps=5&loop=yes", "--players", "Ann,Ben",
         "--host", "127.0.0.1", "--port", str(port), "--data", str(data), "--pin", PIN],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline, view = time.monotonic() + 60, None
        while time.monotonic() < deadline and view is None:
            try:
                view = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/camera/view.json", timeout=2))
            except OSError:
                time.sleep(0.3)
        assert view is not None, "the camera page never had a frame"
        assert view["state"] == "manual" and view["corners"] == [[float(x), float(y)] for x, y in CORNERS]
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert "WARNING: table corners set by hand" in output
    # started without --deck: in Gin too every card read less than 0.98 sure is asked
    assert "WARNING: no deck learned" in output and "less than 0.98 sure" in output


def test_phone_sees_the_live_table_and_taps_the_four_corners(camera_app, camera, server, phone):
    from tests.webui.support import screenshot

    phone.goto(f"{server}/camera")
    phone.wait_for_function("document.getElementById('camera-state').dataset.state === 'calibrated'", timeout=5000)
    assert phone.locator("#camera-marks circle.marker").count() == 4
    assert phone.locator("#camera-marks polygon.zone").count() == 4
    assert "has not read a frame yet" in phone.locator("#referee-state").inner_text()
    camera.geometry = {"state": "moved", "message": "the camera moved (markers off by 31.0 px) and marker 2 "
                       "(bottom right) not visible to recalibrate; the table is not read meanwhile",
                       "changes": [{"state": "calibrated", "message": "calibrated from the four markers", "frame": 1,
                                    "at": 1795250000.0},
                                   {"state": "moved", "message": "the camera moved (markers off by 31.0 px)",
                                    "frame": 212, "at": 1795250060.0}]}
    phone.wait_for_function("document.getElementById('referee-state').dataset.state === 'moved'", timeout=5000)
    assert "referee: moved: the camera moved" in phone.locator("#referee-state").inner_text()
    phone.click("#camera summary")
    changes = phone.locator("#referee-changes li").all_inner_texts()
    assert len(changes) == 2 and "(frame 212) moved" in changes[0] and "(frame 1) calibrated" in changes[1]
    screenshot(phone, "camera")

    camera.image = without_markers(camera.image)  # the markers are taken away: the next frame says so
    phone.wait_for_function("document.getElementById('camera-state').dataset.state === 'uncalibrated'", timeout=5000)
    assert "marker top left, top right, bottom right, bottom left not visible" in phone.locator("#camera-state").inner_text()
    phone.click("#tap-corners")
    box = phone.locator("#camera-frame").bounding_box()
    for x, y in CORNERS:  # frame pixels -> where they show on the phone
        phone.mouse.click(box["x"] + x * box["width"] / 1280, box["y"] + y * box["height"] / 720)
    tapped = json.loads(phone.input_value("#corners-field"))
    assert np.abs(np.array(tapped) - np.array(CORNERS)).max() < 4  # within a CSS pixel or two of the phone
    phone.fill('#corners-form input[name="pin"]', PIN)
    with phone.expect_navigation():
        phone.click("#corners-form button.primary")
    assert phone.url == f"{server}/camera", phone.locator("main").inner_text()
    phone.wait_for_function("document.getElementById('camera-state').dataset.state === 'manual'", timeout=5000)
    assert phone.locator("#camera-marks polygon.corners").count() == 1
    assert camera.corners_used == [tapped]
    screenshot(phone, "camera-corners")
