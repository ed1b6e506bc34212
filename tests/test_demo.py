"""The demo's parts: its camera, its scripted players, and how the hand session moves between hands."""

from __future__ import annotations

import socket
import threading

import numpy as np
import pytest

from engine.match import HandScore
from engine.tracker import NOTHING, Event, Sighting, TrackerOptions
from engine.zones import default_zones
from hardware.cameras import EndOfStream
from rummyref.demo import HOLD_FRAMES, DemoCamera, DemoGame, DemoScript, load_demo_deck
from rummyref.pipeline import HandSession

SMALL = DemoGame(seed=250, hands=1, size=(320, 180))
ZONES = default_zones("gin", 2)


def test_the_shipped_deck_has_every_card_and_a_back():
    deck = load_demo_deck()
    assert len(deck.faces) == 53 and "BACK" in deck.faces and "10H" in deck.faces
    assert all(face.image.shape[0] == 192 and face.image.shape[2] == 4 for face in deck.faces.values())


def test_demo_camera_plays_every_frame_of_the_game_then_ends():
    hands = SMALL.simulate()
    camera = DemoCamera(hands[:1], SMALL)
    frames = list(camera)
    assert len(frames) == len(hands[0].frames) == camera.delivered
    assert frames[0].shape == (180, 320, 3) and frames[0].dtype == np.uint8
    assert not np.array_equal(frames[-1], frames[-2])  # the hold is filmed again, with new sensor noise
    with pytest.raises(EndOfStream):
        camera.read()


def test_demo_camera_waits_until_the_pipeline_took_the_last_frame():
    taken = 0
    camera = DemoCamera(SMALL.simulate(), SMALL, consumed=lambda: taken)
    camera.read()
    result: list = []
    reader = threading.Thread(target=lambda: result.append(camera.read()))
    reader.start()
    reader.join(0.5)
    assert reader.is_alive() and not result, "a second frame was handed out before the first was taken"
    taken = 1
    reader.join(5)
    assert len(result) == 1 and camera.delivered == 2
    camera.close()


def test_the_script_answers_with_the_card_that_truly_lies_there_and_nothing_elsewhere():
    hands = SMALL.simulate()
    script = DemoScript(hands)
    frame = next(f for f in hands[0].frames if any(p.zone == "discard" for p in f.table))
    top = next(p for p in frame.table if p.zone == "discard")
    question = Event(1, "reading", frame.frame_id + 1, cards=("7H",), needs_confirmation=True,
                     zone="discard", position=(top.x + 0.3, top.y - 0.2))
    assert script.answer(question) == top.code
    empty_seat = Event(2, "reading", 1, cards=("7H",), needs_confirmation=True, zone="seat0", position=(10.0, 10.0))
    assert script.answer(empty_seat) == NOTHING  # nothing lies in a player's area before the knock: "no card here"
    assert script.answer(Event(3, "discard", frame.frame_id + 1, cards=("7H",))) is None  # not a question


def test_the_script_enters_a_hand_only_after_its_last_table_was_held():
    hands = SMALL.simulate()
    script = DemoScript(hands)
    last = len(hands[0].frames)
    assert script.settle_at == [last]
    assert script.overdue(last - HOLD_FRAMES, 1) is None
    assert script.overdue(last, 1) is hands[0]
    assert script.overdue(last, 2) is None  # there is no second hand
    form = script.score_form(hands[0])
    assert set(form["hands"]) == {"Ann", "Ben"} and form["knocker"] == "Ben"


def seat_card(code: str) -> Sighting:
    x, y = ZONES.seat_zone(0).centre
    return Sighting(code, 0.95, x, y, ZONES.seat_zone(0).name)


def pile_card(code: str) -> Sighting:
    return Sighting(code, 0.95, *ZONES.named("discard").centre, zone="discard")


def test_a_hand_recorded_by_the_players_mid_hand_ends_it_and_the_next_waits_for_a_cleared_table():
    session = HandSession(("Ann", "Ben"), "Ben", zones=ZONES, options=TrackerOptions(window=1, quorum=1))
    assert [e.kind for e in session.update(1, [pile_card("7H")], still=True)] == ["discard"]
    session.hand_recorded(HandScore("Ann", 25, "knock"))  # the camera lost track; the players entered it
    assert session.hand == 2 and session.tracker.dealer == "Ben" and session.clearing
    # The last hand's layouts and its face-down knock card still lie there: nothing is read into hand 2.
    assert session.update(2, [seat_card("KS"), pile_card("BACK")], still=True) == []
    assert session.update(3, [pile_card("BACK")], still=True) == []
    assert session.update(4, [pile_card("9C")], still=False) == []  # dealing: hands over the table
    assert session.clearing
    events = session.update(5, [pile_card("9C")], still=True)
    assert not session.clearing and [e.kind for e in events] == ["discard"] and events[0].player == "Ann"


def test_bad_options_and_a_taken_port_are_refused_with_the_reason(tmp_path, capsys):
    from rummyref.cli import main

    assert main(["demo", "--fps", "0"]) == 2
    assert "--fps must be positive, got 0.0" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["demo", "--port", str(port), "--host", "127.0.0.1", "--data", str(tmp_path)]) == 1
    assert f"cannot serve the dashboard on 127.0.0.1:{port}" in capsys.readouterr().err
