"""A tile Rummy turn the camera doubts, answered by a player on the dashboard in a real Chromium."""

from __future__ import annotations

import json
import urllib.request

import numpy as np
import pytest

from engine.tile_tracker import NO_TILE, AS_READ, TileTracker
from rummyref.pipeline import Recorder
from rummyref.tile_questions import ask, settle
from rummyref.tile_replay import RENDERED_OPTIONS, doubts, sightings
from tests.test_tile_replay import SmudgedReader
from tests.webui.support import PIN, screenshot
from tests.webui.test_browser import http_post
from vision.synth.tile_table import TableCamera, TableLook, render_table
from vision.tiles.reader import TileReader
from webui.store import EventStore

RUN = [("R10", 10.0, 12.0), ("R11", 13.0, 12.0), ("R12", 16.0, 12.0), ("R13", 19.0, 12.0)]
SMUDGED = RUN[2]


@pytest.fixture(scope="module")
def photographed():
    """Ann's first laying out photographed, R12's number wiped off: the reader sees a tile it cannot read."""
    camera = TableCamera.overhead(1280, 960)
    look = TableLook.random(np.random.default_rng(2), camera, effects=0.0)
    image = render_table(np.random.default_rng(3), camera, look, RUN).image
    smudged = SmudgedReader(TileReader(threads=1), camera, SMUDGED[1:]).wiped(image)
    return camera, smudged, TileReader(threads=1).read(smudged)


def test_a_player_answers_the_doubt_on_the_photo_and_the_turn_is_judged(app, server, phone, photographed):
    camera, image, reading = photographed
    assert sorted(t.tile for t in reading.tiles) == ["R10", "R11", "R13"] and any("cannot be read" in d for d in reading.doubts)
    match_id = http_post(server, "/api/matches", {"game": "tiles", "players": ["Ann", "Ben"]})["match_id"]
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    recorder = Recorder(store, match_id)
    tracker = TileTracker(("Ann", "Ben"), options=RENDERED_OPTIONS)
    questions = [q for frame in (1, 2, 3)
                 for q in tracker.update(frame, sightings(reading, camera), True, doubts(reading, camera))]
    assert [q.kind for q in questions] == ["doubt"]
    assert ask(recorder, 1, questions, image, reading.tiles, camera.to_image, tracker) == 1

    phone.goto(f"{server}/m/{match_id}/hand")
    form = phone.locator(".confirm")
    assert "#%d" % questions[0].seq in form.locator(".prompt").inner_text()
    # the place asked about is drawn over the photo, around the tile that could not be read
    mark = form.locator(f'svg.overlay g.doubt[data-doubt="#{questions[0].seq}"] polygon')
    assert mark.count() == 1
    points = np.array([[float(v) for v in p.split(",")] for p in mark.get_attribute("points").split()])
    (x, y), = camera.to_image([SMUDGED[1:]])
    assert points[:, 0].min() < x < points[:, 0].max() and points[:, 1].min() < y < points[:, 1].max()
    assert form.locator("svg.overlay g.read").count() == 3
    offered = [b.get_attribute("value") for b in form.locator("button.choice").all()]
    assert offered[:2] == ["R12", "JK"] and NO_TILE in offered and AS_READ in offered, offered
    assert "no tile here" in form.inner_text() and "the table is as read" in form.inner_text()
    screenshot(phone, "tile-question")

    assert settle(recorder, tracker) == []      # nobody has answered yet
    phone.fill('.confirm input[name="pin"]', PIN)
    phone.click('.confirm button[value="R12"]')
    phone.wait_for_url(f"{server}/m/{match_id}/hand")
    assert phone.locator(".confirm").count() == 0
    # The answer goes back to the tracker; with the place settled it asks about the whole table, now
    # with R12 (the reader also doubted a row with a non-tile in it): as read.
    [whole] = settle(recorder, tracker)
    assert whole.kind == "doubt" and whole.position is None and whole.groups == (("R10", "R11", "R12", "R13"),)
    assert ask(recorder, 1, [whole], image, reading.tiles, camera.to_image, tracker) == 1
    phone.goto(f"{server}/m/{match_id}/hand")
    assert "Is the table exactly as marked" in phone.locator(".confirm .prompt").inner_text()
    assert phone.locator('.confirm input[name="pin"]').count() == 0     # the phone was unlocked by the PIN
    phone.click(f'.confirm button[value="{AS_READ}"]')
    phone.wait_for_url(f"{server}/m/{match_id}/hand")
    state = json.load(urllib.request.urlopen(f"{server}/api/matches/{match_id}"))
    assert state["pending_readings"] == []
    assert settle(recorder, tracker) == []
    # the engine judges the turn with the tile named
    [turn] = tracker.end_turn(4)
    assert (turn.kind, turn.player, turn.played, turn.legal, turn.opening_points) == (
        "turn", "Ann", ("R10", "R11", "R12", "R13"), True, 46)
    store.close()
