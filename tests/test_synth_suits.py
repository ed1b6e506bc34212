"""Drawn suit symbols of procedural decks: the four shapes differ, each looks like its suit."""

import numpy as np
import pytest

from vision.synth.decks import load_deck
from vision.synth.procedural import DeckStyle
from vision.synth.suits import SuitShapes, suit_mask

SHAPES = [SuitShapes.from_rng(np.random.default_rng(seed)) for seed in range(12)]


def row_widths(mask: np.ndarray) -> np.ndarray:
    """Ink width of each row, as a fraction of the mask's widest row."""
    widths = (mask > 127).sum(axis=1).astype(float)
    return widths / widths.max()


@pytest.mark.parametrize("shapes", SHAPES)
def test_each_suit_is_drawn_at_the_height_asked_with_its_own_silhouette(shapes):
    masks = {suit: suit_mask(shapes, suit, 48) for suit in "SHDC"}
    for suit, mask in masks.items():
        assert mask.shape[0] == 48 and 0.4 < mask.shape[1] / 48 < 1.4, suit
        assert 0.25 < (mask > 127).mean() < 0.85, suit
    # heart: widest near the top, a point at the bottom; spade: the other way up, on a stem
    heart, spade = row_widths(masks["H"]), row_widths(masks["S"])
    assert np.argmax(heart) < 24 and heart[-3:].max() < 0.35
    assert np.argmax(spade) > 18 and spade[:3].max() < 0.35
    # diamond: pointed at both ends, widest in the middle
    diamond = row_widths(masks["D"])
    assert 16 < np.argmax(diamond) < 32 and diamond[:3].max() < 0.35 and diamond[-3:].max() < 0.35
    # club and spade share the stem but not the top: a club's top leaf is round, a spade's top a point
    club, spade = ((suit_mask(shapes, suit, 100) > 127).sum(axis=1) for suit in "CS")
    assert club[3] / club[20] > 0.4 > 0.3 > spade[3] / spade[20]


def test_club_shapes_run_from_lean_to_plump():
    lean = SuitShapes(**{**SHAPES[0].__dict__, "leaf": 0.16, "leaf_spread": 0.29})
    plump = SuitShapes(**{**SHAPES[0].__dict__, "leaf": 0.25, "leaf_spread": 0.15})
    assert (suit_mask(plump, "C", 60) > 127).mean() > (suit_mask(lean, "C", 60) > 127).mean() + 0.08


def test_about_half_of_the_procedural_decks_draw_their_suits_and_their_cards_show_them():
    styles = [DeckStyle.from_seed(seed) for seed in range(40)]
    drawn = [seed for seed, style in enumerate(styles) if style.drawn_suits is not None]
    assert 10 <= len(drawn) <= 30
    seed = drawn[0]
    face = load_deck(f"proc/{seed}").faces["7C"]
    (x0, y0, x1, y1) = face.indices[0].box
    index_ink = face.image[y0:y1, x0:x1, 3].astype(float) / 255 * (face.image[y0:y1, x0:x1, :3].mean(axis=2) < 128)
    assert index_ink.mean() > 0.1       # the index (rank and the drawn club) is there, dark on the paper
