"""Table scenes of a player's own deck, for deck learning (:mod:`vision.learn_deck`).

The guided layout shows every card once, apart and upright; the table shows them turned,
fanned, half covered, under other light. So the cards are cut out of the layout photos
(:func:`layout_deck`) and laid out again in rendered table scenes (:mod:`vision.synth`:
fans, piles, perspective, hands, glare, blur, JPEG), where the shipped detector looks for
indices as it will at the table (:func:`scene_patches`): what it finds on pips, artwork,
covered or upside-down indices of this deck is "not an index"; the readable indices there may
be learned too, as the deck's cards as the table camera shows them. numpy and OpenCV only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.cards import parse_card
from vision.patches import PATCH_SIZE, index_patch
from vision.recognizer import INDEX_OFFSET_X, INDEX_OFFSET_Y, IndexCandidate, Recognizer
from vision.synth.decks import Deck
from vision.synth.faces import BACK_CODE, CardFace, IndexBox, blank_face
from vision.synth.scenes import SceneParams, render_scene
from vision.labels import NONE_CLASS, class_of
from vision.train.data import IGNORE_VISIBLE, MIN_VISIBLE, IndexLabel, scene_labels

INDEX_WIDTH = 0.6
"""Width of an index box in index heights (rank above suit), for the rendered scenes' visibility."""

MATCH_REACH = 0.5
"""A detector candidate within this many index heights of an annotated index reads it (or, turned, misreads it)."""

ELSEWHERE_REACH = 1.0
"""A candidate further than this many index heights from every annotated index is "not an index"."""

SCENE_CARDS = (16, 32)
"""Cards on each rendered table: many, so that each scene offers many pips and faces to the detector."""


@dataclass(frozen=True)
class LaidCard:
    """One card of the layout photo: its two corner indices (upright top left, turned bottom right)."""

    card: str
    top: IndexCandidate
    bottom: IndexCandidate


def _angle(vector: np.ndarray) -> float:
    return math.atan2(float(vector[1]), float(vector[0]))


