"""The recognizer's parts that need no trained model: geometry, targets, merging, scoring, decks."""

import math

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.decks import DeckProfile
from vision.evaluation import LabelsError, load_labels, score_image, total
from vision.learn_deck import LAYOUT_ORDER, fit_head, shipped_head
from vision.labels import NONE_CLASS, NUM_CLASSES, class_of
from vision.patches import index_patch
from vision.recognizer import (IndexCandidate, IndexReading, Recognizer, RecognizerOptions, _suppress, card_outline,
                               diagonal_partner, merge_corners)
from vision.train.data import DetectorScene, FaceLabel, IndexLabel, classifier_samples, detector_targets


def arrow_frame() -> np.ndarray:
    """A white frame with a black 'T': a bar on top of a stem, so up is visible."""
    frame = np.full((200, 200, 3), 255, np.uint8)
    frame[80:86, 90:110] = 0     # bar
    frame[86:120, 98:102] = 0    # stem
    return frame


@pytest.mark.parametrize("quarter_turns", [0, 1, 2, 3])
def test_patch_is_upright_whatever_the_rotation(quarter_turns):
    frame = np.ascontiguousarray(np.rot90(arrow_frame(), k=-quarter_turns))   # clockwise
    # The T's centre (100, 100) turns with the frame.
    cx, cy = 99.5, 99.5
    angle = quarter_turns * math.pi / 2
    patch = index_patch(frame, (cx + 0.5, cy + 0.5), angle, 40.0)
    dark = patch[:, :, 0] < 128
    rows = np.nonzero(dark.any(axis=1))[0]
    top_width, bottom_width = dark[rows[0]].sum(), dark[rows[-1]].sum()
    assert top_width > 2 * bottom_width, "the bar must be at the top of the patch"


def test_large_index_is_shrunk_without_shifting():
    frame = arrow_frame()
    big = np.ascontiguousarray(np.kron(frame, np.ones((8, 8, 1), np.uint8)))   # 1600 x 1600
    small_patch = index_patch(frame, (100.0, 100.0), 0.0, 40.0).astype(int)
    big_patch = index_patch(big, (800.0, 800.0), 0.0, 320.0).astype(int)
    assert np.abs(small_patch - big_patch).mean() < 12


def test_detector_targets_turn_with_the_crop():
    image = np.zeros((256, 256, 3), np.uint8)
    scene = DetectorScene(image, [IndexLabel("QS", 100.0, 60.0, 0.0, 24.0, 1.0)], [])
    heat, weight, reg, mask = detector_targets(scene, 0, 0, 256, quarter_turns=1)
    y, x = np.unravel_index(np.argmax(heat[0]), heat[0].shape)
    # A clockwise quarter turn takes (100, 60) to (256 - 60, 100).
    assert (x, y) == (int((256 - 60) / 4), int(100 / 4))
    assert math.isclose(math.atan2(reg[1, y, x], reg[0, y, x]), math.pi / 2, abs_tol=1e-5)
    assert math.isclose(math.exp(reg[2, y, x]), 24.0, rel_tol=1e-5)
    assert weight.min() == 1.0 and mask[0, y, x] == 1.0


def test_half_covered_index_is_neither_target_nor_penalised():
    scene = DetectorScene(np.zeros((128, 128, 3), np.uint8), [IndexLabel("2H", 64.0, 64.0, 0.0, 20.0, 0.45)], [])
    heat, weight, _, _ = detector_targets(scene, 0, 0, 128, 0)
    assert heat[0].max() == 0.0 and weight[0, 16, 16] == 0.0


def reading(card, x, y, angle, confidence=0.9, size=20.0):
    return IndexReading(IndexCandidate(x, y, angle, size, 1.0), card, confidence)


def test_two_diagonal_corners_of_one_card_are_reported_once_with_both_positions():
    observations = merge_corners([reading("7D", 100, 100, 0.0, 0.8), reading("7D", 160, 190, math.pi, 0.95),
                                  reading("KS", 400, 100, 0.0, 0.7)])
    by_card = {o.card: o for o in observations}
    assert sorted(by_card) == ["7D", "KS"]
    assert set(by_card["7D"].corners) == {(100, 100), (160, 190)} and by_card["7D"].confidence == 0.95
    assert by_card["7D"].outline is not None and by_card["KS"].outline is None


