"""The deck learning page: uploads checked up front, learning in the background, clear failures."""

from __future__ import annotations

import html
import re
import io
import threading

import cv2
import numpy as np
import pytest

from tests.webui.support import PIN, csrf_of, screenshot
from webui.deck_learning import DeckJobs, JobBusy


@pytest.fixture
def decks_app(app, tmp_path):
    app.config["DECK_DIR"] = str(tmp_path / "learned")
    return app


@pytest.fixture
def deck_client(decks_app):
    return decks_app.test_client()


NOISE_JPEG = cv2.imencode(".jpg", np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8))[1].tobytes()
"""A real JPEG: cut in half it is a photo whose upload broke off."""


def png(image) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


def learn(client, files=(), pin: str | None = PIN, name: str = "jolly", **fields):
    data = {"name": name, "csrf_token": csrf_of(client), **fields}
    if pin is not None:
        data["pin"] = pin
    data["photos"] = [(io.BytesIO(content), filename) for filename, content in files]
    return client.post("/decks", data=data, content_type="multipart/form-data")


def finished(client, response) -> dict:
    """Follow a started run to its end; returns its JSON."""
    assert response.status_code == 302, html.unescape(response.text)
    job_id = response.location.rsplit("/", 1)[1]
    client.application.extensions["rummyref.deck_jobs"].get(job_id).wait(120)
    return client.get(f"/decks/jobs/{job_id}.json").json


def test_page_explains_the_layout_and_lists_learned_decks(deck_client, decks_app, tmp_path):
    (tmp_path / "learned" / "decks").mkdir(parents=True)
    (tmp_path / "learned" / "decks" / "grandma.npz").write_bytes(b"")
    page = deck_client.get("/decks")
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert "Four rows of 13" in text and "spades on top" in text and "grandma" in text
    assert "a 5 as a 6" in text  # why to learn a deck before playing
    assert 'enctype="multipart/form-data"' in text and "from_camera" not in text  # no camera here


def test_learning_needs_the_pin_and_a_csrf_token(deck_client, table_frame):
    files = [("rows.png", png(table_frame))]
    assert learn(deck_client, files, pin=None).status_code == 403
    assert learn(deck_client, files, pin="000000").status_code == 403
    response = deck_client.post("/decks", data={"name": "x", "pin": PIN}, content_type="multipart/form-data")
    assert response.status_code == 400 and "CSRF" in response.text
    assert deck_client.application.extensions["rummyref.deck_jobs"].recent() == []


