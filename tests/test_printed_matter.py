"""Printed things that are not cards (vision.synth.occluders.printed_matter), the training's hard
negatives (vision.train.data.detector_negatives) and the stray-reading count of rendered evaluation."""

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.synth import occluders
from vision.synth.decks import load_deck
from vision.synth.scenes import SceneParams, render_scene
from vision.train.__main__ import parse_args, training_scenes
from vision.train.data import HARD_NEGATIVE_REACH, IndexLabel, detector_negatives, scene_labels
from vision.train.synth_eval import stray_readings


def test_card_pictures_never_hold_a_corner_index():
    x0, y0, x1, y1 = occluders.PICTURE_AREA
    inside = 0
    for design in ("gnome/anglo_poker", "kde/standard"):          # big poker indices, and small ones
        faces = [face for code, face in load_deck(design).faces.items() if code[:-1] in ("A", "10", "J", "Q", "K")]
        for face, picture in zip(faces, occluders.card_pictures(faces)):
            w, h = face.size
            for index in face.indices:
                # The index box in the picture's pixels, clipped to it: painted out, white.
                bx0, by0, bx1, by1 = index.box
                px0, py0 = max(0, bx0 - int(w * x0)), max(0, by0 - int(h * y0))
                px1, py1 = min(picture.shape[1], bx1 - int(w * x0)), min(picture.shape[0], by1 - int(h * y0))
                if px1 > px0 and py1 > py0:
                    inside += 1
                    assert (picture[py0:py1, px0:px1] == 255).all(), f"{design} {face.code}: index in the picture"
    assert inside > 0, "no design's index reaches into the picture area: the check above checked nothing"


def test_printed_matter_covers_a_large_area_with_ink():
    pictures = occluders.card_pictures([load_deck("kde/standard").faces[code] for code in ("KH", "QS", "JD")])
    card_px = 100.0
    for seed in range(9):
        colour, alpha = occluders.printed_matter(np.random.default_rng(seed), 640, 480, card_px, pictures)
        assert colour.shape == (480, 640, 3) and alpha.shape == (480, 640)
        assert 0.0 <= float(alpha.min()) and float(alpha.max()) <= 1.0
        covered = alpha > 0.5
        # At least a card's area (0.7 x 1 card heights), often several, and never a flat colour.
        assert covered.sum() >= 0.7 * card_px * card_px * 0.5, f"seed {seed}: covers only {covered.sum()} px"
        assert float(colour[covered].std(axis=0).max()) > 10.0, f"seed {seed}: no print on it"


def test_printed_matter_lies_under_the_cards_and_is_off_by_default():
    params = SceneParams(width=480, height=360, cards=(6, 10), designs=("kde/standard",), hands=0.0, clutter=0.0)
    plain = render_scene(np.random.default_rng(5), params)
    assert plain.annotations() == render_scene(np.random.default_rng(5), replace(params, printed_matter=0.0)).annotations()
    printed = render_scene(np.random.default_rng(5), replace(params, printed_matter=1.0))
    # Under the cards: with no hands or clutter on top, every card's indices are as visible as the
    # cards above them allow, so most indices are wholly visible.
    visible = [a.visible for a in printed.indices]
    assert sum(v >= 0.99 for v in visible) >= len(visible) // 3
    assert not np.array_equal(plain.image, printed.image)


def test_detector_negatives_stay_clear_of_every_index():
    rng = np.random.default_rng(3)
    scene = render_scene(rng, SceneParams(width=480, height=360, cards=(6, 10), designs=("kde/standard",)))
    indices, _ = scene_labels(scene)
    near = [replace(i, x=i.x + 0.2 * i.size) for i in indices]           # on an index: never a negative
    far = [IndexLabel("", x, y, 0.3, 20.0, 1.0) for x in range(10, 480, 40) for y in range(10, 360, 40)]
    clear = [c for c in far if all(math.hypot(c.x - i.x, c.y - i.y) >= HARD_NEGATIVE_REACH * max(i.size, c.size)
                                   for i in indices)]
    patches = detector_negatives(scene.image, indices, near + far, 1000, rng)
    assert len(patches) == len(clear) > 0
    assert len(detector_negatives(scene.image, indices, near, 1000, rng)) == 0
    assert len(detector_negatives(scene.image, indices, far, 3, rng)) == 3


