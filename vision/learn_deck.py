"""Adapting the recognizer to a player's own deck from photos of a guided layout.

The layout (say it to the player exactly like this): lay the 52 cards face up
and upright (the corner index at each card's top left), in four rows of 13,
not overlapping: spades in the top row, then hearts, diamonds, clubs; in each
row A 2 3 4 5 6 7 8 9 10 J Q K from left to right. Photograph the rows from
above. One photo may hold all four rows, or several photos may each hold one
or more whole rows in that order (photo 1 spades and hearts, photo 2 diamonds
and clubs).
For games with jokers, the deck's jokers may be photographed too, upright and
apart in one row, from the same height (:func:`read_jokers`): a design whose
jokers show a sign or a word where the other cards hold their index then reads
them as the joker.

The detector finds the corner indices; the upright ones are the cards' top
left indices, which give the grid; each card's turned-over bottom-right index
is taken too (at the offset the photo's cards share, not a turned pip of the
card's lower half). Patches of both, jittered like the detector's errors, are
fed through the classifier. The cards are then cut out of the photos and laid
on rendered tables (:mod:`vision.deck_scenes`), where what the detector
proposes on pips, artwork and covered indices gives "not an index" patches of
this deck (and, with ``scene_indices``, the readable indices patches of its cards as the table camera
shows them: :func:`vision.deck_scenes.scene_patches`). The layout patches are varied as the table's camera varies them (shift, turn, scale,
light, blur, JPEG). Then the classifier's last two convolution blocks and its last layer are
refitted on all of them in numpy (:mod:`vision.deck_head`; the ONNX model returns the blocks' input
map and weights, :mod:`vision.train.expose`), with a pull towards the shipped weights so the joker
keeps working. The learned deck holds those blocks (about 0.6 MB); the recognizer then runs them in
numpy on the ``features`` the ONNX model returns.

What it cannot do: the blocks read the map of the frozen rest of the network, and the layout shows
each index once, apart and clean, where the table shows it fanned beside other indices. On rendered
tables of ``gnome/plastic``, even blocks refitted to 2172 index patches of such tables (the test's
own kind, other scenes) read only 0.94 of the indices right (the last layer alone: 0.86).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from engine.cards import JOKER_CODE, SUITS, Card
from vision.deck_scenes import LaidCard, layout_deck, scene_patches
from vision.deck_head import FEATURES, Adam, ConvHead, fit_conv_head, shipped_blocks, softmax
from vision.decks import DeckProfile
from vision.labels import NONE_CLASS, class_of
from vision.patches import index_patch, index_patches
from vision.recognizer import IndexCandidate, Recognizer, _patch_tensor, diagonal_partner, strongest_apart

ROW_LENGTH = 13
LAYOUT_ORDER: tuple[str, ...] = tuple(str(Card(rank, suit)) for suit in SUITS for rank in range(1, 14))
"""Card codes in the order the guided layout lays them out, row after row."""


FACE_NEGATIVES = 6
""""Not an index" patches cut from the middle of each laid-out card."""


class LayoutError(ValueError):
    """A photo does not show the guided layout."""


@dataclass(frozen=True)
class LabelledIndex:
    card: str
    candidate: IndexCandidate


ROW_BREAK = 2.0
"""Top-left indices of two rows lie a card's height apart (about 4-5 index heights); within a row
they differ by the tilt of the photo. A vertical gap of more than this many index heights starts a new row."""

STRAY_MAX = 3
"""A cluster of at most this many upright readings between the rows is pips or artwork, not a row."""


def layout_rows(upright: list[IndexCandidate], score: Callable[[IndexCandidate], float],
                doubted: list[IndexCandidate] = ()) -> list[list[IndexCandidate]]:
    """The rows of the layout: clusters of upright indices split at large vertical gaps.

    Small clusters (pips or artwork between the rows) are left out; a row keeps its
    :data:`ROW_LENGTH` most index-like readings. A row with fewer readings is returned short,
    so that the caller refuses the photo rather than shifting labels to the wrong cards, unless
    ``doubted`` (upright candidates the classifier doubts) holds one where the row's pitch puts
    the missing card (:func:`_fill_gaps`).

    >>> row = lambda y, n: [IndexCandidate(x * 30.0, y, 0.0, 10.0, 1.0) for x in range(n)]
    >>> [len(r) for r in layout_rows(row(0, 13) + row(60, 2) + row(110, 14), lambda c: c.heat)]
    [13, 13]
    >>> [len(r) for r in layout_rows(row(0, 13) + row(110, 12), lambda c: c.heat)]
    [13, 12]
    """
    if not upright:
        return []
    ordered = sorted(upright, key=lambda c: c.y)
    height = float(np.median([c.size for c in ordered]))
    clusters: list[list[IndexCandidate]] = [[ordered[0]]]
    for before, candidate in zip(ordered, ordered[1:]):
        if candidate.y - before.y > ROW_BREAK * height:
            clusters.append([])
        clusters[-1].append(candidate)
    return [_fill_gaps(_evenly_spaced(sorted(cluster, key=lambda c: -score(c))[:ROW_LENGTH + 2], score), doubted)
            for cluster in clusters if len(cluster) > STRAY_MAX]


GAP_REACH = 0.25
"""A doubted candidate fills a row's gap only within this share of the pitch of where the card must lie."""


