"""Deck learning with the deck's jokers: a design whose jokers the shipped classifier does not read."""

from __future__ import annotations

import numpy as np
import pytest

from vision.learn_deck import LayoutError, learn_deck, read_jokers
from vision.recognizer import Recognizer
from vision.train.layout import layout_photos, render_jokers

DESIGN = "gnome/plastic"
"""The held-out design the Wiener replay photographs: its jokers show a suit sign in their corners and
the word "Joker" across the top, which the shipped classifier calls "not an index"."""


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer(threads=1)


def jokers_read(recognizer: Recognizer, frame: np.ndarray) -> int:
    return sum(seen.card == "JK" for seen in recognizer.recognize(frame))


def test_the_jokers_photo_teaches_the_recognizer_the_designs_jokers(recognizer):
    rng = np.random.default_rng(9)
    photos = layout_photos(DESIGN, rng)
    # As `learn-deck` learns (its last convolution blocks and layer refitted), on fewer patches and no
    # table scenes. (The last layer alone is no stand-in: a candidate model's last layer alone read the
    # 9H of the rows below as a joker at 0.86, the blocks and layer refitted read none; session 31.)
    deck = learn_deck(recognizer, photos, "plastic", scenes=0, variants=6,
                      jokers=[("jokers", render_jokers(DESIGN, rng))])
    learned = recognizer.with_deck(deck)
    # Photos the learning never saw: the two jokers again, and the layout's rows with other light and places.
    fresh = [render_jokers(DESIGN, np.random.default_rng(seed)) for seed in (1, 2)]
    assert [jokers_read(recognizer, frame) for frame in fresh] == [0, 0]
    assert sum(jokers_read(learned, frame) for frame in fresh) >= 3
    rows = layout_photos(DESIGN, np.random.default_rng(5))
    assert sum(jokers_read(learned, frame) for _, frame in rows) == 0   # no card of the 52 becomes a joker


def test_a_photo_without_jokers_is_refused_by_name(recognizer):
    rows = layout_photos(DESIGN, np.random.default_rng(3))
    with pytest.raises(LayoutError, match="blank.png: found no joker's two corners"):
        read_jokers(recognizer, np.full_like(rows[0][1], 90), (96.0, 122.0), "blank.png")