def test_stray_readings_are_those_far_from_every_index():
    from vision.observation import CardObservation

    indices = [IndexLabel("AS", 100.0, 100.0, 0.0, 20.0, 1.0), IndexLabel("AS", 200.0, 250.0, math.pi, 20.0, 1.0)]
    misread = CardObservation("4C", 0.8, ((105.0, 95.0),))                     # a misreading, not a stray
    merged = CardObservation("AS", 0.9, ((100.0, 100.0), (200.0, 250.0)))
    on_rug = CardObservation("JC", 0.7, ((100.0, 140.0),))                    # 2 index heights away
    back = CardObservation("BACK", 0.7, ((400.0, 40.0),))
    assert stray_readings([misread, merged, on_rug, back], indices) == [on_rug]


@pytest.mark.parametrize("argv, message", [
    (["--hard-negatives", "-1"], "--hard-negatives be at least 0"),
    (["--printed-matter", "1.5"], "within 0..1"),
    (["--procedural", "-0.1"], "--procedural must lie within 0..1"),
    (["--fresh-classifier"], "--fresh-classifier needs --init"),
    (["--fresh-classifier", "--init", "models", "--classifier-steps", "0"], "--fresh-classifier needs --init"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--layouts", "0.6", "--grazing", "0.5"], "adding up to at most 1"),
    (["--grazing", "-0.1"], "--layouts and --grazing must be shares"),
])
def test_training_options_are_checked(argv, message, capsys):
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert message in capsys.readouterr().err


def test_a_fresh_classifier_and_a_procedural_share_are_parsed():
    args = parse_args(["--init", "models", "--fresh-classifier", "--detector-steps", "0", "--procedural", "0.5"])
    assert args.fresh_classifier and args.procedural == 0.5
    assert parse_args([]).procedural is None      # the generator's own default share (0.35)


@pytest.mark.parametrize("share, procedural_cards", [("1.0", "all"), ("0.0", "none")])
def test_the_training_scenes_hold_procedural_decks_in_the_share_asked(share, procedural_cards):
    # Until session 14 the training command named the real designs alone, and no model saw a procedural deck.
    scenes = training_scenes(parse_args(["--scenes", "4", "--seed", "3", "--procedural", share]))
    designs = [card.design for scene in scenes for card in scene.cards]
    procedural = [name.startswith("proc/") for name in designs]
    assert designs and (all(procedural) if procedural_cards == "all" else not any(procedural))


def test_the_default_training_scenes_mix_real_and_procedural_decks():
    designs = {card.design.split("/")[0] for scene in training_scenes(parse_args(["--scenes", "12", "--seed", "3"]))
               for card in scene.cards}
    assert "proc" in designs and designs & {"gnome", "kde"}


def test_training_from_nothing_mines_hard_negatives_with_its_own_detector(tmp_path):
    """Without --init the detector trained in the run finds the places it mistakes for indices, and
    the classifier learns them as "not an index" (a tiny run: 3 scenes, 2 classifier steps). 60
    detector steps made it fire at a few places on one machine and nowhere on another (floating
    point differs between CPUs); 80-200 steps fired at 10-15 places on the second, so 120."""
    import json

    from vision.recognizer import Recognizer
    from vision.train.__main__ import main

    out = tmp_path / "models"
    assert main(["--out", str(out), "--scenes", "3", "--detector-steps", "120", "--classifier-steps", "2",
                 "--eval-scenes", "1", "--hard-negatives", "8", "--threads", "1"]) == 0
    figures = json.loads((out / "cards-training.json").read_text())
    assert figures["fine_tuned_from"] is None and figures["hard_negatives"] == 8
    assert 0 < figures["hard_negative_patches"] <= 3 * 8
    Recognizer(out)      # both exported networks load as the recognizer's (a broken export raises)


def test_workers_render_the_same_scenes_whatever_their_number(monkeypatch):
    """``--workers N`` seeds each block of scenes by (seed, block): 2 and 3 processes prepare the
    same data, and the blocks are not copies of one another (blocks of 2 scenes here, not 50)."""
    from vision.train import __main__ as training

    monkeypatch.setattr(training, "RENDER_BLOCK", 2)

    def patches(workers: int) -> list[np.ndarray]:
        args = parse_args(["--scenes", "5", "--seed", "3", "--workers", str(workers), "--hard-negatives", "2"])
        prepared = list(training.prepared_scenes(args, np.random.default_rng(0)))
        assert len(prepared) == 5 and all(image is not None and indices for *_, image, indices in prepared)
        return [sample[1] for sample in prepared]

    two, three = patches(2), patches(3)
    assert all(np.array_equal(a, b) for a, b in zip(two, three))
    assert not np.array_equal(two[0], two[2])           # blocks 0 and 1 drew other scenes