@pytest.mark.parametrize("name, files, message", [
    ("../etc", [("rows.png", b"x")], "name: deck name '../etc' is not allowed"),
    ("jolly", [], "photos: choose the photos of the layout"),
    ("jolly", [("broken.jpg", NOISE_JPEG[:len(NOISE_JPEG) // 2])], "cannot read broken.jpg: corrupt image"),
    ("jolly", [("notes.png", b"this is text")], "cannot read notes.png: not an image file"),
    ("jolly", [("notes.txt", b"this is text")], "notes.txt: not a photo"),
    ("jolly", [(f"p{i}.png", b"x") for i in range(9)], "at most 8 photos, got 9"),
])
def test_bad_uploads_are_refused_before_learning_naming_what_was_wrong(deck_client, name, files, message):
    response = learn(deck_client, files, name=name)
    assert response.status_code == 400 and message in html.unescape(response.text)
    assert "Traceback" not in response.text
    assert deck_client.application.extensions["rummyref.deck_jobs"].recent() == []


def test_a_photo_that_does_not_show_the_layout_fails_with_the_reason(deck_client, table_frame, tmp_path):
    job = finished(deck_client, learn(deck_client, [("table.png", png(table_frame))]))
    assert job["state"] == "failed" and job["result"] is None
    assert "table.png: found" in job["error"] and "expected whole rows of 13" in job["error"]
    page = html.unescape(deck_client.get(f"/decks/jobs/{job['job']}").text)
    assert "not learned" in page and "four rows of 13" in page
    assert not (tmp_path / "learned" / "decks").exists()


def test_the_camera_picture_can_be_the_photo(decks_app, camera):
    client = decks_app.test_client()
    decks_app.config["CAMERA"] = camera
    assert "from_camera" in client.get("/decks").text
    job = finished(client, learn(client, from_camera="1"))
    assert "the camera's picture: found" in job["error"]  # the rendered table is no layout


def test_the_camera_picture_without_a_camera_is_refused(deck_client):
    response = learn(deck_client, from_camera="1")
    assert response.status_code == 400 and "there is no camera picture" in html.unescape(response.text)


def test_one_run_at_a_time(deck_client, table_frame):
    release = threading.Event()
    running = deck_client.application.extensions["rummyref.deck_jobs"].start("slow", lambda progress: release.wait(10))
    try:
        response = learn(deck_client, [("table.png", png(table_frame))])
        assert response.status_code == 409 and "being learned right now" in html.unescape(response.text)
    finally:
        release.set()
        running.wait(5)


def test_unknown_runs_are_404(deck_client):
    assert deck_client.get("/decks/jobs/nosuch").status_code == 404
    response = deck_client.get("/decks/jobs/nosuch.json")
    assert response.status_code == 404 and "no deck learning run 'nosuch'" in response.json["message"]


def test_jobs_end_with_a_reason_whatever_the_work_raises():
    jobs = DeckJobs()
    failed = jobs.start("x", lambda progress: progress("step") or 1 / 0)
    assert failed.wait(5) and failed.state == "failed" and "internal error (ZeroDivisionError)" in failed.error
    assert failed.lines == ["step"]
    blocked = threading.Event()
    jobs.start("y", lambda progress: blocked.wait(5))
    with pytest.raises(JobBusy):
        jobs.start("z", lambda progress: None)
    blocked.set()


def test_phone_uploads_layout_photos_and_sees_the_deck_learned(decks_app, server, phone, tmp_path):
    from vision.train.layout import write_layout_photos

    paths = write_layout_photos(tmp_path, ("IMG_0000.jpg", "IMG_0002.jpg"))  # spades and hearts, diamonds and clubs
    phone.goto(f"{server}/decks")
    screenshot(phone, "decks")
    phone.fill('input[name="name"]', "jolly")
    phone.set_input_files('input[name="photos"]', paths)
    phone.fill('#deck-form input[name="pin"]', PIN)
    phone.click("#deck-form button.primary")
    phone.wait_for_url(f"{server}/decks/jobs/*")
    assert "learning" in phone.locator(".job-state").inner_text()
    phone.wait_for_function("document.getElementById('deck-job').dataset.state !== 'running'", timeout=400_000)  # learning takes ~25 s of CPU; a busy machine is slower
    assert phone.locator("#deck-job").get_attribute("data-state") == "done", phone.locator("#deck-job").inner_text()
    assert re.fullmatch(r"✔ learned in \d+\.\d s", phone.locator(".job-state").inner_text())
    lines = phone.locator(".job-lines").inner_text()
    # every card of both photos is read (its top-left index; most bottom-right ones pair up too)
    assert all(re.search(rf"{name}: (\d+) corner indices of 26 cards", lines) for name in ("IMG_0000.jpg", "IMG_0002.jpg"))
    assert "saved as jolly.npz" in lines
    assert (tmp_path / "learned" / "decks" / "jolly.npz").is_file()
    screenshot(phone, "deck-learned")
    phone.goto(f"{server}/decks")
    assert "jolly" in phone.locator("main").inner_text()


def test_the_dashboard_loads_no_learning_machinery_until_a_deck_is_learned(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys\n"
        "from webui import create_app\n"
        f"client = create_app({{'DATABASE': {str(tmp_path / 'r.sqlite3')!r}}}).test_client()\n"
        "assert all(client.get(p).status_code == 200 for p in ('/', '/decks', '/camera', '/setup'))\n"
        "print(sorted(m for m in ('torch', 'onnxruntime', 'vision.recognizer') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
