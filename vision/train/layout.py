"""Rendered photos of the guided layout of :mod:`vision.learn_deck`, for testing deck learning.

Four rows of 13 upright cards (spades, hearts, diamonds, clubs; A..K) of one
design on a random table, each card slightly turned and shifted as a person
lays them, photographed with the synth package's camera effects; the design's
jokers in one more such row (:func:`render_jokers`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.learn_deck import LAYOUT_ORDER, ROW_LENGTH


def _deck(design):
    """``design`` loaded (a :class:`vision.synth.decks.Deck` is taken as it is: e.g. the demo's shipped faces)."""
    from vision.synth.decks import Deck, load_deck

    return design if isinstance(design, Deck) else load_deck(design)


def render_layout(design, rng: np.random.Generator, rows: int = 4, first_row: int = 0,
                  width: int = 1920, effects: float = 0.6) -> np.ndarray:
    """A BGR photo of ``rows`` rows of the layout starting at row ``first_row``; ``design`` is a design's
    name or a loaded deck."""
    deck = _deck(design)
    codes = LAYOUT_ORDER[first_row * ROW_LENGTH:(first_row + rows) * ROW_LENGTH]
    return _photograph_rows(deck, [[deck.faces[code] for code in codes[k:k + ROW_LENGTH]]
                                   for k in range(0, len(codes), ROW_LENGTH)], rng, width, effects)


def render_jokers(design, rng: np.random.Generator, width: int = 1920, effects: float = 0.6) -> np.ndarray:
    """A BGR photo of the design's jokers in one row, upright, laid and photographed as the layout's rows.

    >>> render_jokers("kde/jolly-royal", np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    ValueError: deck design kde/jolly-royal has no jokers
    """
    deck = _deck(design)
    if not deck.jokers:
        raise ValueError(f"deck design {design} has no jokers")
    return _photograph_rows(deck, [list(deck.jokers)], rng, width, effects)


def _photograph_rows(deck, rows: list[list], rng: np.random.Generator, width: int, effects: float) -> np.ndarray:
    """``rows`` of card faces laid upright from the left at the layout's pitch, on a random table, photographed."""
    from vision.synth.backgrounds import random_table
    from vision.synth.effects import photograph

    face_w, face_h = deck.card_size
    pitch = width / (ROW_LENGTH + 0.6)
    scale = pitch / (face_w * 1.12)
    card_h = face_h * scale
    height = int(round(card_h * 1.15 * len(rows) + card_h * 0.4))
    image = random_table(rng, width, height).astype(np.float32)
    for row, faces in enumerate(rows):
        for column, card in enumerate(faces):
            face = card.image
            cx = pitch * (column + 0.8) + rng.normal(0, 0.03) * pitch
            cy = card_h * (0.7 + 1.15 * row) + rng.normal(0, 0.03) * card_h
            turn = math.radians(rng.normal(0, 3))
            c, s = math.cos(turn) * scale, math.sin(turn) * scale
            matrix = np.array([[c, -s, 0.0], [s, c, 0.0]])
            matrix[:, 2] = np.array([cx, cy]) - matrix[:, :2] @ np.array([face_w / 2, face_h / 2])
            warped = cv2.warpAffine(face, matrix, (width, height), flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
            alpha = warped[:, :, 3:4].astype(np.float32) / 255
            image += alpha * (warped[:, :, :3].astype(np.float32) - image)
    return photograph(rng, image, effects)


def layout_photos(design, rng: np.random.Generator, effects: float = 0.6) -> list[tuple[str, np.ndarray]]:
    """The smallest whole layout as a player photographs it: two photos of two rows each (spades and
    hearts, then diamonds and clubs), named as :func:`vision.learn_deck.learn_deck` takes them."""
    return [(f"rows {first + 1}-{first + 2}", render_layout(design, rng, rows=2, first_row=first, effects=effects))
            for first in (0, 2)]


def learned_deck(design, model_dir=None, seed: int = 9, jokers: bool = False, progress=print, name: str = "replay"):
    """``design`` (a name or a loaded deck; default the first held-out design, the one the replays photograph)
    learned as the players of a simulated game teach it before they play (``rummyref learn-deck``): from two
    rendered layout photos (:func:`layout_photos`) and, with ``jokers``, a photo of the design's jokers
    (:func:`render_jokers`; for games played with them), read with the models in ``model_dir``."""
    from vision.learn_deck import learn_deck
    from vision.recognizer import Recognizer
    from vision.synth.decks import HELDOUT_DESIGNS

    design = design or HELDOUT_DESIGNS[0]
    rng = np.random.default_rng(seed)
    photos = layout_photos(design, rng)
    joker_photos = [("jokers", render_jokers(design, rng))] if jokers else []
    return learn_deck(Recognizer(model_dir, threads=1), photos, name, progress=progress, jokers=joker_photos)


def recorded_deck(design: str | None, model_dir=None, record=None, jokers: bool = False, progress=print):
    """:func:`learned_deck`; with ``record`` (a replay's recordings folder) the deck is kept there as
    ``rummyref learn-deck`` saves it, and a later run loads it rather than learn it again."""
    from vision.decks import DeckProfile

    if record is not None and DeckProfile.path("replay", record).is_file():
        progress(f"deck learned before: {DeckProfile.path('replay', record)}")
        return DeckProfile.load("replay", record)
    deck = learned_deck(design, model_dir, jokers=jokers, progress=progress)
    if record is None:
        return deck
    deck.save(record)
    return DeckProfile.load("replay", record)  # read as every later run reads it


def write_layout_photos(directory, names: tuple[str, str], design: str = "kde/jolly-royal", seed: int = 21) -> list[str]:
    """:func:`layout_photos` written as ``names`` in ``directory``, for tests of deck learning."""
    paths = []
    for name, (_, photo) in zip(names, layout_photos(design, np.random.default_rng(seed), effects=0.3)):
        path = f"{directory}/{name}"
        cv2.imwrite(path, photo)
        paths.append(path)
    return paths
