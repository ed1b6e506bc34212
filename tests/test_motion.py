"""The still / moving / occluded flag on synthetic frames."""

import cv2
import numpy as np

from vision.motion import MotionDetector, shrink

SKIN = (120, 160, 220)  # BGR of a light skin tone


def cloth(seed: int, brightness: float = 1.0) -> np.ndarray:
    """A green table with two white cards (not so bright that more light saturates them) and sensor noise."""
    rng = np.random.default_rng(seed)
    frame = np.full((360, 640, 3), (40, 110, 30), np.float64)
    frame[100:190, 200:263] = 200
    frame[100:190, 380:443] = 200
    frame = frame * brightness + rng.normal(0, 2, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def with_hand(frame: np.ndarray, x: int) -> np.ndarray:
    hand = frame.copy()
    hand[150:300, x:x + 90] = SKIN
    return hand


def test_still_table_with_sensor_noise_is_still():
    detector = MotionDetector()
    readings = [detector.update(cloth(seed)) for seed in range(6)]
    assert not readings[0].still  # nothing to compare the first frame with
    assert all(r.still for r in readings[1:])


def test_moving_hand_is_motion_and_resting_hand_is_occlusion():
    detector = MotionDetector()
    detector.update(cloth(0))
    detector.update(cloth(1))
    moving = [detector.update(with_hand(cloth(seed), x)) for seed, x in zip(range(2, 6), (50, 120, 190, 260))]
    assert all(not r.still and r.changed > 0.01 for r in moving)
    resting = [detector.update(with_hand(cloth(seed), 260)) for seed in range(6, 9)]
    assert all(r.changed < 0.004 for r in resting[1:])  # nothing moves any more
    assert all(r.occluded and r.skin > 0.05 for r in resting)
    assert detector.update(cloth(9)).occluded  # the hand leaving is a change
    assert detector.update(cloth(10)).still


def test_a_moved_card_is_motion():
    detector = MotionDetector()
    detector.update(cloth(0))
    assert detector.update(cloth(1)).still
    moved = cloth(2)
    moved[200:290, 500:563] = 235
    assert not detector.update(moved).still


def test_lighting_change_is_not_motion():
    detector = MotionDetector()
    detector.update(cloth(0))
    detector.update(cloth(1))
    assert detector.update(cloth(2, brightness=1.25)).still
    assert detector.update(cloth(3, brightness=0.7)).still


def test_many_small_skin_coloured_prints_are_not_a_hand():
    """Red pips and court figures of a full layout add up to more skin-coloured pixels than a
    fingertip, but no patch is hand-sized: the table is still; a resting hand of the same area is not."""
    frame = cloth(0)
    for row in range(20, 340, 24):
        for col in range(20, 620, 24):
            frame[row:row + 6, col:col + 6] = SKIN  # 6x6 specks: 5% of the frame in all
    detector = MotionDetector()
    detector.update(frame)
    reading = detector.update(frame)
    assert reading.still and reading.skin < 0.003
    hand = cloth(0)
    hand[100:190, 100:300] = SKIN  # one patch of about the same number of pixels
    detector.update(hand)
    assert detector.update(hand).occluded


def test_hand_share_counts_an_arm_reaching_in_not_a_skin_coloured_patch_of_the_table():
    """The tile reader's hand doubt: the renderer's hand reaches in over the frame's edge; a
    skin-toned stripe of the table lies inside the frame and is no hand."""
    from vision.motion import hand_share
    from vision.synth import occluders

    table = cloth(0)
    stripes = table.copy()
    stripes[100:130, 60:560] = SKIN     # a skin-toned stripe of the tablecloth, inside the frame
    assert hand_share(stripes) == 0.0
    rng = np.random.default_rng(4)
    colour, alpha = occluders.hand(rng, table.shape[1], table.shape[0], 120.0, (320.0, 200.0))
    tone = np.float32(SKIN)             # a tone inside the skin range (the renderer also draws darker ones)
    shaded = colour / np.maximum(colour.mean(axis=(0, 1), keepdims=True), 1.0) * tone
    hand = (stripes + alpha[:, :, None] * (shaded - stripes)).clip(0, 255).astype(np.uint8)
    assert hand_share(hand) > 0.003


def test_hand_share_takes_a_skin_toned_pattern_all_over_the_table_for_the_table():
    """Stripes of a skin-toned colour run over the whole cloth and reach every edge (wood grain,
    a striped cloth): the table, not a hand; a hand of another tone reaching in over it still counts."""
    from vision.motion import hand_share
    from vision.synth import occluders

    table = cloth(0)
    stripes = table.copy()
    for x in range(-360, 640, 80):          # diagonal orange stripes over the whole frame
        cv2.line(stripes, (x, 0), (x + 360, 360), (80, 120, 190), 22)
    assert hand_share(stripes) == 0.0
    rng = np.random.default_rng(4)
    colour, alpha = occluders.hand(rng, table.shape[1], table.shape[0], 120.0, (320.0, 200.0))
    shaded = colour / np.maximum(colour.mean(axis=(0, 1), keepdims=True), 1.0) * np.float32(SKIN)
    hand = (stripes + alpha[:, :, None] * (shaded - stripes)).clip(0, 255).astype(np.uint8)
    assert hand_share(hand) > 0.003


def test_glare_on_wood_is_no_hand_but_a_hand_beside_it_still_is():
    """The tile reader's hand doubt: a soft glare spot on a wooden table, reaching the frame's
    edge, is skin-coloured; with ``opaque=True`` it is told from a hand (soft rim, the grain shows
    through), and a hand reaching in over the same table still counts."""
    from vision.motion import hand_share
    from vision.synth import backgrounds, occluders

    table = backgrounds.wood(np.random.default_rng(0), 640, 360)
    spot = np.zeros((360, 640), np.float32)
    cv2.ellipse(spot, (60, 300), (90, 40), 30.0, 0, 360, 1.0, -1)
    glared = (table + cv2.GaussianBlur(spot, (0, 0), 12)[:, :, None] * 120).clip(0, 255).astype(np.uint8)
    assert hand_share(glared) > 0.003                 # the spot passes for a hand without the opaque test
    assert hand_share(glared, opaque=True) == 0.0
    colour, alpha = occluders.hand(np.random.default_rng(4), 640, 360, 120.0, (420.0, 150.0))
    hand = (glared + alpha[:, :, None] * (colour - glared)).clip(0, 255).astype(np.uint8)
    assert hand_share(hand, opaque=True) > 0.003


def test_shrinking_in_halves_is_within_a_grey_level_of_one_area_step():
    rng = np.random.default_rng(3)
    for height, width, target in ((720, 1280, 160), (720, 1280, 320), (1080, 1920, 160), (480, 640, 100), (90, 160, 160)):
        frame = cv2.GaussianBlur(rng.integers(0, 256, (height, width, 3), dtype=np.uint8), (0, 0), 2.0)
        one_step = cv2.resize(frame, (target, round(height * target / width)), interpolation=cv2.INTER_AREA)
        halves = shrink(frame, target)
        assert halves.shape == one_step.shape
        assert np.abs(halves.astype(int) - one_step).max() <= 1
