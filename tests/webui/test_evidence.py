"""The evidence photo: stored as the camera took it, with what was read drawn over it by the page."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from engine.zones import default_zones
from rummyref.pipeline import Recorder, TableReader, make_calibrator
from vision.motion import MotionDetector
from tests.webui.support import PIN, TABLE_CARDS, new_match, post_event, undercut_result
from tests.webui.test_store import jpeg_bytes
from webui.evidence import OverlayError, make_overlay, zone_outlines
from webui.store import EventStore


@pytest.fixture
def recorded(app, client, table_frame, recognizer):
    """A hand whose evidence the pipeline's Recorder stored from a real reading of a rendered frame."""
    zones = default_zones("gin", 2)
    # red hearts near 1 % of the frame read as skin to the default detector: this table has no hand over it
    reader = TableReader(recognizer, zones, make_calibrator((zones.width, zones.height)), MotionDetector(max_skin=0.05))
    reader.read(1, table_frame)  # the first frame has nothing to compare with
    reading = reader.read(2, table_frame)
    assert reading.geometry == "calibrated" and reading.observations
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    match_id = new_match(client)
    digest = Recorder(store, match_id).snapshot(table_frame, reading.observations,
                                                zone_outlines(zones, reader.calibrator.calibration))
    store.close()
    event = post_event(client, match_id, "hand_recorded",
                       {"dealer": "Ben", "result": undercut_result(), "evidence": digest}).json
    return match_id, event["id"], digest, reading.observations


