"""A bumped camera, a hand resting over the cards, the room light changing: rendered frames through
the real reader (markers, motion, recognizer) and tracker, each against the same table undisturbed.

Whatever the shipped recognizer makes of the cards, a disturbance of the picture alone must not
change what the tracker commits or asks: the events with the disturbance equal the events without
it, and none comes out while the disturbance lasts.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.simulate import Placed
from engine.tracker import BACK
from engine.zones import default_zones
from rummyref.pipeline import FrameReading, HandSession, TableReader, make_calibrator
from rummyref.render_game import GameRenderer

SIZE = (960, 540)
ZONES = default_zones("gin", 2)
STOCK = Placed(BACK, *ZONES.named("stock").centre, "stock")
TABLE = (STOCK, Placed("7H", *ZONES.named("discard").centre, "discard"))
AFTER = (STOCK, Placed("KS", ZONES.named("discard").centre[0] + 0.4, ZONES.named("discard").centre[1], "discard"))


@pytest.fixture(scope="module")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer()


def play(recognizer, script) -> tuple[list[tuple[int, str]], list[FrameReading]]:
    """Run ``script`` (a list of (renderer action, table, still, count)) through reader and tracker;
    returns the events as (frame, key) and every frame's reading."""
    renderer = GameRenderer(*SIZE, (ZONES.width, ZONES.height), seed=5, camera_height_cm=75)
    reader = TableReader(recognizer, ZONES, make_calibrator((ZONES.width, ZONES.height)))
    session = HandSession(("Ann", "Ben"), "Ben", zones=ZONES)
    events, readings = [], []
    frame = 0
    for action, table, still, count in script:
        if action:
            action(renderer)
        for _ in range(count):
            frame += 1
            image = renderer.render(table, still, reach=(45.0, 30.0))
            reading = reader.read(frame, image, session.tracker.needs_frames)
            readings.append(reading)
            events += [(frame, e.kind, e.player, e.cards, e.needs_confirmation) for e in reading.feed(session)]
    return events, readings


def keys(events):
    return [e[1:] for e in events]


QUIET = [(None, TABLE, True, 8), (GameRenderer.new_action, AFTER, False, 3), (None, AFTER, True, 8)]


@pytest.fixture(scope="module")
def undisturbed(recognizer):
    return play(recognizer, QUIET)


def test_a_bumped_camera_is_recalibrated_and_changes_no_event(recognizer, undisturbed) -> None:
    def knock(renderer: GameRenderer) -> None:
        renderer.bump(14, -9, 1.5)

    script = [(None, TABLE, True, 8), (knock, TABLE, True, 3), (GameRenderer.new_action, AFTER, False, 3),
              (None, AFTER, True, 8)]
    events, readings = play(recognizer, script)
    states = [r.geometry for r in readings]
    assert "recalibrated" in states[8:11], states  # noticed at once, from the four markers
    assert all(not r.sightings for r in readings if r.geometry not in ("calibrated", "recalibrated"))
    assert keys(events) == keys(undisturbed[0])
    # what was read before and after the bump lies at the same table place: no misread positions
    before = {s.code: (s.x, s.y) for s in readings[7].sightings}
    after = {s.code: (s.x, s.y) for r in readings[9:11] for s in r.sightings}
    for code in before.keys() & after.keys():
        assert np.hypot(*np.subtract(before[code], after[code])) < 1.5, code


def test_a_hand_resting_over_the_pile_is_occlusion_not_a_pickup(recognizer, undisturbed) -> None:
    resting = []

    def rest(renderer: GameRenderer) -> None:
        renderer.new_action()
        frozen = renderer.rng.bit_generator.state
        resting.append(frozen)

    def hold(renderer: GameRenderer) -> None:  # the same hand in the same place: no motion, but skin
        renderer.rng.bit_generator.state = resting[0]

    script = [(None, TABLE, True, 8), (rest, TABLE, False, 1)] + [(hold, TABLE, False, 1)] * 6 + QUIET[1:]
    events, readings = play(recognizer, script)
    assert all(not r.still for r in readings[8:15])  # nothing moves, but a hand lies over the cards
    assert not [e for e in events if 8 < e[0] <= 15], "an event while the hand covered the pile"
    assert keys(events) == keys(undisturbed[0])


def test_a_lighting_change_is_not_motion_and_changes_no_event(recognizer, undisturbed) -> None:
    def lamp(level: float):
        def switch(renderer: GameRenderer) -> None:
            renderer.light = level
        return switch

    script = [(None, TABLE, True, 8), (lamp(1.3), TABLE, True, 3), (lamp(0.75), TABLE, True, 3),
              (GameRenderer.new_action, AFTER, False, 3), (lamp(1.0), AFTER, True, 8)]
    events, readings = play(recognizer, script)
    # the frame of each switch may count as a change (saturated whites); the lit table then is still
    assert sum(r.still for r in readings[8:14]) >= 4 and readings[10].still and readings[13].still
    assert not [e for e in events if 8 < e[0] <= 14], "an event from the lamp"
    assert keys(events) == keys(undisturbed[0])
