"""A tile Rummy turn the camera doubts, answered by a player on the dashboard in a real Chromium."""

from __future__ import annotations

import html
import json
import urllib.request

import numpy as np
import pytest

from engine.tile_tracker import NO_TILE, AS_READ, TileTracker
from rummyref.pipeline import Recorder, reading_id
from rummyref.tile_questions import ask, settle
from rummyref.tile_replay import RENDERED_OPTIONS, doubts, sightings
from tests.test_tile_replay import SmudgedReader
from tests.webui.support import PIN, csrf_of, new_match, screenshot
from tests.webui.test_browser import http_post
from vision.synth.tile_table import TableCamera, TableLook, render_table
from vision.tiles.reader import TileReader
from webui.store import EventStore

RUN = [("R10", 10.0, 12.0), ("R11", 13.0, 12.0), ("R12", 16.0, 12.0), ("R13", 19.0, 12.0)]
SMUDGED = RUN[2]


def smudged_photo(table: list, spot: tuple[float, float]):
    """``table`` photographed with the number of the tile at ``spot`` wiped off, and read."""
    camera = TableCamera.overhead(1280, 960)
    look = TableLook.random(np.random.default_rng(2), camera, effects=0.0)
    image = render_table(np.random.default_rng(3), camera, look, table).image
    smudged = SmudgedReader(TileReader(threads=1), camera, spot).wiped(image)
    return camera, smudged, TileReader(threads=1).read(smudged)


def tracked(app, server, camera, reading):
    """A new tile match, its record, and a tracker that has taken three still frames read as ``reading``."""
    match_id = http_post(server, "/api/matches", {"game": "tiles", "players": ["Ann", "Ben"]})["match_id"]
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    tracker = TileTracker(("Ann", "Ben"), options=RENDERED_OPTIONS)
    questions = [q for frame in (1, 2, 3)
                 for q in tracker.update(frame, sightings(reading, camera), True, doubts(reading, camera))]
    return match_id, store, Recorder(store, match_id), tracker, questions


@pytest.fixture(scope="module")
def photographed():
    """Ann's first laying out photographed, R12's number wiped off: the reader sees a tile it cannot read."""
    return smudged_photo(RUN, SMUDGED[1:])


def test_a_player_answers_the_doubt_on_the_photo_and_the_turn_is_judged(app, server, phone, photographed):
    camera, image, reading = photographed
    assert sorted(t.tile for t in reading.tiles) == ["R10", "R11", "R13"] and any("cannot be read" in d for d in reading.doubts)
    match_id, store, recorder, tracker, questions = tracked(app, server, camera, reading)
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


MISTAKE = [("B2", 10.0, 12.0), ("G9", 13.0, 12.0), ("R8", 16.0, 12.0)]
"""Ann's first laying out, a mistake: three tiles that are no group (the simulator's players make it too)."""


@pytest.fixture(scope="module")
def mistake_photographed():
    """The mistake photographed, G9's number wiped off: no combination suggests the tile that lies there."""
    return smudged_photo(MISTAKE, MISTAKE[1][1:])


def test_a_tile_no_answer_offers_is_picked_from_the_set_on_the_dashboard(app, server, phone, mistake_photographed):
    """Seeds 1-3 rendered: where the tile at a doubt's place was not among its answers, the players could
    only answer "none of these" and the turn stayed a question."""
    camera, image, reading = mistake_photographed
    assert sorted(t.tile for t in reading.tiles) == ["B2", "R8"] and any("cannot be read" in d for d in reading.doubts)
    match_id, store, recorder, tracker, questions = tracked(app, server, camera, reading)
    [question] = [q for q in questions if q.position is not None]
    assert "G9" not in question.candidates and question.any_tile
    assert ask(recorder, 1, questions, image, reading.tiles, camera.to_image, tracker) == len(questions)
    state = json.load(urllib.request.urlopen(f"{server}/api/matches/{match_id}"))
    assert [r["picker"] for r in state["pending_readings"]] == ["tiles"]

    phone.goto(f"{server}/m/{match_id}/hand")
    form = phone.locator(".confirm")
    picker = form.locator("details.tile-picker")
    assert picker.locator("button.pick").count() == 53         # 4 colours x 13 numbers and the joker
    assert not picker.locator('button[value="G9"]').is_visible()      # folded away until asked for
    phone.fill('.confirm input[name="pin"]', PIN)
    picker.locator("summary").click()
    assert picker.locator('button[value="G9"]').inner_text().split() == ["9"]
    screenshot(phone, "tile-picker")
    picker.locator('button[value="G9"]').click()
    phone.wait_for_url(f"{server}/m/{match_id}/hand")
    assert phone.locator(".confirm").count() == 0
    assert "G9" in phone.locator("ul.plain").inner_text()       # the answer, under "Confirmed"

    for event in settle(recorder, tracker):       # the table as a whole, once its place is answered
        assert event.position is None and event.groups == (("B2", "G9", "R8"),)
        tracker.confirm(event.seq, AS_READ)
    [turn] = tracker.end_turn(4)
    assert (turn.kind, turn.player, turn.played, turn.legal) == ("turn", "Ann", ("B2", "G9", "R8"), False)
    store.close()


def test_a_picked_answer_must_be_a_tile_of_the_set(app, client):
    match_id = new_match(client, game="tiles")
    store = EventStore(app.config["DATABASE"], app.config["SNAPSHOT_DIR"])
    recorder = Recorder(store, match_id)
    assert recorder.propose(1, 7, "What lies at the mark #7?", [NO_TILE, AS_READ], None, picker="tiles")
    token = csrf_of(client)
    answer = client.post(f"/m/{match_id}/readings/{reading_id(1, 7)}", data={"csrf_token": token, "choice": "O5", "pin": PIN})
    assert answer.status_code == 400 and "or a tile of the set (like R7 or JK), got 'O5'" in html.unescape(answer.text)
    answer = client.post(f"/m/{match_id}/readings/{reading_id(1, 7)}", data={"csrf_token": token, "choice": "y12", "pin": PIN})
    assert answer.status_code == 302 and recorder.inbox().answers == [(1, 7, "Y12")]
    # a question without the picker takes its own answers only
    recorder.propose(1, 8, "Is the table as read?", [AS_READ, "NOT_AS_READ"], None)
    answer = client.post(f"/m/{match_id}/readings/{reading_id(1, 8)}", data={"csrf_token": token, "choice": "Y12", "pin": PIN})
    assert answer.status_code == 400
    store.close()