def test_the_photo_is_kept_as_taken_and_the_readings_beside_it(client, recorded, table_frame):
    _, _, digest, observations = recorded
    photo = client.get(f"/snapshots/{digest}.jpg")
    assert photo.status_code == 200 and photo.mimetype == "image/jpeg"
    # nothing drawn into the pixels: the very JPEG of the frame as the camera gave it
    assert photo.data == cv2.imencode(".jpg", table_frame, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    overlay = client.get(f"/snapshots/{digest}.json").json
    assert overlay["size"] == [1280, 720]
    assert [c["card"] for c in overlay["cards"]] == [o.card for o in observations]
    assert {z["name"] for z in overlay["zones"]} == {"stock", "discard", "seat0", "seat1"}
    # the near seat's zone lies in the lower part of the image, the far one's in the upper part
    ys = {z["name"]: np.mean([p[1] for p in z["points"]]) for z in overlay["zones"]}
    assert ys["seat0"] > 360 > ys["seat1"]


def test_result_page_draws_each_reading_at_its_place_over_the_photo(client, recorded):
    match_id, hand_id, digest, observations = recorded
    page = client.get(f"/m/{match_id}/hands/{hand_id}").text
    assert f'src="/snapshots/{digest}.jpg"' in page and 'viewBox="0 0 1280 720"' in page
    marks = re.findall(r'<g class="read (sure|unsure)" data-card="(\w+)">(.*?)</g>', page, re.S)
    assert [code for _, code, _ in marks] == [o.card for o in observations]
    assert {code for _, code, _ in marks} <= set(TABLE_CARDS) and len(marks) >= 4
    for (sureness, code, body), obs in zip(marks, observations):
        assert sureness == ("sure" if obs.confidence >= 0.9 else "unsure")
        dots = [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', body)]
        assert np.abs(np.array(dots) - np.array(obs.corners)).max() < 0.1
        outline = re.search(r'<polygon points="([^"]+)"', body)
        assert (outline is None) == (obs.outline is None)
        if outline:
            drawn = np.array([[float(v) for v in p.split(",")] for p in outline[1].split()])
            assert np.abs(drawn - np.array(obs.outline)).max() < 0.1
    assert re.search(r'<g class="zone"><polygon points="[^"]+"/><text [^>]+>discard</text>', page)
    assert "Hide marks" in page


def test_a_photo_without_readings_is_shown_bare(client):
    match_id = new_match(client)
    digest = client.post("/api/snapshots", data=jpeg_bytes(), headers={"X-Table-Pin": PIN}).json["sha256"]
    hand = post_event(client, match_id, "hand_recorded", {"dealer": "Ben", "result": undercut_result(), "evidence": digest}).json
    page = client.get(f"/m/{match_id}/hands/{hand['id']}").text
    assert f'src="/snapshots/{digest}.jpg"' in page and "<svg class=\"overlay\"" not in page
    assert client.get(f"/snapshots/{digest}.json").status_code == 404


def test_overlay_of_unknown_or_malformed_snapshot_is_404(client):
    assert client.get("/snapshots/" + "0" * 64 + ".json").status_code == 404
    assert client.get("/snapshots/nothex.json").status_code == 404


@pytest.mark.parametrize("cards, zones, message", [
    ([{"card": "7H", "confidence": 0.9, "corners": []}], [], r"cards\[0\].corners: must be a list of points"),
    ([{"card": "7H", "confidence": 0.9, "corners": [[1, 2]], "outline": [[1, 2]]}], [], r"outline: must be 4 points"),
    ([{"card": "", "confidence": 0.9, "corners": [[1, 2]]}], [], r"cards\[0\].card: must be a short name"),
    ([], [{"name": "x", "points": [[1, "a"]]}], r"zones\[0\].points\[0\].y: must be a number"),
    (["7H"], [], r"cards\[0\]: must be an object"),
])
def test_bad_overlays_are_refused_naming_the_field(cards, zones, message):
    with pytest.raises(OverlayError, match=message):
        make_overlay(640, 360, cards, zones)


def test_the_first_overlay_of_a_photo_is_kept(tmp_path):
    store = EventStore(tmp_path / "record.sqlite3")
    first = make_overlay(32, 24, [], [{"name": "discard", "points": [[1, 1], [5, 1], [5, 5]]}])
    digest = store.put_snapshot(jpeg_bytes(), first)
    assert store.put_snapshot(jpeg_bytes(), make_overlay(32, 24, [], [])) == digest
    assert store.snapshot_overlay(digest) == first
    store.close()


def test_phone_shows_the_marks_over_the_photo_and_can_hide_them(server, phone, recorded):
    from tests.webui.support import screenshot, screenshot_dir

    match_id, hand_id, _, observations = recorded
    phone.goto(f"{server}/m/{match_id}/hands/{hand_id}")
    photo = phone.locator(".evidence-photo .photo")
    photo.scroll_into_view_if_needed()
    phone.wait_for_function("document.querySelector('img.evidence').complete")
    image, overlay = photo.locator("img").bounding_box(), photo.locator("svg.overlay").bounding_box()
    # the marks cover exactly the photo, at the phone's width
    assert all(abs(image[k] - overlay[k]) < 1 for k in ("x", "y", "width", "height"))
    assert image["width"] <= 390 and abs(image["height"] / image["width"] - 720 / 1280) < 0.01
    assert phone.locator("svg.overlay g.read").count() == len(observations)
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, "result-evidence")
    photo.click()  # zoomed in: wider than the phone, scrolled sideways
    assert photo.bounding_box()["width"] > 2 * image["width"]
    phone.locator(".evidence-photo").screenshot(path=str(screenshot_dir() / "evidence-zoomed.png"))
    photo.click()
    phone.click(".overlay-toggle")
    assert not phone.locator("svg.overlay").is_visible()
    assert phone.locator(".overlay-toggle").inner_text() == "Show marks"


def test_scripts_post_what_they_read_on_a_snapshot(client):
    digest = client.post("/api/snapshots", data=jpeg_bytes(), headers={"X-Table-Pin": PIN}).json["sha256"]
    overlay = {"size": [32, 24], "cards": [{"card": "QS", "confidence": 0.5, "corners": [[4, 4]]}], "zones": []}
    path = f"/api/snapshots/{digest}/overlay"
    assert client.post(path, json=overlay).status_code == 403
    assert client.post(path, json=overlay, headers={"X-Table-Pin": "000000"}).status_code == 403
    bad = client.post(path, json={**overlay, "size": [32]}, headers={"X-Table-Pin": PIN})
    assert bad.status_code == 400 and bad.json["message"].startswith("size: must be [width, height]")
    bad = client.post(path, json={**overlay, "cards": [{"card": "QS", "confidence": 0.5, "corners": [[4]]}]},
                      headers={"X-Table-Pin": PIN})
    assert bad.status_code == 400 and bad.json["message"].startswith("cards[0].corners[0]: must be a point")
    assert client.post(path, data="x", headers={"X-Table-Pin": PIN}).status_code == 415
    stored = client.post(path, json=overlay, headers={"X-Table-Pin": PIN})
    assert stored.status_code == 201 and client.get(f"/snapshots/{digest}.json").json == stored.json
    again = client.post(path, json={**overlay, "cards": []}, headers={"X-Table-Pin": PIN})
    assert again.status_code == 409 and client.get(f"/snapshots/{digest}.json").json["cards"][0]["card"] == "QS"
    missing = client.post("/api/snapshots/" + "0" * 64 + "/overlay", json=overlay, headers={"X-Table-Pin": PIN})
    assert missing.status_code == 404 and "post the JPEG to /api/snapshots first" in missing.json["message"]


def test_a_doubtful_reading_shows_its_photo_with_the_marks(client, app):
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    overlay = make_overlay(32, 24, [{"card": "6H", "confidence": 0.41, "corners": [[5, 6]]}], [])
    digest = store.put_snapshot(jpeg_bytes(), overlay)
    store.close()
    match_id = new_match(client)
    post_event(client, match_id, "reading_proposed",
               {"reading": "r1", "prompt": "6H or 8H?", "choices": ["6H", "8H"], "evidence": digest})
    page = client.get(f"/m/{match_id}/hand").text
    assert f'src="/snapshots/{digest}.jpg"' in page and 'viewBox="0 0 32 24"' in page
    assert re.search(r'<g class="read unsure" data-card="6H">.*?<text [^>]+>6H 0.41</text>', page, re.S)