def _fill_gaps(row: list[IndexCandidate], doubted: list[IndexCandidate]) -> list[IndexCandidate]:
    """``row`` (readings at one pitch, maybe with gaps of a card) with each missing card's index taken
    from ``doubted`` where one lies where the pitch puts it, midway across a gap of two pitches. An
    index the untaught classifier calls "not an index" (an unfamiliar deck: what deck learning is
    for) is so still labelled by its place. The row is then cut short at its first gap left, so that
    no card gets its neighbour's label. A card missing at a row's end is not looked for: a stray
    beyond the other end would shift every label of the row.

    >>> at = lambda *xs: [IndexCandidate(float(x), 0.0, 0.0, 10.0, 1.0) for x in xs]
    >>> [c.x for c in _fill_gaps(at(0, 30, 90, 120), at(61, 200))]
    [0.0, 30.0, 61.0, 90.0, 120.0]
    >>> [c.x for c in _fill_gaps(at(0, 30, 90, 120), at(45))]     # not where a card lies: cut there
    [0.0, 30.0]
    >>> [c.x for c in _fill_gaps(at(0, 60, 90, 120), [])]
    [0.0]
    """
    if len(row) < 2:
        return row
    pitch = float(np.median(np.diff([c.x for c in row])))
    size = float(np.median([c.size for c in row]))
    row_y = float(np.median([c.y for c in row]))

    def at(x: float) -> IndexCandidate | None:
        near = [c for c in doubted if abs(c.x - x) < GAP_REACH * pitch and abs(c.y - row_y) < size
                and 0.75 < c.size / size < 1.33]
        return min(near, key=lambda c: abs(c.x - x), default=None)

    filled = [row[0]]
    for before, after in zip(row, row[1:]):
        if 1.6 * pitch < after.x - before.x < 2.4 * pitch and (between := at((before.x + after.x) / 2)):
            filled.append(between)
        filled.append(after)
    for k in range(1, len(filled)):
        if filled[k].x - filled[k - 1].x > 1.6 * pitch:
            return filled[:k]
    return filled