def _wrap(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi


def layout_deck(photos: list[tuple[np.ndarray, list[LaidCard]]], name: str = "learned") -> Deck:
    """The faces of the laid-out cards cut from the layout photos, as a :class:`vision.synth.decks.Deck`.

    Every card of a deck has the same geometry: the offset from its top-left to its bottom-right
    index. Per photo, that offset is the median over its cards, in each card's own frame, so a card
    laid a little turned counts alike; each card's turn is the direction between its two indices
    against that median. Each face is cut upright, at the first photo's resolution.
    """
    shapes = [_diagonal(cards) for _, cards in photos if cards]
    if not shapes:
        raise ValueError("layout_deck needs at least one card with both corner indices")
    _, across, down, size = shapes[0]
    # Where the indices sit on the card: the recognizer's typical French-suited deck. A deck whose indices sit
    # further in loses a little of its border here, which the rendered scenes do not miss.
    margin_x = INDEX_OFFSET_X * across / (1 - 2 * INDEX_OFFSET_X)
    margin_y = INDEX_OFFSET_Y * down / (1 - 2 * INDEX_OFFSET_Y)
    face_w, face_h = int(round(across + 2 * margin_x)), int(round(down + 2 * margin_y))
    half = (INDEX_WIDTH * size / 2, size / 2)
    boxes = tuple(IndexBox((int(round(x - half[0])), int(round(y - half[1])), int(round(x + half[0])),
                            int(round(y + half[1]))), rotation)
                  for x, y, rotation in ((margin_x, margin_y, 0), (margin_x + across, margin_y + down, 180)))
    faces = {}
    for (frame, cards), (diagonal, photo_across, _, _) in zip([p for p in photos if p[1]], shapes):
        for card in cards:
            turn = _angle(np.array([card.bottom.x - card.top.x, card.bottom.y - card.top.y])) - diagonal
            to_face = _card_frame(card.top, turn, across / photo_across, (margin_x, margin_y))
            pixels = cv2.warpAffine(frame, to_face, (face_w, face_h), flags=cv2.INTER_AREA,
                                    borderMode=cv2.BORDER_REPLICATE)
            faces[card.card] = CardFace(card.card, np.dstack([pixels, np.full((face_h, face_w), 255, np.uint8)]), boxes)
    # Backs are not learned; a plain one lets the scenes lay a stock pile.
    faces[BACK_CODE] = CardFace(BACK_CODE, blank_face(face_h, face_w, (150, 70, 40)), ())
    return Deck(name, faces)


def _diagonal(cards: list[LaidCard]) -> tuple[float, float, float, float]:
    """The direction of the top-left to bottom-right index offset in a card's own frame, the offset's two
    components in pixels and the index height, each the median over ``cards``.

    The cards' own frame is the rows': a row's top-left indices line up along the cards' top edges
    (the detector's angles are too rough for it, by 10 degrees and more).
    """
    vectors = [np.array([c.bottom.x - c.top.x, c.bottom.y - c.top.y]) for c in cards]
    at = {parse_card(c.card): c.top for c in cards}
    along = [_angle(np.array([at[b].x - at[a].x, at[b].y - at[a].y]))
             for a in at for b in at if a.suit == b.suit and b.rank == a.rank + 1]
    row = float(np.median(along)) if along else float(np.median([c.top.angle for c in cards]))
    diagonal = float(np.median([_wrap(_angle(v) - row) for v in vectors]))
    length = float(np.median([np.linalg.norm(v) for v in vectors]))
    size = float(np.median([c.top.size for c in cards]))
    return diagonal, length * math.cos(diagonal), length * math.sin(diagonal), size


def _card_frame(top: IndexCandidate, turn: float, scale: float, margin: tuple[float, float]) -> np.ndarray:
    """The 2x3 map from the photo to a card's upright face, scaled by ``scale``, its top-left index at ``margin``."""
    c, s = math.cos(turn) * scale, math.sin(turn) * scale
    return np.array([[c, s, margin[0] - (c * top.x + s * top.y)], [-s, c, margin[1] - (-s * top.x + c * top.y)]])


SCENE_JITTER = (0.08, 0.1, 0.1)
"""How the indices of the rendered tables are cut for learning: shifted by this share of the index height,
turned by this many radians and scaled by this log factor (standard deviations), as the detector misplaces them."""


def scene_patches(recognizer: Recognizer, deck: Deck, rng: np.random.Generator, scenes: int,
                  indices: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Patches and their classes from ``scenes`` rendered tables of ``deck``: "not an index" where
    ``recognizer``'s detector proposes one on pips, artwork, covered or upside-down indices, cut where it
    proposes it; with ``indices`` also each index at least :data:`vision.train.data.MIN_VISIBLE` visible as
    that card, cut at its annotated place, jittered by :data:`SCENE_JITTER` (drawn from a generator of its
    own, seeded from ``rng``: without ``indices`` the tables are those of deck learning before them).

    The indices teach the refitted blocks (:mod:`vision.deck_head`) the deck's cards as the table camera
    shows them, fanned, blurred and tinted, where the layout shows them once, apart and clean. On rendered
    ``gnome/plastic`` tables (seed 9, where it was tried) they raised index accuracy from 0.880 to 0.913
    (0.933 to 0.961 of the legible indices, :mod:`vision.train.legibility`); on fresh seed 14 from 0.862 to
    0.906, on seed 12 not at all, and they cost precision over whole scenes everywhere (seed 14: 0.971 to
    0.930), so deck learning leaves them off (``benchmarks/eval_learn_deck.py --scene-indices-too``).
    """
    jitter = np.random.default_rng(int(rng.integers(2 ** 32))) if indices else None
    patches, classes = [], []
    for _ in range(scenes):
        params = SceneParams(designs=(deck.design,), cards=SCENE_CARDS, face_down=0.05, jokers=0.0,
                             overlap=float(rng.uniform(0.3, 0.9)))
        if rng.random() < 0.3:
            params = params.portrait()
        scene = render_scene(rng, params, decks=[deck])
        labels = scene_labels(scene)[0]
        candidates, _ = recognizer.detect(scene.image)
        for c in candidates:
            if not_an_index(c, labels):
                patches.append(index_patch(scene.image, (c.x, c.y), c.angle, c.size))
                classes.append(NONE_CLASS)
        shift, turn, scale = SCENE_JITTER
        for label in labels if indices else ():
            if label.visible >= MIN_VISIBLE:
                dx, dy = jitter.normal(0, shift, 2) * label.size
                patches.append(index_patch(scene.image, (label.x + dx, label.y + dy), label.angle + jitter.normal(0, turn),
                                           label.size * math.exp(jitter.normal(0, scale))))
                classes.append(class_of(label.card))
    if not patches:
        return np.zeros((0, PATCH_SIZE, PATCH_SIZE, 3), np.uint8), np.zeros(0, int)
    return np.stack(patches), np.asarray(classes)


def not_an_index(candidate: IndexCandidate, labels: list[IndexLabel]) -> bool:
    """Must a detector candidate be read as "not an index"? Far from every index, upside down on one, or
    on one that is mostly covered (less than ``IGNORE_VISIBLE`` of it shows).

    >>> index = IndexLabel("AS", 100.0, 100.0, 0.0, 20.0, 1.0)
    >>> [not_an_index(IndexCandidate(x, 100.0, angle, 20.0, 1.0), [index]) for x, angle in ((102, 0.0), (102, 3.1), (200, 0.0))]
    [False, True, True]
    """
    near = min(labels, key=lambda label: math.hypot(candidate.x - label.x, candidate.y - label.y) / label.size,
               default=None)
    if near is None or math.hypot(candidate.x - near.x, candidate.y - near.y) > ELSEWHERE_REACH * near.size:
        return True
    if math.hypot(candidate.x - near.x, candidate.y - near.y) > MATCH_REACH * near.size:
        return False     # beside an index: a cut that shows part of it, neither answer is wrong
    return abs(_wrap(candidate.angle - near.angle)) > math.radians(90) or near.visible < IGNORE_VISIBLE