def test_same_code_far_apart_stays_two_cards():
    # Two decks in play: two 7D that cannot be one card.
    observations = merge_corners([reading("7D", 100, 100, 0.0), reading("7D", 900, 600, math.pi)])
    assert [o.card for o in observations] == ["7D", "7D"]


def test_two_copies_of_a_card_further_apart_than_a_card_are_two_cards_in_a_calibrated_frame():
    # Wiener seed 6 (two decks): two 2S with large indices (25 px) lie 19.6 cm apart on a table seen at
    # 12 px/cm: 9.4 index heights pass the index-height bound, but no card is longer than 10.8 cm.
    table = Calibration.from_corners([(160, 0), (1120, 0), (1120, 720), (160, 720)], 80, 60)
    card_diagonal = lambda point: table.image_length(point, math.hypot(6.3, 8.8))  # noqa: E731
    upper, lower = reading("2S", 300, 200, 0.0, 0.9, size=25.0), reading("2S", 300 + 130, 200 + 196, math.pi, 0.8, size=25.0)
    assert [len(o.corners) for o in merge_corners([upper, lower])] == [2]  # paired without the frame's scale
    observations = merge_corners([upper, lower], card_diagonal)
    assert sorted(o.corners for o in observations) == [((300, 200),), ((430, 396),)]
    # One card's two indices (5.2 x 6.3 cm apart) are still paired.
    near = reading("2S", 300 + 62, 200 + 76, math.pi, 0.8, size=25.0)
    assert [len(o.corners) for o in merge_corners([upper, near], card_diagonal)] == [2]


def test_one_index_read_twice_a_little_apart_is_one_reading_but_a_neighbour_stays():
    # Two pyramid levels read the 9S 0.7 index heights apart; a tight fan puts the 8S next to it.
    kept = _suppress([reading("9S", 100, 100, 0.0, 0.9), reading("9S", 114, 100, 0.0, 0.8),
                      reading("8S", 86, 100, 0.0, 0.7)])
    assert sorted((r.card, r.confidence) for r in kept) == [("8S", 0.7), ("9S", 0.9)]


def test_a_grazing_view_still_pairs_the_two_corners_of_a_card():
    # Seen at about 55 degrees tilt the card's height shrinks to 0.55 of its width in the image.
    a, b = IndexCandidate(100, 100, 0.0, 20, 1), IndexCandidate(200, 155, math.pi, 20, 1)
    assert diagonal_partner(a, b)


def test_pyramid_levels_are_distinct_and_largest_first():
    recognizer = Recognizer.__new__(Recognizer)
    recognizer.options = RecognizerOptions(pyramid=(0.5, 1.0))
    assert recognizer.detector_scales(np.zeros((1200, 1600, 3), np.uint8)) == [0.4, 0.2]
    # A tiny frame is upscaled at most max_upscale: both levels would be the same scale, so one runs.
    assert recognizer.detector_scales(np.zeros((100, 150, 3), np.uint8)) == [2.0]


def test_card_faces_give_upright_not_an_index_patches():
    image = np.full((400, 400, 3), 200, np.uint8)
    face = FaceLabel(np.array([[100.0, 50.0], [300.0, 50.0], [300.0, 350.0], [100.0, 350.0]]), 1.0)
    assert face.angle == 0.0 and face.point(0.5, 0.5) == (200.0, 200.0)
    index = IndexLabel("AS", 118, 80, 0.0, 30.0, 1.0)
    patches, classes = classifier_samples(image, [index], np.random.default_rng(0), per_index=1, negatives=0,
                                          faces=[face], face_negatives=5)
    assert classes[0] == class_of("AS")
    assert (classes[1:] == NONE_CLASS).all() and len(classes) >= 5


def test_outline_of_an_upright_card_contains_both_indices():
    a, b = IndexCandidate(20, 30, 0.0, 20, 1), IndexCandidate(80, 130, math.pi, 20, 1)
    assert diagonal_partner(a, b)
    xs, ys = zip(*card_outline(a, b))
    assert min(xs) < 20 < 80 < max(xs) and min(ys) < 30 < 130 < max(ys)