def _evenly_spaced(row: list[IndexCandidate], score: Callable[[IndexCandidate], float]) -> list[IndexCandidate]:
    """A row's cards lie at one pitch: of two readings much closer than that (the "1" and the "0" of a 10
    read apart) the more index-like is kept, and the :data:`ROW_LENGTH` most index-like remain, in
    order (where a card is missing between them, :func:`_fill_gaps` fills the gap or cuts the row).

    >>> at = lambda *xs: [IndexCandidate(x, 0.0, 0.0, 10.0, 1.0) for x in xs]
    >>> [c.x for c in _evenly_spaced(at(0, 30, 34, 60, 90), lambda c: c.heat)]
    [0, 30, 60, 90]
    """
    ordered = sorted(row, key=lambda c: c.x)
    pitch = float(np.median(np.diff([c.x for c in ordered]))) if len(ordered) > 1 else 0.0
    kept: list[IndexCandidate] = []
    for candidate in ordered:
        if kept and candidate.x - kept[-1].x < 0.5 * pitch:
            if score(candidate) > score(kept[-1]):
                kept[-1] = candidate
            continue
        kept.append(candidate)
    return sorted(sorted(kept, key=lambda c: -score(c))[:ROW_LENGTH], key=lambda c: c.x)


def read_layout(recognizer: Recognizer, frame: np.ndarray, first_card: int, photo: str) -> list[LabelledIndex]:
    """Label the corner indices of one photo of whole rows, starting at ``LAYOUT_ORDER[first_card]``."""
    candidates, _ = recognizer.detect(frame)
    score: dict[int, float] = {}
    if candidates:
        probs, _ = recognizer.classify_patches(index_patches(frame, candidates))
        score = {id(c): c.heat * (1.0 - float(p[NONE_CLASS])) for c, p in zip(candidates, probs)}
        # The detector's pyramid levels may each find an index: keep its most index-like candidate.
        candidates = strongest_apart(candidates, lambda c: c, lambda c: score[id(c)])
    upright = sorted((c for c in candidates if abs(c.angle) < math.radians(40)), key=lambda c: c.y)
    turned = [c for c in candidates if abs(c.angle) > math.radians(140) and score[id(c)] > 0.1]
    # Upright candidates the classifier doubts only fill a row's gap where its pitch puts a card.
    doubted = [c for c in upright if score[id(c)] <= 0.1]
    upright = [c for c in upright if score[id(c)] > 0.1]
    grid = layout_rows(upright, lambda c: score[id(c)], doubted)
    rows = len(grid)
    if not grid or any(len(row) != ROW_LENGTH for row in grid):
        raise LayoutError(
            f"{photo}: found {len(upright)} upright corner indices in {max(rows, 1)} row(s), expected whole rows of "
            f"{ROW_LENGTH}; lay the cards upright and apart, in full rows, and photograph them from above")
    if first_card + rows * ROW_LENGTH > len(LAYOUT_ORDER):
        raise LayoutError(f"{photo}: more rows than the 4 of the layout (spades, hearts, diamonds, clubs)")
    labelled = []
    for row, members in enumerate(grid):
        for column, candidate in enumerate(sorted(members, key=lambda c: c.x)):
            card = LAYOUT_ORDER[first_card + row * ROW_LENGTH + column]
            labelled.append(LabelledIndex(card, candidate))
    return labelled + bottom_indices(labelled, turned)


PARTNER_TOLERANCE = 0.2
"""A card's bottom-right index lies at the photo's typical offset from its top-left one, give or take this share
of that offset (cards laid a little turned or apart); turned pips of the card's lower half lie further off."""


