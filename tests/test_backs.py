"""Face-down cards are confirmed by their outline, not by a back-like texture (vision/backs.py)."""

import math

import numpy as np

from vision.backs import MIN_OUTLINE, confirm_backs, outline_strength
from vision.recognizer import IndexCandidate
from vision.synth import occluders
from vision.synth.decks import load_deck
from vision.synth.scenes import SceneParams, render_scene
from vision.train.data import scene_labels

QUIET = dict(hands=0.0, clutter=0.0, back_decoys=0.0, jokers=0.0, piles=0.0, shadows=0.0, effects=0.3,
             card_height=(120.0, 150.0), designs=("kde/standard",), procedural=0.0)


def test_a_rendered_face_down_card_is_confirmed_at_its_centre():
    scene = render_scene(np.random.default_rng(4), SceneParams(cards=(1, 1), face_down=1.0, overlap=0.0, **QUIET))
    (back,) = scene_labels(scene)[1]
    candidate = IndexCandidate(back.x, back.y, 0.0, back.height, 0.9)
    assert outline_strength(scene.image, (back.x, back.y), back.height) >= MIN_OUTLINE
    assert confirm_backs(scene.image, [candidate], []) == [candidate]


def test_a_back_pattern_without_a_card_outline_is_not_a_face_down_card():
    # The back of the same deck printed on a napkin or wrap: the pattern is there, the card is not.
    rng = np.random.default_rng(7)
    back_face = load_deck("kde/standard").faces["BACK"].image
    table = render_scene(rng, SceneParams(cards=(1, 1), face_down=0.0, **QUIET)).image.astype(np.float32)
    height, width = table.shape[:2]
    rejected = 0
    for _ in range(6):
        colour, alpha = occluders.back_decoy(rng, width, height, 135.0, back_face)
        image = (table + alpha[:, :, None] * (colour - table)).clip(0, 255).astype(np.uint8)
        ys, xs = np.nonzero(alpha > 0.99)
        # The middle of the printed area, where a detector that knows only the texture fires.
        x, y = float(np.median(xs)), float(np.median(ys))
        rejected += not confirm_backs(image, [IndexCandidate(x, y, 0.0, 135.0, 0.9)], [])
    assert rejected >= 5, f"{6 - rejected} of 6 printed back patterns taken for a card"


def test_a_face_up_card_whose_index_is_read_is_not_a_face_down_card():
    scene = render_scene(np.random.default_rng(4), SceneParams(cards=(1, 1), face_down=0.0, overlap=0.0, **QUIET))
    card = scene.cards[0]
    outline = np.asarray(card.outline)
    centre = outline.mean(axis=0)
    height = float(np.linalg.norm(outline[3] - outline[0]))
    index = scene.indices[0]
    assert math.dist(index.center, centre) < 0.5 * height
    candidate = IndexCandidate(float(centre[0]), float(centre[1]), 0.0, height, 0.9)
    # The outline is a card's: only the index in its middle tells it is face up.
    assert confirm_backs(scene.image, [candidate], []) == [candidate]
    assert confirm_backs(scene.image, [candidate], [index.center]) == []