def test_rank_only_labels_compare_ranks():
    assert score_image(["QH", "QD", "9S"], ["Q?", "K?"]) == score_image(["Q?", "9?"], ["Q?", "K?"])
    overall = total([score_image(["10H"], ["10H"]), score_image(["2C", "BACK"], ["2C", "3C"])])
    assert (overall.true_positives, overall.predicted, overall.expected) == (2, 3, 3)


def test_labels_file_errors_name_the_problem(tmp_path):
    with pytest.raises(LabelsError, match="labels.json not found"):
        load_labels(tmp_path)
    (tmp_path / "labels.json").write_text('{"a.jpg": {"boxes": null}}')
    with pytest.raises(LabelsError, match="'a.jpg' needs a \"cards\" list"):
        load_labels(tmp_path)


def test_layout_order_is_rows_of_suits_ace_to_king():
    assert LAYOUT_ORDER[:3] == ("AS", "2S", "3S") and LAYOUT_ORDER[13] == "AH" and LAYOUT_ORDER[-1] == "KC"


def test_shipped_head_is_recovered_and_refitting_learns_a_new_deck():
    rng = np.random.default_rng(0)
    dim = 16
    weight0 = rng.normal(size=(NUM_CLASSES, dim)).astype(np.float32)
    bias0 = rng.normal(size=NUM_CLASSES).astype(np.float32)
    embeddings = rng.normal(size=(300, dim)).astype(np.float32)
    weight, bias = shipped_head(embeddings, embeddings @ weight0.T + bias0)
    assert np.allclose(weight, weight0, atol=1e-3) and np.allclose(bias, bias0, atol=1e-3)
    # A "deck" whose classes sit at new places in embedding space.
    centres = rng.normal(size=(NUM_CLASSES, dim))
    classes = np.array([class_of("AS"), class_of("10H"), class_of("KC"), NONE_CLASS] * 50)
    samples = (centres[classes] + rng.normal(scale=0.1, size=(len(classes), dim))).astype(np.float32)
    fitted = DeckProfile("test", *fit_head(samples, classes, weight0, bias0))
    assert (fitted.logits(samples).argmax(axis=1) == classes).mean() == 1.0


def _scene_params_drawn(monkeypatch, count: int, **kwargs) -> list:
    """The scene parameters ``render_scenes(11, count, **kwargs)`` draws, the scenes left unrendered (one
    draw from the stream each, so that the draws after it stay where they were)."""
    import vision.synth.scenes as scenes
    from vision.train.data import render_scenes

    seen = []
    monkeypatch.setattr(scenes, "render_scene", lambda rng, params: seen.append(params) or rng.random())
    list(render_scenes(11, count, **kwargs))
    return seen


def test_table_overlap_range_is_drawn_per_table_scene_and_the_default_stream_is_unchanged(monkeypatch):
    default, tight = _scene_params_drawn(monkeypatch, 40), _scene_params_drawn(monkeypatch, 40, table_overlap=(0.85, 1.0))
    tables = [p for p in tight if p.cards == (6, 32)]
    assert 20 <= len(tables) < 40
    assert all(0.85 <= p.overlap <= 1.0 for p in tables) and len({p.overlap for p in tables}) == len(tables)
    assert {p.overlap for p in tight if p.cards != (6, 32)} <= {0.3, 0.4}     # close-ups and small photos keep theirs
    assert {p.overlap for p in default if p.cards == (6, 32)} == {0.6}


def test_layout_and_grazing_shares_replace_some_scenes_and_leave_the_default_stream_alone(monkeypatch):
    from vision.train.data import render_scenes

    default, none_asked = _scene_params_drawn(monkeypatch, 200), _scene_params_drawn(monkeypatch, 200, layouts=0.0, grazing=0.0)
    mixed = _scene_params_drawn(monkeypatch, 200, layouts=0.1, grazing=0.15)
    assert none_asked == default
    layouts = [p for p in mixed if p.arrangement == "layout"]
    grazing = [p for p in mixed if p.min_tilt_deg > 0]
    assert 8 <= len(layouts) <= 35 and 15 <= len(grazing) <= 45
    assert all(p.cards == (13, 52) and p.decks == (1, 1) for p in layouts)
    assert all(p.max_tilt_deg > 45 and p.horizon_deg > 82 for p in grazing)
    with pytest.raises(ValueError, match="add up to at most 1"):
        next(render_scenes(1, 1, layouts=0.6, grazing=0.5))