def bottom_indices(tops: list[LabelledIndex], turned: list[IndexCandidate]) -> list[LabelledIndex]:
    """Each card's bottom-right index: the turned candidate at the offset that the cards of the photo share.

    The offset is the median over the cards of the nearest diagonal partner's
    (:func:`vision.recognizer.diagonal_partner`); a card whose nearest partner is a turned pip (the
    lower half of a 10 is full of them) thus still gets its index, or none.

    >>> tops = [LabelledIndex(c, IndexCandidate(200.0 * k, 0.0, 0.0, 20.0, 1.0)) for k, c in enumerate(["AS", "2S", "3S"])]
    >>> turned = [IndexCandidate(200.0 * k + 100, 140.0, math.pi, 20.0, 1.0) for k in range(3)]
    >>> turned.append(IndexCandidate(200.0 + 50, 60.0, math.pi, 20.0, 1.0))    # a pip of the 2
    >>> [(b.card, b.candidate.x) for b in bottom_indices(tops, turned)]
    [('AS', 100.0), ('2S', 300.0), ('3S', 500.0)]
    """
    def nearest(top: IndexCandidate, near: tuple[float, float], among: list[IndexCandidate]) -> IndexCandidate | None:
        return min(among, key=lambda t: math.hypot(t.x - near[0], t.y - near[1]), default=None)

    first = [nearest(t.candidate, (t.candidate.x, t.candidate.y),
                     [c for c in turned if diagonal_partner(t.candidate, c)]) for t in tops]
    offsets = [(b.x - t.candidate.x, b.y - t.candidate.y) for t, b in zip(tops, first) if b is not None]
    if not offsets:
        return []
    dx, dy = np.median(offsets, axis=0)
    reach = PARTNER_TOLERANCE * math.hypot(dx, dy)
    left, found = list(turned), []
    for top in tops:
        expected = (top.candidate.x + dx, top.candidate.y + dy)
        best = nearest(top.candidate, expected, left)
        if best is not None and math.hypot(best.x - expected[0], best.y - expected[1]) < reach:
            found.append(LabelledIndex(top.card, best))
            left.remove(best)
    return found


def read_jokers(recognizer: Recognizer, frame: np.ndarray, offset: tuple[float, float], photo: str) -> list[LabelledIndex]:
    """Label the jokers of a photo of the deck's jokers laid upright and apart, as the layout's rows are.

    A joker's corners hold a star, a word or a suit sign where the other cards hold their index, and
    the shipped classifier may call them "not an index". So they are told by place, not by reading:
    an upright candidate of the detector with a turned one at ``offset`` (the layout's top-left to
    bottom-right index offset, :func:`bottom_indices`; the photo taken from the layout photos' height)
    are a joker's two corners, the stronger pairs first.
    """
    candidates, _ = recognizer.detect(frame)
    candidates = strongest_apart(candidates, lambda c: c, lambda c: c.heat)
    upright = sorted((c for c in candidates if abs(c.angle) < math.radians(40)), key=lambda c: -c.heat)
    turned = [c for c in candidates if abs(c.angle) > math.radians(140)]
    reach = PARTNER_TOLERANCE * math.hypot(*offset)
    labelled: list[LabelledIndex] = []
    for top in upright:
        expected = (top.x + offset[0], top.y + offset[1])
        bottom = min(turned, key=lambda t: math.hypot(t.x - expected[0], t.y - expected[1]), default=None)
        if bottom is not None and math.hypot(bottom.x - expected[0], bottom.y - expected[1]) < reach \
                and not any(math.hypot(top.x - j.candidate.x, top.y - j.candidate.y) < reach for j in labelled):
            turned.remove(bottom)
            labelled += [LabelledIndex(JOKER_CODE, top), LabelledIndex(JOKER_CODE, bottom)]
    if not labelled:
        raise LayoutError(f"{photo}: found no joker's two corners; lay the jokers upright and apart in one row, "
                          "and photograph them from the height of the layout photos")
    return labelled


def _offset(laid: list[LaidCard]) -> tuple[float, float]:
    """The median offset from a card's top-left to its bottom-right index over the layout's cards."""
    dx, dy = np.median([(c.bottom.x - c.top.x, c.bottom.y - c.top.y) for c in laid], axis=0)
    return float(dx), float(dy)


def _patches(frame: np.ndarray, labelled: list[LabelledIndex], rng: np.random.Generator, variants: int,
             negatives: int, turned_negatives: bool = True, whole_faces: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Patches of the labelled indices (``variants`` jittered ones each) and "not an index" ones: each index
    turned upside down (not with ``turned_negatives=False``: a joker's corner sign may look the same turned),
    the middle of each card, with ``whole_faces`` places all over each card's face cut upright as an index is
    (a deck whose jokers carry a lone sign in their corners: the signs of a court card's face must stay
    "not an index" when the joker is learned), and ``negatives`` places elsewhere in the photo."""
    patches, classes = [], []
    for item in labelled:
        c = item.candidate
        for v in range(variants):
            strength = 0.0 if v == 0 else 1.0
            shift = rng.normal(0, 0.08 * strength, 2) * c.size
            angle = c.angle + rng.normal(0, math.radians(10) * strength)
            size = c.size * math.exp(rng.normal(0, 0.12 * strength))
            patches.append(index_patch(frame, (c.x + shift[0], c.y + shift[1]), angle, size))
            classes.append(class_of(item.card))
        if turned_negatives:
            patches.append(index_patch(frame, (c.x, c.y), c.angle + math.pi, c.size))
            classes.append(NONE_CLASS)
    # The middle of each card (between its two indices): pips and court artwork, which the
    # refitted layer must keep calling "not an index", turned like the card's indices.
    corners: dict[str, list[IndexCandidate]] = {}
    for item in labelled:
        corners.setdefault(item.card, []).append(item.candidate)
    for top, *rest in corners.values():
        for bottom in rest[:1]:
            for _ in range(FACE_NEGATIVES):
                t = rng.uniform(0.25, 0.75)
                x, y = top.x + t * (bottom.x - top.x), top.y + t * (bottom.y - top.y)
                size = top.size * math.exp(rng.normal(0.2, 0.4))
                turn = math.pi if rng.random() < 0.5 else 0.0
                patches.append(index_patch(frame, (x, y), top.angle + turn + rng.normal(0, 0.15), size))
                classes.append(NONE_CLASS)
            if whole_faces:
                for x, y, angle, size in face_places(top, bottom, rng):
                    patches.append(index_patch(frame, (x, y), angle, size))
                    classes.append(NONE_CLASS)
    sizes = [item.candidate.size for item in labelled]
    h, w = frame.shape[:2]
    for _ in range(negatives):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        size = float(rng.choice(sizes)) * math.exp(rng.normal(0, 0.3))
        if any(math.hypot(x - i.candidate.x, y - i.candidate.y) < 0.7 * i.candidate.size for i in labelled):
            continue
        patches.append(index_patch(frame, (x, y), rng.uniform(-math.pi, math.pi), size))
        classes.append(NONE_CLASS)
    return np.stack(patches), np.asarray(classes)


def face_places(one: IndexCandidate, other: IndexCandidate, rng: np.random.Generator,
                count: int = FACE_NEGATIVES) -> list[tuple[float, float, float, float]]:
    """Up to ``count`` places (x, y, angle, size) to cut "not an index" patches upright, as an index is
    cut, all over a laid card's face: the rectangle its two indices span in the card's own axes, at
    least an index height from both.

    >>> top, bottom = IndexCandidate(10, 10, 0.0, 8, 1.0), IndexCandidate(60, 90, math.pi, 8, 1.0)
    >>> places = face_places(bottom, top, np.random.default_rng(0), 200)
    >>> all(10 <= x <= 60 and 10 <= y <= 90 and abs(angle) < 0.5 for x, y, angle, _ in places)
    True
    >>> min(min(math.dist((x, y), (10, 10)), math.dist((x, y), (60, 90))) for x, y, _, _ in places) >= 8
    True
    """
    top, bottom = sorted((one, other), key=lambda index: abs(index.angle))     # the upright index first
    c, s = math.cos(top.angle), math.sin(top.angle)
    dx, dy = bottom.x - top.x, bottom.y - top.y
    across, down = c * dx + s * dy, -s * dx + c * dy        # the diagonal in the card's own axes
    places: list[tuple[float, float, float, float]] = []
    for _ in range(20 * count):     # a face too small to hold a place gives fewer, not a hang
        if len(places) == count:
            break
        a, b = rng.uniform(0, 1, 2)
        x, y = top.x + c * a * across - s * b * down, top.y + s * a * across + c * b * down
        if min(math.hypot(x - i.x, y - i.y) for i in (top, bottom)) >= top.size:
            places.append((x, y, top.angle + rng.normal(0, 0.1), top.size * math.exp(rng.normal(0.1, 0.3))))
    return places


def _colour_variants(patches: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Exposure and white-balance changes, as the table's light will bring."""
    gain = np.exp(rng.normal(0, 0.2, (len(patches), 1, 1, 1)))
    balance = np.exp(rng.normal(0, 0.06, (len(patches), 1, 1, 3)))
    return np.clip((patches.astype(np.float32) - 128) * gain * balance + 128, 0, 255).astype(np.uint8)


def _camera_variants(patches: np.ndarray, rng: np.random.Generator, share: float = 0.4) -> np.ndarray:
    """Light (:func:`_colour_variants`), then blur and JPEG each on about ``share`` of the patches: the
    table camera is further off, less sharp and compresses, where the layout photo was close and clean."""
    out = _colour_variants(patches, rng)
    for k in np.nonzero(rng.random(len(out)) < share)[0]:
        out[k] = cv2.GaussianBlur(out[k], (0, 0), float(rng.uniform(0.5, 1.3)))
    for k in np.nonzero(rng.random(len(out)) < share)[0]:
        _, encoded = cv2.imencode(".jpg", out[k], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
        out[k] = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out


def shipped_head(embeddings: np.ndarray, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's own last layer, recovered exactly from its outputs.

    The ONNX model's logits are an affine function of its embedding, so a
    least-squares fit over more samples than dimensions returns that layer;
    this keeps the model a single file with nothing to keep in sync.
    """
    design = np.hstack([embeddings, np.ones((len(embeddings), 1), np.float32)]).astype(np.float64)
    solution, *_ = np.linalg.lstsq(design, logits.astype(np.float64), rcond=None)
    return solution[:-1].T.astype(np.float32), solution[-1].astype(np.float32)


def fit_head(embeddings: np.ndarray, classes: np.ndarray, weight0: np.ndarray, bias0: np.ndarray,
             steps: int = 300, pull: float = 1e-3, lr: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression from the shipped layer, with an L2 pull back towards it (Adam, all samples each step)."""
    weight, bias = weight0.astype(np.float64).copy(), bias0.astype(np.float64).copy()
    onehot = np.eye(len(weight0))[classes]
    optimiser = Adam([weight, bias], lr)
    x = embeddings.astype(np.float64)
    for _ in range(steps):
        delta = (softmax(x @ weight.T + bias) - onehot) / len(x)
        optimiser.step([delta.T @ x + pull * (weight - weight0), delta.sum(axis=0) + pull * (bias - bias0)])
    return weight.astype(np.float32), bias.astype(np.float32)


TABLE_SCENES = 16
"""Rendered table scenes of the player's deck that deck learning reads (:mod:`vision.deck_scenes`); more
raise precision a little more (on rendered ``gnome/plastic`` tables, seed 9, index readings without
the face-down cards: none 0.76, 16 scenes 0.83, 40 scenes 0.84) at about 3 s each."""


FIT_STEPS = 200
"""Adam steps of 128 patches that refit the classifier's last blocks (:func:`vision.deck_head.fit_conv_head`).
On rendered ``gnome/plastic`` tables (seed 9, index accuracy): 400 steps of 256 read 0.912 in about four
times the time, 100 steps of 128 0.899; refitting the last block only (200 steps) 0.880."""


def learn_deck(recognizer: Recognizer, photos: list[tuple[str, np.ndarray]], name: str, seed: int = 0,
               variants: int = 12, scenes: int = TABLE_SCENES, steps: int = FIT_STEPS, refit_blocks: bool = True,
               progress: Callable[[str], None] = lambda line: None,
               jokers: list[tuple[str, np.ndarray]] = (), scene_indices: bool = False) -> DeckProfile:
    """Read the guided layout from ``photos`` (name, BGR frame) and fit a :class:`DeckProfile`: the classifier's
    last convolution blocks and layer, or with ``refit_blocks=False`` its last layer only (as before session 6;
    for comparison). ``jokers`` are photos of the deck's jokers (:func:`read_jokers`): their corners are
    learned as the joker, which a design with its own joker faces needs (Wiener Rummy plays with them).
    ``scene_indices`` also learns the readable indices of the rendered tables (see
    :func:`vision.deck_scenes.scene_patches`: more indices read right, less precision; off)."""
    # Before the slow part: a model that does not expose its blocks is an error.
    blocks = shipped_blocks(recognizer.classifier) if refit_blocks else ()
    rng = np.random.default_rng(seed)
    base = recognizer.with_deck(None)     # read the layout with the shipped classifier
    all_patches, all_classes, laid, first = [], [], [], 0
    for photo, frame in photos:
        labelled = read_layout(base, frame, first, photo)
        first += sum(1 for item in labelled if abs(item.candidate.angle) < math.radians(40))
        progress(f"{photo}: {len(labelled)} corner indices of "
                 f"{len({item.card for item in labelled})} cards")
        patches, classes = _patches(frame, labelled, rng, variants, negatives=40 * len(labelled) // 13,
                                    whole_faces=bool(jokers))
        all_patches.append(_camera_variants(patches, rng))
        all_classes.append(classes)
        corners: dict[str, list[IndexCandidate]] = {}
        for item in labelled:
            corners.setdefault(item.card, []).append(item.candidate)
        laid.append((frame, [LaidCard(card, *pair) for card, pair in corners.items() if len(pair) == 2]))
    if first != len(LAYOUT_ORDER):
        raise LayoutError(f"the photos show {first} cards of the layout; all {len(LAYOUT_ORDER)} are needed "
                          "(four rows: spades, hearts, diamonds, clubs)")
    offset = _offset([card for _, cards in laid for card in cards])
    for photo, frame in jokers:
        labelled = read_jokers(base, frame, offset, photo)
        progress(f"{photo}: the two corners of {len(labelled) // 2} jokers")
        patches, classes = _patches(frame, labelled, rng, variants, negatives=40 * len(labelled) // 13,
                                    turned_negatives=False)
        all_patches.append(_camera_variants(patches, rng))
        all_classes.append(classes)
    if scenes:
        progress(f"looking for indices in {scenes} rendered table scenes of the deck")
        patches, classes = scene_patches(base, layout_deck(laid, name), rng, scenes, scene_indices)
        all_patches.append(patches)
        all_classes.append(classes)
    patches, classes = np.concatenate(all_patches), np.concatenate(all_classes)
    logits, embeddings, *features = classifier_outputs(recognizer.classifier, patches,
                                                       ["logits", "embedding"] + ([FEATURES] if blocks else []))
    weight, bias = shipped_head(embeddings, logits)
    if not blocks:
        progress(f"fitting the last layer on {len(classes)} patches")
        return DeckProfile(name, *fit_head(embeddings, classes, weight, bias), classifier=recognizer.classifier_digest)
    progress(f"refitting the classifier's last {len(blocks)} convolution blocks and layer on {len(classes)} patches")
    head = fit_conv_head(ConvHead(blocks, weight, bias), features[0], classes, steps=steps, seed=seed)
    return DeckProfile(name, head.weight, head.bias, head.blocks, recognizer.classifier_digest)


def classifier_outputs(session, patches: np.ndarray, names: list[str], batch: int = 512) -> list[np.ndarray]:
    """The named outputs of a classifier session for (N, S, S, 3) uint8 ``patches``, run in batches."""
    runs = [session.run(names, {"patch": _patch_tensor(patches[i:i + batch])})
            for i in range(0, len(patches), batch)]
    return [np.concatenate([run[k] for run in runs]) for k in range(len(names))]
